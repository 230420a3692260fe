// Loading real and broken files: every bad input gives a Status naming the file and the problem.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/model/model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

ModelBuilder convModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.initializer("b", {4}, test::seededFloats(4));
    b.node("Conv", {"x", "w", "b"}, {"y"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"y"}, {"z"}, "relu");
    b.output("z", DataType::Float, {1, 4, 8, 8});
    return b;
}

Status loadError(const std::string& path) {
    auto model = Model::load(path);
    EXPECT_FALSE(model.isOk()) << path << " loaded but should not";
    return model.isOk() ? Status::ok() : model.status();
}

TEST(LoaderTest, LoadsAValidModelFromFile) {
    TempDir dir;
    convModel().save(dir.file("m.onnx"));
    auto model = Model::load(dir.file("m.onnx"));
    ASSERT_TRUE(model.isOk()) << model.status().message();
    EXPECT_EQ((*model)->fileName(), "m.onnx");
    EXPECT_EQ((*model)->graph().nodes().size(), 2u);
    EXPECT_TRUE((*model)->diagnostics().empty());
    const Value& y = (*model)->graph().value(*(*model)->graph().findValue("y"));
    EXPECT_EQ(y.type.shapeString(), "[1,4,8,8]");
}

TEST(LoaderTest, MissingFileIsNamed) {
    const Status s = loadError("/nonexistent/dir/model.onnx");
    EXPECT_EQ(s.code(), StatusCode::NotFound);
    EXPECT_NE(s.message().find("/nonexistent/dir/model.onnx"), std::string::npos);
}

TEST(LoaderTest, EmptyFileIsRefused) {
    TempDir dir;
    test::writeFile(dir.file("empty.onnx"), "");
    const Status s = loadError(dir.file("empty.onnx"));
    EXPECT_NE(s.message().find("empty.onnx"), std::string::npos);
    EXPECT_NE(s.message().find("empty"), std::string::npos);
}

TEST(LoaderTest, FolderIsRefused) {
    TempDir dir;
    const Status s = loadError(dir.path());
    EXPECT_NE(s.message().find("folder"), std::string::npos);
}

TEST(LoaderTest, RandomBytesAreRefused) {
    TempDir dir;
    std::string junk;
    uint32_t x = 12345;
    for (int i = 0; i < 4096; ++i) {
        x = x * 1664525u + 1013904223u;
        junk.push_back(static_cast<char>(x >> 24));
    }
    test::writeFile(dir.file("junk.onnx"), junk);
    const Status s = loadError(dir.file("junk.onnx"));
    EXPECT_EQ(s.code(), StatusCode::InvalidModel);
    EXPECT_NE(s.message().find("junk.onnx"), std::string::npos);
}

TEST(LoaderTest, TextFileIsRefused) {
    TempDir dir;
    test::writeFile(dir.file("readme.onnx"), "this is not a model\n");
    const Status s = loadError(dir.file("readme.onnx"));
    EXPECT_EQ(s.code(), StatusCode::InvalidModel);
}

TEST(LoaderTest, EveryTruncationIsRefusedOrStillAUsableGraph) {
    // Cut a real model at every length: loading must never crash, and must fail unless the cut happens to
    // leave a complete, valid model (which cannot happen before the last byte for this model).
    const std::string bytes = convModel().bytes();
    for (size_t len = 1; len < bytes.size(); ++len) {
        auto model = Model::loadFromBytes({reinterpret_cast<const std::byte*>(bytes.data()), len}, "cut.onnx");
        if (model.isOk()) {
            // A cut at a field boundary can leave a smaller but well-formed model; it must then be consistent.
            for (const Node& n : (*model)->graph().nodes())
                for (ValueId in : n.inputs) EXPECT_TRUE(in == kNoId || in < ValueId((*model)->graph().values().size()));
        } else {
            EXPECT_NE(model.status().message().find("cut.onnx"), std::string::npos);
        }
    }
}

TEST(LoaderTest, TruncatedFileIsRefused) {
    TempDir dir;
    const std::string bytes = convModel().bytes();
    test::writeFile(dir.file("cut.onnx"), bytes.substr(0, bytes.size() / 2));
    const Status s = loadError(dir.file("cut.onnx"));
    EXPECT_EQ(s.code(), StatusCode::InvalidModel);
    EXPECT_NE(s.message().find("cut.onnx"), std::string::npos);
}

TEST(LoaderTest, CycleIsRefusedNamingANode) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1});
    b.node("Add", {"x", "c"}, {"a"}, "add");
    b.node("Relu", {"a"}, {"c"}, "loop_back");
    b.output("a");
    auto model = b.tryLoad();
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("cycle"), std::string::npos);
    EXPECT_NE(model.status().message().find("'add'"), std::string::npos);
}

TEST(LoaderTest, UndefinedInputIsRefusedNamingNodeAndTensor) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1});
    b.node("Add", {"x", "ghost"}, {"y"}, "adder");
    b.output("y");
    auto model = b.tryLoad();
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("'adder'"), std::string::npos);
    EXPECT_NE(model.status().message().find("'ghost'"), std::string::npos);
}

