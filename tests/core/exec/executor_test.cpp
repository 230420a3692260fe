#include "core/exec/executor.h"

#include <gtest/gtest.h>

#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

std::unique_ptr<Model> identityModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 3});
    b.node("Identity", {"x"}, {"y"}, "copy");
    b.output("y");
    return b.load();
}

Tensor floats(Shape shape) {
    return Tensor::zeros(DataType::Float, std::move(shape));
}

TEST(ExecutorTest, DynamicDimensionTakesTheSizeOfTheActualInput) {
    auto model = identityModel();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec) << exec.status().message();
    auto out = (*exec)->run({{"x", floats({5, 3})}});
    ASSERT_TRUE(out) << out.status().message();
    ASSERT_EQ(out->size(), 1u);
    EXPECT_EQ((*out)[0].first, "y");
    EXPECT_EQ((*out)[0].second.shape(), (Shape{5, 3}));
}

TEST(ExecutorTest, UnknownInputNameIsAnErrorNamingIt) {
    auto model = identityModel();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    auto out = (*exec)->run({{"x", floats({1, 3})}, {"z", floats({1, 3})}});
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("'z'"), std::string::npos) << out.status().message();
}

TEST(ExecutorTest, WrongDtypeIsAnErrorNamingInputAndTypes) {
    auto model = identityModel();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    auto out = (*exec)->run({{"x", Tensor::zeros(DataType::Int32, {1, 3})}});
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("'x'"), std::string::npos);
    EXPECT_NE(out.status().message().find("INT32"), std::string::npos) << out.status().message();
}

TEST(ExecutorTest, WrongShapeIsAnErrorNamingInputAndShapes) {
    auto model = identityModel();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    auto out = (*exec)->run({{"x", floats({1, 4})}});
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("'x'"), std::string::npos);
    EXPECT_NE(out.status().message().find("[1,4]"), std::string::npos) << out.status().message();
}

TEST(ExecutorTest, MissingInputIsAnErrorNamingIt) {
    auto model = identityModel();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    auto out = (*exec)->run({});
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("missing input 'x'"), std::string::npos) << out.status().message();
}

TEST(ExecutorTest, UnsupportedOpFailsCreationNamingNodeAndOp) {
    ModelBuilder b;
    b.input("x", DataType::String, {2});
    b.node("StringNormalizer", {"x"}, {"y"}, "norm");
    b.output("y", DataType::String);
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    ASSERT_FALSE(exec);
    EXPECT_EQ(exec.status().code(), StatusCode::Unsupported);
    EXPECT_NE(exec.status().message().find("Node (norm) Op (StringNormalizer)"), std::string::npos)
        << exec.status().message();
}

TEST(ExecutorTest, StopRequestedBeforeRunCancels) {
    auto model = identityModel();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    std::stop_source stop;
    stop.request_stop();
    RunOptions options;
    options.stop = stop.get_token();
    auto out = (*exec)->run({{"x", floats({1, 3})}}, options);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.status().code(), StatusCode::Cancelled);
}

// x -> MatMul -> a -> MatMul -> b -> MatMul -> y, each MatMul allocating its output.
std::unique_ptr<Model> matMulChain() {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 2});
    b.initializer("w", {2, 2}, {1, 0, 0, 1});
    b.node("MatMul", {"x", "w"}, {"a"}, "first");
    b.node("MatMul", {"a", "w"}, {"b"}, "second");
    b.node("MatMul", {"b", "w"}, {"y"}, "third");
    b.output("y");
    return b.load();
}

// Keeps a copy of every tensor it sees and, when the third node's output arrives, records whether the
// executor still shares the first two.
class ChainObserver : public TensorObserver {
public:
    void observe(const Node& producer, ValueId value, const Tensor& tensor) override {
        names.push_back(producer.name + ":" + std::to_string(value));
        kept.push_back(tensor);
        if (producer.name == "third") {
            firstFreed = kept[0].isUnique();
            secondFreed = kept[1].isUnique();
        }
    }
    std::vector<std::string> names;
    std::vector<Tensor> kept;
    bool firstFreed = false, secondFreed = true;
};

TEST(ExecutorTest, ObserverSeesEveryNodeOutputInOrder) {
    auto model = matMulChain();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    ChainObserver observer;
    RunOptions options;
    options.observer = &observer;
    auto out = (*exec)->run({{"x", Tensor::fromVector<float>(DataType::Float, {2, 2}, {1, 2, 3, 4})}}, options);
    ASSERT_TRUE(out) << out.status().message();
    const Graph& g = model->graph();
    EXPECT_EQ(observer.names, (std::vector<std::string>{"first:" + std::to_string(*g.findValue("a")),
                                                        "second:" + std::to_string(*g.findValue("b")),
                                                        "third:" + std::to_string(*g.findValue("y"))}));
    EXPECT_EQ(observer.kept[2].toFloats(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(ExecutorTest, IntermediatesAreReleasedAfterTheirLastConsumer) {
    auto model = matMulChain();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    ChainObserver observer;
    RunOptions options;
    options.observer = &observer;
    auto out = (*exec)->run({{"x", floats({2, 2})}}, options);
    ASSERT_TRUE(out) << out.status().message();
    // When the third node runs, 'a' (last read by the second node) is held only by the observer, while
    // 'b' is still held by the executor as the third node's input.
    EXPECT_TRUE(observer.firstFreed);
    EXPECT_FALSE(observer.secondFreed);
    // After the run only the returned output is shared with the caller.
    EXPECT_TRUE(observer.kept[1].isUnique());
    EXPECT_FALSE(observer.kept[2].isUnique());
}

// Replaces the weights of the node named "first" with 2 * identity.
class DoubleWeights : public NodeInterceptor {
public:
    Status beforeNode(const Node& node, std::vector<Tensor>& inputs) override {
        if (node.name == "first") inputs[1] = Tensor::fromVector<float>(DataType::Float, {2, 2}, {2, 0, 0, 2});
        return Status::ok();
    }
    Status afterNode(const Node&, std::vector<Tensor>&) override { return Status::ok(); }
};

TEST(ExecutorTest, InterceptorReplacementWinsOverCachedConstantWeights) {
    auto model = matMulChain();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    const NamedTensors x = {{"x", Tensor::fromVector<float>(DataType::Float, {2, 2}, {1, 2, 3, 4})}};
    auto plain = (*exec)->run(x);
    ASSERT_TRUE(plain);
    EXPECT_EQ((*plain)[0].second.toFloats(), (std::vector<float>{1, 2, 3, 4}));
    DoubleWeights interceptor;
    RunOptions options;
    options.interceptor = &interceptor;
    auto doubled = (*exec)->run(x, options);
    ASSERT_TRUE(doubled) << doubled.status().message();
    EXPECT_EQ((*doubled)[0].second.toFloats(), (std::vector<float>{2, 4, 6, 8}));
    auto again = (*exec)->run(x);
    ASSERT_TRUE(again);
    EXPECT_EQ((*again)[0].second.toFloats(), (std::vector<float>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace ql
