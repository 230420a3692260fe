#include "core/quant/tuning_target.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/quant/output_kind.h"

namespace ql {
namespace {

struct KindSpelling {
    TuneTarget::Kind kind;
    const char* name;
    const char* comparison;
};

constexpr KindSpelling kSpellings[] = {
    {TuneTarget::Kind::AccuracyDrop, "accuracy-drop", "<="},
    {TuneTarget::Kind::Top1Agreement, "top1-agreement", ">="},
    {TuneTarget::Kind::OutputSqnr, "output-sqnr", ">="},
    {TuneTarget::Kind::MetricDrop, "metric-drop", "<="},
    {TuneTarget::Kind::Metric, "metric", ">="},
};

const KindSpelling& spelling(TuneTarget::Kind kind) {
    for (const KindSpelling& s : kSpellings)
        if (s.kind == kind) return s;
    return kSpellings[0];
}

}  // namespace

Result<TuneTarget> TuneTarget::parse(std::string_view text) {
    const std::string bad = "--target " + std::string(text) +
                            ": expected accuracy-drop<=X, top1-agreement>=X, output-sqnr>=X, metric>=X or "
                            "metric-drop<=X (e.g. accuracy-drop<=0.5)";
    for (const KindSpelling& s : kSpellings) {
        const std::string prefix = std::string(s.name) + s.comparison;
        if (!text.starts_with(prefix)) continue;
        const std::string_view number = text.substr(prefix.size());
        TuneTarget target;
        target.mKind = s.kind;
        const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), target.mThreshold);
        if (number.empty() || error != std::errc() || end != number.data() + number.size() ||
            !std::isfinite(target.mThreshold))
            return invalidArgument(bad);
        return target;
    }
    return invalidArgument(bad);
}

std::string TuneTarget::name() const {
    return spelling(mKind).name;
}

std::string TuneTarget::text() const {
    char number[32];
    std::snprintf(number, sizeof(number), "%g", mThreshold);
    return name() + spelling(mKind).comparison + number;
}

bool TuneTarget::holds(double score) const {
    const double value = valueOf(score);
    return lowerIsBetter() ? value <= mThreshold + 1e-9 : value >= mThreshold - 1e-9;
}

void OutputErrors::add(const NamedTensors& reference, const NamedTensors& changed) {
    const size_t n = std::min(reference.size(), changed.size());
    if (mByOutput.size() < n) mByOutput.resize(n);
    for (size_t o = 0; o < n; ++o)
        if (reference[o].second.dtype() == DataType::Float && changed[o].second.dtype() == DataType::Float)
            mByOutput[o].add(reference[o].second, changed[o].second);
}

double OutputErrors::worstSqnrDb() const {
    double worst = kOutputSqnrCapDb;
    for (const ErrorAccumulator& output : mByOutput)
        if (output.metrics().count > 0) worst = std::min(worst, cappedSqnrDb(output.metrics()));
    return worst;
}

double cappedSqnrDb(const ErrorMetrics& metrics) {
    return std::clamp(metrics.sqnrDb, -kOutputSqnrCapDb, kOutputSqnrCapDb);
}

double outputSqnrDb(const NamedTensors& reference, const NamedTensors& quantized) {
    OutputErrors errors;
    errors.add(reference, quantized);
    return errors.worstSqnrDb();
}

double top1Accuracy(const std::vector<int64_t>& classes, const std::vector<int64_t>& labels) {
    if (classes.empty()) return 0.0;
    int64_t correct = 0;
    for (size_t i = 0; i < classes.size() && i < labels.size(); ++i) correct += classes[i] == labels[i];
    return static_cast<double>(correct) / static_cast<double>(classes.size());
}

Status checkTargetApplies(const TuneTarget& target, const Graph& graph) {
    if (!target.comparesTopClass()) return Status::ok();
    const std::string why = whyNoTopClass(graph);
    if (why.empty()) return Status::ok();
    return invalidArgument("--target " + target.name() + " compares the top-1 class of the first output, but " + why +
                           ", not one class vector per sample: its largest element says nothing of the others. Use "
                           "--target output-sqnr>=DB, or your own metric (--target metric>=X with --metric-command)");
}

Result<double> scoreOutputs(const TuneTarget& target, const ReferenceOutputs& reference, const NamedTensors& quantized,
                            const OutputMetricFn& metric) {
    switch (target.kind()) {
        case TuneTarget::Kind::OutputSqnr:
            return outputSqnrDb(reference.outputs, quantized);
        case TuneTarget::Kind::Top1Agreement:
        case TuneTarget::Kind::AccuracyDrop: {
            if (reference.outputs.empty() || quantized.empty()) return invalidArgument("the model has no output");
            const std::vector<int64_t> a = topClasses(reference.outputs[0].second);
            const std::vector<int64_t> b = topClasses(quantized[0].second);
            if (a.empty() || a.size() != b.size()) return invalidArgument("the first output has no per-sample rows");
            if (target.kind() == TuneTarget::Kind::Top1Agreement) return 100.0 * top1Accuracy(b, a);
            return -100.0 * (reference.accuracy - top1Accuracy(b, reference.labels));
        }
        case TuneTarget::Kind::Metric:
        case TuneTarget::Kind::MetricDrop: {
            if (!metric) return invalidArgument("--target " + target.name() + " needs --metric-command");
            QL_ASSIGN_OR_RETURN(const double value, metric(quantized, reference.sampleIndices));
            return target.kind() == TuneTarget::Kind::Metric ? value : -(reference.metric - value);
        }
    }
    return internalError("unknown tuning target");
}

}  // namespace ql
