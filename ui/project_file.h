#pragma once
// The project file (.qlproj, JSON): everything needed to come back to a piece of work.
//   {
//     "format": "quantlens-project", "version": 1,
//     "model": "../models/resnet18.onnx",      relative to the project's folder
//     "model_absolute": "/data/models/resnet18.onnx",   tried when the relative path does not resolve
//     "trt": "10.x",                            the TensorRT version the rules follow ("8.6", "10.x" or "11.x")
//     "typing": "strong",                       "strong" or "weak"; missing (older projects) or a typing the
//                                               version cannot build: the version's default (defaultTyping)
//     "plan": { ...PrecisionPlan JSON (docs/plan-schema.md)... },
//     "data": { ...calibration dialog settings: data paths, method, counts, preprocessing... },
//     "silenced_rules": ["trt-...", ...],       lint rules the user silenced in this project
//     "calibration": { ...CALIB.json (docs/calibration-schema.md)... },          optional
//     "analysis": { "accumulated": { ... }, "isolated": { ... } }                optional (analysis_file.h)
//     "analysis_plan": { ...the plan the analysis measured... },                 with "analysis"
//     "analysis_stale": "the plan changed since it was measured (2 layers)",     when it is stale
//     "engine": { "layers": "...", "layers_absolute": "...",                     optional: the engine report's
//                 "profile": "...", "profile_absolute": "..." }                  files, read again on load
//     "gpu_profile": { ...GPU profile (core/engine/latency_model.h) ... }       optional: the GPU predictions are
//                                                                                made for, fitted by `fit-gpu`
//   }
// Projects without "engine" load as before; an engine report that cannot be read again (moved, edited) leaves
// the project loaded without it and says why in LoadedModel::engineError.
#include <QString>
#include <memory>

#include "core/common/status.h"
#include "ui/model_document.h"

namespace ql::ui {

inline constexpr const char* kProjectSuffix = "qlproj";

// Writes the document's model path, plan, data settings and results atomically.
Status saveProject(const ModelDocument& document, const QString& path);

// Runs on any thread: reads the project, loads its model and restores plan and results. Errors (unreadable
// or invalid project, missing model, a plan that names nodes the model lacks) are in `error`, naming the file; a
// missing model also sets `missingModel`. `modelPath` replaces the model the project names (it moved: Locate...).
std::shared_ptr<LoadedModel> loadProject(const QString& path, const QString& modelPath = {});

}  // namespace ql::ui