TEST(LoaderTest, TensorProducedTwiceIsRefused) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1});
    b.node("Relu", {"x"}, {"y"}, "one");
    b.node("Neg", {"x"}, {"y"}, "two");
    b.output("y");
    auto model = b.tryLoad();
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("'y'"), std::string::npos);
}

TEST(LoaderTest, NodeListingTheSameOutputTwiceIsRefused) {
    // Found by the loader fuzzer.
    ModelBuilder b;
    b.input("x", DataType::Float, {4});
    b.node("Split", {"x"}, {"y", "y"}, "split");
    b.output("y");
    auto model = b.tryLoad();
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("'split'"), std::string::npos);
    EXPECT_NE(model.status().message().find("twice"), std::string::npos);
}

TEST(LoaderTest, MalformedControlFlowNodeIsADiagnosticNotACrash) {
    // Found by the loader fuzzer: ONNX's Scan shape inference dereferences a missing body.
    ModelBuilder b;
    b.opset("", 11);
    b.input("x", DataType::Float, {2, 3});
    b.node("Scan", {"x"}, {"y"}, "scan").i("num_scan_inputs", 1);  // no body attribute
    b.output("y", DataType::Float, {2, 3});
    auto model = b.load();
    ASSERT_TRUE(model);
    bool fromInference = false;
    for (const auto& d : model->diagnostics()) fromInference = fromInference || d.source == "shape-inference";
    EXPECT_TRUE(fromInference);
    EXPECT_EQ(model->graph().nodes()[0].opType, "Scan");
}

TEST(LoaderTest, CrashInsideOnnxShapeInferenceBecomesADiagnostic) {
    // Found by the loader fuzzer: ONNX 1.12's ConvTranspose inference dereferences null on this file.
    auto model = Model::load(QL_TEST_DATA_DIR "/bad_models/convtranspose_inference_crash.onnx");
    ASSERT_TRUE(model.isOk()) << model.status().message();
    bool crashed = false;
    for (const auto& d : (*model)->diagnostics()) crashed = crashed || d.message.find("crashed") != std::string::npos;
    EXPECT_TRUE(crashed);
    EXPECT_EQ((*model)->graph().nodes()[0].opType, "ConvTranspose");
}

// The shape inference gave the intermediate "y" of convModel(), which the file does not declare.
std::string inferredShapeOfY(const Model& model) {
    const auto y = model.graph().findValue("y");
    return y ? model.graph().value(*y).type.shapeString() : "no value y";
}

TEST(LoaderTest, ConcurrentLoadsInAThreadedProcessAllGetShapeInference) {
    // Inference once ran in a fork of this process; a fork taken while another thread held a lock (the sanitizers'
    // allocator lock) hung until the 120 s deadline. The helper is spawned now, whatever the other threads do.
    TempDir dir;
    const std::string path = dir.file("conv.onnx");
    convModel().save(path);
    std::atomic<bool> stop{false};
    std::thread churn([&] {
        while (!stop) std::vector<std::vector<float>> blocks(64, std::vector<float>(4096));
    });
    std::vector<std::string> shapes(8);
    std::vector<std::thread> loaders;
    for (size_t i = 0; i < shapes.size(); ++i)
        loaders.emplace_back([&, i] {
            auto model = Model::load(path);
            shapes[i] = model.isOk() ? inferredShapeOfY(**model) : model.status().message();
        });
    for (auto& loader : loaders) loader.join();
    stop = true;
    churn.join();
    for (const auto& shape : shapes) EXPECT_EQ(shape, "[1,4,8,8]");
}

TEST(LoaderTest, MissingCheckerHelperIsAWarningAndTheModelStillLoads) {
    TempDir dir;
    const std::string path = dir.file("conv.onnx");
    convModel().save(path);
    ::setenv("QUANTLENS_ONNX_CHECK", "/nonexistent/quantlens-onnx-check", 1);
    auto model = Model::load(path);
    ::unsetenv("QUANTLENS_ONNX_CHECK");
    ASSERT_TRUE(model.isOk()) << model.status().message();
    ASSERT_EQ((*model)->diagnostics().size(), 1u);
    const Diagnostic& warning = (*model)->diagnostics().front();
    EXPECT_EQ(warning.severity, Diagnostic::Severity::Warning);
    EXPECT_NE(warning.message.find("/nonexistent/quantlens-onnx-check"), std::string::npos) << warning.message;
    EXPECT_NE(warning.message.find("QUANTLENS_ONNX_CHECK"), std::string::npos) << warning.message;
    EXPECT_EQ(inferredShapeOfY(**model), "?");  // nothing inferred
}

TEST(LoaderTest, FuzzerFindingsLoadOrFailCleanly) {
    for (const char* file : {"scan_without_body.onnx", "split_output_twice.onnx"}) {
        auto model = Model::load(std::string(QL_TEST_DATA_DIR "/bad_models/") + file);
        if (!model.isOk()) {
            EXPECT_NE(model.status().message().find(file), std::string::npos);
        }
    }
}

