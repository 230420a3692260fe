// The CLI as a daily tool (issue 18): a mistyped command, an unknown input name, a bare input file, progress in a
// CI log, threads, --ignore, and every --calib/--plan reading the same formats (TensorRT cache, project).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/data/npy.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

// x [N, 8] -> Gemm -> Relu -> MatMul -> y [N, 4], with 32 samples of data.
struct Fixture {
    TempDir dir;
    std::string model = dir.file("m.onnx"), data = dir.file("x.npy"), calib = dir.file("calib.json");

    Fixture() {
        ModelBuilder b;
        b.input("x", DataType::Float, {-1, 8});
        b.initializer("w1", {6, 8}, test::seededFloats(48, 3));
        b.initializer("w2", {6, 4}, test::seededFloats(24, 4));
        b.node("Gemm", {"x", "w1"}, {"h"}, "fc1").i("transB", 1);
        b.node("Relu", {"h"}, {"r"}, "relu");
        b.node("MatMul", {"r", "w2"}, {"y"}, "fc2");
        b.output("y");
        b.save(model);
        EXPECT_TRUE(writeNpy(data, Tensor::fromVector(DataType::Float, {32, 8}, test::seededFloats(256, 9))));
    }

    void calibrate(const std::vector<std::string>& extra = {}) {
        std::vector<std::string> args = {"calibrate", model, "--data", data, "-o", calib};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = test::runCli(args);
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
};

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(CliUsabilityTest, AMistypedCommandGetsTheClosestOne) {
    const auto r = test::runCli({"inspct", "m.onnx"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("unknown command 'inspct'; did you mean 'inspect'?"), std::string::npos) << r.err;
}

TEST(CliUsabilityTest, AnUnknownInputNameIsNamedAsSuch) {
    Fixture f;
    const auto r = test::runCli({"calibrate", f.model, "--data", "wrongname=" + f.data, "-o", f.calib});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("the model has no input 'wrongname' (its inputs: x)"), std::string::npos) << r.err;
    const auto run = test::runCli({"run", f.model, "--input", "wrongname=" + f.data});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.err.find("has no input 'wrongname'"), std::string::npos) << run.err;
}

TEST(CliUsabilityTest, RunTakesABareFileForASingleInputModel) {
    Fixture f;
    const auto r = test::runCli({"run", f.model, "--input", f.data});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("y: FLOAT [32,4]"), std::string::npos) << r.out;
}

// Not a terminal: silent unless --progress, then one line per tenth, with the time left.
TEST(CliUsabilityTest, ProgressGoesToALogOnlyWhenAskedFor) {
    Fixture f;
    const auto quiet = test::runCli({"calibrate", f.model, "--data", f.data, "-o", f.calib, "--batch", "4"});
    ASSERT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    const auto loud =
        test::runCli({"calibrate", f.model, "--data", f.data, "-o", f.calib, "--batch", "4", "--progress"});
    ASSERT_EQ(loud.exitCode, 0) << loud.err;
    EXPECT_NE(loud.err.find("calibrating: reading 4/32 samples (12%)"), std::string::npos) << loud.err;
    EXPECT_NE(loud.err.find("left"), std::string::npos) << loud.err;
    EXPECT_NE(loud.err.find("32/32 samples (100%)"), std::string::npos) << loud.err;
}

TEST(CliUsabilityTest, ThreadsDefaultToTheMachinesCores) {
    for (const char* command : {"calibrate", "compare", "tune", "run", "bench"}) {
        const auto r = test::runCli({command, "--help"});
        EXPECT_NE(r.out.find("default: the machine's cores"), std::string::npos) << command << "\n" << r.out;
    }
}

TEST(CliUsabilityTest, IgnoredRulesAreNotRunAndAreListed) {
    Fixture f;
    const auto all = test::runCli({"lint", f.model, "--json"});
    ASSERT_LE(all.exitCode, 1) << all.err;
    ASSERT_NE(all.out.find("trt-int8-channel-alignment"), std::string::npos) << all.out;  // 8 -> 6 -> 4 channels
    const auto r = test::runCli({"lint", f.model, "--json", "--ignore", "trt-int8-channel-alignment"});
    ASSERT_LE(r.exitCode, 1) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["ignored_rules"], nlohmann::json::array({"trt-int8-channel-alignment"}));
    for (const auto& finding : json["findings"]) EXPECT_NE(finding["rule"], "trt-int8-channel-alignment");
    const auto unknown = test::runCli({"lint", f.model, "--ignore", "trt-no-such-rule"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("--ignore trt-no-such-rule: no such lint rule"), std::string::npos) << unknown.err;
    const auto typo = test::runCli({"lint", f.model, "--ignore", "trt-int8-gmev"});
    EXPECT_EQ(typo.exitCode, 2);
    EXPECT_NE(typo.err.find("did you mean 'trt-int8-gemv'?"), std::string::npos) << typo.err;
}

