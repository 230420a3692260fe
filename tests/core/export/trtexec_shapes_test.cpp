// The optimization profiles of dynamic inputs in the trtexec script: parsed, checked, quoted and written.
#include "core/export/trtexec_shapes.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/export/trtexec_command.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/model_builder.h"
#include "tests/support/process.h"

namespace ql {
namespace {

using test::ModelBuilder;

TEST(TrtexecShapesTest, ParsesThreeShapesOrOneAndNamesHoldingColons) {
    auto range = parseShapeOption("x=1x3x640x640:4x3x640x640:8x3x640x640");
    ASSERT_TRUE(range) << range.status().message();
    EXPECT_EQ(range->input, "x");
    EXPECT_EQ(range->min, (Shape{1, 3, 640, 640}));
    EXPECT_EQ(range->opt, (Shape{4, 3, 640, 640}));
    EXPECT_EQ(range->max, (Shape{8, 3, 640, 640}));
    range = parseShapeOption("input_1:0=2x224x224x3");
    ASSERT_TRUE(range) << range.status().message();
    EXPECT_EQ(range->input, "input_1:0");
    EXPECT_EQ(range->min, range->max);
    EXPECT_EQ(range->opt, (Shape{2, 224, 224, 3}));
}

TEST(TrtexecShapesTest, ParseErrorsNameTheOptionTheTextAndWhatToWrite) {
    for (const std::string text : {"x", "x=", "x=1x3:2x3", "x=1x-3", "x=4x3:2x3:8x3", "x=1x3x"}) {
        auto range = parseShapeOption(text, "--shapes");
        ASSERT_FALSE(range) << text;
        EXPECT_EQ(range.status().code(), StatusCode::InvalidArgument);
        EXPECT_EQ(range.status().message().rfind("--shapes '" + text + "': ", 0), 0u) << range.status().message();
        EXPECT_NE(range.status().message().find("write NAME=MINxDIMS:OPTxDIMS:MAXxDIMS"), std::string::npos);
    }
}

// x [N,3,4,4] and "input_1:0" [N,5] are dynamic, s [1,2] is not.
std::unique_ptr<Model> twoDynamicInputs() {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 3, 4, 4});
    b.input("input_1:0", DataType::Float, {-1, 5});
    b.input("s", DataType::Float, {1, 2});
    b.node("Relu", {"x"}, {"a"}, "relu_a");
    b.node("Relu", {"input_1:0"}, {"b"}, "relu_b");
    b.node("Relu", {"s"}, {"c"}, "relu_c");
    for (const char* out : {"a", "b", "c"}) b.output(out);
    return b.load();
}

TEST(TrtexecShapesTest, GivenShapesOverTheCalibrationsAndTheRestMissing) {
    auto model = twoDynamicInputs();
    const std::vector<InputShapeRange> calibrated = {{"x", {8, 3, 4, 4}, {8, 3, 4, 4}, {8, 3, 4, 4}}};
    auto shapes = trtexecShapes(model->graph(), calibrated, {});
    ASSERT_TRUE(shapes) << shapes.status().message();
    ASSERT_EQ(shapes->inputs.size(), 2u) << "the static input needs no profile";
    EXPECT_EQ(shapes->inputs[0].source, "calibration");
    EXPECT_EQ(shapes->inputs[0].declared, "[N,3,4,4]");
    // Calibration chose the batch of 8 itself: the profile takes batches from 1.
    EXPECT_EQ(shapes->inputs[0].range.min, (Shape{1, 3, 4, 4}));
    EXPECT_EQ(shapes->inputs[0].range.opt, (Shape{8, 3, 4, 4}));
    EXPECT_EQ(shapes->missing(), std::vector<std::string>{"input_1:0"});
    const auto advice = missingShapesAdvice(*shapes);
    ASSERT_EQ(advice.size(), 1u);
    EXPECT_NE(advice[0].find("give --shapes input_1:0=MIN:OPT:MAX, each like Nx5"), std::string::npos) << advice[0];
    const auto given = *parseShapeOption("x=1x3x4x4:2x3x4x4:4x3x4x4");
    shapes = trtexecShapes(model->graph(), calibrated, {given, *parseShapeOption("input_1:0=1x5:2x5:3x5")});
    ASSERT_TRUE(shapes) << shapes.status().message();
    EXPECT_EQ(shapes->inputs[0].source, "--shapes");
    EXPECT_EQ(shapes->inputs[0].range.max, (Shape{4, 3, 4, 4}));
    EXPECT_TRUE(shapes->missing().empty());
    auto twice = trtexecShapes(model->graph(), {}, {given, given});
    ASSERT_FALSE(twice);
    EXPECT_NE(twice.status().message().find("input 'x' is given twice"), std::string::npos) << twice.status().message();
}

