#include "ui/plan_edit_command.h"

#include <set>

#include "ui/model_document.h"

namespace ql::ui {

namespace {

// `b` null: the body has no plan on that side (all FP32, no notes, no methods, no bodies).
int changedBodyPlan(const PrecisionPlan& a, const PrecisionPlan* b, bool effective) {
    static const std::string kNoNote;
    int changed = 0;
    for (NodeId id = 0; id < static_cast<NodeId>(a.size()); ++id) {
        const Precision requested = b ? b->requested(id) : Precision::Fp32;
        const Precision effectiveB = b ? b->effective(id) : Precision::Fp32;
        if (a.requested(id) != requested || a.placementNote(id) != (b ? b->placementNote(id) : kNoNote) ||
            (effective && a.effective(id) != effectiveB))
            ++changed;
    }
    std::set<std::string> tensors;
    for (const auto& entry : a.tensorMethods()) tensors.insert(entry.first);
    if (b)
        for (const auto& entry : b->tensorMethods()) tensors.insert(entry.first);
    for (const std::string& tensor : tensors)
        if (a.tensorMethod(tensor) != (b ? b->tensorMethod(tensor) : std::nullopt)) ++changed;
    return changed + changedBodyLayers(a.bodies(), b ? b->bodies() : std::vector<BodyPlan>(), effective);
}

const PrecisionPlan* findBody(const std::vector<BodyPlan>& bodies, const BodyPlan& like) {
    for (const BodyPlan& body : bodies)
        if (body.node == like.node && body.attribute == like.attribute) return &body.plan;
    return nullptr;
}

}  // namespace

int changedBodyLayers(const std::vector<BodyPlan>& a, const std::vector<BodyPlan>& b, bool effective) {
    int changed = 0;
    for (const BodyPlan& body : a) changed += changedBodyPlan(body.plan, findBody(b, body), effective);
    for (const BodyPlan& body : b)
        if (!findBody(a, body)) changed += changedBodyPlan(body.plan, nullptr, effective);
    return changed;
}

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
    if (changedBodyLayers(from.bodies(), to.bodies(), false) > 0) {
        before.bodies = from.bodies();
        after.bodies = to.bodies();
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
