#pragma once
// The optimization profile a trtexec script gives each dynamic input (--minShapes/--optShapes/--maxShapes; trtexec
// in NVIDIA/TensorRT samples/common/sampleOptions.cpp). Without it trtexec sets every open dimension to 1, or fails,
// whatever the model was calibrated on. An input is dynamic when a dimension of its declared shape is symbolic or
// unknown. Its shapes come from `quantize --shapes` (or the export dialog) when given, else from the shapes the
// calibration ran (input_shapes.h; an open batch axis from 1, since calibration chose its batch size itself, up to
// that size); an input with neither is listed as missing: the script leaves it to trtexec's
// default and says so in a comment, the CLI and the window tell the user which --shapes to give.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/model/graph.h"
#include "core/quant/input_shapes.h"

namespace ql {

struct DynamicInput {
    std::string input;
    std::string declared;  // "[N,3,640,640]"
    std::string pattern;   // "Nx3x640x640": how its --shapes look, a number for each open dimension
    bool known = false;    // `range` holds its shapes
    InputShapeRange range;
    std::string source;  // "--shapes" or "calibration"; "" when not known
};

struct TrtexecShapes {
    std::vector<DynamicInput> inputs;  // every dynamic input of the model, in graph order
    std::vector<std::string> missing() const;
};

// One `--shapes` value: NAME=MINxDIMS:OPTxDIMS:MAXxDIMS, or NAME=DIMS for min = opt = max. The name is what precedes
// the last '=', so a name holding ':' ("input_1:0", as tf2onnx names inputs) is written as it is. The error names
// `option`, the text and what to write.
Result<InputShapeRange> parseShapeOption(const std::string& text, const std::string& option = "--shapes");

// The profile of every dynamic input of `graph`: `given` (checked against the input's declared rank and fixed
// dimensions; an error names the input and `option`) over `calibrated` (used where it fits the declared shape).
Result<TrtexecShapes> trtexecShapes(const Graph& graph, const std::vector<InputShapeRange>& calibrated,
                                    const std::vector<InputShapeRange>& given, const std::string& option = "--shapes");

// " --minShapes=x:1x3x640x640 --optShapes=... --maxShapes=..." (each argument shell-quoted, names quoted for trtexec
// as its lists need), or "" when no dynamic input has shapes; an error naming an input trtexec cannot name.
Result<std::string> trtexecShapeFlags(const TrtexecShapes& shapes);
// "# Input 'x' [N,3,H,W] has dynamic dimensions and no shapes: ..." lines for the missing inputs, or "".
std::string missingShapesComment(const TrtexecShapes& shapes);
// What the user is told for the missing inputs ("input 'x' [N,3,H,W] needs --shapes x=MINxDIMS:OPTxDIMS:MAXxDIMS
// (trtexec sets its open dimensions to 1 otherwise)"), one sentence per input.
std::vector<std::string> missingShapesAdvice(const TrtexecShapes& shapes, const std::string& option = "--shapes");
// {"inputs": [{"input", "declared", "min", "opt", "max", "source"}], "missing": [names]} for the summary's "script".
nlohmann::json trtexecShapesJson(const TrtexecShapes& shapes);

}  // namespace ql
