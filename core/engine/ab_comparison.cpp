#include "core/engine/ab_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/common/json_file.h"
#include "core/common/json_util.h"
#include "core/engine/ab_scripts.h"
#include "core/engine/run_metadata_reader.h"

namespace ql {

namespace {

constexpr double kEvenShare = 0.02;

int sign(double a, double b, double even) {
    const double faster = std::min(a, b);
    if (std::abs(a - b) <= even * faster) return 0;
    return a < b ? -1 : 1;
}

std::string canonical(const std::string& path) {
    std::error_code error;
    const auto absolute = std::filesystem::absolute(path, error);
    return error ? path : absolute.lexically_normal().string();
}

const FitSample* sampleOf(const std::vector<FitSample>& samples, const std::string& model) {
    const std::string wanted = canonical(model);
    for (const FitSample& s : samples)
        if (canonical(s.files.model) == wanted) return &s;
    return nullptr;
}

// The measured time of a build: its --exportTimes median, else its profile's layers added.
double measuredMs(const std::string& stem, const FitSample& sample) {
    std::error_code error;
    if (std::filesystem::exists(abTimesFile(stem), error))
        if (auto timing = readTiming(abTimesFile(stem), "times"); timing && timing->medianComputeMs > 0)
            return timing->medianComputeMs;
    return sample.measuredTotalMs;
}

double number(const nlohmann::json& object, const char* key) {
    return object.contains(key) && object.at(key).is_number() ? object.at(key).get<double>() : 0.0;
}

std::string share(double a, double b) {
    char text[64];
    const double faster = std::min(a, b);
    std::snprintf(text, sizeof(text), "%s faster by %.0f%%", a <= b ? "A" : "B",
                  faster > 0 ? 100.0 * (std::max(a, b) - faster) / faster : 0.0);
    return text;
}

}  // namespace

int AbOutcome::measured() const {
    return sign(measuredAMs, measuredBMs, kEvenShare);
}

bool AbOutcome::predictedRight() const {
    return measured() == 0 || sign(predictedAMs, predictedBMs, 0.0) == measured();
}

std::optional<bool> AbOutcome::fittedRight() const {
    if (!fittedAMs || !fittedBMs) return std::nullopt;
    return measured() == 0 || sign(*fittedAMs, *fittedBMs, 0.0) == measured();
}

Result<std::vector<AbOutcome>> abOutcomes(const std::string& folder, const std::vector<FitSample>& samples,
                                          const GpuProfile& fitted) {
    std::vector<AbOutcome> outcomes;
    const std::filesystem::path dir(folder);
    const std::string path = (dir / kAbManifest).string();
    std::error_code error;
    if (!std::filesystem::exists(path, error)) return outcomes;
    QL_ASSIGN_OR_RETURN(const nlohmann::json manifest, readJsonFile(path, "A/B scripts manifest"));
    if (!manifest.is_object() || memberString(manifest, "format") != "quantlens-ab-scripts" ||
        !manifest.contains("comparisons") || !manifest.at("comparisons").is_array())
        return invalidArgument(path + ": not the manifest `quantize --ab-scripts` writes");
    for (const auto& pair : manifest.at("comparisons")) {
        if (!pair.is_object()) continue;
        AbOutcome o;
        o.a = memberString(pair, "a");
        o.b = memberString(pair, "b");
        o.what = memberString(pair, "what");
        const std::string stemA = (dir / o.a).string(), stemB = (dir / o.b).string();
        const FitSample* a = sampleOf(samples, stemA + ".onnx");
        const FitSample* b = sampleOf(samples, stemB + ".onnx");
        if (a == nullptr || b == nullptr) continue;
        o.measuredAMs = measuredMs(stemA, *a);
        o.measuredBMs = measuredMs(stemB, *b);
        o.predictedAMs = number(pair, "predicted_a_ms");
        o.predictedBMs = number(pair, "predicted_b_ms");
        o.fittedAMs = estimateLatency(a->prediction, fitted).totalMs;
        o.fittedBMs = estimateLatency(b->prediction, fitted).totalMs;
        outcomes.push_back(std::move(o));
    }
    return outcomes;
}

std::string abOutcomesText(const std::vector<AbOutcome>& outcomes) {
    if (outcomes.empty()) return {};
    std::string text =
        "A/B builds (A, B: measured on your GPU; predicted when the scripts were written -> with the "
        "fitted profile):\n";
    for (const AbOutcome& o : outcomes) {
        char line[128];
        std::snprintf(line, sizeof(line), "%.3f vs %.3f ms", o.measuredAMs, o.measuredBMs);
        text += "  " + o.a + " vs " + o.b + " (" + o.what + "): measured " + line + ", " +
                (o.measured() == 0 ? "even" : share(o.measuredAMs, o.measuredBMs)) + "; predicted " +
                share(o.predictedAMs, o.predictedBMs) + ": " + (o.predictedRight() ? "right" : "WRONG");
        if (const auto right = o.fittedRight())
            text += " -> " + share(*o.fittedAMs, *o.fittedBMs) + ": " + (*right ? "right" : "WRONG");
        text += "\n";
    }
    return text;
}

}  // namespace ql
