// Issue 27 on the command line: `lint --json` lists every compute node's precision under "layers", the same as the
// export summary and as `lint` of the exported file; `run --simulate --fallback fp32` runs what ONNX Runtime runs of a
// weakly typed export (every layer that is not INT8 in FP32).
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/data/npy.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"
#include "tests/support/operator_form_model.h"

namespace ql {
namespace {

using test::TempDir;

const std::string kSamples = std::string(QL_SOURCE_DIR) + "/resources/samples/";
const std::string kModel = kSamples + "digits_cnn.onnx";

// The sample calibrated on 32 samples and the plan a tune to output-sqnr>=40 gives: its first four convs FP16.
struct Tuned {
    TempDir dir;
    std::string calib = dir.file("calib.json");
    std::string plan = dir.file("plan.json");
    Tuned() {
        const auto r = test::runCli(
            {"calibrate", kModel, "--data", kSamples + "digits_calib.npy", "--samples", "32", "-o", calib});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        std::ofstream(plan) << R"({"format": "quantlens-plan", "version": 1, "nodes": {
            "/stem/stem.0/Conv": "fp16", "/block/block.0/Conv": "fp16", "/block/block.3/Conv": "fp16",
            "/down/down.0/Conv": "fp16"}})";
    }
};

std::map<std::string, std::string> precisionsOf(const nlohmann::json& layers) {
    std::map<std::string, std::string> byName;
    for (const auto& layer : layers) byName[layer["layer"]] = layer["precision"];
    return byName;
}

nlohmann::json lintJson(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"lint"};
    all.insert(all.end(), args.begin(), args.end());
    all.push_back("--json");
    const auto r = test::runCli(all);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
}

TEST(OneTruthCliTest, LintLayersAreTheExportSummarysAndTheExportedFilesOwn) {
    Tuned tuned;
    const std::string exported = tuned.dir.file("digits.qdq.onnx"), summary = tuned.dir.file("summary.json");
    const auto q = test::runCli(
        {"quantize", kModel, "--calib", tuned.calib, "--plan", tuned.plan, "-o", exported, "--summary", summary});
    ASSERT_EQ(q.exitCode, 0) << q.err;
    const auto planned = lintJson({kModel, "--plan", tuned.plan, "--calib", tuned.calib});
    ASSERT_TRUE(planned.contains("layers")) << planned.dump();
    for (const auto& layer : planned["layers"])
        for (const char* key : {"layer", "op", "precision", "reason"}) EXPECT_TRUE(layer.contains(key)) << key;
    const auto byPlan = precisionsOf(planned["layers"]);
    EXPECT_EQ(byPlan.at("/Add"), "fp16");  // planned INT8, but nothing is left to fuse it into
    EXPECT_EQ(byPlan.at("/Relu"), "fp16");
    EXPECT_EQ(byPlan.at("/mix/mix.2/Relu"), "int8");

    std::ifstream in(summary);
    const auto bySummary = precisionsOf(nlohmann::json::parse(in)["layers"]);
    const auto byFile = precisionsOf(lintJson({exported})["layers"]);
    EXPECT_EQ(byPlan.size(), 14u);
    for (const auto& [layer, precision] : byPlan) {
        EXPECT_EQ(bySummary.at(layer), precision) << layer;
        EXPECT_EQ(byFile.at(layer), precision) << layer;
    }
}

// An export for 11 whose float layers are all planned FP32 has no float16 at all: lint of it must not ask to
// re-export with the very command that wrote it (trt-precision-flags reads "quantlens.typing").
TEST(OneTruthCliTest, LintOfAnExportWithEveryFloatLayerFp32DoesNotAskToReExportIt) {
    Tuned tuned;
    const std::string plan = tuned.dir.file("fp32.json"), exported = tuned.dir.file("fp32.qdq.onnx");
    std::ofstream(plan) << R"({"format": "quantlens-plan", "version": 1, "default": "fp32",
        "nodes": {"/head/Gemm": "int8"}})";
    const auto q =
        test::runCli({"quantize", kModel, "--calib", tuned.calib, "--plan", plan, "-o", exported, "--trt", "11"});
    ASSERT_EQ(q.exitCode, 0) << q.err;
    const auto lint = lintJson({exported, "--trt", "11"});
    for (const auto& finding : lint["findings"]) EXPECT_NE(finding["rule"], "trt-precision-flags") << finding.dump();
    EXPECT_EQ(precisionsOf(lint["layers"]).at("/mix/mix.0/Conv"), "fp32");
    // The same plan exported for a weakly typed --int8 --fp16 build and linted for 11: that advice is due there.
    const std::string weak = tuned.dir.file("weak.qdq.onnx");
    ASSERT_EQ(test::runCli({"quantize", kModel, "--calib", tuned.calib, "--plan", plan, "-o", weak, "--trt", "10",
                            "--typing", "weak"})
                  .exitCode,
              0);
    const auto weakLint = lintJson({weak, "--trt", "11"});
    bool advised = false;
    for (const auto& finding : weakLint["findings"]) advised = advised || finding["rule"] == "trt-precision-flags";
    EXPECT_TRUE(advised) << weakLint.dump();
}

