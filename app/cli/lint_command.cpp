// quantlens-cli lint MODEL [--plan PLAN.json] [--trt 8.6|10|11] [--typing strong|weak] [--command FILE] [--json]
//                        [--fail-on error|warning] [--calib CALIB.json] [--ignore RULE]...
//                        [--gpu NAME | --gpu-profile FILE] [--shapes NAME=DIMS,...]
// With --calib, the calib-* rules check the calibration of the tensors the (effective) plan quantizes, and the JSON
// gains "calibration": {"tensors": [...]} with the per-tensor, per-method numbers.
// --typing: how the engine is built (default: the version's, strong for 10 and 11; 10 builds both, 8.6 only weak,
// 11 only strong, and asking otherwise exits 2). --command: the trtexec command line or script that builds the
// engine; trt-precision-flags checks its builder precision flags against the target (findings on no node).
// --ignore RULE (repeatable): the rule is not run; the JSON lists it under "ignored_rules", so a CI log says what
// it skipped. The JSON's "layers" list every node that computes a float tensor with the precision it runs in and why
// (the export summary's keys: layer, op, precision, reason): the plan as the export realizes it, or for a model that
// carries Q/DQ or float16 islands, what the file says. A file in ONNX Runtime's operator form gets its
// trt-unsupported-op errors as shipped, then the findings of its float import; the JSON gains "operator_form":
// {"ops", "note"} (core/lint/operator_form.h).
// --gpu NAME | --gpu-profile FILE (else the profile a project given as --calib keeps): the latency rules
// (trt-int8-island-slower, trt-fp16-island-reformats, trt-int8-no-gain) time the engine the plan builds on that GPU,
// as `predict` does (--shapes: the input dims to predict for); without a GPU they stay silent and the text says so
// once. The JSON gains "gpu": {"name", "display_name", "profile" (file or null), "estimate"} or null.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "app/cli/calibration_report.h"
#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "app/cli/data_options.h"
#include "app/cli/gpu_profile_options.h"
#include "core/engine/prediction_report.h"
#include "core/exec/input_shapes.h"
#include "core/export/carried_model.h"
#include "core/export/effective_plan.h"
#include "core/lint/lint_report.h"
#include "core/lint/operator_form.h"
#include "core/lint/rule_registry.h"

