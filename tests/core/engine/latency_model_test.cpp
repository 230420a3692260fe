// The latency model's arithmetic on a known layer, the GPU table's look-ups, and the GPU profile file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/engine/latency_model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

GpuProfile knownGpu() {
    GpuSpec gpu;
    gpu.name = "test";
    gpu.displayName = "Test GPU";
    gpu.sms = 100;
    gpu.fp16Tflops = 100;
    gpu.int8Tops = 200;
    gpu.tf32Tflops = 50;
    gpu.fp32Tflops = 10;
    gpu.memoryGBs = 1000;
    return defaultGpuProfile(gpu);
}

PredictedLayer convLayer(EnginePrecision precision, int64_t tiles) {
    PredictedLayer layer;
    layer.kind = PredictedKind::Convolution;
    layer.costClass = CostClass::Convolution;
    layer.precision = precision;
    layer.macs = 1'000'000'000;
    layer.bytes = 1'000'000;
    layer.outputTiles = tiles;
    return layer;
}

TEST(LatencyModelTest, ComputeBoundConvolution) {
    const GpuProfile profile = knownGpu();
    const ClassTerms& terms = defaultClassTerms(CostClass::Convolution);
    const LayerTime t = layerTime(convLayer(EnginePrecision::Fp16, 1000), profile);
    // 2 x 1e9 FLOP over 100 TFLOPS x the class's compute efficiency; 1 MB over 1000 GB/s x its memory efficiency.
    const double compute = 2e9 / (100e12 * terms.computeEfficiency) * 1e3;
    const double memory = 1e6 / (1000e9 * terms.memoryEfficiency) * 1e3;
    EXPECT_NEAR(t.computeMs, compute, 1e-9);
    EXPECT_NEAR(t.memoryMs, memory, 1e-9);
    EXPECT_NEAR(t.ms, terms.overheadUs / 1000 + compute, 1e-9);
    EXPECT_TRUE(t.computeBound());
}

TEST(LatencyModelTest, FewTilesLeaveSmsIdle) {
    const GpuProfile profile = knownGpu();
    const double full = layerTime(convLayer(EnginePrecision::Fp16, 1000), profile).computeMs;
    EXPECT_NEAR(layerTime(convLayer(EnginePrecision::Fp16, 50), profile).computeMs, 2 * full, 1e-9);
}

TEST(LatencyModelTest, Int8UsesTheInt8PeakAndItsEfficiency) {
    const GpuProfile profile = knownGpu();
    const ClassTerms& terms = defaultClassTerms(CostClass::Convolution);
    const LayerTime t = layerTime(convLayer(EnginePrecision::Int8, 1000), profile);
    EXPECT_NEAR(t.computeMs, 2e9 / (200e12 * terms.computeEfficiency * terms.int8Efficiency) * 1e3, 1e-9);
    // FP32 layers run on TF32 tensor cores.
    EXPECT_NEAR(layerTime(convLayer(EnginePrecision::Fp32, 1000), profile).computeMs,
                2e9 / (50e12 * terms.computeEfficiency) * 1e3, 1e-9);
}

TEST(LatencyModelTest, MemoryBoundReformatAndTotals) {
    const GpuProfile profile = knownGpu();
    EnginePrediction prediction;
    PredictedLayer reformat;
    reformat.kind = PredictedKind::Reformat;
    reformat.costClass = CostClass::Reformat;
    reformat.bytes = 3'000'000;
    prediction.layers = {convLayer(EnginePrecision::Fp16, 1000), reformat};
    const LatencyEstimate estimate = estimateLatency(prediction, profile);
    ASSERT_EQ(estimate.layers.size(), 2u);
    const ClassTerms& terms = defaultClassTerms(CostClass::Reformat);
    EXPECT_NEAR(estimate.layers[1].ms, terms.overheadUs / 1000 + 3e6 / (1000e9 * terms.memoryEfficiency) * 1e3, 1e-9);
    EXPECT_FALSE(estimate.layers[1].computeBound() && estimate.layers[1].computeMs > 0);
    EXPECT_NEAR(estimate.totalMs, estimate.layers[0].ms + estimate.layers[1].ms, 1e-12);
    EXPECT_NEAR(estimate.reformatMs, estimate.layers[1].ms, 1e-12);
}

