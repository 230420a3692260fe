#pragma once
// Small models with the structures that decide where Q/DQ goes and what fuses (residuals in both input orders,
// depthwise inverted residuals, dense Concat/BatchNormalization blocks, attention, a detector head, SiLU, dynamic
// batch, upsampling with skip Concats, constant subgraphs, pooling heads), plus the trained models under tests/data
// and the bundled sample: the corpus of the round-trip property tests and of bench/round_trip_sweep.
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/model/model.h"

namespace ql::test {

struct ZooModel {
    std::string name;
    std::function<std::unique_ptr<Model>()> load;
};
// GoogleTest prints a parameter by its name (not its bytes) in test names and failures.
inline void PrintTo(const ZooModel& model, std::ostream* out) {
    *out << model.name;
}

// A TensorFlow model as tf2onnx writes it with an NHWC input (a Transpose to NCHW, TensorFlow's node order).
std::unique_ptr<Model> tf2onnxNhwcModel();
// A classifier as PyTorch exported it at opsets 7-12: Conv, Relu, a view to a computed shape (`computedView`) or a
// Flatten, Gemm, Softmax.
std::unique_ptr<Model> pytorchClassifier(int64_t opset, bool computedView);
// x -> MatMul `layer` (its weight through "Identity_0", as PyTorch writes an Identity per shared weight) -> Relu
// "relu" -> output.
std::unique_ptr<Model> sharedWeightModel(const std::string& layer);

// Every model of the corpus; `withFiles`: also the committed models (tests/data, resources/samples).
std::vector<ZooModel> modelZoo(bool withFiles = true);

}  // namespace ql::test
