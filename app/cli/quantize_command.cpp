// quantlens-cli quantize MODEL --calib SCALES [--plan PLAN.json] -o OUT.onnx [--summary FILE.json]
//                        [--trtexec FILE] [--trt-cache FILE] [--trt 8.6|10|11] [--deconv-per-channel] [--float-weights]
//                        [--expose-quantized FILE.onnx] [--ab-scripts DIR (--gpu NAME | --gpu-profile FILE)]
//                        [--typing strong|weak] [--fp16-io] [--shapes NAME=MINxDIMS:OPTxDIMS:MAXxDIMS]...
// Writes a TensorRT-ready Q/DQ model (core/export/qdq_export.h) and, on request, a JSON summary of every
// decision, the trtexec command that builds its engine and a TensorRT calibration cache for the implicit
// path. The plan (--plan, default: the default INT8 placement) gets the TensorRT lint fallbacks of --trt applied
// (effective_plan.h), as `compare` and `run --simulate` do. Every file is written atomically.
// SCALES is any format scale_import.h reads (detected from the content). A Q/DQ MODEL is first turned back
// into its FP32 model (qdq_import.h), so `quantize q.onnx --calib q.onnx -o again.onnx` re-exports it.
// --expose-quantized also writes copies whose quantization points are graph outputs, and a per-layer copy that
// recomputes each from given codes (quantized_outputs.h), to compare the int8 codes of two runtimes.
// The trtexec script gives every dynamic input --minShapes/--optShapes/--maxShapes: --shapes where given, else the
// shapes the calibration ran (trtexec_shapes.h); an input with neither is named on stderr.
// --ab-scripts DIR writes trtexec scripts that build and time, on the user's GPU, the plan's export, the all-FP16
// model and the plan with each region whose INT8 the prediction contests in FP16, with the reports `fit-gpu DIR`
// reads back (core/engine/ab_scripts.h); the GPU is --gpu, --gpu-profile or the one a --calib project keeps.
#include <filesystem>
#include <iostream>

#include "core/common/atomic_file.h"

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "app/cli/gpu_profile_options.h"
#include "core/engine/ab_scripts.h"
#include "core/export/carried_model.h"
#include "core/export/effective_plan.h"
#include "core/export/export_files.h"
#include "core/export/graph_preparation.h"
#include "core/export/qdq_export.h"
#include "core/export/qdq_import.h"
#include "core/export/quantized_outputs.h"
#include "core/export/scale_import.h"
#include "core/export/trtexec_command.h"
#include "core/export/trtexec_shapes.h"

