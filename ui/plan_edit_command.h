#pragma once
// One undoable change of the precision plan: requested precisions of some nodes and per-tensor calibration
// method overrides of some tensors, each with its value before and after. Every plan edit of the document
// (table, graph shortcuts, histogram override, a loaded or tuned plan) is one of these, so Edit > Undo takes
// back exactly what one user action did.
#include <QList>
#include <QUndoCommand>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/quant/precision_plan.h"

namespace ql::ui {

class ModelDocument;

// What an edit sets. tensorMethods: nullopt puts the tensor back on the calibration's own method. bodies: the plans
// of the control-flow bodies (PrecisionPlan::bodies) as a whole, when the edit changes any; their effective
// precisions are decided again when applied.
struct PlanEdit {
    QList<NodeId> nodes;
    QList<Precision> precisions;  // one per node
    QList<std::string> notes;     // one per node, or none: why a tune or placement chose it (an edit clears it)
    std::map<std::string, std::optional<CalibrationMethod>> tensorMethods;
    std::optional<std::vector<BodyPlan>> bodies;

    bool isEmpty() const { return nodes.isEmpty() && tensorMethods.empty() && !bodies; }
};

// The edits that turn `from`'s choices (requested precisions, tensor methods, body plans) into `to`'s: {undo,
// redo}, both empty when the plans agree.
std::pair<PlanEdit, PlanEdit> planChange(const Graph& graph, const PrecisionPlan& from, const PrecisionPlan& to);

// The layers of the bodies whose choices differ between `a` and `b` (requested precision or note, and the effective
// precision when `effective`), a differing tensor method counting as one; a body planned on one side only counts
// against an all-FP32 plan, as it runs without one.
int changedBodyLayers(const std::vector<BodyPlan>& a, const std::vector<BodyPlan>& b, bool effective);

class PlanEditCommand final : public QUndoCommand {
public:
    PlanEditCommand(ModelDocument* document, PlanEdit before, PlanEdit after, const QString& text);
    void redo() override;
    void undo() override;

private:
    ModelDocument* mDocument;
    PlanEdit mBefore, mAfter;
};

}  // namespace ql::ui
