#pragma once
// Scales made elsewhere, read into a CalibrationResult for a model (amax per activation tensor, by name):
//   - QuantLens CALIB.json (`quantlens-cli calibrate`), read by calibration_file.h;
//   - a TensorRT calibration cache (TRT-CACHE-FORMAT): "TRT-<version>-<calibrator>" then "name: <hex>" lines,
//     the big-endian float32 bits of scale = amax / 127;
//   - ONNX Runtime's calibration.json (onnxruntime.quantization write_calibration_table): {"name": [min, max]}
//     (older releases) or {"name": {"lowest": L, "highest": H, ...}} where L and H are numbers or the encoder's
//     {"data": x, "dtype": "float32", "CLS": "numpy.array"}; a {"CLS": "TensorsData", "data": {...}} wrapper
//     is unwrapped. amax = max(|min|, |max|): the symmetric range that covers both ends;
//   - ONNX Runtime's calibration.cache text: "name value" lines, value = the tensor's amax (what ORT's
//     TensorRT provider reads as the dynamic range);
//   - a Q/DQ ONNX model (qdq_import.h), or one in ONNX Runtime's operator form (QLinearConv, com.microsoft QLinear*:
//     qoperator_import.h): its activation scales. Dynamic quantization (DynamicQuantizeLinear + ConvInteger) has
//     none (it computes them per input): an error says so;
//   - a QuantLens project (.qlproj, written by the window): the calibration it keeps.
// ONNX Runtime's binary calibration.flatbuffers is not read: it holds the same numbers as the two text files.
// The format is detected from the content. Names the model does not have are skipped and listed (a TensorRT
// cache also names TensorRT's own internal tensors); a bad file is an error naming it and the line.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/status.h"
#include "core/model/graph.h"
#include "core/quant/calibration.h"

namespace ql {

enum class ScaleFormat { QuantLens, TensorRtCache, OrtJson, OrtCacheText, QdqModel, Project };
const char* scaleFormatName(ScaleFormat format);  // "QuantLens calibration", "TensorRT calibration cache", ...

// One tensor's range as a file gives it.
struct ScaleEntry {
    std::string name;
    float amax = 0.0f;
    float min = 0.0f, max = 0.0f;
};

struct ScaleTable {
    std::vector<ScaleEntry> entries;          // in file order
    std::optional<CalibrationMethod> method;  // when the file says which calibrator made it
};

Result<ScaleTable> parseTrtCache(std::string_view text, const std::string& label);
Result<ScaleTable> parseOrtCalibrationJson(std::string_view text, const std::string& label);
Result<ScaleTable> parseOrtCacheText(std::string_view text, const std::string& label);

struct ImportedScales {
    CalibrationResult calibration;
    ScaleFormat format = ScaleFormat::QuantLens;
    std::vector<std::string> unknownTensors;  // in the file, not in the model: skipped
};

// Activations of `graph` found in `table`, in graph value order.
ImportedScales scalesForGraph(const Graph& graph, const ScaleTable& table, ScaleFormat format);
// Reads any of the formats above for `graph`.
Result<ImportedScales> importScales(const Graph& graph, const std::string& path);

}  // namespace ql
