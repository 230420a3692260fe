#include "core/quant/calibration_diagnosis.h"

#include <algorithm>
#include <cmath>
#include <numeric>
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
    d.channels = channelSpread(range.channelAmax, range.channelAxis, d.amax, calibration.config.levels);
    return d;
}

}  // namespace

double ownScaleSqnrDb(int levels) {
    return 20.0 * std::log10(2.0 * (levels - 1));
}

std::optional<ChannelSpread> channelSpread(const std::vector<float>& range, int64_t axis, float amax, int levels) {
    ChannelSpread s;
    s.axis = axis;
    s.channels = static_cast<int64_t>(range.size());
    std::vector<float> live;
    for (float r : range)
        if (r > 0.0f) live.push_back(r);
    s.deadChannels = s.channels - static_cast<int64_t>(live.size());
    if (live.size() < 2) return std::nullopt;
    const auto middle = live.begin() + static_cast<std::ptrdiff_t>((live.size() - 1) / 2);
    std::nth_element(live.begin(), middle, live.end());
    s.median = *middle;
    s.largest = *std::max_element(live.begin(), live.end());
    s.ratio = static_cast<double>(s.largest) / s.median;
    std::vector<int64_t> order(range.size());
    std::iota(order.begin(), order.end(), int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return range[static_cast<size_t>(a)] > range[static_cast<size_t>(b)];
    });
    for (int64_t c : order) {
        const double r = range[static_cast<size_t>(c)];
        if (r < DiagnosisThresholds::kOutlierChannelRatio * s.median) break;
        if (s.outliers.size() < ChannelSpread::kListed) s.outliers.push_back(c);
        ++s.outlierCount;
    }
    s.clippedChannels = std::count_if(range.begin(), range.end(), [&](float r) { return r > amax; });
    if (amax > 0.0f) {
        const double steps = levels - 1;
        s.medianSteps = steps * s.median / amax;
        const double own = ownScaleSqnrDb(levels);
        const double shared = std::clamp(20.0 * std::log10(2.0 * s.medianSteps), 0.0, own);
        s.sqnrLossDb = own - shared;
    }
    return s;
}

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
    std::map<ValueId, std::vector<NodeId>> layersOf;  // the layers quantizing each tensor, in placement order
    for (const QdqEdge& e : placement.edges) {
        if (e.weight) continue;
        std::vector<NodeId>& layers = layersOf[e.tensor];
        if (std::find(layers.begin(), layers.end(), e.consumer) == layers.end()) layers.push_back(e.consumer);
    }
    CalibrationDiagnosis diagnosis;
    diagnosis.config = calibration.config;
    diagnosis.samples = calibration.samples;
    for (const TensorRange& range : calibration.activations) {
        const std::optional<ValueId> value = graph.findValue(range.name);
        if (value && amax.count(range.name)) diagnosis.calibratedAmax[*value] = amax.at(range.name);
        if (!value || !layersOf.count(*value) || !amax.count(range.name)) continue;
        diagnosis.tensors.push_back(diagnoseTensor(graph, range, plan, amax, calibration));
        diagnosis.tensors.back().layers = layersOf[*value];
        diagnosis.tensors.back().layer = layersOf[*value].front();
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
        if (const std::optional<ChannelSpread>& c = t.channels)
            j["channels"] = {{"axis", c->axis},
                             {"count", c->channels},
                             {"dead", c->deadChannels},
                             {"median_amax", c->median},
                             {"max_amax", c->largest},
                             {"ratio", c->ratio},
                             {"outliers", c->outliers},
                             {"outlier_count", c->outlierCount},
                             {"clipped_channels", c->clippedChannels},
                             {"median_steps", c->medianSteps},
                             {"sqnr_loss_db", c->sqnrLossDb}};
        tensors.push_back(std::move(j));
    }
    return tensors;
}

}  // namespace ql
