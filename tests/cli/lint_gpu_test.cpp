// quantlens-cli lint --gpu / --gpu-profile: the latency rules (trt-int8-island-slower, trt-fp16-island-reformats,
// trt-int8-no-gain) time the predicted engine on the GPU; without one they stay silent and the text says so once;
// an unknown --gpu exits 2 naming the known GPUs.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

void conv(ModelBuilder& b, const std::string& name, const std::string& in, const std::string& out, int64_t channels,
          int64_t kernel) {
    b.initializer(name + ".w", {channels, channels, kernel, kernel},
                  test::seededFloats(static_cast<size_t>(channels * channels * kernel * kernel)));
    const int64_t pad = kernel / 2;
    b.node("Conv", {in, name + ".w"}, {out}, name).ints("pads", {pad, pad, pad, pad});
}

// x -> before -> relu -> island (1x1, 16 channels) -> relu -> after, at 56x56; and a plan with only the island INT8:
// its two reformats cost more than its INT8 saves.
struct IslandModel {
    std::string model;
    std::string plan;
};

IslandModel writeIslandModel(const TempDir& dir) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 56, 56});
    conv(b, "before", "x", "a", 16, 3);
    b.node("Relu", {"a"}, {"ra"}, "relu_before");
    conv(b, "island", "ra", "i", 16, 1);
    b.node("Relu", {"i"}, {"ri"}, "relu_island");
    conv(b, "after", "ri", "y", 16, 3);
    b.output("y");
    IslandModel files{dir.file("island.onnx"), dir.file("plan.json")};
    b.save(files.model);
    std::ofstream(files.plan) << R"({"format": "quantlens-plan", "version": 1, "default": "fp16",
                                     "nodes": {"island": "int8", "relu_island": "int8"}})";
    return files;
}

TEST(LintGpuCliTest, JsonWithAGpuHasTheLatencyFindings) {
    TempDir dir;
    const IslandModel files = writeIslandModel(dir);
    const auto r = test::runCli({"lint", files.model, "--plan", files.plan, "--gpu", "t4", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j["gpu"].is_object()) << r.out;
    EXPECT_EQ(j["gpu"]["name"], "t4");
    EXPECT_TRUE(j["gpu"]["estimate"].contains("fitted"));
    bool sawIsland = false;
    for (const auto& f : j["findings"]) {
        if (f["rule"] != "trt-int8-island-slower") continue;
        sawIsland = true;
        EXPECT_EQ(f["node"], "island");
        const std::string message = f["message"];
        EXPECT_NE(message.find("slower than fp16 on t4 (predicted, an estimate"), std::string::npos) << message;
        const std::string fix = f["fix"];
        EXPECT_NE(fix.find(R"({"nodes":{"island":"fp16","relu_island":"fp16"}})"), std::string::npos) << fix;
    }
    EXPECT_TRUE(sawIsland) << r.out;
}

TEST(LintGpuCliTest, WithoutAGpuTheLatencyRulesAreSilentAndTheTextSaysSoOnce) {
    TempDir dir;
    const IslandModel files = writeIslandModel(dir);
    const auto json = test::runCli({"lint", files.model, "--plan", files.plan, "--json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_TRUE(j["gpu"].is_null());
    for (const auto& f : j["findings"]) EXPECT_NE(f["rule"], "trt-int8-island-slower") << f.dump();
    const auto text = test::runCli({"lint", files.model, "--plan", files.plan});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    const std::string line =
        "latency rules (trt-int8-island-slower, trt-fp16-island-reformats, trt-int8-no-gain) "
        "need a GPU: --gpu NAME or --gpu-profile FILE";
    const size_t at = text.out.find(line);
    EXPECT_NE(at, std::string::npos) << text.out;
    EXPECT_EQ(text.out.find(line, at + 1), std::string::npos) << text.out;
    // With a GPU the text names it and says its times are estimates instead.
    const auto withGpu = test::runCli({"lint", files.model, "--plan", files.plan, "--gpu", "t4"});
    EXPECT_EQ(withGpu.out.find(line), std::string::npos);
    EXPECT_NE(withGpu.out.find("latency rules on t4: Times are estimates"), std::string::npos) << withGpu.out;
    EXPECT_NE(withGpu.out.find("[trt-int8-island-slower]"), std::string::npos) << withGpu.out;
}

TEST(LintGpuCliTest, BadGpuOptionsExit2NamingTheKnownGpus) {
    TempDir dir;
    const IslandModel files = writeIslandModel(dir);
    const auto unknown = test::runCli({"lint", files.model, "--gpu", "gtx480"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("--gpu gtx480: unknown GPU"), std::string::npos) << unknown.err;
    for (const char* name : {"t4", "a100", "l4", "jetson-orin-nano"})
        EXPECT_NE(unknown.err.find(name), std::string::npos) << name;
    const auto both = test::runCli({"lint", files.model, "--gpu", "t4", "--gpu-profile", dir.file("p.json")});
    EXPECT_EQ(both.exitCode, 2);
    const auto missing = test::runCli({"lint", files.model, "--gpu-profile", dir.file("missing.json")});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("missing.json"), std::string::npos) << missing.err;
    const auto badShapes = test::runCli({"lint", files.model, "--gpu", "t4", "--shapes", "nope=1x2"});
    EXPECT_EQ(badShapes.exitCode, 2);
}

}  // namespace
}  // namespace ql
