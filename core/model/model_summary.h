#pragma once
// What `quantlens-cli inspect` reports about a model, as plain data and as JSON.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/model.h"

namespace ql {

struct TensorSummary {
    std::string name;
    std::string dtype;
    std::string shape;  // "[1,3,224,224]"
};

struct ParameterTotals {
    int64_t count = 0;  // elements
    int64_t bytes = 0;
};

struct QdqSummary {
    std::string quantizeNode;  // empty for a weight stored quantized
    std::string dequantizeNode;
    std::string tensor;  // the float tensor (or quantized initializer) being quantized
    std::string layer;   // the node that consumes it; empty when none
    std::string layerOp;
    int32_t layerInput = -1;
    bool isWeight = false;
    bool perChannel = false;
    int64_t axis = 1;
    size_t scaleCount = 0;
    float firstScale = 0.0f;
    int64_t firstZeroPoint = 0;
    std::string quantType;
};

struct ModelSummary {
    std::string file;
    std::string producerName;
    std::string producerVersion;
    int64_t irVersion = 0;
    std::map<std::string, int64_t> opsets;  // domain ("" = ai.onnx) -> version
    std::vector<TensorSummary> inputs;
    std::vector<TensorSummary> outputs;
    int64_t nodeCount = 0;          // top-level graph
    int64_t subgraphNodeCount = 0;  // inside If/Loop/Scan bodies
    std::map<std::string, int64_t> opCounts;
    ParameterTotals parameters;       // all initializers except INT64
    ParameterTotals int64Parameters;  // INT64 initializers (shapes, indices)
    // Weights the initializers do not hold (except INT64): Constant nodes' tensors, and initializers and Constant
    // nodes inside If/Loop/Scan bodies (exporters put whole networks there: PP-OCR, Silero VAD).
    ParameterTotals otherParameters;
    std::map<std::string, ParameterTotals> byDtype;  // every initializer dtype
    int64_t initializerCount = 0;
    int64_t macs = 0;
    bool macsApproximate = false;
    std::vector<QdqSummary> qdqPairs;
    std::vector<Diagnostic> diagnostics;
    bool externalData = false;
};

ModelSummary summarize(const Model& model);
nlohmann::json toJson(const ModelSummary& summary);
std::string toText(const ModelSummary& summary);

}  // namespace ql