// PP-OCR's detector: a fixed batch of 1 and a dynamic H/W, calibrated at 640x640, gets exactly that.
TEST(TrtexecShapesTest, AFixedBatchWithDynamicSizesKeepsTheCalibratedShape) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, -1, -1});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    auto model = b.load();
    auto shapes = trtexecShapes(model->graph(), {{"x", {1, 3, 640, 640}, {1, 3, 640, 640}, {1, 3, 640, 640}}}, {});
    ASSERT_TRUE(shapes);
    ASSERT_EQ(shapes->inputs.size(), 1u);
    EXPECT_EQ(shapes->inputs[0].range.min, (Shape{1, 3, 640, 640}));
    EXPECT_EQ(shapes->inputs[0].range.max, (Shape{1, 3, 640, 640}));
    // A calibration of another shape than the model declares (another model's file) is not used.
    shapes = trtexecShapes(model->graph(), {{"x", {1, 1, 640, 640}, {1, 1, 640, 640}, {1, 1, 640, 640}}}, {});
    ASSERT_TRUE(shapes);
    EXPECT_EQ(shapes->missing(), std::vector<std::string>{"x"});
}

// What trtexec receives once the shell has parsed the script: a name with ':' in single quotes, which trtexec strips.
TEST(TrtexecShapesTest, TheShellPassesTrtexecOneListPerFlagWithQuotedNames) {
    auto model = twoDynamicInputs();
    auto shapes = trtexecShapes(model->graph(), {},
                                {*parseShapeOption("x=1x3x4x4:2x3x4x4:4x3x4x4"), *parseShapeOption("input_1:0=2x5")});
    ASSERT_TRUE(shapes);
    auto flags = trtexecShapeFlags(*shapes);
    ASSERT_TRUE(flags) << flags.status().message();
    const auto r = test::runProcess({"/bin/sh", "-c", "printf '%s\\n' " + *flags});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out,
              "--minShapes=x:1x3x4x4,'input_1:0':2x5\n--optShapes=x:2x3x4x4,'input_1:0':2x5\n"
              "--maxShapes=x:4x3x4x4,'input_1:0':2x5\n");
}

TEST(TrtexecShapesTest, AnInputNameTrtexecCannotParseIsAnErrorNamingIt) {
    ModelBuilder b;
    b.input("a,b", DataType::Float, {-1, 2});
    b.node("Relu", {"a,b"}, {"y"}, "relu");
    b.output("y");
    auto model = b.load();
    auto shapes = trtexecShapes(model->graph(), {{"a,b", {1, 2}, {1, 2}, {1, 2}}}, {});
    ASSERT_TRUE(shapes);
    auto flags = trtexecShapeFlags(*shapes);
    ASSERT_FALSE(flags);
    EXPECT_NE(flags.status().message().find("input 'a,b': trtexec cannot name an input holding ','"), std::string::npos)
        << flags.status().message();
}

QdqExport dynamicExport() {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.output("y");
    auto model = b.load();
    auto result =
        exportQdq(*model, PrecisionPlan(model->graph(), Precision::Int8), test::uniformCalibration(model->graph()), {},
                  {.trt = {TrtVersion::Trt11, TrtTyping::Strong}});
    EXPECT_TRUE(result) << result.status().message();
    return result ? std::move(*result) : QdqExport{};
}

TEST(TrtexecShapesTest, TheScriptChangesToItsFolderAndCarriesTheProfile) {
    const auto result = dynamicExport();
    ASSERT_TRUE(result.prepared);
    auto shapes = trtexecShapes(result.prepared->graph(), {{"x", {1, 3, 6, 6}, {4, 3, 6, 6}, {8, 3, 6, 6}}}, {});
    ASSERT_TRUE(shapes);
    auto text = trtexecCommand(result, {"/models/out/q.onnx", "/models/build.sh", "quantlens-cli", *shapes});
    ASSERT_TRUE(text) << text.status().message();
    EXPECT_EQ(text->substr(text->find('\n') + 1),
              "# Builds the TensorRT 11.x engine of out/q.onnx (11.x, strongly typed; INT8 from the Q/DQ nodes, FP16 "
              "from the model's float16 islands, no precision flags). Written by quantlens-cli.\n"
              "cd \"$(dirname \"$0\")\" || exit 1\n"
              "trtexec --onnx=out/q.onnx --saveEngine=out/q.engine \\\n"
              "  --minShapes=x:1x3x6x6 --optShapes=x:4x3x6x6 --maxShapes=x:8x3x6x6\n");
    shapes = trtexecShapes(result.prepared->graph(), {}, {});
    ASSERT_TRUE(shapes);
    text = trtexecCommand(result, {"q.onnx", "build.sh", "", *shapes});
    ASSERT_TRUE(text);
    EXPECT_NE(text->find("# Input 'x' [N,3,6,6] has dynamic dimensions and no shapes"), std::string::npos) << *text;
    EXPECT_EQ(text->find("Shapes="), std::string::npos) << *text;
}

TEST(TrtexecShapesTest, PathsFromTheScriptFolder) {
    EXPECT_EQ(pathFromScriptFolder("/a/b/q.onnx", "/a/b/build.sh"), "q.onnx");
    EXPECT_EQ(pathFromScriptFolder("/a/out/q.onnx", "/a/scripts/build.sh"), "../out/q.onnx");
    EXPECT_EQ(pathFromScriptFolder("out/./q.onnx", "build.sh"), "out/q.onnx");
    const auto cwd = std::filesystem::current_path();
    EXPECT_EQ(pathFromScriptFolder("q.onnx", (cwd / "s" / "b.sh").string()), "../q.onnx");
}

}  // namespace
}  // namespace ql
