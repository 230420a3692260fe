#pragma once
// The user's own metric for `tune --metric-command 'CMD {outputs}'` (Polygraphy's --check is the precedent):
// each evaluation's outputs are written to a fresh folder as `run --out` writes them (DIR/<output name>.npy, the
// evaluated samples in order along axis 0) with DIR/sample_indices.npy (int64 [rows]: the index into the data, along
// its axis 0, of each row; tune evaluates subsets, so a metric matching outputs to ground truth needs it),
// `{outputs}` in CMD is replaced by that folder (quoted for the shell), CMD runs through /bin/sh, and the last line
// it prints on stdout is the metric (higher is better).
// The folder is removed afterwards. A command that fails, or prints no number, is an error quoting it.
#include <string>

#include "core/quant/tuning_target.h"

namespace ql {

// Checks that `command` holds {outputs}.
Result<OutputMetricFn> metricCommand(const std::string& command);

}  // namespace ql
