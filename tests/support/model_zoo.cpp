#include "tests/support/model_zoo.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"

namespace ql::test {
namespace {

// Builds a model layer by layer with weights scaled to the fan-in, so activations stay in a sane range.
class Net {
public:
    explicit Net(int64_t opset = 13) : b(opset) {}

    std::vector<float> weights(size_t count, int64_t fanIn) {
        const float a = 1.5f / std::sqrt(static_cast<float>(fanIn));
        return seededFloats(count, mSeed++, -a, a);
    }

    std::string conv(const std::string& x, int64_t cin, int64_t cout, int64_t k, const std::string& name,
                     int64_t group = 1, int64_t stride = 1) {
        b.initializer(name + ".w", {cout, cin / group, k, k},
                      weights(static_cast<size_t>(cout * cin / group * k * k), cin / group * k * k));
        b.initializer(name + ".b", {cout}, seededFloats(static_cast<size_t>(cout), mSeed++, -0.1f, 0.1f));
        b.node("Conv", {x, name + ".w", name + ".b"}, {name}, name)
            .ints("pads", {k / 2, k / 2, k / 2, k / 2})
            .ints("strides", {stride, stride})
            .i("group", group);
        return name;
    }

    std::string op(const std::string& type, const std::vector<std::string>& inputs, const std::string& name) {
        b.node(type, inputs, {name}, name);
        return name;
    }

    std::string relu(const std::string& x) { return op("Relu", {x}, x + ".relu"); }

    std::string silu(const std::string& x) {
        const std::string s = op("Sigmoid", {x}, x + ".sigmoid");
        return op("Mul", {x, s}, x + ".silu");
    }

    std::string clip6(const std::string& x) {
        if (!mClipBounds) {
            b.initializer("clip.min", {}, {0.0f});
            b.initializer("clip.max", {}, {6.0f});
            mClipBounds = true;
        }
        return op("Clip", {x, "clip.min", "clip.max"}, x + ".clip");
    }

    std::string batchNorm(const std::string& x, int64_t c) {
        const std::string n = x + ".bn";
        b.initializer(n + ".scale", {c}, seededFloats(static_cast<size_t>(c), mSeed++, 0.5f, 1.5f));
        b.initializer(n + ".bias", {c}, seededFloats(static_cast<size_t>(c), mSeed++, -0.2f, 0.2f));
        b.initializer(n + ".mean", {c}, seededFloats(static_cast<size_t>(c), mSeed++, -0.2f, 0.2f));
        b.initializer(n + ".var", {c}, seededFloats(static_cast<size_t>(c), mSeed++, 0.5f, 1.5f));
        return op("BatchNormalization", {x, n + ".scale", n + ".bias", n + ".mean", n + ".var"}, n);
    }

    std::string gemm(const std::string& x, int64_t in, int64_t out, const std::string& name) {
        b.initializer(name + ".w", {out, in}, weights(static_cast<size_t>(in * out), in));
        b.initializer(name + ".b", {out}, seededFloats(static_cast<size_t>(out), mSeed++, -0.1f, 0.1f));
        b.node("Gemm", {x, name + ".w", name + ".b"}, {name}, name).i("transB", 1);
        return name;
    }

    // A Linear on a 3-D input as exporters write it: MatMul, then Add(bias).
    std::string linear(const std::string& x, int64_t in, int64_t out, const std::string& name) {
        b.initializer(name + ".w", {in, out}, weights(static_cast<size_t>(in * out), in));
        b.initializer(name + ".b", {out}, seededFloats(static_cast<size_t>(out), mSeed++, -0.1f, 0.1f));
        op("MatMul", {x, name + ".w"}, name + ".mm");
        return op("Add", {name + ".mm", name + ".b"}, name);
    }

    std::string shape(const std::string& name, const std::vector<int64_t>& dims) {
        std::vector<double> values(dims.begin(), dims.end());
        b.initializer(name, DataType::Int64, {static_cast<int64_t>(dims.size())}, values);
        return name;
    }

    std::unique_ptr<Model> finish(const std::string& y) {
        b.output(y);
        return b.load();
    }

