#pragma once
// Runs ONNX backend test folders (model.onnx + test_data_set_*/input_N.pb, output_N.pb) through the
// executor and compares the outputs with the expected ones.
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/exec/tensor_compare.h"

namespace ql {

enum class ConformanceStatus { Passed, Failed, Skipped };
const char* conformanceStatusName(ConformanceStatus status);  // "pass", "fail", "skip"

struct ConformanceResult {
    std::string name;  // the folder name, e.g. "test_relu"
    ConformanceStatus status = ConformanceStatus::Passed;
    std::string reason;  // empty when passed
};

struct ConformanceOptions {
    int threads = 1;
    Tolerance tolerance;
};

// The test folders in `dir`: `dir` itself when it holds a model.onnx, otherwise its subfolders that do,
// sorted by name.
Result<std::vector<std::string>> findConformanceTests(const std::string& dir);

// Never fails as a call: every problem becomes a failed (or, for unsupported ops / value kinds, skipped) result.
ConformanceResult runConformanceTest(const std::string& testDir, const ConformanceOptions& options = {});

}  // namespace ql
