#pragma once
// The GPU a command predicts for: --gpu NAME (a row of the table, default terms), --gpu-profile FILE (a GPU profile,
// fitted or written by hand), else the profile a QuantLens project given as --calib keeps ("gpu_profile", written by
// `fit-gpu --project` and the window).
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "core/common/status.h"
#include "core/engine/latency_model.h"

namespace ql::cli {

// `calib` empty or not a project: no fallback. The error says how to choose a GPU and lists the known ones.
Result<GpuProfile> chosenGpuProfile(const std::string& gpu, const std::string& profileFile, const std::string& calib);

// --gpu NAME and --gpu-profile FILE on `command`, for chosenGpuProfile; `purpose` says what the GPU is for in their
// help ("the latency rules time the predicted engine on").
void addGpuOptions(CLI::App& command, std::string& gpu, std::string& profileFile, const std::string& purpose);
// The same for a command that runs without a GPU too (lint): nullopt when none is given and the project keeps none.
Result<std::optional<GpuProfile>> optionalGpuProfile(const std::string& gpu, const std::string& profileFile,
                                                     const std::string& calib);

}  // namespace ql::cli