    ModelBuilder b;

private:
    uint32_t mSeed = 11;
    bool mClipBounds = false;
};

std::unique_ptr<Model> chainRelu() {
    Net n;
    n.b.input("x", DataType::Float, {1, 4, 8, 8});
    auto h = n.relu(n.conv("x", 4, 8, 3, "c1"));
    h = n.relu(n.conv(h, 8, 8, 3, "c2"));
    return n.finish(n.op("Sigmoid", {n.conv(h, 8, 4, 1, "c3")}, "y"));
}

// The skip tensor is read by the branch and the Add; `skipFirst` decides the Add's input order.
std::unique_ptr<Model> residual(bool skipFirst) {
    Net n;
    n.b.input("x", DataType::Float, {1, 8, 8, 8});
    const auto s = n.relu(n.conv("x", 8, 8, 3, "stem"));
    const auto branch = n.conv(n.relu(n.conv(s, 8, 8, 3, "b1")), 8, 8, 3, "b2");
    const auto sum = skipFirst ? n.op("Add", {s, branch}, "add") : n.op("Add", {branch, s}, "add");
    return n.finish(n.conv(n.relu(sum), 8, 4, 1, "head"));
}

std::unique_ptr<Model> convBnResidual() {
    Net n;
    n.b.input("x", DataType::Float, {1, 8, 8, 8});
    const auto s = n.relu(n.batchNorm(n.conv("x", 8, 8, 3, "stem"), 8));
    const auto branch = n.batchNorm(n.conv(n.relu(n.batchNorm(n.conv(s, 8, 8, 3, "b1"), 8)), 8, 8, 3, "b2"), 8);
    return n.finish(n.relu(n.op("Add", {s, branch}, "add")));
}

// MobileNetV2: a projection, then blocks of expand 1x1 -> Relu6 -> depthwise 3x3 -> Relu6 -> project 1x1 + skip.
std::unique_ptr<Model> invertedResidual() {
    Net n;
    n.b.input("x", DataType::Float, {1, 8, 8, 8});
    std::string h = n.conv("x", 8, 16, 1, "proj");
    for (int block = 0; block < 2; ++block) {
        const std::string p = "blk" + std::to_string(block);
        auto e = n.clip6(n.conv(h, 16, 32, 1, p + ".expand"));
        e = n.clip6(n.conv(e, 32, 32, 3, p + ".dw", 32));
        h = n.op("Add", {h, n.conv(e, 32, 16, 1, p + ".project")}, p + ".add");
    }
    const auto pooled = n.op("GlobalAveragePool", {h}, "gap");
    return n.finish(n.gemm(n.op("Flatten", {pooled}, "flat"), 16, 10, "fc"));
}

// DenseNet: Concat -> BatchNormalization -> Relu -> Conv, a transition with AveragePool.
std::unique_ptr<Model> denseBlock() {
    Net n;
    n.b.input("x", DataType::Float, {1, 8, 8, 8});
    const auto a = n.relu(n.conv("x", 8, 8, 3, "stem"));
    n.b.node("Concat", {a, n.conv(a, 8, 8, 3, "c1")}, {"cat1"}, "cat1").i("axis", 1);
    const auto d = n.relu(n.conv(n.relu(n.batchNorm("cat1", 16)), 16, 8, 1, "c2"));
    n.b.node("Concat", {"cat1", d}, {"cat2"}, "cat2").i("axis", 1);
    const auto t = n.relu(n.batchNorm("cat2", 24));
    n.b.node("AveragePool", {t}, {"pool"}, "pool").ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    return n.finish(n.conv("pool", 24, 8, 1, "c3"));
}

std::unique_ptr<Model> poolingHead() {
    Net n;
    n.b.input("x", DataType::Float, {1, 3, 16, 16});
    n.b.node("MaxPool", {n.relu(n.conv("x", 3, 8, 3, "c1"))}, {"mp"}, "mp")
        .ints("kernel_shape", {2, 2})
        .ints("strides", {2, 2});
    const auto g = n.op("GlobalAveragePool", {n.relu(n.conv("mp", 8, 16, 3, "c2"))}, "gap");
    return n.finish(n.gemm(n.op("Flatten", {g}, "flat"), 16, 10, "fc"));
}

// One attention block as PyTorch exports it: projections (MatMul + Add), heads by Reshape/Transpose, the scale as
// a Mul on the scores, Softmax, the context, the output projection and the residual Add.
std::unique_ptr<Model> attention() {
    Net n;
    n.b.input("x", DataType::Float, {1, 16, 32});
    const auto heads = n.shape("heads", {1, 16, 2, 16});
    const auto merged = n.shape("merged", {1, 16, 32});
    std::string qkv[3];
    const char* names[3] = {"q", "k", "v"};
    for (int i = 0; i < 3; ++i) {
        const auto r = n.op("Reshape", {n.linear("x", 32, 32, names[i]), heads}, std::string(names[i]) + ".heads");
        n.b.node("Transpose", {r}, {r + ".t"}, r + ".t")
            .ints("perm", i == 1 ? std::vector<int64_t>{0, 2, 3, 1} : std::vector<int64_t>{0, 2, 1, 3});
        qkv[i] = r + ".t";
    }
    n.b.initializer("scale", {}, {0.25f});
    const auto scores = n.op("Mul", {n.op("MatMul", {qkv[0], qkv[1]}, "scores"), "scale"}, "scaled");
    n.b.node("Softmax", {scores}, {"probs"}, "softmax").i("axis", -1);
    const auto context = n.op("MatMul", {"probs", qkv[2]}, "context");
    n.b.node("Transpose", {context}, {"context.t"}, "context.t").ints("perm", {0, 2, 1, 3});
    const auto out = n.linear(n.op("Reshape", {"context.t", merged}, "context.merged"), 32, 32, "o");
    return n.finish(n.op("Add", {"x", out}, "residual"));
}

// A YOLO-style head: SiLU backbone, class scores through a Sigmoid and boxes, joined by a Concat at the output.
std::unique_ptr<Model> detectorHead() {
    Net n;
    n.b.input("x", DataType::Float, {1, 3, 16, 16});
    const auto f = n.silu(n.conv(n.silu(n.conv("x", 3, 8, 3, "c1", 1, 2)), 8, 8, 3, "c2"));
    const auto flat = n.shape("flat", {1, 4, 64});
    const auto scores = n.op("Reshape", {n.op("Sigmoid", {n.conv(f, 8, 4, 1, "cls")}, "cls.sig"), flat}, "scores");
    const auto boxes = n.op("Reshape", {n.conv(f, 8, 4, 1, "box"), flat}, "boxes");
    n.b.node("Concat", {boxes, scores}, {"y"}, "detect").i("axis", 1);
    return n.finish("y");
}

std::unique_ptr<Model> leakyResize() {
    Net n;
    n.b.input("x", DataType::Float, {1, 4, 8, 8});
    n.b.initializer("pads", DataType::Int64, {8}, {0, 0, 1, 1, 0, 0, 1, 1});
    const auto padded = n.op("Pad", {"x", "pads"}, "pad");
    n.b.initializer("c1.w", {8, 4, 3, 3}, n.weights(288, 36));
    n.b.node("Conv", {padded, "c1.w"}, {"c1"}, "c1");
    n.b.node("LeakyRelu", {"c1"}, {"lrelu"}, "lrelu").f("alpha", 0.1f);
    n.b.initializer("scales", {4}, {1.0f, 1.0f, 2.0f, 2.0f});
    n.b.node("Resize", {"lrelu", "", "scales"}, {"up"}, "resize").s("mode", "nearest");
    return n.finish(n.conv("up", 8, 4, 3, "c2"));
}

std::unique_ptr<Model> dynamicBatch() {
    Net n;
    n.b.input("x", DataType::Float, {-1, 3, 8, 8});
    const auto g = n.op("GlobalAveragePool", {n.relu(n.conv("x", 3, 8, 3, "c1"))}, "gap");
    n.b.node("Softmax", {n.gemm(n.op("Flatten", {g}, "flat"), 8, 5, "fc")}, {"y"}, "softmax").i("axis", 1);
    return n.finish("y");
}

// U-Net: an encoder, a ConvTranspose up, a Concat with the skip.
std::unique_ptr<Model> unetUpsample() {
    Net n;
    n.b.input("x", DataType::Float, {1, 4, 16, 16});
    const auto e1 = n.relu(n.conv("x", 4, 8, 3, "e1"));
    n.b.node("MaxPool", {e1}, {"down"}, "down").ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    const auto e2 = n.relu(n.conv("down", 8, 16, 3, "e2"));
    n.b.initializer("up.w", {16, 8, 2, 2}, n.weights(512, 64));
    n.b.node("ConvTranspose", {e2, "up.w"}, {"up"}, "up").ints("strides", {2, 2});
    n.b.node("Concat", {"up", e1}, {"cat"}, "cat").i("axis", 1);
    return n.finish(n.conv("cat", 16, 4, 3, "out"));
}

// A ViT's class token: a constant Expand joined to the tokens, and a scale computed from constants alone.
std::unique_ptr<Model> constantSubgraph() {
    Net n;
    n.b.input("x", DataType::Float, {1, 8, 16});
    n.b.initializer("cls", {1, 1, 16}, seededFloats(16, 3));
    const auto expanded = n.op("Expand", {"cls", n.shape("cls.shape", {1, 1, 16})}, "cls.expand");
    n.b.node("Concat", {expanded, "x"}, {"tokens"}, "tokens").i("axis", 1);
    n.b.initializer("gain.a", {16}, seededFloats(16, 4, 0.5f, 1.0f));
    n.b.initializer("gain.b", {16}, seededFloats(16, 5, 0.5f, 1.0f));
    const auto gain = n.op("Mul", {"gain.a", "gain.b"}, "gain");
    const auto h = n.op("Mul", {n.op("Relu", {n.linear("tokens", 16, 16, "fc1")}, "fc1.relu"), gain}, "scaled");
    return n.finish(n.linear(h, 16, 8, "fc2"));
}

std::unique_ptr<Model> gemmMlp() {
    Net n;
    n.b.input("x", DataType::Float, {1, 32});
    const auto h = n.relu(n.gemm(n.relu(n.gemm("x", 32, 64, "fc1")), 64, 16, "fc2"));
    n.b.node("Softmax", {n.gemm(h, 16, 10, "fc3")}, {"y"}, "softmax").i("axis", 1);
    return n.finish("y");
}

std::unique_ptr<Model> matmulResidual() {
    Net n;
    n.b.input("x", DataType::Float, {1, 8, 16});
    const auto h = n.linear(n.relu(n.linear("x", 16, 32, "fc1")), 32, 16, "fc2");
    const auto sum = n.op("Add", {"x", h}, "residual");
    return n.finish(n.linear(sum, 16, 8, "fc3"));
}

std::function<std::unique_ptr<Model>()> fileModel(const std::string& path) {
    return [path] {
        auto model = Model::load(path);
        EXPECT_TRUE(model) << path << ": " << model.status().message();
        return model ? std::move(model).value() : nullptr;
    };
}

}  // namespace

// As tf2onnx writes a TensorFlow model with an NHWC input: a Transpose to NCHW, and the node list in TensorFlow's
// order, where the MaxPool branch comes before the Conv that reads the same tensor. The Conv's Q/DQ (made first: the
// weighted layers are placed before the pooling) used to be written before the Conv only, after the MaxPool.
std::unique_ptr<Model> tf2onnxNhwcModel() {
    ModelBuilder b;
    b.proto().set_producer_name("tf2onnx");
    b.input("input_1", DataType::Float, {1, 8, 8, 3});
    b.initializer("conv1/w", {4, 3, 3, 3}, seededFloats(108, 1));
    b.initializer("conv2/w", {4, 4, 1, 1}, seededFloats(16, 2));
    b.node("Transpose", {"input_1"}, {"input_1__6"}, "Transpose__6").ints("perm", {0, 3, 1, 2});
    b.node("Conv", {"input_1__6", "conv1/w"}, {"conv1"}, "model/conv1/Conv2D").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"conv1"}, {"relu1"}, "model/conv1/Relu");
    b.node("MaxPool", {"relu1"}, {"pool"}, "model/pool/MaxPool")
        .ints("kernel_shape", {3, 3})
        .ints("pads", {1, 1, 1, 1});
    b.node("Conv", {"relu1", "conv2/w"}, {"conv2"}, "model/conv2/Conv2D");
    b.node("Concat", {"pool", "conv2"}, {"cat"}, "model/concat").i("axis", 1);
    b.node("Transpose", {"cat"}, {"Identity:0"}, "Transpose__20").ints("perm", {0, 2, 3, 1});
    b.output("Identity:0");
    return b.load();
}

