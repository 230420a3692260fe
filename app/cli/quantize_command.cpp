// quantlens-cli quantize MODEL --calib CALIB.json [--plan PLAN.json] -o OUT.onnx [--summary FILE.json]
//                        [--trt 8.6|10] [--deconv-per-channel] [--float-weights]
// Writes a TensorRT-ready Q/DQ model (core/export/qdq_export.h) and, on request, a JSON summary of every
// decision. Without --plan the default INT8 placement is used. Both files are written atomically.
#include <iostream>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "core/export/qdq_export.h"
#include "core/lint/trt_version.h"
#include "core/quant/calibration_file.h"
#include "core/quant/default_placement.h"

namespace ql::cli {

namespace {

struct QuantizeCliOptions {
    std::string model;
    std::string calib;
    std::string plan;
    std::string output;
    std::string summary;
    std::string trt = "10";
    bool deconvPerChannel = false;
    bool floatWeights = false;
};

Result<PrecisionPlan> planFor(const Graph& graph, const std::string& path) {
    if (path.empty()) return defaultPrecisionPlan(graph);
    return PrecisionPlan::load(graph, path);
}

int runQuantize(const QuantizeCliOptions& options) {
    const auto version = parseTrtVersion(options.trt);
    if (!version) return failWith(invalidArgument("--trt " + options.trt + ": expected 8.6 or 10"));
    auto model = loadModelOrReport(options.model);
    if (!model) return kExitBadInput;
    auto calibration = loadCalibration(model->graph(), options.calib);
    if (!calibration) return failWith(calibration.status());
    auto plan = planFor(model->graph(), options.plan);
    if (!plan) return failWith(plan.status());
    const QdqOptions qdq{.perChannelConvTranspose = options.deconvPerChannel,
                         .tensorRtMajor = *version == TrtVersion::Trt86 ? 8 : 10,
                         .int8Weights = !options.floatWeights};
    auto result = exportQdq(*model, *plan, *calibration, qdq);
    if (!result) return failWith(result.status());
    if (Status s = saveQdqExport(*result, options.output, options.summary); !s.isOk()) return failWith(s);
    size_t int8Layers = 0;
    for (const auto& layer : result->placement.layers) int8Layers += layer.precision == Precision::Int8 ? 1 : 0;
    std::cout << options.output << ": " << result->placement.edges.size() << " quantized inputs, " << int8Layers
              << " INT8 layers, " << result->steps.size() << " preparation steps" << std::endl;
    return kExitOk;
}

}  // namespace

void addQuantizeCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<QuantizeCliOptions>();
    auto* cmd = app.add_subcommand("quantize", "Write a TensorRT-ready Q/DQ model from a calibration");
    cmd->add_option("MODEL", options->model, "ONNX model file (FP32)")->required();
    cmd->add_option("--calib", options->calib, "Calibration file from `quantlens-cli calibrate`")->required();
    cmd->add_option("--plan", options->plan, "Precision plan (PLAN.json); default: the default INT8 placement");
    cmd->add_option("-o,--output", options->output, "Q/DQ model to write (OUT.onnx)")->required();
    cmd->add_option("--summary", options->summary, "Also write a JSON summary of every decision");
    cmd->add_option("--trt", options->trt, "Target TensorRT version: 8.6 or 10 (default 10)");
    cmd->add_flag("--deconv-per-channel", options->deconvPerChannel,
                  "Per-channel ConvTranspose weights on the target's axis (8.6: 0, 10: 1) instead of per tensor");
    cmd->add_flag("--float-weights", options->floatWeights,
                  "Keep float weights behind a QuantizeLinear->DequantizeLinear pair instead of int8 initializers");
    cmd->callback([options, &exitCode] { exitCode = runQuantize(*options); });
}

}  // namespace ql::cli