// Activations another layer has just written are read from the L2 when they fit in half of it, at 3x the memory
// bandwidth; beyond that, or on a GPU whose L2 size is not known, from memory.
TEST(LatencyModelTest, ActivationsThatFitHalfTheL2AreReadThereFaster) {
    GpuProfile profile = knownGpu();
    PredictedLayer depthwise;
    depthwise.kind = PredictedKind::Convolution;
    depthwise.costClass = CostClass::Depthwise;
    depthwise.precision = EnginePrecision::Fp16;
    depthwise.bytes = 3'000'000;
    depthwise.activationBytesRead = 2'000'000;
    const double fromMemory = layerTime(depthwise, profile).memoryMs;
    EXPECT_NEAR(fromMemory, 3e6 / (1000e9 * defaultClassTerms(CostClass::Depthwise).memoryEfficiency) * 1e3, 1e-12);
    profile.gpu.l2MB = 4;
    EXPECT_NEAR(layerTime(depthwise, profile).memoryMs, fromMemory * (1e6 + 2e6 / 3) / 3e6, 1e-12);
    profile.gpu.l2MB = 3;  // 2 MB is more than half of it
    EXPECT_NEAR(layerTime(depthwise, profile).memoryMs, fromMemory, 1e-12);
}

TEST(GpuSpecsTest, FindsGpusByNameDisplayNameAndShortForm) {
    ASSERT_NE(findGpu("t4"), nullptr);
    EXPECT_EQ(findGpu("RTX 3060 Laptop")->name, "rtx3060-laptop");
    EXPECT_EQ(findGpu("NVIDIA GeForce RTX 4090")->name, "rtx4090");
    EXPECT_EQ(findGpu("orin")->name, "jetson-agx-orin");
    EXPECT_EQ(findGpu("nope"), nullptr);
    for (const char* required :
         {"t4", "a10", "a100", "l4", "l40s", "h100", "rtx3060", "rtx3060-laptop", "rtx3080", "rtx3090", "rtx4090",
          "rtx2000-ada", "jetson-agx-orin", "jetson-orin-nano", "jetson-agx-xavier"}) {
        const GpuSpec* gpu = findGpu(required);
        ASSERT_NE(gpu, nullptr) << required;
        EXPECT_TRUE(gpu->source.starts_with("https://")) << required;
        EXPECT_GT(gpu->int8Tops, gpu->fp16Tflops) << required;
        EXPECT_GT(gpu->memoryGBs, 0) << required;
        EXPECT_GT(gpu->sms, 0) << required;
    }
    // L2 sizes where an architecture whitepaper gives them (0: not known).
    EXPECT_EQ(findGpu("rtx3060-laptop")->l2MB, 3);
    EXPECT_EQ(findGpu("a100")->l2MB, 40);
    EXPECT_EQ(findGpu("jetson-orin-nano")->l2MB, 0);
}

TEST(GpuProfileTest, RoundTripsAndOverridesTerms) {
    GpuProfile profile = defaultGpuProfile(*findGpu("l4"));
    profile.classes[static_cast<size_t>(CostClass::Gemm)].overheadUs = 7.5;
    profile.fit =
        FitQuality{.reports = {"a.json"}, .layers = 12, .spearman = 0.9, .medianLayerError = 0.2, .totalError = 0.05};
    test::TempDir dir;
    ASSERT_TRUE(saveGpuProfile(profile, dir.file("l4.json")));
    auto loaded = loadGpuProfile(dir.file("l4.json"));
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_EQ(loaded->gpu.name, "l4");
    EXPECT_DOUBLE_EQ(loaded->classes[static_cast<size_t>(CostClass::Gemm)].overheadUs, 7.5);
    ASSERT_TRUE(loaded->fit);
    EXPECT_EQ(loaded->fit->layers, 12);

    // A hand-written profile gives only what it changes.
    const nlohmann::json json = {{"format", "quantlens-gpu-profile"},
                                 {"version", 1},
                                 {"gpu", "rtx3080"},
                                 {"specs", {{"memory_gbs", 700}}},
                                 {"classes", {{"pooling", {{"overhead_us", 1.0}}}}}};
    auto partial = gpuProfileFromJson(json, "p.json");
    ASSERT_TRUE(partial) << partial.status().message();
    EXPECT_DOUBLE_EQ(partial->gpu.memoryGBs, 700);
    EXPECT_DOUBLE_EQ(partial->gpu.int8Tops, findGpu("rtx3080")->int8Tops);
    EXPECT_DOUBLE_EQ(partial->classes[static_cast<size_t>(CostClass::Pooling)].overheadUs, 1.0);
    EXPECT_FALSE(partial->fit);
}