namespace ql::cli {

namespace {

struct QuantizeCliOptions {
    std::string model;
    std::string calib;
    std::string plan;
    std::string output;
    std::string summary;
    std::string trtexec;
    std::string trtCache;
    std::string trt;     // empty: a --calib project's, else 10 (adoptProjectSettings)
    std::string typing;  // empty: the version's default
    std::string exposeQuantized;
    std::string floatImport;
    std::vector<std::string> shapes;  // --shapes NAME=MIN:OPT:MAX, repeatable
    std::string abScripts;
    std::string gpu;
    std::string gpuProfile;
    bool deconvPerChannel = false;
    bool floatWeights = false;
    bool fp16Io = false;
};

// The FP32 model to export: MODEL itself, or the model a Q/DQ MODEL or one with float16 islands (a strongly typed
// export, AutoCast) was made from, with the plan it carries (carried_model.h): re-exported without --plan, its
// INT8, FP16 and FP32 layers stay what they were.
Result<CarriedModel> fp32Model(std::unique_ptr<Model> model) {
    const std::string name = model->fileName();
    const bool qdq = hasQdqNodes(model->graph());
    QL_ASSIGN_OR_RETURN(CarriedModel carried, carriedModel(std::move(model)));
    if (!carried.plan) return carried;
    if (!carried.qoperatorImport.empty())
        std::cout << name << ": ONNX Runtime operator form: " << carried.qoperatorImport << std::endl;
    std::cout << name << ": " << (qdq ? "Q/DQ model" : "model");
    if (carried.fp16Nodes > 0) std::cout << " with " << carried.fp16Nodes << " FP16 island nodes";
    std::cout << ", re-exported from its FP32 form" << std::endl;
    return carried;
}

Result<CalibrationResult> scalesFor(const Graph& graph, const std::string& path) {
    QL_ASSIGN_OR_RETURN(auto imported, importScales(graph, path));
    std::cout << path << ": " << scaleFormatName(imported.format) << ", " << imported.calibration.activations.size()
              << " activation ranges";
    if (!imported.unknownTensors.empty())
        std::cout << "; " << imported.unknownTensors.size() << " tensors not in the model were skipped (first: '"
                  << imported.unknownTensors.front() << "')";
    std::cout << std::endl;
    return std::move(imported.calibration);
}

Status saveModel(const onnx::ModelProto& model, const std::string& path) {
    std::string bytes;
    if (!model.SerializeToString(&bytes)) return internalError(path + ": cannot serialize the model");
    return writeFileAtomically(path, bytes);
}

// FILE.onnx, beside it FILE.local.onnx (the per-layer copy) and FILE.json describing the points
// (quantized_outputs.h).
Status saveExposedCopies(const QdqExport& result, const std::string& path) {
    onnx::ModelProto exposed = result.proto;
    QL_ASSIGN_OR_RETURN(auto points, exposeQuantizationPoints(*exposed.mutable_graph()));
    onnx::ModelProto local = exposed;
    cutAtQuantizationPoints(*local.mutable_graph(), points);
    const std::filesystem::path base(path);
    const std::string localPath = std::filesystem::path(base).replace_extension(".local.onnx").string();
    const std::string description = std::filesystem::path(base).replace_extension(".json").string();
    QL_RETURN_IF_ERROR(saveModel(exposed, path));
    QL_RETURN_IF_ERROR(saveModel(local, localPath));
    QL_RETURN_IF_ERROR(writeFileAtomically(description, quantizationPointsJson(points).dump(2) + "\n"));
    std::cout << path << ": " << points.size() << " QuantizeLinear nodes exposed as graph outputs; per-layer copy "
              << localPath << ", described in " << description << std::endl;
    return Status::ok();
}

Result<std::vector<InputShapeRange>> givenShapes(const std::vector<std::string>& texts) {
    std::vector<InputShapeRange> shapes;
    for (const std::string& text : texts) {
        QL_ASSIGN_OR_RETURN(auto range, parseShapeOption(text));
        shapes.push_back(std::move(range));
    }
    return shapes;
}

// The script's optimization profiles; a dynamic input without shapes is named on stderr when a script is written.
Result<TrtexecShapes> scriptShapes(const Graph& graph, const CalibrationResult& calibration,
                                   const std::vector<InputShapeRange>& given, bool script) {
    QL_ASSIGN_OR_RETURN(auto shapes, trtexecShapes(graph, calibration.inputShapes, given));
    if (script)
        for (const std::string& advice : missingShapesAdvice(shapes)) printError("warning: " + advice);
    return shapes;
}

// ", 12 FP16 island nodes (9 casts), 3 layers kept FP32 by the FP16 guard" / ", 4 layers pinned FP32"
std::string exportTypingSummary(const QdqExport& result) {
    const int guarded = exportLayerCounts(result).fp16Guarded;
    std::string text;
    if (result.target.typing == TrtTyping::Strong) {
        text = ": " + std::to_string(result.islands.nodes) + " FP16 island nodes (" +
               std::to_string(result.islands.casts) + " casts)";
    } else if (auto plan = trtexecPlan(result)) {
        text = ": " + std::to_string(plan->pinnedLayers) + " layers pinned FP32 in the trtexec command";
    }
    if (guarded > 0) text += ", " + std::to_string(guarded) + " layers kept FP32 by the FP16 guard (see --summary)";
    return text;
}

// The A/B scripts of --ab-scripts, and a line saying what they are.
Status saveAbScripts(const QuantizeCliOptions& options, const Model& model, const PrecisionPlan& plan,
                     const CalibrationResult& calibration, const QdqOptions& qdq, const TrtTarget& target,
                     const TrtexecShapes& shapes, const GpuProfile& profile) {
    const Graph& graph = model.graph();
    const PlanRealizer realize = [&](PrecisionPlan requested) {
        return effectivePlan(graph, std::move(requested), target.version, Precision::Fp16, &calibration, target.typing);
    };
    const AbScriptsInput input{.model = model,
                               .plan = plan,
                               .calibration = calibration,
                               .qdq = qdq,
                               .target = {.trt = target, .fp16Io = options.fp16Io},
                               .shapes = shapes,
                               .profile = profile,
                               .realize = realize,
                               .folder = options.abScripts,
                               .writer = "quantlens-cli"};
    QL_ASSIGN_OR_RETURN(const AbScripts scripts, writeAbScripts(input));
    std::cout << options.abScripts << ": " << scripts.variants.size() << " trtexec scripts for "
              << profile.gpu.displayName << " (the plan, all-FP16 and " << scripts.contested.regions.size()
              << " contested region" << (scripts.contested.regions.size() == 1 ? "" : "s") << " of "
              << scripts.contested.candidates << " weighed); README.md says how to run them and import the reports"
              << std::endl;
    for (size_t i = 0; i < scripts.contested.regions.size(); ++i)
        std::cout << "  region " << i + 1 << ": " << scripts.contested.regions[i].name << ": "
                  << scripts.contested.regions[i].reason << std::endl;
    return Status::ok();
}

int runQuantize(QuantizeCliOptions options) {
    adoptProjectSettings(options.calib, options.plan, options.trt, options.typing);
    const auto target = trtTargetOption(options.trt, options.typing);
    if (!target) return failWith(target.status());
    if (options.fp16Io && target->typing != TrtTyping::Strong)
        return failWith(
            invalidArgument("--fp16-io: float16 inputs and outputs need a strongly typed target (--trt 10 "
                            "or 11 without --typing weak)"));
    if (!options.trtCache.empty())
        if (auto cache = trtCacheVersion(target->version); !cache) return failWith(cache.status());
    const auto given = givenShapes(options.shapes);
    if (!given) return failWith(given.status());
    if ((!options.gpu.empty() || !options.gpuProfile.empty()) && options.abScripts.empty())
        return failWith(invalidArgument("--gpu and --gpu-profile choose the GPU of --ab-scripts DIR: give it too"));
    std::optional<GpuProfile> gpu;
    if (!options.abScripts.empty()) {
        auto chosen = chosenGpuProfile(options.gpu, options.gpuProfile, options.calib);
        if (!chosen) return failWith(chosen.status());
        gpu = std::move(chosen).value();
    }
    auto loaded = loadModelOrReport(options.model);
    if (!loaded) return kExitBadInput;
    auto model = fp32Model(std::move(loaded));
    if (!model) return failWith(model.status());
    const Graph& graph = model->model->graph();
    if (!options.floatImport.empty()) {
        auto proto = selfContainedProto(*model->model);
        if (!proto) return failWith(proto.status());
        if (auto saved = saveModel(*proto, options.floatImport); !saved.isOk()) return failWith(saved);
        std::cout << options.floatImport << ": the FP32 model " << options.model << " was made from ("
                  << graph.nodes().size() << " nodes)" << std::endl;
    }
    auto calibration = scalesFor(graph, options.calib);
    if (!calibration) return failWith(calibration.status());
    auto plan =
        model->plan && options.plan.empty()
            ? Result<PrecisionPlan>(
                  effectivePlan(graph, *model->plan, target->version, Precision::Fp16, &*calibration, target->typing))
            : effectivePlan(graph, options.plan, target->version, Precision::Fp16, &*calibration, target->typing);
    if (!plan) return failWith(plan.status());
    const QdqOptions qdq{.perChannelConvTranspose = options.deconvPerChannel,
                         .tensorRtMajor = trtMajor(target->version),
                         .int8Weights = !options.floatWeights};
    auto shapes = scriptShapes(graph, *calibration, *given, !options.trtexec.empty() || !options.abScripts.empty());
    if (!shapes) return failWith(shapes.status());
    auto result = exportQdq(*model->model, *plan, *calibration, qdq, {.trt = *target, .fp16Io = options.fp16Io});
    if (!result) return failWith(result.status());
    if (gpu)
        if (Status s = saveAbScripts(options, *model->model, *plan, *calibration, qdq, *target, *shapes, *gpu);
            !s.isOk())
            return failWith(s);
    const ExportFiles files{.model = options.output,
                            .summary = options.summary,
                            .trtexec = options.trtexec,
                            .trtCache = options.trtCache,
                            .writer = "quantlens-cli",
                            .shapes = std::move(*shapes)};
    if (Status s = saveExportFiles(*result, *calibration, target->version, files); !s.isOk()) return failWith(s);
    if (!options.exposeQuantized.empty())
        if (Status s = saveExposedCopies(*result, options.exposeQuantized); !s.isOk()) return failWith(s);
    const ExportLayerCounts counts = exportLayerCounts(*result);
    std::cout << options.output << ": " << counts.quantizedInputs << " quantized inputs, " << counts.int8Weighted
              << " of " << counts.weighted << " weighted layers INT8 (" << counts.int8All << " layers INT8 in all)"
              << (result->steps.empty() ? "" : ", " + preparationSummary(result->steps)) << "; for TensorRT "
              << trtTargetName(*target) << exportTypingSummary(*result) << std::endl;
    return kExitOk;
}

}  // namespace

void addQuantizeCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<QuantizeCliOptions>();
    auto* cmd = app.add_subcommand("quantize", "Write a TensorRT-ready Q/DQ model from a calibration");
    cmd->add_option("MODEL", options->model, "ONNX model file (FP32)")->required();
    cmd->add_option("--calib", options->calib,
                    "Scales: CALIB.json from `quantlens-cli calibrate`, a TensorRT calibration cache, ONNX Runtime "
                    "calibration.json / calibration.cache, or a Q/DQ model")
        ->required();
    cmd->add_option("--plan", options->plan,
                    "Precision plan (PLAN.json); default: the default INT8 placement. TensorRT's INT8 fallbacks "
                    "(lint rules of the --trt version) are applied");
    cmd->add_option("-o,--output", options->output, "Q/DQ model to write (OUT.onnx)")->required();
    cmd->add_option("--float-import", options->floatImport,
                    "Also write the FP32 model MODEL was made from (a Q/DQ, float16-island or ONNX Runtime "
                    "QOperator/dynamically quantized model made float again)");
    cmd->add_option("--summary", options->summary, "Also write a JSON summary of every decision");
    cmd->add_option("--trtexec", options->trtexec, "Also write the trtexec command that builds the engine (shell)");
    cmd->add_option("--trt-cache", options->trtCache,
                    "Also write a TensorRT calibration cache (implicit INT8 path; header for the --trt version)");
    cmd->add_option("--trt", options->trt,
                    "Target TensorRT version: 8.6, 10 or 11 (default 10); its INT8 fallbacks are applied to the plan");
    cmd->add_option("--typing", options->typing,
                    "strong (default for 10 and 11: FP16 layers written as float16 islands, --stronglyTyped script) "
                    "or weak (8.6's only form; on 10 the deprecated --int8 --fp16 build with FP32 layers pinned)");
    cmd->add_option("--shapes", options->shapes,
                    "NAME=MINxDIMS:OPTxDIMS:MAXxDIMS (or NAME=DIMS): the TensorRT optimization profile of a dynamic "
                    "input in the --trtexec script, e.g. x=1x3x640x640:4x3x640x640:8x3x640x640 (repeat per input; "
                    "default: the shapes the calibration ran)");
    cmd->add_flag("--fp16-io", options->fp16Io,
                  "Strongly typed: make the model's float inputs and outputs float16 too (default: kept as they are)");
    cmd->add_flag("--deconv-per-channel", options->deconvPerChannel,
                  "Per-channel ConvTranspose weights on the target's axis (8.6: 0, 10: 1) instead of per tensor");
    cmd->add_flag("--float-weights", options->floatWeights,
                  "Keep float weights behind a QuantizeLinear->DequantizeLinear pair instead of int8 initializers");
    cmd->add_option("--expose-quantized", options->exposeQuantized,
                    "Also write a copy whose QuantizeLinear inputs and outputs are graph outputs, FILE.local.onnx "
                    "(each QuantizeLinear computed from codes given as inputs) and FILE.json describing them, to "
                    "compare the int8 codes of two runtimes");
    cmd->add_option(
        "--ab-scripts", options->abScripts,
        "Also write to DIR trtexec scripts that build and time, on your GPU, the plan, all-FP16 and the "
        "plan with each contested region in FP16, with the reports `fit-gpu DIR` imports (README.md there)");
    addGpuOptions(*cmd, options->gpu, options->gpuProfile, "of the --ab-scripts (yours)");
    cmd->callback([options, &exitCode] { exitCode = runQuantize(*options); });
}

}  // namespace ql::cli
