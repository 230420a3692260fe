#include "ui/plan_edit_command.h"

#include <set>

#include "ui/model_document.h"

namespace ql::ui {

std::pair<PlanEdit, PlanEdit> planChange(const Graph& graph, const PrecisionPlan& from, const PrecisionPlan& to) {
    PlanEdit before, after;
    for (const Node& node : graph.nodes()) {
        if (to.requested(node.id) == from.requested(node.id) &&
            to.placementNote(node.id) == from.placementNote(node.id))
            continue;
        before.nodes.append(node.id);
        before.precisions.append(from.requested(node.id));
        before.notes.append(from.placementNote(node.id));
        after.precisions.append(to.requested(node.id));
        after.notes.append(to.placementNote(node.id));
    }
    after.nodes = before.nodes;
    std::set<std::string> tensors;
    for (const auto& entry : from.tensorMethods()) tensors.insert(entry.first);
    for (const auto& entry : to.tensorMethods()) tensors.insert(entry.first);
    for (const std::string& tensor : tensors) {
        const auto was = from.tensorMethod(tensor), will = to.tensorMethod(tensor);
        if (was == will) continue;
        before.tensorMethods[tensor] = was;
        after.tensorMethods[tensor] = will;
    }
    return {std::move(before), std::move(after)};
}

PlanEditCommand::PlanEditCommand(ModelDocument* document, PlanEdit before, PlanEdit after, const QString& text)
    : QUndoCommand(text), mDocument(document), mBefore(std::move(before)), mAfter(std::move(after)) {}

void PlanEditCommand::redo() {
    mDocument->applyPlanEdit(mAfter);
}

void PlanEditCommand::undo() {
    mDocument->applyPlanEdit(mBefore);
}

}  // namespace ql::ui