// INT8 layers take the INT8 kernels' own overhead and memory efficiency where a profile gives them, the class's
// otherwise (profiles written before they existed read as before); both round-trip.
TEST(GpuProfileTest, Int8KernelsHaveTheirOwnOverheadAndMemoryEfficiency) {
    const nlohmann::json old = {{"format", "quantlens-gpu-profile"},
                                {"version", 1},
                                {"gpu", "rtx3080"},
                                {"classes", {{"convolution", {{"overhead_us", 9.0}, {"memory_efficiency", 0.9}}}}}};
    auto before = gpuProfileFromJson(old, "old.json");
    ASSERT_TRUE(before) << before.status().message();
    const ClassTerms& b = before->classes[static_cast<size_t>(CostClass::Convolution)];
    EXPECT_FALSE(b.int8OverheadUs);
    EXPECT_DOUBLE_EQ(b.overheadUsOf(EnginePrecision::Int8), 9.0);
    EXPECT_DOUBLE_EQ(b.memoryEfficiencyOf(EnginePrecision::Int8), 0.9);
    EXPECT_FALSE(gpuProfileToJson(*before)["classes"]["convolution"].contains("int8_overhead_us"));

    nlohmann::json split = old;
    split["classes"]["convolution"]["int8_overhead_us"] = 3.5;
    split["classes"]["convolution"]["int8_memory_efficiency"] = 0.6;
    auto after = gpuProfileFromJson(split, "split.json");
    ASSERT_TRUE(after) << after.status().message();
    const ClassTerms& a = after->classes[static_cast<size_t>(CostClass::Convolution)];
    EXPECT_DOUBLE_EQ(a.overheadUsOf(EnginePrecision::Int8), 3.5);
    EXPECT_DOUBLE_EQ(a.overheadUsOf(EnginePrecision::Fp16), 9.0);
    EXPECT_DOUBLE_EQ(a.memoryEfficiencyOf(EnginePrecision::Int8), 0.6);
    EXPECT_DOUBLE_EQ(a.memoryEfficiencyOf(EnginePrecision::Fp32), 0.9);
    EXPECT_EQ(gpuProfileToJson(*after)["classes"]["convolution"]["int8_overhead_us"], 3.5);

    PredictedLayer layer;
    layer.kind = PredictedKind::Convolution;
    layer.costClass = CostClass::Convolution;
    layer.precision = EnginePrecision::Int8;
    layer.bytes = 1'000'000;
    EXPECT_DOUBLE_EQ(layerTime(layer, *after).overheadMs, 0.0035);
    EXPECT_NEAR(layerTime(layer, *after).memoryMs, 1e6 / (after->gpu.memoryGBs * 1e9 * 0.6) * 1e3, 1e-12);
    layer.precision = EnginePrecision::Fp16;
    EXPECT_DOUBLE_EQ(layerTime(layer, *after).overheadMs, 0.009);
}

TEST(GpuProfileTest, BadProfilesSayWhatIsWrong) {
    const auto error = [](const nlohmann::json& json) {
        auto profile = gpuProfileFromJson(json, "p.json");
        return profile ? std::string() : profile.status().message();
    };
    EXPECT_NE(error({{"gpu", "t4"}}).find("not a QuantLens GPU profile"), std::string::npos);
    EXPECT_NE(error({{"format", "quantlens-gpu-profile"}, {"version", 1}, {"gpu", "gtx"}}).find("known: t4"),
              std::string::npos);
    EXPECT_NE(
        error({{"format", "quantlens-gpu-profile"}, {"version", 1}, {"gpu", "t4"}, {"classes", {{"convolutions", {}}}}})
            .find("unknown cost class \"convolutions\""),
        std::string::npos);
    EXPECT_NE(error({{"format", "quantlens-gpu-profile"},
                     {"version", 1},
                     {"gpu", "t4"},
                     {"classes", {{"gemm", {{"compute_efficiency", 0}}}}}})
                  .find("greater than 0"),
              std::string::npos);
    auto missing = loadGpuProfile("/nonexistent/profile.json");
    EXPECT_FALSE(missing);
}

}  // namespace
}  // namespace ql
