#pragma once
// A model with fixed input dims (`predict --shapes`, `tune --shapes`, the window's screenshots at a batch): the
// dims a model leaves open (a symbolic batch, a dynamic H/W) decide its MACs and its predicted engine, and each
// open dim otherwise counts as 1.
#include <memory>
#include <string>

#include "core/common/status.h"
#include "core/model/model.h"

namespace ql {

// `shapes`: NAME=DIMS,... (DIMS like 1x3x224x224): `model` with those input dims and its shapes inferred again (and
// its MACs measured where inference cannot reach them). The nodes keep their order, so plans of `model` apply. An
// error names --shapes, as the CLI's option it mostly comes from.
Result<std::unique_ptr<Model>> withInputShapes(const Model& model, const std::string& shapes);

}  // namespace ql
