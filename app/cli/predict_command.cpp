// quantlens-cli predict MODEL [--plan P] [--calib C] [--trt 8.6|10|11] [--typing strong|weak]
//                             [--gpu NAME | --gpu-profile FILE] [--shapes NAME=DIMS,...] [--json]
// The engine TensorRT would build from MODEL and the plan, before any build (core/engine/engine_prediction.h): its
// layers with their fusions, precisions and formats, the reformats between them, and an estimated time per layer
// on the GPU (core/engine/latency_model.h), with the all-FP16 total beside it. The plan is PLAN.json, else what
// MODEL carries (Q/DQ, float16 islands), else the default INT8 placement, realized as the export writes it for the
// target (the same plan `lint` shows). Every time is an estimate and says so (docs/performance-model.md). The GPU:
// --gpu, --gpu-profile (`fit-gpu` fits one to your engine reports), else the profile a project (--calib) keeps.
// Exit: 0, 2 on bad usage or bad input (a model that cannot be read, an unknown --gpu: the known ones are listed).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "app/cli/data_options.h"
#include "app/cli/gpu_profile_options.h"
#include "core/common/json_util.h"
#include "core/engine/plan_prediction.h"
#include "core/engine/prediction_report.h"
#include "core/exec/input_shapes.h"
#include "core/export/effective_plan.h"

namespace ql::cli {

namespace {

struct PredictCliOptions {
    std::string model;
    std::string plan;
    std::string calib;
    std::string trt;
    std::string typing;
    std::string gpu;
    std::string gpuProfile;
    std::string shapes;
    bool json = false;
};

int runPredict(PredictCliOptions options) {
    adoptProjectSettings(options.calib, options.plan, options.trt, options.typing);
    const auto target = trtTargetOption(options.trt, options.typing);
    if (!target) return failWith(target.status());
    auto profile = chosenGpuProfile(options.gpu, options.gpuProfile, options.calib);
    if (!profile) return failWith(profile.status());
    std::optional<PrecisionPlan> operatorFormPlan;  // what quantize exports from an operator-form file
    auto model = floatFormOrReport(loadModelOrReport(options.model), &operatorFormPlan);
    std::optional<CalibrationResult> carriedScales;
    model = planSubjectOrReport(std::move(model), !options.plan.empty(), carriedScales);
    if (!model) return kExitBadInput;
    if (!options.shapes.empty()) {
        auto reshaped = withInputShapes(*model, options.shapes);
        if (!reshaped) return failWith(reshaped.status());
        model = std::move(reshaped).value();
    }
    const Graph& graph = model->graph();
    std::optional<CalibrationResult> scales;
    if (!options.calib.empty()) {
        auto loaded = readCalibrationOption(graph, options.calib);
        if (!loaded) return failWith(loaded.status());
        scales = std::move(loaded).value();
    }
    addCarriedScales(scales, std::move(carriedScales));
    auto requested = requestedPlan(*model, options.plan, operatorFormPlan);
    if (!requested) return failWith(requested.status());
    const PrecisionPlan plan = effectivePlan(graph, std::move(requested).value(), target->version, Precision::Fp16,
                                             scales ? &*scales : nullptr, target->typing);
    const EnginePrediction prediction = predictEngine(graph, plan, *target);
    const EnginePrediction fp16 = predictEngine(graph, allFp16Plan(graph), *target);
    const LatencyEstimate estimate = estimateLatency(prediction, *profile);
    const LatencyEstimate fp16Estimate = estimateLatency(fp16, *profile);
    const PredictionView view{graph, prediction, estimate, fp16Estimate, *profile};
    if (options.json)
        std::cout << dumpJson(predictionToJson(view)) << std::endl;
    else
        std::cout << model->fileName() << ": " << predictionToText(view);
    return kExitOk;
}

}  // namespace

void addPredictCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<PredictCliOptions>();
    auto* cmd = app.add_subcommand(
        "predict", "The TensorRT engine the plan would build, before a build: layers, reformats, estimated times");
    cmd->add_option("MODEL", options->model, "ONNX model file (FP32, or already carrying Q/DQ)")->required();
    cmd->add_option("--plan", options->plan, "Precision plan (JSON); default: what MODEL carries, else INT8 placement");
    cmd->add_option("--calib", options->calib,
                    "Calibration file (CALIB.json) or project: layers whose inputs it has no range for fall back");
    cmd->add_option("--trt", options->trt, "Target TensorRT version: 8.6, 10 or 11 (default 10)");
    cmd->add_option("--typing", options->typing,
                    "How the engine is built: strong or weak (default: weak on 8.6, strong on 10 and 11)");
    addGpuOptions(*cmd, options->gpu, options->gpuProfile, "to time it on");
    cmd->add_option("--shapes", options->shapes, "Input dims to predict for: NAME=DIMS,... (DIMS like 1x3x224x224)");
    cmd->add_flag("--json", options->json, "Print one JSON object");
    cmd->callback([options, &exitCode] { exitCode = runPredict(*options); });
}

}  // namespace ql::cli
