#include "core/engine/ab_scripts.h"

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/common/atomic_file.h"
#include "core/common/json_util.h"
#include "core/export/trtexec_command.h"

namespace ql {

std::string abLayersFile(const std::string& stem) {
    return stem + ".layers.json";
}
std::string abProfileFile(const std::string& stem) {
    return stem + ".profile.json";
}
std::string abTimesFile(const std::string& stem) {
    return stem + ".times.json";
}

namespace {

struct PlannedVariant {
    std::string name;
    std::string description;
    PrecisionPlan plan;
};

// One contested region's A/B: the plan against the plan with the region FP16.
struct Comparison {
    std::string a;
    std::string b;
    std::string what;
    std::string reason;
};

std::string milliseconds(double ms) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.3f ms", ms);
    return text;
}

std::string regionName(size_t index) {
    const std::string number = std::to_string(index + 1);
    return "region-" + std::string(number.size() < 2 ? 1 : 0, '0') + number + "-fp16";
}

// trtexec's report exports, relative to the script's folder (the script changes to it).
std::vector<std::string> reportArguments(const std::string& name) {
    return {"--profilingVerbosity=detailed", "--exportLayerInfo=" + abLayersFile(name),
            "--exportProfile=" + abProfileFile(name), "--exportTimes=" + abTimesFile(name), "--separateProfileRun"};
}

Status saveProto(const onnx::ModelProto& proto, const std::string& path) {
    std::string bytes;
    if (!proto.SerializeToString(&bytes)) return internalError(path + ": cannot serialize the model");
    return writeFileAtomically(path, bytes);
}

std::string readme(const AbScriptsInput& input, const AbScripts& scripts, const std::vector<Comparison>& comparisons) {
    const TrtTarget& target = input.target.trt;
    const GpuProfile& profile = input.profile;
    std::string text = "# A/B builds for TensorRT " + std::string(trtVersionName(target.version)) + " (" +
                       trtTargetName(target) + ") on " + profile.gpu.displayName + "\n\n";
    text +=
        "Written by " + input.writer + " (`quantize --ab-scripts`). Each script builds one variant of " +
        input.model.fileName() +
        " with trtexec and times it, writing the engine reports QuantLens reads back. The predictions below are "
        "estimates (" +
        (profile.fit ? "GPU profile " + profile.file + ", fitted" : std::string("unfitted, public specifications")) +
        "); the builds say what your GPU does.\n\n";
    text += "| variant | what | predicted |\n|---|---|---|\n";
    for (const AbVariant& v : scripts.variants)
        text += "| `" + v.name + ".sh` | " + v.description + " | " + milliseconds(v.predictedMs) + " |\n";
    text += "\nA/B pairs:\n\n";
    for (const Comparison& c : comparisons) text += "- `" + c.a + "` against `" + c.b + "`: " + c.what + "\n";
    if (scripts.contested.regions.empty())
        text += "\nNo region of the plan is contested: the prediction says INT8 pays wherever the plan has it (" +
                std::to_string(scripts.contested.candidates) + " regions weighed).\n";
    if (scripts.contested.leftOut > 0)
        text += "\n" + std::to_string(scripts.contested.leftOut) +
                " more contested regions were left out (those predicted to gain most from INT8).\n";
    text += R"(
## Run
On the machine with the GPU, with `trtexec` of that TensorRT version on PATH, copy this folder there and run

    sh run_all.sh            # or one script: sh plan.sh

Each `NAME.sh` writes `NAME.engine`, `NAME.layers.json` (--exportLayerInfo), `NAME.profile.json` (--exportProfile)
and `NAME.times.json` (--exportTimes), built with --profilingVerbosity=detailed; --separateProfileRun keeps the
per-layer profiler out of the times.

## Import
Bring the folder back (the `.engine` files are not needed) and fit your GPU's profile to the reports:

    quantlens-cli fit-gpu --gpu )" +
            profile.gpu.name + R"( -o gpu-profile.json THIS_FOLDER [--project P.qlproj]

It says, per A/B pair, whether the prediction was right, and writes the fitted profile; later predictions use it:

    quantlens-cli predict MODEL --gpu-profile gpu-profile.json

One build against another, layer by layer:

    quantlens-cli engine plan.onnx --layers plan.layers.json --profile plan.profile.json \
        --baseline fp16.layers.json --baseline-profile fp16.profile.json
)";
    return text;
}

std::string runAll(const std::vector<AbVariant>& variants) {
    std::string text = "#!/bin/sh\n# Builds and times every variant of this folder, one after another.\n";
    text += "cd \"$(dirname \"$0\")\" || exit 1\n";
    for (const AbVariant& v : variants) text += "sh " + shellQuote(v.name + ".sh") + " || exit 1\n";
    return text;
}

