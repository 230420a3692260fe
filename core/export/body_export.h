#pragma once
// The bodies of If/Loop/Scan nodes that the plan quantizes (PrecisionPlan::bodies): each is exported as a model of
// its own (exportQdq over the body, with its plan and the body's calibration, body_calibration.h: the same
// preparation, placement, Q/DQ writer and float16 islands as the main graph, nested bodies likewise) and written
// back into the exported model in place of the float body. The body keeps its formal inputs and outputs in float32
// (the control-flow node around it is a float node of the enclosing graph); what it reads from the enclosing graph it
// reads by name, as before.
#include "core/common/status.h"
#include "core/export/qdq_export.h"

namespace ql {

// Exports the planned bodies of `model` (with an INT8 or FP16 node, or a planned body of their own) into
// `result.proto` and `result.bodies`. Errors name the node and the attribute.
Status exportBodies(const Model& model, const PrecisionPlan& plan, const CalibrationResult& calibration,
                    const QdqOptions& options, const ExportTarget& target, QdqExport& result);

}  // namespace ql
