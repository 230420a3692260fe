// quantlens-cli run MODEL --input [NAME=]FILE.npy... [--out DIR] [--threads N]
//                  [--simulate CALIB.json [--plan PLAN.json] [--trt 8.6|10|11] [--fallback fp16|fp32]
//                   [--deconv-per-channel]]
// Runs a model on CPU with inputs from .npy files; prints each output's type and shape and, with --out,
// writes DIR/<output name>.npy. --simulate runs the INT8/FP16 simulation of the plan (default: the default
// INT8 placement, as `quantize` uses; TensorRT's INT8 fallbacks for --trt applied, as in `quantize` and
// `compare`: core/export/effective_plan.h) instead of FP32 (core/quant/simulation.h), with `quantize`'s Q/DQ
// defaults (ConvTranspose weights per tensor; --deconv-per-channel as in `quantize`, on the --trt version's axis).
// --fallback fp32 simulates the layers TensorRT runs in float as FP32 (default FP16, as the trtexec command
// builds), to compare with a runtime that runs the exported model's float layers in FP32.
// A MODEL that carries its precisions (Q/DQ, float16 islands: an export) is simulated as written, on the FP32 model
// it was made from, with its own scales (core/export/carried_model.h): the numbers `run` gives on the file itself.
#include <filesystem>
#include <iostream>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "app/cli/data_options.h"
#include "core/data/npy.h"
#include "core/exec/executor.h"
#include "core/export/carried_model.h"
#include "core/export/effective_plan.h"
#include "core/quant/simulation.h"