namespace ql::cli {

namespace {

struct LintCliOptions {
    std::string model;
    std::string plan;
    std::string calib;
    std::string trt;     // empty: a --calib project's, else 10 (adoptProjectSettings)
    std::string typing;  // empty: the version's default
    std::string command;
    std::string failOn = "error";
    std::vector<std::string> ignore;
    std::string gpu;
    std::string gpuProfile;
    std::string shapes;
    bool json = false;
};

constexpr const char* kLatencyRules[] = {"trt-int8-island-slower", "trt-fp16-island-reformats", "trt-int8-no-gain"};

// The latency rules that run: those not ignored.
bool latencyRulesRun(const std::set<std::string>& ignored) {
    for (const char* id : kLatencyRules)
        if (!ignored.contains(id)) return true;
    return false;
}

nlohmann::json gpuJson(const std::optional<GpuProfile>& profile) {
    if (!profile) return nullptr;
    return {{"name", profile->gpu.name},
            {"display_name", profile->gpu.displayName},
            {"profile", profile->file.empty() ? nlohmann::json(nullptr) : nlohmann::json(profile->file)},
            {"estimate", estimateJson(*profile)}};
}

// One line under the findings: what the latency rules timed on, or that they need a GPU.
std::string latencyLine(const std::optional<GpuProfile>& profile) {
    if (profile) return "latency rules on " + profile->gpu.name + ": " + estimateNote(*profile);
    return "latency rules (trt-int8-island-slower, trt-fp16-island-reformats, trt-int8-no-gain) need a GPU: "
           "--gpu NAME or --gpu-profile FILE";
}

// --ignore RULE: a rule id of the registry, or an error naming the closest one.
Result<std::set<std::string>> ignoredRules(const std::vector<std::string>& ids) {
    std::set<std::string> ignored;
    for (const std::string& id : ids) {
        if (findLintRule(id) == nullptr) {
            std::vector<std::string> known;
            for (const auto& rule : lintRules()) known.emplace_back(rule->info().id);
            const std::string closest = closestName(id, known);
            return invalidArgument("--ignore " + id + ": no such lint rule" +
                                   (closest.empty() ? "" : "; did you mean '" + closest + "'?") +
                                   " (docs/lint-rules.md lists them)");
        }
        ignored.insert(id);
    }
    return ignored;
}

bool reachesFailLevel(const std::vector<Finding>& findings, Severity failLevel) {
    for (const Finding& f : findings)
        if (f.severity <= failLevel) return true;
    return false;
}

// The text of the --command file; the error names the file.
Result<std::string> readCommandFile(const std::string& path) {
    std::error_code error;
    std::ifstream in(path, std::ios::binary);
    // A folder opens on Linux and reads as nothing: it would pass as an empty command.
    if (!in || std::filesystem::is_directory(path, error))
        return invalidArgument("--command " + path + ": cannot read the file");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

int runLint(LintCliOptions options) {
    adoptProjectSettings(options.calib, options.plan, options.trt, options.typing);
    const auto target = trtTargetOption(options.trt, options.typing);
    if (!target) return failWith(target.status());
    const TrtVersion version = target->version;
    LintOptions lintOptions;
    lintOptions.version = version;
    lintOptions.typing = target->typing;
    if (!options.command.empty()) {
        auto text = readCommandFile(options.command);
        if (!text) return failWith(text.status());
        lintOptions.trtexecCommand = std::move(text).value();
    }
    auto ignored = ignoredRules(options.ignore);
    if (!ignored) return failWith(ignored.status());
    lintOptions.ignoredRules = *ignored;
    auto gpu = optionalGpuProfile(options.gpu, options.gpuProfile, options.calib);
    if (!gpu) return failWith(gpu.status());
    if (*gpu) lintOptions.gpu = &**gpu;
    const Severity failLevel = parseSeverity(options.failOn).value_or(Severity::Error);
    auto shipped = loadModelOrReport(options.model);
    if (!shipped) return kExitBadInput;
    // A file in ONNX Runtime's operator form is reported as shipped, then analysed on its float import.
    const OperatorFormLint operatorForm = lintOperatorForm(shipped->graph(), lintOptions);
    std::optional<PrecisionPlan> operatorFormPlan;  // what quantize exports from an operator-form file
    auto model = floatFormOrReport(std::move(shipped), &operatorFormPlan);
    std::optional<CalibrationResult> carriedScales;
    model = planSubjectOrReport(std::move(model), !options.plan.empty(), carriedScales);
    if (!model) return kExitBadInput;
    if (!options.shapes.empty()) {
        auto reshaped = withInputShapes(*model, options.shapes);
        if (!reshaped) return failWith(reshaped.status());
        model = std::move(reshaped).value();
    }
    lintOptions.writtenForStrongTyping = writtenTyping(*model) == "strong";
    const Graph& graph = model->graph();
    std::optional<CalibrationResult> scales;
    if (!options.calib.empty()) {
        auto loaded = readCalibrationOption(graph, options.calib);
        if (!loaded) return failWith(loaded.status());
        scales = std::move(loaded).value();
    }
    addCarriedScales(scales, std::move(carriedScales));
    // What runs (realized_precision.h): the plan, or what a model that carries its precisions says.
    auto requested = requestedPlan(*model, options.plan, operatorFormPlan);
    if (!requested) return failWith(requested.status());
    const PrecisionPlan plan = effectivePlan(graph, std::move(requested).value(), version, Precision::Fp16,
                                             scales ? &*scales : nullptr, target->typing);
    std::optional<CalibrationReport> calibration;
    if (scales) {
        auto diagnosed = calibrationReport(graph, plan, *scales, version);
        if (!diagnosed) return failWith(diagnosed.status());
        calibration = std::move(diagnosed).value();
    }
    lintOptions.calibration = calibration ? &calibration->diagnosis : nullptr;
    LintReport report = lint(graph, plan, lintOptions);
    addShippedFindings(report, operatorForm);
    if (options.json) {
        nlohmann::json json = toJson(report, graph, version);
        json["layers"] = planLayersJson(graph, plan);
        if (!operatorForm.empty())
            json["operator_form"] = {{"ops", operatorForm.ops}, {"note", operatorFormNote(operatorForm)}};
        if (calibration) json["calibration"] = {{"tensors", diagnosisToJson(graph, calibration->diagnosis)}};
        json["ignored_rules"] = lintOptions.ignoredRules;
        json["gpu"] = gpuJson(*gpu);
        std::cout << json.dump(2) << std::endl;
    } else {
        if (!operatorForm.empty()) std::cout << model->fileName() << ": " << operatorFormNote(operatorForm) << "\n";
        std::cout << model->fileName() << ": " << toText(report, graph, version);
        for (const std::string& id : lintOptions.ignoredRules) std::cout << "ignored rule: " << id << std::endl;
        if (latencyRulesRun(lintOptions.ignoredRules)) std::cout << latencyLine(*gpu) << std::endl;
    }
    return reachesFailLevel(report.findings, failLevel) ? kExitFindings : kExitOk;
}

}  // namespace

void addLintCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<LintCliOptions>();
    auto* cmd = app.add_subcommand("lint", "Check a model against TensorRT's INT8 rules, on the node, with the fix");
    cmd->add_option("MODEL", options->model, "ONNX model file (FP32, or already carrying Q/DQ)")->required();
    cmd->add_option("--plan", options->plan, "Precision plan (JSON); default: INT8 for the weighted layers");
    cmd->add_option("--trt", options->trt, "Target TensorRT version: 8.6, 10 or 11 (default 10)");
    cmd->add_option("--typing", options->typing,
                    "How the engine is built: strong or weak (default: weak on 8.6, strong on 10 and 11; only 10 "
                    "builds both)");
    cmd->add_option("--command", options->command,
                    "The trtexec command line or shell script that builds the engine: check its builder precision "
                    "flags (trt-precision-flags)");
    cmd->add_option("--calib", options->calib,
                    "Calibration file (CALIB.json): also check its ranges (calib-* rules: clipping, dead ranges, ...)");
    cmd->add_option("--ignore", options->ignore, "Do not run this rule (repeatable); listed in the output");
    addGpuOptions(*cmd, options->gpu, options->gpuProfile,
                  "the latency rules time the predicted engine on (without one they stay silent)");
    cmd->add_option("--shapes", options->shapes,
                    "Input dims to lint and predict for: NAME=DIMS,... (DIMS like 1x3x224x224)");
    cmd->add_flag("--json", options->json, "Print one JSON object");
    cmd->add_option("--fail-on", options->failOn, "Exit 1 when a finding is at or above this severity")
        ->check(CLI::IsMember({"error", "warning"}));
    cmd->callback([options, &exitCode] { exitCode = runLint(*options); });
}

}  // namespace ql::cli
