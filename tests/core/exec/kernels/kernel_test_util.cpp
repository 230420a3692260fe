#include "tests/core/exec/kernels/kernel_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ql::test {

Result<std::vector<Tensor>> runModel(const ModelBuilder& b, const NamedTensors& inputs, int threads) {
    QL_ASSIGN_OR_RETURN(auto model, b.tryLoad());
    QL_ASSIGN_OR_RETURN(auto executor, Executor::create(model->graph(), {threads}));
    QL_ASSIGN_OR_RETURN(NamedTensors outputs, executor->run(inputs));
    std::vector<Tensor> result;
    for (auto& [name, tensor] : outputs) result.push_back(tensor.clone());
    return result;
}

Result<std::vector<Tensor>> runNode(const NodeSpec& spec, int threads) {
    ModelBuilder b(spec.opset);
    std::vector<std::string> inputNames, outputNames;
    for (const auto& [name, tensor] : spec.inputs) {
        inputNames.push_back(name);
        if (!name.empty()) b.input(name, tensor.dtype(), tensor.shape());
    }
    std::vector<DataType> types = spec.outputTypes;
    if (types.empty()) types.push_back(spec.inputs.empty() ? DataType::Float : spec.inputs[0].second.dtype());
    for (size_t i = 0; i < types.size(); ++i) {
        std::string name = "y";  // (not "y" + ...: GCC 12 -O3 reports a false -Wrestrict there)
        name += std::to_string(i);
        outputNames.push_back(name);
    }
    NodeBuilder node = b.node(spec.op, inputNames, outputNames);
    if (spec.attributes) spec.attributes(node);
    for (size_t i = 0; i < types.size(); ++i) b.output(outputNames[i], types[i]);
    NamedTensors feeds;
    for (const auto& input : spec.inputs)
        if (!input.first.empty()) feeds.push_back(input);
    return runModel(b, feeds, threads);
}

Result<Tensor> runOne(const NodeSpec& spec) {
    QL_ASSIGN_OR_RETURN(auto outputs, runNode(spec));
    return outputs.at(0);
}

void expectNear(const Tensor& actual, const std::vector<float>& expected, float tolerance) {
    const std::vector<float> values = actual.toFloats();
    ASSERT_EQ(values.size(), expected.size());
    for (size_t i = 0; i < values.size(); ++i) {
        if (std::isnan(expected[i])) {
            EXPECT_TRUE(std::isnan(values[i])) << "element " << i;
            continue;
        }
        if (std::isinf(expected[i])) {
            EXPECT_EQ(values[i], expected[i]) << "element " << i;
            continue;
        }
        EXPECT_NEAR(values[i], expected[i], tolerance * (1.0f + std::fabs(expected[i]))) << "element " << i;
    }
}

}  // namespace ql::test
