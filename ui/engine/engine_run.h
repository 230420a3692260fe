#pragma once
// What TensorRT built, on the document's model: the engine report read from trtexec's files (core/engine/), its
// mapping to the model's nodes and the analysis against the plan (precision per layer and node, times, mismatches,
// slowest layers). Plain data handed from the background job to the document; immutable once made, so views may
// hold the shared_ptr while the document swaps in a new one (a plan change recomputes the mismatches).
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "core/engine/engine_analysis.h"
#include "core/engine/engine_coverage.h"
#include "core/engine/engine_mapping.h"
#include "core/engine/engine_report.h"
#include "core/lint/linter.h"
#include "core/model/model.h"
#include "core/quant/precision_plan.h"

namespace ql::ui {

struct EngineRun {
    QString layersPath;
    QString profilePath;  // empty: no profile (no times)
    std::shared_ptr<const EngineReport> report;
    EngineMapping mapping;
    EngineAnalysis analysis;
    MappingCoverage coverage;    // how much of the model and of the engine the mapping accounts for
    std::vector<int> runOfNode;  // per node of the model: its index in analysis.nodes, or -1

    // The node's run (engine layers, precision, time, tactic); null for a node in no layer.
    const NodeRun* run(NodeId node) const;
    // The engine layer that computes `node` (not a reformat), if any.
    std::optional<size_t> mainLayer(NodeId node) const;
    // The mismatches reported on `node`.
    std::vector<const PrecisionMismatch*> mismatchesOf(NodeId node) const;
    // The first compute node of the model that engine layer `layer` holds (or the layer it feeds), kNoId if none.
    NodeId nodeOfLayer(size_t layer) const;
};

// What the engine was planned to run, from the document's plan: ql::plannedFromPlan (core/engine/planned_precision.h),
// the function the CLI builds its plan with.

struct EngineLoad {
    std::shared_ptr<const EngineRun> run;
    QString error;  // names the file and what is wrong with it
};

// Runs on any thread. `paths`: the layer information and, optionally, the profile, in any order (told apart by
// their content); a lone layer file brings the profile beside it (X.graph.json or X.layers.json -> X.profile.json).
EngineLoad loadEngineRun(const QStringList& paths, const std::shared_ptr<const Model>& model,
                         const PlannedPrecisions& planned);
// The same report with its mismatches recomputed for another plan.
std::shared_ptr<const EngineRun> replanEngineRun(const EngineRun& run, const Graph& graph,
                                                 const PlannedPrecisions& planned);

}  // namespace ql::ui
