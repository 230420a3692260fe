#pragma once
// MACs from the shapes the executor sees. Where shape inference could not reach a weighted layer's shapes (a Reshape
// to a computed shape, say), its MACs would count each unknown dim as 1; one run of the model on seeded inputs of the
// declared input shapes learns every such tensor's shape instead. A symbolic input dim is taken as 1 for that run,
// and the counts then stay approximate (LayerCost::approximate), as inference's own do.
//
//   auto model = Model::load(path);
//   measureLayerCosts(**model);  // off the GUI thread: it may cost one inference
#include "core/common/status.h"
#include "core/model/model.h"

namespace ql {

// True when some weighted layer's MACs rest on a shape inference could not reach (a dim neither known nor a named
// symbol, or no shape at all): only then is a run worth its cost.
bool costsNeedARun(const Graph& graph);

// Runs the model once when costsNeedARun, and recomputes its layers' MACs with what the run saw. An error (the run
// failed: an input without a declared shape, an unsupported op) leaves the costs as they were.
Status measureLayerCosts(Model& model, int threads = 1);

}  // namespace ql