namespace ql::cli {

namespace {

struct RunCommandOptions {
    std::string model;
    std::vector<std::string> inputs;  // NAME=FILE.npy
    std::string outDir;
    int threads = 1;
    std::string simulate;  // CALIB.json
    std::string plan;
    std::string trt;       // empty: 10, as `quantize` and `compare`
    std::string fallback;  // empty: fp16
    bool deconvPerChannel = false;
};

// NAME=FILE.npy per input; a bare FILE.npy when the model has one input (as calibrate --data takes it). A NAME the
// model does not have is named as such, with the inputs it has.
Result<NamedTensors> readInputs(const Graph& graph, const std::vector<std::string>& specs) {
    std::string names;
    for (ValueId v : graph.inputs()) names += (names.empty() ? "" : ", ") + graph.value(v).name;
    NamedTensors inputs;
    for (const auto& spec : specs) {
        const auto eq = spec.find('=');
        const bool named = eq != std::string::npos && eq > 0 && graph.findValue(spec.substr(0, eq)).has_value();
        // A bare path for a one-input model is read, so a missing file is said to be missing, not a syntax error
        // (the input's own name alone is the syntax error).
        const bool barePath = eq == std::string::npos && !graph.findValue(spec).has_value();
        if (!named && graph.inputs().size() == 1 && (barePath || std::filesystem::exists(spec))) {
            QL_ASSIGN_OR_RETURN(Tensor t, readNpy(spec));
            inputs.emplace_back(graph.value(graph.inputs()[0]).name, std::move(t));
            continue;
        }
        if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
            return invalidArgument("--input '" + spec + "' must look like NAME=FILE.npy (the model's inputs: " + names +
                                   ")");
        if (!named)
            return invalidArgument("--input '" + spec + "': the model has no input '" + spec.substr(0, eq) +
                                   "' (its inputs: " + names + ")");
        QL_ASSIGN_OR_RETURN(Tensor t, readNpy(spec.substr(eq + 1)));
        inputs.emplace_back(spec.substr(0, eq), std::move(t));
    }
    return inputs;
}

// With --simulate: the plan (kept alive in `plan`) and its simulator; nothing otherwise. A model that carries its
// precisions (`carried`, carried_model.h) is simulated as written unless --plan gives another plan.
Status prepareSimulation(const RunCommandOptions& options, const CarriedModel& carried, PrecisionPlan& plan,
                         std::unique_ptr<QuantSimulator>& simulator) {
    const Graph& graph = carried.model->graph();
    if (options.simulate.empty()) {
        if (!options.plan.empty() || !options.trt.empty() || !options.fallback.empty() || options.deconvPerChannel)
            return invalidArgument("--plan, --trt, --fallback and --deconv-per-channel need --simulate CALIB.json");
        return Status::ok();
    }
    QL_ASSIGN_OR_RETURN(const TrtVersion version, trtVersionOption(options.trt.empty() ? "10" : options.trt));
    QL_ASSIGN_OR_RETURN(CalibrationResult calibration, readCalibrationOption(graph, options.simulate));
    applyCarriedScales(calibration, carried.scales);
    const Precision fallback = options.fallback == "fp32" ? Precision::Fp32 : Precision::Fp16;
    if (carried.plan && options.plan.empty()) {
        plan = *carried.plan;
    } else {
        QL_ASSIGN_OR_RETURN(plan, effectivePlan(graph, options.plan, version, fallback, &calibration));
    }
    // --fallback fp32: ONNX Runtime runs a weakly typed export's float layers in float32, the FP16 ones included.
    if (fallback == Precision::Fp32) runFp16LayersInFp32(plan, "--fallback fp32: every float layer runs FP32");
    const QdqOptions qdq{.perChannelConvTranspose = options.deconvPerChannel, .tensorRtMajor = trtMajor(version)};
    QL_ASSIGN_OR_RETURN(simulator, QuantSimulator::create(graph, plan, calibration, qdq));
    return Status::ok();
}

int runModel(const RunCommandOptions& options) {
    auto loaded = loadModelOrReport(options.model);
    if (!loaded) return kExitBadInput;
    auto inputs = readInputs(loaded->graph(), options.inputs);
    if (!inputs) return failWith(inputs.status());
    // Only a simulation reads a model's own Q/DQ and float16 islands back; a plain run executes the file as it is.
    auto carried = options.simulate.empty() ? Result<CarriedModel>(CarriedModel{std::move(loaded), {}, {}, 0, {}})
                                            : carriedModel(std::move(loaded));
    if (!carried) return failWith(carried.status());
    const Model* model = carried->model.get();
    // One inference: weights reordered for oneDNN are not kept (that copy would double their memory).
    auto executor = Executor::create(model->graph(), {.threads = options.threads, .cacheWeights = false});
    if (!executor) return failWith(executor.status());
    PrecisionPlan plan;
    std::unique_ptr<QuantSimulator> simulator;
    if (Status s = prepareSimulation(options, *carried, plan, simulator); !s) return failWith(s);
    RunOptions runOptions;
    runOptions.interceptor = simulator.get();
    auto outputs = (*executor)->run(*inputs, runOptions);
    if (!outputs) return failWith(outputs.status());
    for (const auto& [name, tensor] : *outputs)
        std::cout << name << ": " << dataTypeName(tensor.dtype()) << " " << shapeString(tensor.shape()) << std::endl;
    if (!options.outDir.empty())
        if (Status s = writeNamedNpy(options.outDir, *outputs); !s) return failWith(s);
    return kExitOk;
}

}  // namespace

void addRunCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<RunCommandOptions>();
    auto* cmd = app.add_subcommand("run", "Run a model on CPU with inputs from .npy files");
    cmd->add_option("MODEL", options->model, "ONNX model file")->required();
    cmd->add_option("--input", options->inputs,
                    "NAME=FILE.npy for each model input (repeat); FILE.npy alone for a model with one input");
    cmd->add_option("--out", options->outDir, "Write each output to DIR/<output name>.npy");
    addThreadsOption(*cmd, options->threads);
    cmd->add_option("--simulate", options->simulate, "Simulate the plan in INT8/FP16 with this CALIB.json");
    cmd->add_option("--plan", options->plan, "Precision plan for --simulate (default: the default INT8 placement)");
    cmd->add_option("--trt", options->trt,
                    "With --simulate: TensorRT version whose INT8 fallbacks are simulated, 8.6, 10 or 11 (default 10)");
    cmd->add_option("--fallback", options->fallback,
                    "With --simulate: precision of the layers that do not run INT8, fp16 (default: the plan's FP16 "
                    "layers and TensorRT's INT8 fallbacks in FP16, as the engine runs them) or fp32 (every one of "
                    "them in FP32, as ONNX Runtime runs a weakly typed export)")
        ->check(CLI::IsMember({"fp16", "fp32"}));
    cmd->add_flag("--deconv-per-channel", options->deconvPerChannel,
                  "With --simulate: per-channel ConvTranspose weights, as `quantize --deconv-per-channel`");
    cmd->callback([options, &exitCode] { exitCode = runModel(*options); });
}

}  // namespace ql::cli
