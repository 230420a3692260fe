#include "core/quant/tuning_target.h"

#include <algorithm>
#include <charconv>
#include <cmath>

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

constexpr double kMaxSqnrDb = 200.0;

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

std::vector<int64_t> topClasses(const Tensor& output) {
    std::vector<int64_t> classes;
    if (output.rank() == 0 || output.dim(0) == 0) return classes;
    const std::vector<float> v = output.toFloats();
    const size_t rows = static_cast<size_t>(output.dim(0)), width = v.size() / rows;
    for (size_t r = 0; r < rows; ++r) {
        const auto begin = v.begin() + static_cast<std::ptrdiff_t>(r * width);
        classes.push_back(std::max_element(begin, begin + static_cast<std::ptrdiff_t>(width)) - begin);
    }
    return classes;
}

double outputSqnrDb(const NamedTensors& reference, const NamedTensors& quantized) {
    double signal = 0.0, noise = 0.0;
    for (size_t o = 0; o < reference.size() && o < quantized.size(); ++o) {
        const Tensor& a = reference[o].second;
        const Tensor& b = quantized[o].second;
        if (a.dtype() != DataType::Float || b.dtype() != DataType::Float || a.shape() != b.shape()) continue;
        const std::vector<float> x = a.toFloats(), y = b.toFloats();
        for (size_t i = 0; i < x.size(); ++i) {
            signal += double{x[i]} * x[i];
            noise += (double{x[i]} - y[i]) * (double{x[i]} - y[i]);
        }
    }
    if (noise <= 0.0) return kMaxSqnrDb;
    if (signal <= 0.0) return -kMaxSqnrDb;
    return std::min(kMaxSqnrDb, 10.0 * std::log10(signal / noise));
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
            int64_t same = 0, correct = 0;
            for (size_t i = 0; i < a.size(); ++i) {
                same += a[i] == b[i];
                if (i < reference.labels.size()) correct += b[i] == reference.labels[i];
            }
            const double n = static_cast<double>(a.size());
            if (target.kind() == TuneTarget::Kind::Top1Agreement) return 100.0 * static_cast<double>(same) / n;
            return -100.0 * (reference.accuracy - static_cast<double>(correct) / n);
        }
        case TuneTarget::Kind::Metric:
        case TuneTarget::Kind::MetricDrop: {
            if (!metric) return invalidArgument("--target " + target.name() + " needs --metric-command");
            QL_ASSIGN_OR_RETURN(const double value, metric(quantized));
            return target.kind() == TuneTarget::Kind::Metric ? value : -(reference.metric - value);
        }
    }
    return internalError("unknown tuning target");
}

}  // namespace ql
