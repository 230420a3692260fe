// quantlens-cli fit-gpu and quantize --ab-scripts (issue 28, items 3 and 5): a GPU profile fitted to engine reports
// timed with known terms finds them and `predict --gpu-profile` says it is fitted; --project keeps it for `predict
// --calib`; bad report files exit 2 naming the file; the A/B scripts for 10 and 11 lint clean, name the reports
// they write, and `fit-gpu DIR` imports them and says which predictions were right.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/engine/ab_import.h"
#include "core/engine/gpu_specs.h"
#include "tests/cli/ab_builds_fixture.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::readText;
using test::TempDir;
using test::truthProfile;
using test::writeCalibration;
using test::writeModel;
using test::writeReports;

nlohmann::json runJson(const std::vector<std::string>& args) {
    const auto r = test::runCli(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.exitCode == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

TEST(FitGpuCliTest, FitsKnownTermsAndPredictSaysFitted) {
    TempDir dir;
    const std::string truth = truthProfile(dir);
    const std::string small = writeModel(dir, "small", 32), large = writeModel(dir, "large", 64);
    const auto fp16Plan = dir.file("fp16.plan.json");
    test::writeFile(fp16Plan, R"({"format": "quantlens-plan", "version": 1, "default": "fp16", "nodes": {}})");
    ASSERT_TRUE(writeReports(small, truth, dir.file("small"), {"--plan", fp16Plan}));
    ASSERT_TRUE(writeReports(large, truth, dir.file("large")));  // the default INT8 placement
    // Either order of a model's two reports.
    const auto r = test::runCli({"fit-gpu", "--gpu", "rtx3060-laptop", "-o", dir.file("fitted.json"), small,
                                 dir.file("small.profile.json"), dir.file("small.layers.json"), large,
                                 dir.file("large.layers.json"), dir.file("large.profile.json")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("fitted to"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("leave-one-out"), std::string::npos) << r.out;
    const auto fitted = nlohmann::json::parse(readText(dir.file("fitted.json")));
    EXPECT_EQ(fitted["gpu"], "rtx3060-laptop");
    // From the defaults (0.55, 3 us) towards the truth (0.3, 6 us); the core test recovers them closely from more
    // layers, here the prior keeps part of the way. The float terms learn from the FP16 report alone and the INT8
    // kernels' from the INT8 one (7 convolutions each), so the prior keeps more than when both reports fitted one set.
    const auto& conv = fitted["classes"]["convolution"];
    EXPECT_LT(conv["compute_efficiency"].get<double>(), 0.45) << conv;
    EXPECT_GT(conv["overhead_us"].get<double>(), 4.5) << conv;
    // The truth's INT8 kernels: its overhead (6 us) and 0.3 x the default INT8 efficiency (0.75) of the INT8 peak.
    EXPECT_GT(conv["int8_overhead_us"].get<double>(), 4.5) << conv;
    EXPECT_LT(conv["compute_efficiency"].get<double>() * conv["int8_efficiency"].get<double>(), 0.32) << conv;
    ASSERT_TRUE(fitted.contains("fit"));
    EXPECT_EQ(fitted["fit"]["reports"].size(), 2u);
    EXPECT_LT(fitted["fit"]["total_error"].get<double>(), 0.12);
    ASSERT_TRUE(fitted["fit"].contains("leave_one_out_error"));

    const auto j = runJson({"predict", large, "--gpu-profile", dir.file("fitted.json"), "--json"});
    EXPECT_TRUE(j["estimate"]["fitted"]);
    EXPECT_DOUBLE_EQ(j["estimate"]["checked_error"].get<double>(), fitted["fit"]["leave_one_out_error"].get<double>());
    EXPECT_NE(j["estimate"]["note"].get<std::string>().find("leave-one-out"), std::string::npos);
}

TEST(FitGpuCliTest, TheProjectKeepsTheProfileForLaterPredictions) {
    TempDir dir;
    const std::string model = writeModel(dir, "m", 32);
    ASSERT_TRUE(writeReports(model, truthProfile(dir), dir.file("m")));
    const std::string project = dir.file("work.qlproj");
    nlohmann::json work = {{"format", "quantlens-project"}, {"version", 1}, {"model", "m.onnx"}, {"trt", "10.x"}};
    work["calibration"] = nlohmann::json::parse(readText(writeCalibration(dir)));
    test::writeFile(project, work.dump());
    const auto r = test::runCli({"fit-gpu", "--gpu", "rtx3060-laptop", "-o", dir.file("gpu.json"), "--project", project,
                                 model, dir.file("m.layers.json"), dir.file("m.profile.json")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto saved = nlohmann::json::parse(readText(project));
    EXPECT_EQ(saved["model"], "m.onnx");  // the rest of the project stays
    ASSERT_TRUE(saved.contains("gpu_profile"));
    const auto p = test::runCli({"predict", model, "--calib", project, "--json"});
    ASSERT_EQ(p.exitCode, 0) << p.err;
    const auto j = nlohmann::json::parse(p.out);
    EXPECT_TRUE(j["estimate"]["fitted"]);
    EXPECT_EQ(j["gpu"]["profile"], project);
    EXPECT_NE(p.err.find("its GPU profile"), std::string::npos) << p.err;
    // --gpu overrides it.
    EXPECT_FALSE(runJson({"predict", model, "--calib", project, "--gpu", "t4", "--json"})["estimate"]["fitted"]);
    // lint's latency rules time the engine on the project's profile too.
    const auto l = test::runCli({"lint", model, "--calib", project, "--json"});
    ASSERT_LE(l.exitCode, 1) << l.err;
    const auto lj = nlohmann::json::parse(l.out);
    EXPECT_EQ(lj["gpu"]["profile"], project);
    EXPECT_TRUE(lj["gpu"]["estimate"]["fitted"]);
}

TEST(FitGpuCliTest, BadReportFilesExit2NamingTheFile) {
    TempDir dir;
    const std::string model = writeModel(dir, "m", 32);
    ASSERT_TRUE(writeReports(model, truthProfile(dir), dir.file("m")));
    const std::string layers = dir.file("m.layers.json"), profile = dir.file("m.profile.json");
    const auto fit = [&](const std::vector<std::string>& files) {
        std::vector<std::string> args = {"fit-gpu", "--gpu", "rtx3060-laptop", "-o", dir.file("out.json")};
        args.insert(args.end(), files.begin(), files.end());
        return test::runCli(args);
    };
    const auto expectError = [&](const std::vector<std::string>& files, const std::string& names) {
        const auto r = fit(files);
        EXPECT_EQ(r.exitCode, 2) << r.out;
        EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
    };
    expectError({model, dir.file("missing.layers.json"), profile}, "missing.layers.json");
    test::writeFile(dir.file("cut.json"), readText(layers).substr(0, 40));
    expectError({model, dir.file("cut.json"), profile}, "cut.json");
    expectError({layers, model, profile}, "m.layers.json");  // a report before its model
    expectError({model, layers}, "no profile");
    expectError({model, profile, profile}, "already has its profile");
    const std::string other = writeModel(dir, "other", 16);
    test::writeFile(dir.file("alien.layers.json"),
                    R"({"Layers": [{"Name": "someone_elses_conv", "LayerType": "CaskConvolution"}], "Bindings": []})");
    test::writeFile(dir.file("alien.profile.json"),
                    R"([{"count": 1}, {"name": "someone_elses_conv", "averageMs": 1}])");
    expectError({other, dir.file("alien.layers.json"), dir.file("alien.profile.json")}, "alien.layers.json");
    // A folder whose scripts did not run: models without reports.
    std::filesystem::create_directories(dir.file("unrun"));
    std::filesystem::copy_file(model, dir.file("unrun/plan.onnx"));
    expectError({dir.file("unrun")}, "no model with its engine reports");
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.json")));
    const auto noGpu = test::runCli({"fit-gpu", "-o", dir.file("out.json"), model, layers, profile});
    EXPECT_EQ(noGpu.exitCode, 2);
    EXPECT_NE(noGpu.err.find("--gpu NAME"), std::string::npos) << noGpu.err;
}

class AbScriptsCliTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AbScriptsCliTest, ScriptsLintCleanNameTheirReportsAndImport) {
    const std::string trt = GetParam();
    TempDir dir;
    const std::string model = writeModel(dir, "m", 32);
    const std::string ab = dir.file("ab");
    const auto q = test::runCli({"quantize", model, "--calib", writeCalibration(dir), "-o", dir.file("q.onnx"), "--trt",
                                 trt, "--ab-scripts", ab, "--gpu", "rtx3060-laptop"});
    ASSERT_EQ(q.exitCode, 0) << q.err;
    EXPECT_NE(q.out.find("trtexec scripts for"), std::string::npos) << q.out;
    const auto manifest = nlohmann::json::parse(readText(ab + "/ab-scripts.json"));
    EXPECT_EQ(manifest["format"], "quantlens-ab-scripts");
    ASSERT_GE(manifest["variants"].size(), 2u);
    EXPECT_EQ(manifest["variants"][0]["name"], "plan");
    EXPECT_EQ(manifest["variants"][1]["name"], "fp16");
    const std::string readme = readText(ab + "/README.md");
    EXPECT_NE(readme.find("quantlens-cli fit-gpu --gpu rtx3060-laptop"), std::string::npos) << readme;
    EXPECT_NE(readme.find("sh run_all.sh"), std::string::npos);
    for (const auto& variant : manifest["variants"]) {
        const std::string name = variant["name"];
        const std::string script = readText(ab + "/" + name + ".sh");
        const std::vector<std::string> flags = {
            "--onnx=" + name + ".onnx", "--profilingVerbosity=detailed", "--exportLayerInfo=" + name + ".layers.json",
            "--exportProfile=" + name + ".profile.json", "--exportTimes=" + name + ".times.json"};
        for (const std::string& flag : flags) EXPECT_NE(script.find(flag), std::string::npos) << flag << "\n" << script;
        if (trt == "11") {
            for (const char* gone : {"--int8", "--fp16", "--stronglyTyped", "--best"})
                EXPECT_EQ(script.find(gone), std::string::npos) << gone << "\n" << script;
        }
        // lint --command: trt-precision-flags finds nothing to say against the script.
        const auto lint = test::runCli(
            {"lint", ab + "/" + name + ".onnx", "--trt", trt, "--command", ab + "/" + name + ".sh", "--json"});
        ASSERT_NE(lint.exitCode, 2) << lint.err;
        // Held: a range-for over a member of the temporary would read it after it is gone (ASan saw it).
        const nlohmann::json report = nlohmann::json::parse(lint.out);
        for (const auto& f : report["findings"])
            EXPECT_NE(f["rule"], "trt-precision-flags") << name << ": " << f.dump();
        EXPECT_NE(readText(ab + "/run_all.sh").find(name + ".sh"), std::string::npos);
    }
    // The fp16 variant carries no Q/DQ.
    EXPECT_EQ(readText(ab + "/fp16.onnx").find("QuantizeLinear"), std::string::npos);

    // The builds ran on a GPU timed by known terms: fit-gpu DIR imports every variant and judges each A/B pair.
    const std::string truth = truthProfile(dir);
    for (const auto& variant : manifest["variants"]) {
        const std::string name = variant["name"];
        ASSERT_TRUE(writeReports(ab + "/" + name + ".onnx", truth, ab + "/" + name, {"--trt", trt}));
    }
    const auto fit = test::runCli({"fit-gpu", "--gpu", "rtx3060-laptop", "--trt", trt, "-o", dir.file("gpu.json"), ab});
    ASSERT_EQ(fit.exitCode, 0) << fit.err;
    EXPECT_NE(fit.out.find("A/B builds"), std::string::npos) << fit.out;
    EXPECT_NE(fit.out.find("plan vs fp16"), std::string::npos) << fit.out;
    const auto fitted = nlohmann::json::parse(readText(dir.file("gpu.json")));
    EXPECT_EQ(fitted["fit"]["reports"].size(), manifest["variants"].size());

    // The window's import (core/engine/ab_import.h): the manifest's GPU, version and typing, the same verdicts.
    const auto imported = importAbFolder(ab);
    ASSERT_TRUE(imported) << imported.status().message();
    EXPECT_EQ(imported->fitted.gpu.name, "rtx3060-laptop");
    ASSERT_TRUE(imported->fitted.fit);
    EXPECT_EQ(imported->fitted.fit->reports.size(), manifest["variants"].size());
    EXPECT_TRUE(imported->notRun.empty());
    ASSERT_FALSE(imported->outcomes.empty());
    EXPECT_NE(abOutcomesText(imported->outcomes).find("plan vs fp16"), std::string::npos);
    // A profile of another GPU is not refined: the fit starts from the manifest's GPU.
    const GpuProfile t4 = defaultGpuProfile(*findGpu("t4"));
    const auto other = importAbFolder(ab, &t4);
    ASSERT_TRUE(other);
    EXPECT_EQ(other->fitted.gpu.name, "rtx3060-laptop");
}

INSTANTIATE_TEST_SUITE_P(Trt, AbScriptsCliTest, ::testing::Values("10", "11"));

TEST(AbScriptsCliTest, NeedsAGpuAndGpuNeedsTheScripts) {
    TempDir dir;
    const std::string model = writeModel(dir, "m", 16);
    const std::string calib = writeCalibration(dir);
    const auto none =
        test::runCli({"quantize", model, "--calib", calib, "-o", dir.file("q.onnx"), "--ab-scripts", dir.file("ab")});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("--gpu NAME"), std::string::npos) << none.err;
    const auto alone = test::runCli({"quantize", model, "--calib", calib, "-o", dir.file("q.onnx"), "--gpu", "t4"});
    EXPECT_EQ(alone.exitCode, 2);
    EXPECT_NE(alone.err.find("--ab-scripts"), std::string::npos) << alone.err;
}

}  // namespace
}  // namespace ql
