#pragma once
// The ONNX names an engine layer carries, in the three places a report keeps them:
//   metadata     10.x and later: "[ONNX Layer: /conv1/Conv]", several joined with \x1e or \x1f (or nothing);
//   fused name   "features.1.conv.0.0.weight + QuantizeLinear_21 + Conv_23 + PWN(Clip_27)": the names TensorRT
//                joined with " + ", pointwise fusions wrapped in PWN(a, b), Torch-TensorRT's
//                "[CONVOLUTION]-[aten_ops.convolution.default]-[/features/0/convolution]" (the last bracket is the
//                ONNX name); some parts are initializers or TensorRT's own "(Unnamed Layer* 849) [Shuffle]";
//   reformats    "Reformatting CopyNode for Input Tensor 0 to X": the layer X it feeds.
// These are candidates: engine_mapping.h keeps those that name a node of the model.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ql {

std::vector<std::string> metadataOnnxNames(std::string_view metadata);
std::vector<std::string> fusedNameParts(std::string_view layerName);
// X of "Reformatting CopyNode for Input Tensor 0 to X" / "... Output Tensor 0 to X"; nullopt for other names.
std::optional<std::string> reformatTarget(std::string_view layerName);

}  // namespace ql