// x.view(x.size(0), -1) is a Reshape to a shape computed from the dynamic batch, which ONNX 1.12's inference cannot
// follow.
std::unique_ptr<Model> pytorchClassifier(int64_t opset, bool computedView) {
    ModelBuilder b(opset);
    b.input("x", DataType::Float, {-1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3}, seededFloats(108, 1));
    b.initializer("fc.weight", {10, 144}, seededFloats(1440, 2));
    b.initializer("fc.bias", {10}, seededFloats(10, 3));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"r"}, "relu");
    if (computedView) {
        b.initializer("zero", DataType::Int64, {}, {0});
        b.initializer("minus_one", DataType::Int64, {1}, {-1});
        b.node("Shape", {"r"}, {"shape"}, "shape");
        b.node("Gather", {"shape", "zero"}, {"batch"}, "gather").i("axis", 0);
        b.node("Unsqueeze", {"batch"}, {"batch1"}, "unsqueeze").ints("axes", {0});
        b.node("Concat", {"batch1", "minus_one"}, {"view_shape"}, "concat").i("axis", 0);
        b.node("Reshape", {"r", "view_shape"}, {"flat"}, "view");
    } else {
        b.node("Flatten", {"r"}, {"flat"}, "flatten");
    }
    b.node("Gemm", {"flat", "fc.weight", "fc.bias"}, {"logits"}, "fc").i("transB", 1);
    b.node("Softmax", {"logits"}, {"probs"}, "softmax");
    b.output("probs");
    return b.load();
}

