#pragma once
// Pieces shared by the commands that read calibration or evaluation data (calibrate, compare).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/data/open_data.h"
#include "core/quant/calibration.h"

namespace ql::cli {

// `--data PATH` or `--data NAME=PATH` (NAME a model input; otherwise the whole text is the path).
Result<std::unique_ptr<DataSource>> openDataOption(const Graph& graph, const std::vector<std::string>& options);

// "calibrating 96/512 samples" redrawn on one stderr line, only when stderr is a terminal; null otherwise.
ProgressFn terminalProgress(const std::string& what);
// Ends the progress line (when one was drawn).
void endTerminalProgress();

}  // namespace ql::cli
