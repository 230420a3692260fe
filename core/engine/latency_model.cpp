#include "core/engine/latency_model.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/common/atomic_file.h"
#include "core/common/json_file.h"
#include "core/common/json_util.h"

namespace ql {

namespace {

// The unfitted terms, per cost class (docs/performance-model.md says where each comes from): tensor-core kernels
// reach about half their peak on the layer sizes of vision models, streaming kernels about 60-75% of the bandwidth,
// and every layer costs a few microseconds to launch and ramp (the smallest layers of the RTX 3060 profiles take
// 3-5 us).
const std::array<ClassTerms, kCostClassCount> kDefaults = {{
    {0.55, 0.75, 3.0, 0.75},  // convolution
    {0.50, 0.60, 3.0, 1.0},   // depthwise (of the CUDA-core rate)
    {0.50, 0.75, 3.0, 0.75},  // gemm
    {0.40, 0.60, 5.0, 0.75},  // attention
    {0.50, 0.60, 2.5, 1.0},   // pooling
    {0.50, 0.60, 2.5, 1.0},   // pointwise
    {0.50, 0.50, 3.0, 1.0},   // normalization (softmax, reductions, Myelin kgen)
    {0.50, 0.50, 2.0, 1.0},   // reformat
    {0.50, 0.50, 2.5, 1.0},   // shuffle
    {0.50, 0.50, 2.0, 1.0},   // shape_call
}};

// Where the unfitted totals were checked (bench/README.md); filled in from bench/engine_predict_bench.py.
constexpr double kCheckedTotalError = 0.23;
constexpr const char* kCheckedNote =
    "unfitted estimate from public GPU specifications; on the 8 real engines of bench/README.md the predicted totals "
    "were off by a median of 23% (at most 52%, per-layer times more): a GPU profile fitted to your reports does better";

double peakTops(const GpuSpec& gpu, EnginePrecision precision, CostClass cls) {
    if (cls == CostClass::Depthwise) {
        const double scale = precision == EnginePrecision::Int8 ? 4.0 : precision == EnginePrecision::Fp32 ? 1.0 : 2.0;
        return gpu.fp32Tflops * scale;
    }
    switch (precision) {
        case EnginePrecision::Int8:
        case EnginePrecision::Int4:
            return gpu.int8Tops;
        case EnginePrecision::Fp8:
        case EnginePrecision::Fp4:
            return gpu.fp8Tflops > 0 ? gpu.fp8Tflops : gpu.fp16Tflops;
        case EnginePrecision::Fp16:
        case EnginePrecision::Bf16:
            return gpu.fp16Tflops;
        default:
            return gpu.tf32Tflops > 0 ? gpu.tf32Tflops : gpu.fp32Tflops;
    }
}

Status readNumber(const nlohmann::json& object, const char* key, double& value, const std::string& label) {
    if (!object.contains(key)) return Status::ok();
    const nlohmann::json& v = object.at(key);
    if (!v.is_number() || v.get<double>() < 0)
        return invalidArgument(label + ": \"" + key + "\" must be a number >= 0");
    value = v.get<double>();
    return Status::ok();
}

Status readOptionalNumber(const nlohmann::json& object, const char* key, std::optional<double>& value,
                          const std::string& label) {
    if (!object.contains(key)) return Status::ok();
    double number = 0.0;
    QL_RETURN_IF_ERROR(readNumber(object, key, number, label));
    value = number;
    return Status::ok();
}

Status readSpecs(const nlohmann::json& specs, GpuSpec& gpu, const std::string& label) {
    if (!specs.is_object()) return invalidArgument(label + ": \"specs\" must be an object");
    QL_RETURN_IF_ERROR(readNumber(specs, "int8_tops", gpu.int8Tops, label));
    QL_RETURN_IF_ERROR(readNumber(specs, "fp16_tflops", gpu.fp16Tflops, label));
    QL_RETURN_IF_ERROR(readNumber(specs, "fp8_tflops", gpu.fp8Tflops, label));
    QL_RETURN_IF_ERROR(readNumber(specs, "tf32_tflops", gpu.tf32Tflops, label));
    QL_RETURN_IF_ERROR(readNumber(specs, "fp32_tflops", gpu.fp32Tflops, label));
    QL_RETURN_IF_ERROR(readNumber(specs, "memory_gbs", gpu.memoryGBs, label));
    QL_RETURN_IF_ERROR(readNumber(specs, "l2_mb", gpu.l2MB, label));
    double sms = gpu.sms;
    QL_RETURN_IF_ERROR(readNumber(specs, "sms", sms, label));
    gpu.sms = static_cast<int>(sms);
    return Status::ok();
}

Status readClasses(const nlohmann::json& classes, GpuProfile& profile, const std::string& label) {
    if (!classes.is_object()) return invalidArgument(label + ": \"classes\" must be an object");
    for (const auto& [name, terms] : classes.items()) {
        const auto cls = parseCostClass(name);
        if (!cls) {
            std::string known;
            for (int i = 0; i < kCostClassCount; ++i)
                known += (known.empty() ? "" : ", ") + std::string(costClassName(static_cast<CostClass>(i)));
            return invalidArgument(label + ": unknown cost class \"" + name + "\" (known: " + known + ")");
        }
        if (!terms.is_object()) return invalidArgument(label + ": class \"" + name + "\" must be an object");
        ClassTerms& t = profile.classes[static_cast<size_t>(*cls)];
        const std::string where = label + " class \"" + name + "\"";
        QL_RETURN_IF_ERROR(readNumber(terms, "compute_efficiency", t.computeEfficiency, where));
        QL_RETURN_IF_ERROR(readNumber(terms, "memory_efficiency", t.memoryEfficiency, where));
        QL_RETURN_IF_ERROR(readNumber(terms, "overhead_us", t.overheadUs, where));
        QL_RETURN_IF_ERROR(readNumber(terms, "int8_efficiency", t.int8Efficiency, where));
        QL_RETURN_IF_ERROR(readOptionalNumber(terms, "int8_memory_efficiency", t.int8MemoryEfficiency, where));
        QL_RETURN_IF_ERROR(readOptionalNumber(terms, "int8_overhead_us", t.int8OverheadUs, where));
        if (t.computeEfficiency <= 0 || t.memoryEfficiency <= 0 || t.int8Efficiency <= 0 ||
            t.int8MemoryEfficiency.value_or(1.0) <= 0)
            return invalidArgument(where + ": efficiencies must be greater than 0");
    }
    return Status::ok();
}

std::optional<double> optionalNumber(const nlohmann::json& object, const char* key) {
    if (!object.contains(key) || !object.at(key).is_number()) return std::nullopt;
    return object.at(key).get<double>();
}

// "per_report" is what the fit wrote for people; an entry it cannot read is skipped, not an error.
std::vector<FitReportQuality> readPerReport(const nlohmann::json& fit) {
    std::vector<FitReportQuality> reports;
    if (!fit.contains("per_report") || !fit.at("per_report").is_array()) return reports;
    for (const auto& entry : fit.at("per_report")) {
        if (!entry.is_object()) continue;
        FitReportQuality r;
        r.files = {memberString(entry, "model"), memberString(entry, "layers"), memberString(entry, "profile")};
        r.layers = static_cast<int>(memberInt(entry, "observations", 0));
        r.spearman = optionalNumber(entry, "spearman");
        r.medianLayerError = optionalNumber(entry, "median_layer_error").value_or(0.0);
        r.measuredMs = optionalNumber(entry, "measured_ms").value_or(0.0);
        r.predictedMs = optionalNumber(entry, "predicted_ms").value_or(0.0);
        r.totalError = optionalNumber(entry, "total_error").value_or(0.0);
        r.leaveOneOutError = optionalNumber(entry, "leave_one_out_error");
        reports.push_back(std::move(r));
    }
    return reports;
}

Status readFit(const nlohmann::json& fit, GpuProfile& profile, const std::string& label) {
    if (!fit.is_object()) return invalidArgument(label + ": \"fit\" must be an object");
    FitQuality quality;
    if (fit.contains("reports") && fit.at("reports").is_array())
        for (const auto& r : fit.at("reports"))
            if (r.is_string()) quality.reports.push_back(r.get<std::string>());
    quality.layers = static_cast<int>(memberInt(fit, "layers", 0));
    QL_RETURN_IF_ERROR(readNumber(fit, "median_layer_error", quality.medianLayerError, label));
    QL_RETURN_IF_ERROR(readNumber(fit, "p90_layer_error", quality.p90LayerError, label));
    QL_RETURN_IF_ERROR(readNumber(fit, "total_error", quality.totalError, label));
    if (fit.contains("leave_one_out_error")) {
        double error = 0.0;
        QL_RETURN_IF_ERROR(readNumber(fit, "leave_one_out_error", error, label));
        quality.leaveOneOutError = error;
    }
    if (fit.contains("spearman") && fit.at("spearman").is_number()) quality.spearman = fit.at("spearman").get<double>();
    quality.perReport = readPerReport(fit);
    profile.fit = std::move(quality);
    return Status::ok();
}

nlohmann::json optionalJson(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json();
}

nlohmann::json fitJson(const FitQuality& fit) {
    nlohmann::json perReport = nlohmann::json::array();
    for (const FitReportQuality& r : fit.perReport)
        perReport.push_back({{"model", r.files.model},
                             {"layers", r.files.layers},
                             {"profile", r.files.profile},
                             {"observations", r.layers},
                             {"spearman", optionalJson(r.spearman)},
                             {"median_layer_error", r.medianLayerError},
                             {"measured_ms", r.measuredMs},
                             {"predicted_ms", r.predictedMs},
                             {"total_error", r.totalError},
                             {"leave_one_out_error", optionalJson(r.leaveOneOutError)}});
    nlohmann::json json = {{"reports", fit.reports},
                           {"layers", fit.layers},
                           {"spearman", fit.spearman},
                           {"median_layer_error", fit.medianLayerError},
                           {"p90_layer_error", fit.p90LayerError},
                           {"total_error", fit.totalError}};
    if (fit.leaveOneOutError) json["leave_one_out_error"] = *fit.leaveOneOutError;
    if (!perReport.empty()) json["per_report"] = perReport;
    return json;
}

}  // namespace

const ClassTerms& defaultClassTerms(CostClass cls) {
    return kDefaults[static_cast<size_t>(cls)];
}

GpuProfile defaultGpuProfile(const GpuSpec& gpu) {
    GpuProfile profile;
    profile.gpu = gpu;
    profile.classes = kDefaults;
    return profile;
}

Result<GpuProfile> gpuProfileFromJson(const nlohmann::json& json, const std::string& label) {
    if (!json.is_object() || memberString(json, "format") != "quantlens-gpu-profile")
        return invalidArgument(label + ": not a QuantLens GPU profile (\"format\": \"quantlens-gpu-profile\" missing)");
    if (memberInt(json, "version", 0) != 1)
        return invalidArgument(label + ": unsupported GPU profile version (this QuantLens reads version 1)");
    const std::string name = memberString(json, "gpu");
    const GpuSpec* gpu = findGpu(name);
    if (gpu == nullptr)
        return invalidArgument(label + ": \"gpu\": \"" + name +
                               "\" is not a GPU of the table (known: " + knownGpuNames() + ")");
    GpuProfile profile = defaultGpuProfile(*gpu);
    if (json.contains("specs")) QL_RETURN_IF_ERROR(readSpecs(json.at("specs"), profile.gpu, label));
    if (json.contains("classes")) QL_RETURN_IF_ERROR(readClasses(json.at("classes"), profile, label));
    if (json.contains("fit")) QL_RETURN_IF_ERROR(readFit(json.at("fit"), profile, label));
    if (profile.gpu.memoryGBs <= 0 || profile.gpu.fp16Tflops <= 0 || profile.gpu.sms <= 0)
        return invalidArgument(label + ": the GPU needs a memory bandwidth, an FP16 peak and an SM count above 0");
    return profile;
}

Result<GpuProfile> loadGpuProfile(const std::string& path) {
    QL_ASSIGN_OR_RETURN(const nlohmann::json json, readJsonFile(path, "GPU profile", "--gpu-profile " + path));
    QL_ASSIGN_OR_RETURN(GpuProfile profile, gpuProfileFromJson(json, "--gpu-profile " + path));
    profile.file = path;
    return profile;
}

nlohmann::json gpuProfileToJson(const GpuProfile& profile) {
    const GpuSpec& g = profile.gpu;
    nlohmann::json classes = nlohmann::json::object();
    for (int i = 0; i < kCostClassCount; ++i) {
        const ClassTerms& t = profile.classes[static_cast<size_t>(i)];
        nlohmann::json& terms = classes[costClassName(static_cast<CostClass>(i))];
        terms = {{"compute_efficiency", t.computeEfficiency},
                 {"memory_efficiency", t.memoryEfficiency},
                 {"overhead_us", t.overheadUs},
                 {"int8_efficiency", t.int8Efficiency}};
        if (t.int8MemoryEfficiency) terms["int8_memory_efficiency"] = *t.int8MemoryEfficiency;
        if (t.int8OverheadUs) terms["int8_overhead_us"] = *t.int8OverheadUs;
    }
    nlohmann::json json = {{"format", "quantlens-gpu-profile"},
                           {"version", 1},
                           {"gpu", g.name},
                           {"specs",
                            {{"int8_tops", g.int8Tops},
                             {"fp16_tflops", g.fp16Tflops},
                             {"fp8_tflops", g.fp8Tflops},
                             {"tf32_tflops", g.tf32Tflops},
                             {"fp32_tflops", g.fp32Tflops},
                             {"memory_gbs", g.memoryGBs},
                             {"l2_mb", g.l2MB},
                             {"sms", g.sms}}},
                           {"classes", classes}};
    if (profile.fit) json["fit"] = fitJson(*profile.fit);
    return json;
}

Status saveGpuProfile(const GpuProfile& profile, const std::string& path) {
    return writeFileAtomically(path, dumpJson(gpuProfileToJson(profile)) + "\n");
}

namespace {

// An INT8 convolution of at most 4 input channels (4-wide vectors) writing float: the only kernels TensorRT has are
// cuDNN's int8x4 ones on the CUDA cores (DP4A, 4x the FP32 rate), writing FP32 (TREx's QAT ResNet-18 on the A100:
// "ampere_fp32_icudnn_int8x4_128x64_relu_medium_nn_v1", 0.20 ms where the FP16 stem took 0.11 ms).
bool runsOnCudaCoresInt8x4(const PredictedLayer& layer) {
    return layer.costClass == CostClass::Convolution && layer.precision == EnginePrecision::Int8 &&
           !layer.inputs.empty() && layer.inputs.front().layout == EngineLayout::Chw4 && !layer.outputs.empty() &&
           layer.outputs.front().precision != EnginePrecision::Int8;
}

// The bytes a layer moves, in DRAM-equivalents: activations another layer has just written are read from the L2
// cache when they fit in half of it (the other half for what the layer writes meanwhile), at kL2BandwidthRatio times
// the memory bandwidth. Without an L2 size every byte is a DRAM byte.
constexpr double kL2ResidentShare = 0.5;
constexpr double kL2BandwidthRatio = 3.0;

double memoryBytes(const PredictedLayer& layer, const GpuSpec& gpu) {
    const double bytes = static_cast<double>(layer.bytes);
    const double cached = static_cast<double>(layer.activationBytesRead);
    if (gpu.l2MB <= 0 || cached <= 0 || cached > gpu.l2MB * 1e6 * kL2ResidentShare) return bytes;
    return bytes - cached + cached / kL2BandwidthRatio;
}

}  // namespace

LayerTime layerTime(const PredictedLayer& layer, const GpuProfile& profile) {
    const ClassTerms& terms = profile.classes[static_cast<size_t>(layer.costClass)];
    const GpuSpec& gpu = profile.gpu;
    LayerTime time;
    time.overheadMs = terms.overheadUsOf(layer.precision) / 1000.0;
    if (layer.macs > 0) {
        const bool cudaCores = runsOnCudaCoresInt8x4(layer);
        double efficiency = terms.computeEfficiency;
        if (layer.precision == EnginePrecision::Int8 && !cudaCores) efficiency *= terms.int8Efficiency;
        double fill = 1.0;
        if (layer.costClass != CostClass::Depthwise && layer.outputTiles > 0 && gpu.sms > 0)
            fill = std::min(1.0, static_cast<double>(layer.outputTiles) / gpu.sms);
        const double peak = (cudaCores ? gpu.fp32Tflops * 4.0 : peakTops(gpu, layer.precision, layer.costClass)) *
                            1e12 * efficiency * fill;
        if (peak > 0) time.computeMs = 2.0 * static_cast<double>(layer.macs) / peak * 1000.0;
    }
    if (layer.bytes > 0 && gpu.memoryGBs > 0)
        time.memoryMs =
            memoryBytes(layer, gpu) / (gpu.memoryGBs * 1e9 * terms.memoryEfficiencyOf(layer.precision)) * 1000.0;
    time.ms = time.overheadMs + std::max(time.computeMs, time.memoryMs);
    return time;
}

namespace {

// How many runs of each body the total counts (LatencyEstimate::totalMs): the If's slower branch once and its other
// branches not at all, a Loop's body its constant trip count (else once), a Scan's body once.
void countBodies(const EnginePrediction& prediction, LatencyEstimate& estimate) {
    for (size_t i = 0; i < prediction.bodies.size(); ++i) {
        const PredictedBody& body = prediction.bodies[i];
        BodyEstimate& counted = estimate.bodies[i];
        double runs = static_cast<double>(std::max<int64_t>(1, body.trips.value_or(1)));
        if (body.opType == "If") {
            std::optional<size_t> slowest;
            for (size_t j = 0; j < prediction.bodies.size(); ++j)
                if (prediction.bodies[j].node == body.node &&
                    (!slowest || estimate.bodies[j].estimate->totalMs > estimate.bodies[*slowest].estimate->totalMs))
                    slowest = j;
            runs = slowest == i ? 1.0 : 0.0;
        }
        counted.countedMs = counted.estimate->totalMs * runs;
        estimate.bodiesMs += counted.countedMs;
        estimate.reformatMs += counted.estimate->reformatMs * runs;
    }
    estimate.totalMs += estimate.bodiesMs;
}

}  // namespace

LatencyEstimate estimateLatency(const EnginePrediction& prediction, const GpuProfile& profile) {
    LatencyEstimate estimate;
    for (const PredictedLayer& layer : prediction.layers) {
        estimate.layers.push_back(layerTime(layer, profile));
        estimate.totalMs += estimate.layers.back().ms;
        if (layer.kind == PredictedKind::Reformat) estimate.reformatMs += estimate.layers.back().ms;
    }
    for (const PredictedBody& body : prediction.bodies)
        estimate.bodies.push_back({std::make_shared<const LatencyEstimate>(estimateLatency(*body.engine, profile))});
    countBodies(prediction, estimate);
    return estimate;
}

double checkedTotalError() {
    return kCheckedTotalError;
}

const char* checkedErrorNote() {
    return kCheckedNote;
}

}  // namespace ql