std::vector<ZooModel> modelZoo(bool withFiles) {
    std::vector<ZooModel> zoo = {
        {"chain_relu", chainRelu},
        {"residual_skip_first", [] { return residual(true); }},
        {"residual_skip_second", [] { return residual(false); }},
        {"conv_bn_residual", convBnResidual},
        {"inverted_residual", invertedResidual},
        {"dense_block", denseBlock},
        {"pooling_head", poolingHead},
        {"attention", attention},
        {"detector_head", detectorHead},
        {"leaky_resize", leakyResize},
        {"dynamic_batch", dynamicBatch},
        {"unet_upsample", unetUpsample},
        {"constant_subgraph", constantSubgraph},
        {"gemm_mlp", gemmMlp},
        {"matmul_residual", matmulResidual},
        {"tf2onnx_nhwc", tf2onnxNhwcModel},
        {"pytorch_opset9_classifier", [] { return pytorchClassifier(9, true); }},
        {"control_flow_convs", convBranchesModel},
        {"control_flow_outer_weights", outerWeightBranchesModel},
    };
    if (!withFiles) return zoo;
    const std::string data = QL_TEST_DATA_DIR, samples = std::string(QL_SOURCE_DIR) + "/resources/samples";
    zoo.push_back({"digits_cnn", fileModel(samples + "/digits_cnn.onnx")});
    zoo.push_back({"detector", fileModel(data + "/tune/detector.onnx")});
    zoo.push_back({"spiky_cnn", fileModel(data + "/tune/spiky_cnn.onnx")});
    zoo.push_back({"transformer", fileModel(data + "/tune/transformer.onnx")});
    zoo.push_back({"yolov8_tiny", fileModel(data + "/models/yolov8_tiny.onnx")});
    zoo.push_back({"bert_tiny", fileModel(data + "/models/bert_tiny.onnx")});
    return zoo;
}

std::unique_ptr<Model> sharedWeightModel(const std::string& layer) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16});
    b.initializer("w", {16, 10}, seededFloats(160));
    b.node("Identity", {"w"}, {"w.shared"}, "Identity_0");
    b.node("MatMul", {"x", "w.shared"}, {"y"}, layer);
    b.node("Relu", {"y"}, {"p"}, "relu");
    b.output("p");
    return b.load();
}

}  // namespace ql::test
