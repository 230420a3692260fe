#pragma once
// Shared pieces of the CLI subcommands: exit codes, error printing, model loading.
#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/model/model.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace ql::cli {

// The exit codes are part of the CLI contract (DESIGN.md).
enum ExitCode : int {
    kExitOk = 0,        // success
    kExitFindings = 1,  // the check found problems at the fail level
    kExitBadInput = 2,  // bad usage or bad input
};

// Prints "quantlens-cli: <message>" on one line on stderr.
void printError(const std::string& message);
int failWith(const Status& status);

// The name of `names` at most two edits from `word` (the closest), or "": what a "did you mean" offers.
std::string closestName(const std::string& word, const std::vector<std::string>& names);

// Loads a model, printing the error when it cannot be used.
std::unique_ptr<Model> loadModelOrReport(const std::string& path);
// The same, but a model in ONNX Runtime's operator form (ConvInteger, QLinearConv, ...: qoperator_import.h) comes back
// as its float import, said on stderr: what `calibrate` and `lint` work on.
std::unique_ptr<Model> loadFloatFormOrReport(const std::string& path);
// The same for a model already loaded (null stays null). `carriedPlan`, when given, receives the plan the operator
// form carries (its quantized layers INT8, the other float layers FP16): what `quantize` exports without a plan.
std::unique_ptr<Model> floatFormOrReport(std::unique_ptr<Model> model,
                                         std::optional<PrecisionPlan>* carriedPlan = nullptr);
// What a --plan describes: MODEL itself, or, when MODEL carries precisions of its own (Q/DQ nodes, float16 islands),
// the FP32 form that `quantize --plan` re-exports with that plan (carried_model.h), said on stderr; `carriedScales`
// then holds the scales the model carried. Without a plan, MODEL as it is (its own precisions are the plan).
std::unique_ptr<Model> planSubjectOrReport(std::unique_ptr<Model> model, bool planGiven,
                                           std::optional<CalibrationResult>& carriedScales);
// The plan MODEL runs with: PLAN.json when given, else what an operator-form file carries (floatFormOrReport's
// `carriedPlan`), else what the model carries or, carrying nothing, the default placement (writtenPlan).
Result<PrecisionPlan> requestedPlan(const Model& model, const std::string& planPath,
                                    const std::optional<PrecisionPlan>& operatorFormPlan);
// `scales` (the --calib given, if any) with the carried ones over it: a carried model's own scales are in force.
void addCarriedScales(std::optional<CalibrationResult>& scales, std::optional<CalibrationResult> carried);

// A QuantLens project (.qlproj) given as --calib also carries the window's precision plan and TensorRT target. Where
// the command line leaves them open (no --plan; no --trt, no --typing) the project's are taken, and said on stderr,
// so the CLI does what the window does with the same project. `trt` comes back set ("10" when nothing says more).
void adoptProjectSettings(const std::string& calib, std::string& plan, std::string& trt, std::string& typing);

// --threads N, by default every core of this machine (a CI box has many; one thread would waste them).
void addThreadsOption(CLI::App& command, int& threads);
// --progress: report progress on stderr even when it is not a terminal (CI logs).
void addProgressFlag(CLI::App& command, bool& progress);

}  // namespace ql::cli