nlohmann::json manifest(const AbScriptsInput& input, const AbScripts& scripts,
                        const std::vector<Comparison>& comparisons) {
    nlohmann::json variants = nlohmann::json::array(), pairs = nlohmann::json::array();
    double planMs = 0.0;
    for (const AbVariant& v : scripts.variants) {
        variants.push_back({{"name", v.name},
                            {"onnx", v.name + ".onnx"},
                            {"script", v.name + ".sh"},
                            {"layers", abLayersFile(v.name)},
                            {"profile", abProfileFile(v.name)},
                            {"times", abTimesFile(v.name)},
                            {"predicted_ms", v.predictedMs},
                            {"description", v.description}});
        if (v.name == "plan") planMs = v.predictedMs;
    }
    const auto predicted = [&](const std::string& name) {
        for (const AbVariant& v : scripts.variants)
            if (v.name == name) return v.predictedMs;
        return planMs;
    };
    for (const Comparison& c : comparisons)
        pairs.push_back({{"a", c.a},
                         {"b", c.b},
                         {"predicted_a_ms", predicted(c.a)},
                         {"predicted_b_ms", predicted(c.b)},
                         {"what", c.what},
                         {"reason", c.reason}});
    return {{"format", "quantlens-ab-scripts"},
            {"version", 1},
            {"model", input.model.fileName()},
            {"trt", trtVersionName(input.target.trt.version)},
            {"typing", trtTypingName(input.target.trt.typing)},
            {"gpu", input.profile.gpu.name},
            {"gpu_profile", input.profile.file.empty() ? nlohmann::json() : nlohmann::json(input.profile.file)},
            {"variants", variants},
            {"comparisons", pairs}};
}

}  // namespace

Result<AbScripts> writeAbScripts(const AbScriptsInput& input) {
    const Graph& graph = input.model.graph();
    const TrtTarget& target = input.target.trt;
    AbScripts scripts;
    scripts.contested = contestedRegions(graph, input.plan, target, input.profile, input.realize, input.maxRegions);

    std::vector<PlannedVariant> planned;
    planned.push_back({"plan", "the plan's export (INT8 where the plan has it)", input.plan});
    planned.push_back({"fp16", "every float layer FP16", input.realize(PrecisionPlan(graph, Precision::Fp16))});
    std::vector<Comparison> comparisons;
    comparisons.push_back({"plan", "fp16", "the plan against all-FP16", "does the plan's INT8 pay on the whole?"});
    for (size_t i = 0; i < scripts.contested.regions.size(); ++i) {
        const AbRegion& region = scripts.contested.regions[i];
        PrecisionPlan flipped = input.plan;
        for (NodeId n : region.nodes) flipped.setRequested(n, Precision::Fp16);
        const std::string name = regionName(i);
        planned.push_back({name, "the plan with region " + std::to_string(i + 1) + " FP16 (" + region.name + ")",
                           input.realize(std::move(flipped))});
        comparisons.push_back(
            {"plan", name, "region " + std::to_string(i + 1) + " INT8 or FP16: " + region.name, region.reason});
    }

    std::error_code error;
    std::filesystem::create_directories(input.folder, error);
    if (error) return ioError("--ab-scripts " + input.folder + ": cannot create the folder (" + error.message() + ")");
    for (const PlannedVariant& variant : planned) {
        QL_ASSIGN_OR_RETURN(const QdqExport result,
                            exportQdq(input.model, variant.plan, input.calibration, input.qdq, input.target));
        const std::string stem = (std::filesystem::path(input.folder) / variant.name).string();
        TrtexecScript script{.onnxPath = stem + ".onnx",
                             .scriptPath = stem + ".sh",
                             .writer = input.writer + " (quantize --ab-scripts, variant " + variant.name + ")",
                             .shapes = input.shapes,
                             .extraArguments = reportArguments(variant.name)};
        // The script first: a layer name trtexec cannot parse leaves no model behind.
        QL_ASSIGN_OR_RETURN(const std::string command, trtexecCommand(result, script));
        QL_RETURN_IF_ERROR(saveProto(result.proto, script.onnxPath));
        QL_RETURN_IF_ERROR(writeFileAtomically(script.scriptPath, command));
        const double ms = estimateLatency(predictEngine(graph, variant.plan, target), input.profile).totalMs;
        scripts.variants.push_back({variant.name, variant.description, ms});
    }
    const std::filesystem::path folder(input.folder);
    QL_RETURN_IF_ERROR(writeFileAtomically((folder / "run_all.sh").string(), runAll(scripts.variants)));
    QL_RETURN_IF_ERROR(writeFileAtomically((folder / "README.md").string(), readme(input, scripts, comparisons)));
    QL_RETURN_IF_ERROR(
        writeFileAtomically((folder / kAbManifest).string(), dumpJson(manifest(input, scripts, comparisons)) + "\n"));
    return scripts;
}

}  // namespace ql
