#pragma once
// Reads the layer information trtexec writes with --exportLayerInfo=FILE (and the engine inspector's
// getEngineInformation(kJSON), TREx's *.graph.json): {"Layers": [...], "Bindings": [...]} on 8.x/10.x,
// {"Layers": [...], "I/O Tensors": [...]} on 11.x. Built with --profilingVerbosity=detailed each layer is an object
// (Name, LayerType, Inputs/Outputs with their formats, Weights, TacticName, Origin, Metadata); without it the
// layers are bare names, which are kept with nothing else known. docs/engine-reports.md lists the keys read.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/common/status.h"
#include "core/engine/engine_report.h"

namespace ql {

// `option` names the file in messages: "--layers", "--baseline".
Result<EngineReport> readLayerInfo(const std::string& path, const std::string& option = "--layers");
// The same from parsed JSON; `label` names the source in messages ("--layers FILE").
Result<EngineReport> layerInfoFromJson(const nlohmann::json& json, const std::string& label);

}  // namespace ql
