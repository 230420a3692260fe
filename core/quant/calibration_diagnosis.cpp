#include "core/quant/calibration_diagnosis.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/quant/qdq_placement.h"

namespace ql {
namespace {

void addMethodQualities(const TensorRange& range, const Histogram& absolute, int levels, TensorDiagnosis& d) {
    const double magnitude = std::max(std::fabs(range.min), std::fabs(range.max));
    d.expected = expectedQuantization(absolute, d.amax, levels, magnitude);
    if (!range.amaxByMethod) return;
    for (CalibrationMethod m : kAmaxMethods) {
        const float amax = range.amaxByMethod->of(m);
        d.methods.push_back({m, amax, expectedQuantization(absolute, amax, levels, magnitude)});
    }
}

TensorDiagnosis diagnoseTensor(const Graph& graph, const TensorRange& range, const PrecisionPlan& plan,
                               const AmaxByName& amax, const CalibrationResult& calibration) {
    TensorDiagnosis d;
    d.value = *graph.findValue(range.name);
    d.tensor = range.name;
    const std::optional<CalibrationMethod> override = plan.tensorMethod(range.name);
    d.method = override.value_or(range.method);
    d.methodFromPlan = override.has_value();
    d.amax = amax.at(range.name);
    d.min = range.min;
    d.max = range.max;
    d.nonFinite = range.nonFinite;
    d.samples = range.samples > 0 ? range.samples : calibration.samples;
    if (range.histogram.bins() && range.histogram.total())
        addMethodQualities(range, foldToAbsolute(range.histogram), calibration.config.levels, d);
    return d;
}

}  // namespace

const MethodQuality* TensorDiagnosis::best() const {
    const MethodQuality* best = nullptr;
    for (const MethodQuality& m : methods)
        if (!best || m.expected.sqnrDb > best->expected.sqnrDb) best = &m;
    return best;
}

const TensorDiagnosis* CalibrationDiagnosis::find(const std::string& tensor) const {
    for (const TensorDiagnosis& t : tensors)
        if (t.tensor == tensor) return &t;
    return nullptr;
}

Result<CalibrationDiagnosis> diagnoseCalibration(const Graph& graph, const PrecisionPlan& plan,
                                                 const CalibrationResult& calibration) {
    QL_ASSIGN_OR_RETURN(const AmaxByName amax, activationAmax(calibration, plan));
    QL_ASSIGN_OR_RETURN(const QdqPlacement placement, placeQdq(graph, effectivePrecisions(graph, plan), amax, {}));
    std::map<ValueId, NodeId> layerOf;  // the first layer quantizing each tensor
    for (const QdqEdge& e : placement.edges)
        if (!e.weight && !layerOf.count(e.tensor)) layerOf[e.tensor] = e.consumer;
    CalibrationDiagnosis diagnosis;
    diagnosis.config = calibration.config;
    diagnosis.samples = calibration.samples;
    for (const TensorRange& range : calibration.activations) {
        const std::optional<ValueId> value = graph.findValue(range.name);
        if (value && amax.count(range.name)) diagnosis.calibratedAmax[*value] = amax.at(range.name);
        if (!value || !layerOf.count(*value) || !amax.count(range.name)) continue;
        diagnosis.tensors.push_back(diagnoseTensor(graph, range, plan, amax, calibration));
        diagnosis.tensors.back().layer = layerOf[*value];
    }
    std::sort(diagnosis.tensors.begin(), diagnosis.tensors.end(),
              [](const TensorDiagnosis& a, const TensorDiagnosis& b) { return a.value < b.value; });
    return diagnosis;
}

namespace {

nlohmann::json qualityJson(float amax, const ExpectedQuantization& e) {
    return {{"amax", amax}, {"clipped", e.clippedFraction}, {"expected_sqnr_db", e.sqnrDb}};
}

}  // namespace

nlohmann::json diagnosisToJson(const Graph& graph, const CalibrationDiagnosis& diagnosis) {
    nlohmann::json tensors = nlohmann::json::array();
    for (const TensorDiagnosis& t : diagnosis.tensors) {
        nlohmann::json j = {{"tensor", t.tensor},
                            {"layer", graph.node(t.layer).name},
                            {"method", calibrationMethodName(t.method, diagnosis.config)},
                            {"method_from_plan", t.methodFromPlan},
                            {"amax", t.amax},
                            {"min", t.min},
                            {"max", t.max},
                            {"samples", t.samples},
                            {"non_finite", t.nonFinite}};
        if (t.expected) {
            j["clipped"] = t.expected->clippedFraction;
            j["expected_sqnr_db"] = t.expected->sqnrDb;
        }
        for (const MethodQuality& m : t.methods)
            j["methods"][amaxMethodKey(m.method)] = qualityJson(m.amax, m.expected);
        tensors.push_back(std::move(j));
    }
    return tensors;
}

}  // namespace ql
