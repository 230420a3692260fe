#pragma once
// A debugging copy of a Q/DQ model whose quantization points are graph outputs: every QuantizeLinear of an
// activation gets its output (the int8/uint8 codes) and its float input added to the graph outputs. Runtimes
// that return only graph outputs (onnxruntime-node) can then be compared with the executor code by code
// (bench/check_export.mjs), and each runtime's codes checked against its own QuantizeLinear input.
//
// The per-layer copy (cutAtQuantizationPoints) goes further: every such QuantizeLinear writes its codes to a
// new graph output "<codes>_local", and what read its codes (the DequantizeLinear) reads a new graph input of
// the original name instead. Fed the same codes (say one runtime's run of the exposed copy), two runtimes then
// compute every quantization point from identical quantized inputs: a difference there is that layer's own,
// not one propagated from an earlier rounding flip.
//
// Description JSON (quantizationPointsJson):
//   { "format": "quantlens-quantization-points", "version": 1,
//     "points": [ { "node": "...", "input": "x", "output": "x_quantized", "scale": [..], "zero_point": [..],
//                   "axis": 1, "input_exposed": true, "local_output": "x_quantized_local" } ] }
#include <onnx/onnx_pb.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/common/status.h"

namespace ql {

struct QuantizationPoint {
    std::string node;
    std::string input;   // float
    std::string output;  // the codes
    std::vector<float> scale;
    std::vector<float> zeroPoint;
    int64_t axis = 1;
    bool inputExposed = false;  // false when the input is a graph input (not repeated as an output)
    std::string localOutput;    // set by cutAtQuantizationPoints
};

// Adds the outputs to `graph` and describes each point; an error names a QuantizeLinear whose scale or zero
// point is not an initializer.
Result<std::vector<QuantizationPoint>> exposeQuantizationPoints(onnx::GraphProto& graph);
// Turns a copy of the exposed model (same points) into the per-layer model described above; sets localOutput.
void cutAtQuantizationPoints(onnx::GraphProto& graph, std::vector<QuantizationPoint>& points);
nlohmann::json quantizationPointsJson(const std::vector<QuantizationPoint>& points);

}  // namespace ql