TEST(LoaderTest, UnknownGraphOutputIsRefused) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1});
    b.node("Relu", {"x"}, {"y"});
    b.output("nothing");
    auto model = b.tryLoad();
    ASSERT_FALSE(model.isOk());
    EXPECT_NE(model.status().message().find("'nothing'"), std::string::npos);
}

TEST(LoaderTest, CheckerFailureIsADiagnosticNotAnError) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"x"}, {"y"}, "relu").i("bogus_attribute", 3);
    b.output("y", DataType::Float, {1, 4});
    auto model = b.load();
    ASSERT_TRUE(model);
    ASSERT_EQ(model->diagnostics().size(), 1u);
    EXPECT_EQ(model->diagnostics()[0].source, "checker");
    EXPECT_NE(model->diagnostics()[0].message.find("bogus_attribute"), std::string::npos)
        << model->diagnostics()[0].message;
    EXPECT_EQ(model->graph().nodes().size(), 1u);
}

TEST(LoaderTest, ShapeInferenceFailureIsADiagnosticAndShapesStillShown) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 3});
    b.input("w", DataType::Float, {4, 5});  // MatMul with mismatching inner dims
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("MatMul", {"r", "w"}, {"y"}, "matmul");
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    bool fromInference = false;
    for (const auto& d : model->diagnostics()) fromInference = fromInference || d.source == "shape-inference";
    EXPECT_TRUE(fromInference);
    const Value& r = model->graph().value(*model->graph().findValue("r"));
    EXPECT_EQ(r.type.shapeString(), "[2,3]");
}

TEST(LoaderTest, UnknownOperatorIsADiagnosticButTheGraphLoads) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1});
    b.node("MyCustomOp", {"x"}, {"y"}, "custom").domain("com.example");
    b.opset("com.example", 1);
    b.output("y", DataType::Float, {1});
    auto model = b.load();
    ASSERT_TRUE(model);
    EXPECT_EQ(model->graph().nodes()[0].domain, "com.example");
}

TEST(LoaderTest, SubgraphsOfControlFlowAreListed) {
    ModelBuilder thenB, elseB;
    thenB.node("Constant", {}, {"t"}).tensor("value", test::makeTensor("tv", DataType::Float, {1}, {1.0}));
    thenB.output("t", DataType::Float, {1});
    elseB.node("Constant", {}, {"e"}).tensor("value", test::makeTensor("ev", DataType::Float, {1}, {2.0}));
    elseB.node("Neg", {"e"}, {"ne"});
    elseB.output("ne", DataType::Float, {1});
    ModelBuilder b;
    b.input("cond", DataType::Bool, {});
    b.node("If", {"cond"}, {"y"}, "branch").graph("then_branch", thenB.graph()).graph("else_branch", elseB.graph());
    b.output("y", DataType::Float, {1});
    auto model = b.load();
    ASSERT_TRUE(model);
    const Node& node = model->graph().nodes()[0];
    ASSERT_EQ(node.subgraphs.size(), 2u);
    EXPECT_EQ(node.subgraphs[0].attribute, "then_branch");
    EXPECT_EQ(node.subgraphs[0].nodeCount, 1u);
    EXPECT_EQ(node.subgraphs[1].nodeCount, 2u);
    EXPECT_EQ(node.subgraphs[1].opCounts.at("Neg"), 1);
}

TEST(LoaderTest, InitializersAreReferencedNotCopied) {
    auto model = convModel().load();
    ASSERT_TRUE(model);
    const Graph& g = model->graph();
    const Initializer* w = g.initializerOf(*g.findValue("w"));
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->dtype, DataType::Float);
    EXPECT_EQ(w->elementCount, 108);
    EXPECT_EQ(w->byteSize, 432u);
    // The bytes point into the ModelProto's own storage.
    const auto& raw = w->proto->raw_data();
    EXPECT_EQ(static_cast<const void*>(w->rawBytes.data()), static_cast<const void*>(raw.data()));
}

TEST(LoaderTest, LargeModelOver64MegabytesLoads) {
    // Protobuf's historical 64 MB limit must not apply.
    TempDir dir;
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4096});
    const int64_t rows = 4096, cols = 4200;  // 68.8 MB of weights
    onnx::TensorProto w;
    w.set_name("w");
    w.set_data_type(onnx::TensorProto::FLOAT);
    w.add_dims(rows);
    w.add_dims(cols);
    w.mutable_raw_data()->assign(static_cast<size_t>(rows * cols * 4), '\0');
    *b.graph().add_initializer() = std::move(w);
    b.node("MatMul", {"x", "w"}, {"y"}, "mm");
    b.output("y");
    b.save(dir.file("big.onnx"));
    auto model = Model::load(dir.file("big.onnx"));
    ASSERT_TRUE(model.isOk()) << model.status().message();
    EXPECT_EQ((*model)->graph().initializers()[0].elementCount, rows * cols);
    EXPECT_EQ((*model)->graph().nodes()[0].cost.macs, rows * cols);
}

}  // namespace
}  // namespace ql