// A weakly typed export pins its FP32 layers in the trtexec script; the file names them too, so `lint` of the file
// (and the window opening it) says FP32 there, not the FP16 the builder's --fp16 gives an unnamed float layer.
// Found on PP-OCRv4 det: its 5 FP16-guard layers read FP16 from its 8.6 export.
TEST(OneTruthCliTest, AWeaklyTypedExportSaysWhichLayersRunFp32) {
    Tuned tuned;
    const std::string plan = tuned.dir.file("pinned.json"), exported = tuned.dir.file("weak.qdq.onnx");
    std::ofstream(plan) << R"({"format": "quantlens-plan", "version": 1, "nodes": {"/block/block.0/Conv": "fp32"}})";
    const auto q = test::runCli({"quantize", kModel, "--calib", tuned.calib, "--plan", plan, "-o", exported, "--trt",
                                 "8.6", "--trtexec", tuned.dir.file("build.sh")});
    ASSERT_EQ(q.exitCode, 0) << q.err;
    const auto planned =
        precisionsOf(lintJson({kModel, "--plan", plan, "--calib", tuned.calib, "--trt", "8.6"})["layers"]);
    const auto written = precisionsOf(lintJson({exported, "--trt", "8.6"})["layers"]);
    EXPECT_EQ(planned.at("/block/block.0/Conv"), "fp32");
    EXPECT_EQ(written.at("/block/block.0/Conv"), "fp32");
    EXPECT_EQ(written, planned);
}

// `lint` and `predict` of a Q/DQ model with --plan describe what `quantize` of that model with the plan writes (its
// FP32 form re-exported), as `lint` and `predict` of the written file do. Before, the plan was laid over the Q/DQ
// graph: 7 of the sample's 14 layers disagreed with the written file (/Add INT8 there, FP16 in the file).
TEST(OneTruthCliTest, APlanForAQdqModelDescribesItsReExport) {
    Tuned tuned;
    const std::string qdq = tuned.dir.file("default.qdq.onnx"), reExport = tuned.dir.file("planned.qdq.onnx");
    ASSERT_EQ(test::runCli({"quantize", kModel, "--calib", tuned.calib, "-o", qdq}).exitCode, 0);
    const auto q = test::runCli({"quantize", qdq, "--calib", tuned.calib, "--plan", tuned.plan, "-o", reExport});
    ASSERT_EQ(q.exitCode, 0) << q.err;
    const auto planned = precisionsOf(lintJson({qdq, "--plan", tuned.plan})["layers"]);
    const auto written = precisionsOf(lintJson({reExport})["layers"]);
    EXPECT_EQ(planned, written);
    EXPECT_EQ(written.at("/stem/stem.0/Conv"), "fp16");
    EXPECT_EQ(written.at("/mix/mix.2/Relu"), "int8");
    const auto r = test::runCli({"lint", qdq, "--plan", tuned.plan});
    EXPECT_NE(r.err.find("--plan applies to its FP32 form"), std::string::npos) << r.err;

    const auto layerPrecisions = [](const std::vector<std::string>& args) {
        std::vector<std::string> all = {"predict"};
        all.insert(all.end(), args.begin(), args.end());
        all.insert(all.end(), {"--gpu", "t4", "--json"});
        const auto p = test::runCli(all);
        EXPECT_EQ(p.exitCode, 0) << p.err;
        const auto predicted = nlohmann::json::parse(p.out, nullptr, false);
        std::vector<std::pair<std::string, std::string>> layers;
        for (const auto& layer : predicted["layers"]) layers.emplace_back(layer["kind"], layer["precision"]);
        return layers;
    };
    const auto predictedFromPlan = layerPrecisions({qdq, "--plan", tuned.plan});
    EXPECT_FALSE(predictedFromPlan.empty());
    EXPECT_EQ(predictedFromPlan, layerPrecisions({reExport}));
}