// compare --calib reads what quantize --calib reads: here the TensorRT cache calibrate wrote.
TEST(CliUsabilityTest, CompareReadsATensorRtCache) {
    Fixture f;
    const std::string cache = f.dir.file("calib.cache");
    f.calibrate({"--trt-cache", cache});
    const auto r = test::runCli({"compare", f.model, "--calib", cache, "--data", f.data, "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out)["layers"].empty());
}

// A project saved by the window gives the plan and the calibration to any command.
TEST(CliUsabilityTest, AProjectServesAsPlanAndCalibration) {
    Fixture f;
    f.calibrate();
    const nlohmann::json plan = {{"format", "quantlens-plan"}, {"version", 1}, {"nodes", {{"fc2", "fp16"}}}};
    const nlohmann::json project = {{"format", "quantlens-project"},
                                    {"version", 1},
                                    {"model", f.model},
                                    {"plan", plan},
                                    {"calibration", nlohmann::json::parse(readText(f.calib))}};
    const std::string path = f.dir.file("work.qlproj");
    test::writeFile(path, project.dump());
    const auto r = test::runCli({"compare", f.model, "--calib", path, "--plan", path, "--data", f.data, "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    bool fc2Fp16 = false;
    const auto json = nlohmann::json::parse(r.out);
    for (const auto& layer : json["layers"])
        fc2Fp16 = fc2Fp16 || (layer["node"] == "fc2" && layer["precision"] == "fp16");
    EXPECT_TRUE(fc2Fp16) << r.out;
    const auto q = test::runCli({"quantize", f.model, "--calib", path, "--plan", path, "-o", f.dir.file("q.onnx")});
    ASSERT_EQ(q.exitCode, 0) << q.err;
    EXPECT_NE(q.out.find("QuantLens project"), std::string::npos) << q.out;
    // A project without a calibration says so.
    test::writeFile(path, nlohmann::json({{"format", "quantlens-project"}, {"version", 1}, {"plan", plan}}).dump());
    const auto none = test::runCli({"compare", f.model, "--calib", path, "--data", f.data});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("this project has no calibration yet"), std::string::npos) << none.err;
}

// --calib PROJECT alone also takes the project's plan and TensorRT target (the walk-through found them ignored: the
// CLI exported another plan than the window's); --plan and --trt still override them.
TEST(CliUsabilityTest, AProjectAsCalibrationBringsItsPlanAndTarget) {
    Fixture f;
    f.calibrate();
    const nlohmann::json plan = {{"format", "quantlens-plan"}, {"version", 1}, {"nodes", {{"fc2", "fp32"}}}};
    const nlohmann::json project = {{"format", "quantlens-project"},
                                    {"version", 1},
                                    {"model", f.model},
                                    {"plan", plan},
                                    {"trt", "8.6"},
                                    {"typing", "weak"},
                                    {"calibration", nlohmann::json::parse(readText(f.calib))}};
    const std::string path = f.dir.file("work.qlproj");
    test::writeFile(path, project.dump());
    const std::string summary = f.dir.file("q.json");
    const auto q =
        test::runCli({"quantize", f.model, "--calib", path, "-o", f.dir.file("q.onnx"), "--summary", summary});
    ASSERT_EQ(q.exitCode, 0) << q.err;
    EXPECT_NE(q.out.find("for TensorRT 8.6"), std::string::npos) << q.out;
    EXPECT_NE(q.err.find("using its precision plan and its target, TensorRT 8.6"), std::string::npos) << q.err;
    bool fc2Fp32 = false;
    const nlohmann::json written = nlohmann::json::parse(readText(summary));  // alive while the loop walks it
    for (const auto& layer : written["layers"])
        fc2Fp32 = fc2Fp32 || (layer["layer"] == "fc2" && layer["precision"] == "fp32");
    EXPECT_TRUE(fc2Fp32) << readText(summary);
    const auto overridden =
        test::runCli({"quantize", f.model, "--calib", path, "--trt", "11", "-o", f.dir.file("q11.onnx")});
    ASSERT_EQ(overridden.exitCode, 0) << overridden.err;
    EXPECT_NE(overridden.out.find("for TensorRT 11"), std::string::npos) << overridden.out;
}

}  // namespace
}  // namespace ql
