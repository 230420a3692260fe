#pragma once
// The trtexec command line that builds a TensorRT engine from an exported Q/DQ model (TRT-PREC-TRTEXEC in
// TRT-INT8-RULES.md), written as a small shell script:
//   trtexec --onnx=<model> --int8 --fp16 --saveEngine=<model minus .onnx>.engine
//           [--precisionConstraints=obey --layerPrecisions=name:fp16,... --layerOutputTypes=name:fp16,...]
// The INT8 layers are fixed by their Q/DQ nodes; the layers the plan keeps in FP16 or FP32 are pinned with
// --layerPrecisions / --layerOutputTypes and obeyed, so TensorRT does not move them to the other float
// precision. Only layers whose outputs are all float are pinned (shape and index layers must stay INT32/INT64).
//
// Layer names are the exported model's node names; an unnamed node is "node_of_<first output>", which is
// what the ONNX parser calls it. trtexec splits each list at ',' first, then each item at its last ':' and
// strips every single quote from the name; '*' is a wildcard. So a name with ':' is written as 'name'
// (accepted by trtexec 8.6 and 10.x), and a name holding ',', '\'' or '*' cannot be expressed: that is an
// error naming the node (rename it). Arguments are quoted for a POSIX shell when they need it (spaces etc.).
// These flags exist in TensorRT 8.6-10.x; TensorRT 11 builds Q/DQ models strongly typed and drops them.
#include <string>

#include "core/common/status.h"
#include "core/export/qdq_export.h"

namespace ql {

// `onnxPath` is the exported model as the command should name it (as given to `quantize -o`).
Result<std::string> trtexecCommand(const QdqExport& result, const std::string& onnxPath);
// Writes the command atomically.
Status saveTrtexecCommand(const QdqExport& result, const std::string& onnxPath, const std::string& path);

// POSIX shell quoting: `text` unchanged when it only holds safe characters, otherwise in single quotes.
std::string shellQuote(const std::string& text);

}  // namespace ql
