// quantlens-cli engine [MODEL] --layers LAYERS.json [--profile PROFILE.json] [--plan PLAN.json] [--trt 8.6|10|11]
//                      [--baseline LAYERS.json [--baseline-profile PROFILE.json]] [--timing TIMES.json]
//                      [--metadata FILE.json]... [--json] [--fail-on mismatch]
// What TensorRT built, on the ONNX graph (core/engine/, docs/engine-reports.md): each engine layer with its
// precision, time, tactic, reformats and the ONNX nodes it came from; with MODEL, the differences from the plan's
// effective precisions with the lint rule that explains them, and the compute nodes found in no layer; the slowest
// layers; INT8 coverage by time and MACs. --baseline compares with a second engine, node by node.
// Exit: 0, 1 with --fail-on mismatch when a node planned INT8 did not run INT8, 2 on bad usage or a bad file, and 2
// when the report maps to less than half of MODEL's compute nodes or of its layers (probably another model's; --force
// reports it, with the warning).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "core/common/json_util.h"
#include "core/engine/engine_coverage.h"
#include "core/engine/engine_view.h"
#include "core/engine/layer_info_reader.h"
#include "core/engine/profile_reader.h"
#include "core/export/effective_plan.h"

namespace ql::cli {

namespace {

struct EngineCliOptions {
    std::string model;
    std::string layers;
    std::string profile;
    std::string plan;
    std::string trt;  // empty: from the layer information's schema
    std::string baseline;
    std::string baselineProfile;
    std::string timing;
    std::vector<std::string> metadata;
    std::string failOn;
    bool json = false;
    bool force = false;
};

Result<EngineReport> loadEngine(const std::string& layers, const std::string& profile, const std::string& option,
                                const std::string& profileOption) {
    QL_ASSIGN_OR_RETURN(EngineReport report, readLayerInfo(layers, option));
    if (profile.empty()) return report;
    QL_ASSIGN_OR_RETURN(const auto entries, readProfile(profile, profileOption));
    QL_RETURN_IF_ERROR(applyProfile(report, entries, profileOption + " " + profile));
    report.profileFile = profile;
    return report;
}

Status checkUsage(const EngineCliOptions& options) {
    if (!options.plan.empty() && options.model.empty())
        return invalidArgument("--plan needs MODEL: the plan names the model's nodes");
    if (!options.baselineProfile.empty() && options.baseline.empty())
        return invalidArgument("--baseline-profile needs --baseline LAYERS.json");
    return Status::ok();
}

Result<TrtVersion> targetVersion(const EngineCliOptions& options, const EngineReport& report) {
    if (!options.trt.empty()) return trtVersionOption(options.trt);
    return report.schema == LayerInfoSchema::Trt11 ? TrtVersion::Trt11 : TrtVersion::Trt10;
}

struct RunFiles {
    std::optional<TimingSummary> timing;
    std::optional<RunMetadata> metadata;
};

Result<RunFiles> loadRunFiles(const EngineCliOptions& options) {
    RunFiles files;
    if (!options.timing.empty()) {
        QL_ASSIGN_OR_RETURN(files.timing, readTiming(options.timing));
    }
    for (const std::string& path : options.metadata) {
        QL_ASSIGN_OR_RETURN(RunMetadata metadata, readRunMetadata(path));
        if (!files.metadata) files.metadata.emplace();
        files.metadata->insert(files.metadata->end(), metadata.begin(), metadata.end());
    }
    return files;
}

int runEngine(const EngineCliOptions& options) {
    if (Status usage = checkUsage(options); !usage) return failWith(usage);
    auto report = loadEngine(options.layers, options.profile, "--layers", "--profile");
    if (!report) return failWith(report.status());
    std::optional<EngineReport> baseline;
    if (!options.baseline.empty()) {
        auto loaded = loadEngine(options.baseline, options.baselineProfile, "--baseline", "--baseline-profile");
        if (!loaded) return failWith(loaded.status());
        baseline = std::move(loaded).value();
    }
    auto runFiles = loadRunFiles(options);
    if (!runFiles) return failWith(runFiles.status());
    const auto version = targetVersion(options, *report);
    if (!version) return failWith(version.status());

    std::unique_ptr<Model> model;
    std::optional<PlannedPrecisions> planned;
    if (!options.model.empty()) {
        model = loadModelOrReport(options.model);
        if (!model) return kExitBadInput;
        auto plan = plannedPrecisions(model->graph(), options.model, options.plan, *version);
        if (!plan) return failWith(plan.status());
        planned = std::move(plan).value();
    }
    const Graph* graph = model ? &model->graph() : nullptr;
    const EngineMapping mapping = mapEngineToModel(*report, graph);
    // A report of another model maps next to nothing: its "0 differences" would read as a perfect build.
    if (graph && !options.force) {
        if (const std::string warning = otherModelWarning(mappingCoverage(*report, mapping, *graph)); !warning.empty())
            return failWith(invalidArgument(options.layers + " against " + options.model + ": " + warning +
                                            " (--force reports it anyway)"));
    }
    const EngineAnalysis analysis = analyzeEngine(*report, mapping, graph, planned ? &*planned : nullptr);

    std::optional<EngineMapping> baselineMapping;
    std::optional<EngineAnalysis> baselineAnalysis;
    std::optional<EngineComparison> comparison;
    std::optional<EngineBaselineView> baselineView;
    if (baseline) {
        baselineMapping = mapEngineToModel(*baseline, graph);
        baselineAnalysis = analyzeEngine(*baseline, *baselineMapping, graph, nullptr);
        comparison = compareEngines({*report, analysis}, {*baseline, *baselineAnalysis}, graph);
        baselineView.emplace(EngineBaselineView{*baseline, *comparison});
    }
    const EngineView view{*report,
                          mapping,
                          analysis,
                          graph,
                          planned ? &*planned : nullptr,
                          baselineView ? &*baselineView : nullptr,
                          runFiles->timing ? &*runFiles->timing : nullptr,
                          runFiles->metadata ? &*runFiles->metadata : nullptr};
    if (options.json)
        std::cout << dumpJson(engineToJson(view)) << std::endl;
    else
        std::cout << engineToText(view);
    return options.failOn == "mismatch" && analysis.hasPlannedInt8NotRun() ? kExitFindings : kExitOk;
}

}  // namespace

void addEngineCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<EngineCliOptions>();
    auto* cmd = app.add_subcommand("engine", "What TensorRT built: engine layers on the ONNX graph, against the plan");
    cmd->add_option("MODEL", options->model,
                    "The ONNX model the engine was built from (optional: without it, the engine alone)");
    cmd->add_option("--layers", options->layers,
                    "Layer information: trtexec --exportLayerInfo=FILE --profilingVerbosity=detailed")
        ->required();
    cmd->add_option("--profile", options->profile, "Per-layer profile: trtexec --exportProfile=FILE");
    cmd->add_option("--plan", options->plan,
                    "Precision plan (JSON) the engine should follow; default: what MODEL carries, else the default "
                    "INT8 placement");
    cmd->add_option("--trt", options->trt,
                    "TensorRT version of the engine: 8.6, 10 or 11 (default: 11 for the 11.x schema, else 10)");
    cmd->add_option("--baseline", options->baseline,
                    "Layer information of a second engine to compare with, node by node (e.g. the FP16 build)");
    cmd->add_option("--baseline-profile", options->baselineProfile, "Per-layer profile of the --baseline engine");
    cmd->add_option("--timing", options->timing, "Per-inference times: trtexec --exportTimes=FILE");
    cmd->add_option("--metadata", options->metadata,
                    "Build or profiling metadata (JSON object of sections, as TREx writes); repeatable");
    cmd->add_flag("--json", options->json, "Print one JSON object");
    cmd->add_flag("--force", options->force,
                  "Report even when the report maps to less than half of MODEL's compute nodes or of the engine's "
                  "layers (probably another model's; exit 2 without it)");
    cmd->add_option("--fail-on", options->failOn, "Exit 1 when a node planned INT8 did not run INT8")
        ->check(CLI::IsMember({"mismatch"}));
    cmd->callback([options, &exitCode] { exitCode = runEngine(*options); });
}

}  // namespace ql::cli