// ONNX Runtime's operator form (ISNet: ConvInteger): `quantize` exports what the file carries (its quantized layers
// INT8, the other float layers FP16), and `lint` of the file now shows that plan, not the default placement of its
// float import. Before, ISNet's 33 MaxPools read INT8 in `lint` and FP16 in the file `quantize` wrote.
TEST(OneTruthCliTest, AnOperatorFormModelIsLintedAsQuantizeExportsIt) {
    TempDir dir;
    const std::string model = dir.file("dyn.onnx"), data = dir.file("x.npy"), calib = dir.file("calib.json");
    test::operatorFormModel(true).save(model);
    ASSERT_TRUE(
        writeNpy(data, Tensor::fromVector(DataType::Float, {4, 3, 8, 8}, test::seededFloats(4 * 3 * 64, 9))).isOk());
    ASSERT_EQ(test::runCli({"calibrate", model, "--data", data, "-o", calib}).exitCode, 0);
    for (const char* trt : {"8.6", "10"}) {
        const std::string exported = dir.file(std::string("dyn.") + trt + ".onnx");
        const auto q = test::runCli({"quantize", model, "--calib", calib, "--trt", trt, "-o", exported});
        ASSERT_EQ(q.exitCode, 0) << q.err;
        // The shipped file's operators are errors for TensorRT (exit 1); its float import's layers follow.
        const auto shipped = test::runCli({"lint", model, "--calib", calib, "--trt", trt, "--json"});
        ASSERT_EQ(shipped.exitCode, 1) << shipped.err;
        const auto planned = precisionsOf(nlohmann::json::parse(shipped.out)["layers"]);
        const auto written = precisionsOf(lintJson({exported, "--trt", trt})["layers"]);
        ASSERT_TRUE(written.contains("pool1")) << trt;
        EXPECT_EQ(planned.at("pool1"), written.at("pool1")) << trt;
        for (const auto& [layer, precision] : written) {
            if (planned.contains(layer)) {
                EXPECT_EQ(planned.at(layer), precision) << trt << " " << layer;
            }
        }
    }
}

// The layers of planned If/Loop bodies: `lint --json` lists them under their path as the export summary does, the
// file says what the plan says of them (a weakly typed file names the body layer its script pins FP32), and
// re-exporting the file keeps them. Before, reading the file back lost its bodies' precisions: `quantize` of it said
// "0 of 0 weighted layers INT8" and wrote its bodies' Q/DQ through unchanged, and the script left the FP32 layer of a
// body to the builder's --fp16.
TEST(OneTruthCliTest, PlannedBodiesReadBackAsPlannedAndReExport) {
    TempDir dir;
    const std::string model = dir.file("branches.onnx"), data = dir.file("x.npy"), calib = dir.file("calib.json"),
                      plan = dir.file("plan.json");
    std::ofstream(model, std::ios::binary) << test::convBranchesModel()->proto().SerializeAsString();
    ASSERT_TRUE(
        writeNpy(data, Tensor::fromVector(DataType::Float, {8, 4, 8, 8}, test::seededFloats(8 * 4 * 64, 5))).isOk());
    ASSERT_EQ(test::runCli({"calibrate", model, "--data", data, "-o", calib}).exitCode, 0);
    std::ofstream(plan) << R"({"format": "quantlens-plan", "version": 1, "nodes": {}, "bodies": {
        "route": {"then_branch": {"nodes": {"t2": "fp32"}}, "else_branch": {"nodes": {}}},
        "refine": {"body": {"nodes": {}}}}})";
    for (const char* trt : {"8.6", "10", "11"}) {
        SCOPED_TRACE(trt);
        const std::string exported = dir.file(std::string("q") + trt + ".onnx"),
                          script = dir.file(std::string("build") + trt + ".sh");
        const auto q = test::runCli(
            {"quantize", model, "--calib", calib, "--plan", plan, "--trt", trt, "-o", exported, "--trtexec", script});
        ASSERT_EQ(q.exitCode, 0) << q.err;
        const auto planned = precisionsOf(lintJson({model, "--calib", calib, "--plan", plan, "--trt", trt})["layers"]);
        ASSERT_TRUE(planned.contains("refine/body/l1"));
        EXPECT_EQ(planned.at("route/then_branch/t2"), "fp32");
        const auto written = precisionsOf(lintJson({exported, "--trt", trt})["layers"]);
        for (const auto& [layer, precision] : planned) {
            ASSERT_TRUE(written.contains(layer)) << layer;
            EXPECT_EQ(written.at(layer), precision) << layer;
        }
        if (std::string(trt) == "8.6") {
            std::ifstream in(script);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            EXPECT_NE(text.find("t2:fp32"), std::string::npos) << text;
        }
        const std::string again = dir.file(std::string("again") + trt + ".onnx");
        const auto r = test::runCli({"quantize", exported, "--calib", calib, "--trt", trt, "-o", again});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const auto counts = [](const std::string& out) { return out.substr(out.find(" quantized inputs")); };
        EXPECT_EQ(counts(r.out).substr(0, 60), counts(q.out).substr(0, 60)) << q.out << r.out;
        EXPECT_EQ(precisionsOf(lintJson({again, "--trt", trt})["layers"]), written);
    }
}

