#pragma once
// Helpers for the lint tests: Q/DQ pairs the way quantization tools write them, and running the linter.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/lint/linter.h"
#include "tests/support/model_builder.h"

namespace ql::test {

struct QdqSpec {
    std::vector<float> scales = {0.05f};  // one: per tensor (scalar); several: per channel
    std::optional<int64_t> axis;          // written only when set
    bool withZeroPoint = true;
    DataType zeroPointType = DataType::Int8;
    std::vector<double> zeroPoints;  // empty: zeros
};

QdqSpec perTensor(float scale);
QdqSpec perChannel(size_t count, float scale, std::optional<int64_t> axis);

// QuantizeLinear -> DequantizeLinear on `tensor`; returns the dequantized tensor's name ("<tensor>_dq").
// Nodes are named "<tensor>_q" and "<tensor>_dqnode".
std::string addQdq(ModelBuilder& b, const std::string& tensor, const QdqSpec& spec = {});

// Lints with the default precision plan.
LintReport lintModel(const Model& model, TrtVersion version = TrtVersion::Trt10);
// The findings of one rule.
std::vector<Finding> findingsOf(const Model& model, std::string_view rule, TrtVersion version = TrtVersion::Trt10);
std::vector<Finding> findingsOf(const LintReport& report, std::string_view rule);

}  // namespace ql::test
