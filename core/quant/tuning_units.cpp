#include "core/quant/tuning_units.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/quant/body_calibration.h"
#include "core/quant/body_plans.h"
#include "core/quant/default_placement.h"
#include "core/quant/qdq_placement.h"

namespace ql {
namespace {

// The INT8 nodes after `layer` that TensorRT fuses into it: a chain of single-consumer nodes the plan runs INT8
// that quantize nothing themselves (activations, a folded BatchNormalization).
std::vector<NodeId> fusedGroup(const Graph& graph, const PrecisionPlan& plan, NodeId layer,
                               const std::set<NodeId>& quantizing) {
    std::vector<NodeId> nodes{layer};
    NodeId current = layer;
    for (;;) {
        const Node& node = graph.node(current);
        if (node.outputs.size() != 1 || node.outputs[0] == kNoId) break;
        const Value& out = graph.value(node.outputs[0]);
        if (out.consumers.size() != 1 || out.isGraphOutput) break;
        const NodeId next = out.consumers[0];
        if (plan.effective(next) != Precision::Int8 || quantizing.count(next)) break;
        nodes.push_back(next);
        current = next;
    }
    return nodes;
}

Status addBodyUnits(const std::vector<BodyGraph>& bodies, const PrecisionPlan& plan,
                    const CalibrationResult& calibration, std::vector<TuneUnit>& out) {
    for (const BodyGraph& body : bodies) {
        const BodyStep& step = body.path.back();
        const PrecisionPlan* planned = plan.body(step.owner, step.attribute);
        if (!planned) continue;  // runs float: nothing to move
        const Graph& graph = body.body.graph;
        const CalibrationResult ranges = bodyCalibration(calibration, graph, step.owner, step.attribute);
        QL_ASSIGN_OR_RETURN(std::vector<TuneUnit> units, findUnits(graph, *planned, ranges));
        const std::string prefix = bodyPathPrefix(body.path);
        for (TuneUnit& unit : units) {
            unit.body = body.path;
            unit.name = prefix + unit.name;
            for (std::string& name : unit.nodeNames) name = prefix + name;
            out.push_back(std::move(unit));
        }
        QL_RETURN_IF_ERROR(addBodyUnits(body.bodies, *planned, ranges, out));
    }
    return Status::ok();
}

}  // namespace

Result<std::vector<TuneUnit>> findUnits(const Graph& graph, const PrecisionPlan& plan,
                                        const CalibrationResult& calibration) {
    QL_ASSIGN_OR_RETURN(const AmaxByName amax, activationAmax(calibration, plan));
    QL_ASSIGN_OR_RETURN(const QdqPlacement placement, placeQdq(graph, effectivePrecisions(graph, plan), amax, {}));
    std::map<NodeId, std::vector<ValueId>> tensorsOf;
    std::set<NodeId> quantizing;
    for (const QdqEdge& e : placement.edges) {
        quantizing.insert(e.consumer);
        auto& tensors = tensorsOf[e.consumer];
        if (!e.weight && std::find(tensors.begin(), tensors.end(), e.tensor) == tensors.end())
            tensors.push_back(e.tensor);
    }
    std::vector<TuneUnit> units;
    for (const auto& [layer, tensors] : tensorsOf) {
        TuneUnit unit;
        unit.layer = layer;
        unit.nodes = fusedGroup(graph, plan, layer, quantizing);
        unit.tensors = tensors;
        unit.name = graph.node(layer).name;
        unit.op = graph.node(layer).opType;
        for (NodeId n : unit.nodes) {
            unit.nodeNames.push_back(graph.node(n).name);
            unit.macs += graph.node(n).cost.macs;
        }
        units.push_back(std::move(unit));
    }
    return units;
}

Result<std::vector<TuneUnit>> findBodyUnits(const Graph& graph, const std::vector<BodyGraph>& bodies,
                                            const PrecisionPlan& plan, const CalibrationResult& calibration) {
    std::vector<TuneUnit> units;
    for (const BodyPlan& planned : plan.bodies())
        if (!findBodyGraph(bodies, {{planned.node, planned.attribute}}))
            return notFound("the plan has a body of node '" + planned.node + "' (" + planned.attribute +
                            ") that the model " + (graph.findNode(planned.node) ? "cannot build" : "does not have"));
    QL_RETURN_IF_ERROR(addBodyUnits(bodies, plan, calibration, units));
    return units;
}

Result<std::vector<TuneUnit>> planKeptOutUnits(const Graph& graph, const PrecisionPlan& plan,
                                               const CalibrationResult& calibration) {
    if (plan.size() != graph.nodes().size()) return invalidArgument("the precision plan was made for another model");
    const PrecisionPlan placement = defaultPrecisionPlan(graph);
    QL_ASSIGN_OR_RETURN(std::vector<TuneUnit> units, findUnits(graph, placement, calibration));
    std::erase_if(units, [&plan](const TuneUnit& unit) { return plan.requested(unit.layer) == Precision::Int8; });
    return units;
}

const PrecisionPlan* unitPlan(const PrecisionPlan& plan, const TuneUnit& unit) {
    return unit.body.empty() ? &plan : bodyPlan(plan, unit.body);
}

PrecisionPlan* unitPlan(PrecisionPlan& plan, const TuneUnit& unit) {
    return unit.body.empty() ? &plan : bodyPlan(plan, unit.body);
}

Precision unitEffective(const PrecisionPlan& plan, const TuneUnit& unit) {
    const PrecisionPlan* at = unitPlan(plan, unit);
    return at ? at->effective(unit.layer) : Precision::Fp32;
}

bool outOfInt8ByRules(const PrecisionPlan& plan, NodeId layer) {
    return plan.requested(layer) == Precision::Int8 && plan.effective(layer) != Precision::Int8;
}

bool outOfInt8ByRules(const PrecisionPlan& plan, const TuneUnit& unit) {
    const PrecisionPlan* at = unitPlan(plan, unit);
    return at && outOfInt8ByRules(*at, unit.layer);
}

PrecisionPlan released(PrecisionPlan plan, const std::vector<TuneUnit>& units) {
    for (const TuneUnit& unit : units)
        if (PrecisionPlan* at = unitPlan(plan, unit))
            for (NodeId n : unit.nodes) at->setRequested(n, Precision::Int8);
    return plan;
}

}  // namespace ql