// A plan with nothing INT8 writes a file without Q/DQ (and, all FP32 or weakly typed, without float16): the file
// still carries that plan (its "quantlens.typing", and its FP32 pins under weak typing). Before, `lint` of it showed
// the default placement of a fresh float model, all 14 layers INT8, where the file runs FP32 or FP16.
TEST(OneTruthCliTest, AnExportWithNothingInt8ReadsBackAsPlanned) {
    Tuned tuned;
    for (const auto& [trt, precision] : {std::pair{"11", "fp32"}, std::pair{"8.6", "fp32"}, std::pair{"8.6", "fp16"}}) {
        SCOPED_TRACE(std::string(trt) + " " + precision);
        const std::string plan = tuned.dir.file(std::string(precision) + ".json"),
                          exported = tuned.dir.file(std::string(precision) + trt + ".onnx");
        std::ofstream(plan) << R"({"format": "quantlens-plan", "version": 1, "nodes": {}, "default": ")" << precision
                            << "\"}";
        const auto q =
            test::runCli({"quantize", kModel, "--calib", tuned.calib, "--plan", plan, "--trt", trt, "-o", exported});
        ASSERT_EQ(q.exitCode, 0) << q.err;
        const auto planned =
            precisionsOf(lintJson({kModel, "--calib", tuned.calib, "--plan", plan, "--trt", trt})["layers"]);
        const auto written = precisionsOf(lintJson({exported, "--trt", trt})["layers"]);
        ASSERT_EQ(planned.size(), 14u);
        for (const auto& [layer, p] : planned) EXPECT_EQ(p, precision) << layer;
        EXPECT_EQ(written, planned);
    }
}

std::vector<float> simulate(const Tuned& tuned, const std::string& input, const std::vector<std::string>& extra,
                            const std::string& out) {
    std::vector<std::string> args = {"run",       kModel,   "--input",  input,   "--simulate",
                                     tuned.calib, "--plan", tuned.plan, "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = test::runCli(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    auto y = readNpy(out + "/logits.npy");
    EXPECT_TRUE(y) << (y ? "" : y.status().message());
    return y ? y->toFloats() : std::vector<float>{};
}

TEST(OneTruthCliTest, SimulateFallbackFp32RunsAsOnnxRuntimeRunsTheWeaklyTypedExport) {
    Tuned tuned;
    auto batch = readNpy(kSamples + "digits_test.npy");
    ASSERT_TRUE(batch);
    // Eight samples: on one, the half rounding of the FP16 convs may flip no INT8 code of the layers after them
    // (the first sample's logits come out the same with auto's ranges); on eight it always shows.
    const Shape eight = {8, batch->shape()[1], batch->shape()[2], batch->shape()[3]};
    const auto values = batch->toFloats();
    const std::string input = tuned.dir.file("x.npy");
    ASSERT_TRUE(writeNpy(input, Tensor::fromVector<float>(DataType::Float, eight,
                                                          {values.begin(), values.begin() + shapeElementCount(eight)}))
                    .isOk());
    const auto fp16 = simulate(tuned, input, {}, tuned.dir.file("fp16"));
    const auto fp32 = simulate(tuned, input, {"--fallback", "fp32"}, tuned.dir.file("fp32"));
    ASSERT_EQ(fp16.size(), fp32.size());
    EXPECT_NE(fp16, fp32);  // the four FP16 convs are rounded to half in one and not in the other

    const std::string weak = tuned.dir.file("weak.onnx");
    const auto q = test::runCli({"quantize", kModel, "--calib", tuned.calib, "--plan", tuned.plan, "-o", weak, "--trt",
                                 "10", "--typing", "weak"});
    ASSERT_EQ(q.exitCode, 0) << q.err;
    const auto r = test::runCli({"run", weak, "--input", input, "--out", tuned.dir.file("file")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto file = readNpy(tuned.dir.file("file/logits.npy"));
    ASSERT_TRUE(file);
    const auto fileValues = file->toFloats();
    ASSERT_EQ(fileValues.size(), fp32.size());
    for (size_t i = 0; i < fp32.size(); ++i)
        EXPECT_NEAR(fileValues[i], fp32[i], 1e-5f * std::max(1.0f, std::fabs(fp32[i]))) << i;
}

}  // namespace
}  // namespace ql
