#include "core/engine/gpu_profile_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>

#include "core/common/disjoint_sets.h"
#include "core/engine/engine_coverage.h"
#include "core/engine/layer_precision.h"

namespace ql {

namespace {

// ---- The terms as a vector of logarithms -----------------------------------------------------------------------

// Per class: the float kernels' compute efficiency, memory efficiency and overhead (us), then the INT8 kernels' own:
// their share of the INT8 peak (compute efficiency x INT8 efficiency), memory efficiency and overhead. Each term
// times layers of its precision only, so a report without INT8 layers leaves the INT8 terms where they started, and
// one without float layers the float terms.
constexpr int kTermsPerClass = 6;
constexpr int kParameters = kCostClassCount * kTermsPerClass;

// Physical bounds. A memory efficiency above 1: tensors that stay in the L2 cache move faster than DRAM allows.
constexpr double kLower[kTermsPerClass] = {0.02, 0.05, 0.5, 0.02, 0.05, 0.5};
constexpr double kUpper[kTermsPerClass] = {1.0, 2.0, 50.0, 1.0, 2.0, 50.0};

// How far an observation's log time may be off before it weighs as much as a term one prior scale (a factor e)
// away from its default. A layer's deviations on real reports are mostly the model's own (the same layer shape is
// off the same way in every report), not independent noise, so the layers of one report count for less than their
// number: on the reports of bench/README.md a scale of 1 predicted a report left out better (median 11%, largest
// 34%) than 0.5 (11%, 69%) or 0.25 (18%, 76%), which follow the fitted reports' quirks.
constexpr double kLogNoise = 1.0;
constexpr double kPriorScale = 1.0;
// Each report's total counts as a quarter of its observations, so the fit keeps the sum right, not only the ranks.
constexpr double kTotalWeightPerObservation = 0.25;

std::array<double, kTermsPerClass> termsOf(const ClassTerms& c) {
    return {c.computeEfficiency,
            c.memoryEfficiency,
            c.overheadUs,
            c.computeEfficiency * c.int8Efficiency,
            c.memoryEfficiencyOf(EnginePrecision::Int8),
            c.overheadUsOf(EnginePrecision::Int8)};
}

void setTerms(ClassTerms& c, const std::array<double, kTermsPerClass>& t) {
    c.computeEfficiency = t[0];
    c.memoryEfficiency = t[1];
    c.overheadUs = t[2];
    c.int8Efficiency = t[3] / t[0];
    c.int8MemoryEfficiency = t[4];
    c.int8OverheadUs = t[5];
}

std::vector<double> parametersOf(const GpuProfile& profile) {
    std::vector<double> x(kParameters);
    for (int c = 0; c < kCostClassCount; ++c) {
        const auto terms = termsOf(profile.classes[static_cast<size_t>(c)]);
        for (int t = 0; t < kTermsPerClass; ++t)
            x[static_cast<size_t>(c * kTermsPerClass + t)] =
                std::log(std::clamp(terms[static_cast<size_t>(t)], kLower[t], kUpper[t]));
    }
    return x;
}

void setParameters(GpuProfile& profile, const std::vector<double>& x) {
    for (int c = 0; c < kCostClassCount; ++c) {
        std::array<double, kTermsPerClass> terms{};
        for (int t = 0; t < kTermsPerClass; ++t)
            terms[static_cast<size_t>(t)] = std::exp(x[static_cast<size_t>(c * kTermsPerClass + t)]);
        setTerms(profile.classes[static_cast<size_t>(c)], terms);
    }
}

void clampParameters(std::vector<double>& x) {
    for (size_t k = 0; k < x.size(); ++k) {
        const int t = static_cast<int>(k % kTermsPerClass);
        x[k] = std::clamp(x[k], std::log(kLower[t]), std::log(kUpper[t]));
    }
}

// Per observation the predicted time of its layers; `total` the prediction's total.
std::vector<double> observedPredictions(const FitSample& sample, const GpuProfile& profile, double& total) {
    std::vector<double> layerMs(sample.prediction.layers.size());
    total = 0.0;
    for (size_t i = 0; i < layerMs.size(); ++i) {
        layerMs[i] = layerTime(sample.prediction.layers[i], profile).ms;
        total += layerMs[i];
    }
    std::vector<double> predicted;
    predicted.reserve(sample.observations.size());
    for (const FitObservation& o : sample.observations) {
        double ms = 0.0;
        for (size_t i : o.predicted) ms += layerMs[i];
        predicted.push_back(ms);
    }
    return predicted;
}

class Objective {
public:
    Objective(const GpuProfile& start, const std::vector<const FitSample*>& samples)
        : mProfile(start), mStart(parametersOf(start)), mSamples(samples) {}

    std::vector<double> residuals(const std::vector<double>& x) {
        setParameters(mProfile, x);
        std::vector<double> r;
        for (const FitSample* sample : mSamples) {
            double total = 0.0;
            const std::vector<double> predicted = observedPredictions(*sample, mProfile, total);
            for (size_t g = 0; g < predicted.size(); ++g)
                r.push_back((std::log(std::max(predicted[g], 1e-9)) - std::log(sample->observations[g].measuredMs)) /
                            kLogNoise);
            if (sample->measuredTotalMs > 0) {
                const double weight = std::sqrt(
                    std::max(1.0, kTotalWeightPerObservation * static_cast<double>(sample->observations.size())));
                r.push_back(weight * (std::log(std::max(total, 1e-9)) - std::log(sample->measuredTotalMs)) / kLogNoise);
            }
        }
        for (size_t k = 0; k < x.size(); ++k) r.push_back((x[k] - mStart[k]) / kPriorScale);
        return r;
    }

    const std::vector<double>& start() const { return mStart; }

private:
    GpuProfile mProfile;
    std::vector<double> mStart;
    std::vector<const FitSample*> mSamples;
};

double squaredSum(const std::vector<double>& r) {
    return std::inner_product(r.begin(), r.end(), r.begin(), 0.0);
}

// Solves a x = b (n x n, row-major) by Gaussian elimination with partial pivoting; false when singular.
bool solve(std::vector<double> a, std::vector<double> b, size_t n, std::vector<double>& x) {
    for (size_t col = 0; col < n; ++col) {
        size_t pivot = col;
        for (size_t row = col + 1; row < n; ++row)
            if (std::abs(a[row * n + col]) > std::abs(a[pivot * n + col])) pivot = row;
        if (std::abs(a[pivot * n + col]) < 1e-300) return false;
        if (pivot != col) {
            for (size_t k = 0; k < n; ++k) std::swap(a[col * n + k], a[pivot * n + k]);
            std::swap(b[col], b[pivot]);
        }
        for (size_t row = col + 1; row < n; ++row) {
            const double f = a[row * n + col] / a[col * n + col];
            if (f == 0.0) continue;
            for (size_t k = col; k < n; ++k) a[row * n + k] -= f * a[col * n + k];
            b[row] -= f * b[col];
        }
    }
    x.assign(n, 0.0);
    for (size_t row = n; row-- > 0;) {
        double sum = b[row];
        for (size_t k = row + 1; k < n; ++k) sum -= a[row * n + k] * x[k];
        x[row] = sum / a[row * n + row];
    }
    return true;
}

// Levenberg-Marquardt with a forward-difference Jacobian, each step projected onto the bounds.
std::vector<double> minimize(Objective& objective) {
    std::vector<double> x = objective.start();
    clampParameters(x);
    std::vector<double> r = objective.residuals(x);
    double cost = squaredSum(r);
    double damping = 1e-3;
    const size_t n = x.size();
    for (int iteration = 0; iteration < 200; ++iteration) {
        std::vector<double> jacobian(r.size() * n);
        for (size_t k = 0; k < n; ++k) {
            const int t = static_cast<int>(k % kTermsPerClass);
            const double h = x[k] + 1e-5 > std::log(kUpper[t]) ? -1e-5 : 1e-5;
            std::vector<double> moved = x;
            moved[k] += h;
            const std::vector<double> rk = objective.residuals(moved);
            for (size_t i = 0; i < r.size(); ++i) jacobian[i * n + k] = (rk[i] - r[i]) / h;
        }
        std::vector<double> normal(n * n, 0.0), gradient(n, 0.0);
        for (size_t i = 0; i < r.size(); ++i)
            for (size_t a = 0; a < n; ++a) {
                const double ja = jacobian[i * n + a];
                if (ja == 0.0) continue;
                gradient[a] += ja * r[i];
                for (size_t b = 0; b < n; ++b) normal[a * n + b] += ja * jacobian[i * n + b];
            }
        bool improved = false;
        double newCost = cost;
        while (damping < 1e12) {
            std::vector<double> damped = normal, minusGradient(n), step;
            for (size_t a = 0; a < n; ++a) {
                damped[a * n + a] += damping * (normal[a * n + a] + 1e-9);
                minusGradient[a] = -gradient[a];
            }
            if (!solve(damped, minusGradient, n, step)) {
                damping *= 10;
                continue;
            }
            std::vector<double> candidate = x;
            for (size_t a = 0; a < n; ++a) candidate[a] += step[a];
            clampParameters(candidate);
            std::vector<double> rc = objective.residuals(candidate);
            newCost = squaredSum(rc);
            if (newCost < cost) {
                x = std::move(candidate);
                r = std::move(rc);
                damping = std::max(damping * 0.3, 1e-9);
                improved = true;
                break;
            }
            damping *= 5;
        }
        if (!improved) break;
        const double gain = cost - newCost;
        cost = newCost;
        if (gain < 1e-10 * (1.0 + cost)) break;
    }
    return x;
}

// ---- Quality -------------------------------------------------------------------------------------------------

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

// Nearest rank.
double percentile(std::vector<double> values, double share) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const size_t rank = static_cast<size_t>(std::ceil(share * static_cast<double>(values.size())));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

std::vector<double> ranks(const std::vector<double>& values) {
    std::vector<size_t> order(values.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
    std::vector<double> rank(values.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
        for (size_t k = i; k <= j; ++k) rank[order[k]] = (static_cast<double>(i) + static_cast<double>(j)) / 2.0;
        i = j + 1;
    }
    return rank;
}

double relativeError(double predicted, double measured) {
    return measured > 0 ? std::abs(predicted - measured) / measured : 0.0;
}

double predictedTotal(const FitSample& sample, const GpuProfile& profile) {
    return estimateLatency(sample.prediction, profile).totalMs;
}

}  // namespace

std::optional<double> spearmanCorrelation(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size() || a.size() < 3) return std::nullopt;
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / static_cast<double>(ra.size());
    const double mb = std::accumulate(rb.begin(), rb.end(), 0.0) / static_cast<double>(rb.size());
    double covariance = 0.0, va = 0.0, vb = 0.0;
    for (size_t i = 0; i < ra.size(); ++i) {
        covariance += (ra[i] - ma) * (rb[i] - mb);
        va += (ra[i] - ma) * (ra[i] - ma);
        vb += (rb[i] - mb) * (rb[i] - mb);
    }
    if (va <= 0 || vb <= 0) return std::nullopt;
    return covariance / std::sqrt(va * vb);
}

FitSample matchPrediction(FitReportFiles files, EnginePrediction prediction, const EngineReport& report,
                          const EngineMapping& mapping) {
    FitSample sample;
    sample.files = std::move(files);
    sample.measuredTotalMs = report.totalTimeMs().value_or(0.0);
    const size_t predicted = prediction.layers.size();
    // Predicted layers first, then the engine's.
    DisjointSets joins(predicted + report.layers.size());
    std::map<NodeId, size_t> predictedOf;
    for (size_t i = 0; i < predicted; ++i)
        for (NodeId n : prediction.layers[i].nodes) predictedOf.emplace(n, i);
    std::vector<bool> matched(predicted + report.layers.size(), false);
    for (size_t j = 0; j < report.layers.size() && j < mapping.layers.size(); ++j) {
        if (report.layers[j].isReformat()) continue;
        for (NodeId n : mapping.layers[j].nodes) {
            const auto it = predictedOf.find(n);
            if (it == predictedOf.end() || prediction.layers[it->second].kind == PredictedKind::Reformat) continue;
            joins.attach(it->second, predicted + j);
            matched[it->second] = matched[predicted + j] = true;
        }
    }
    // A reformat belongs to the layer it feeds.
    for (size_t i = 0; i < predicted; ++i)
        if (const auto& feeds = prediction.layers[i].feeds;
            prediction.layers[i].kind == PredictedKind::Reformat && feeds && *feeds < predicted && matched[*feeds]) {
            joins.attach(i, *feeds);
            matched[i] = true;
        }
    for (size_t j = 0; j < report.layers.size() && j < mapping.layers.size(); ++j)
        if (const auto& feeds = mapping.layers[j].feeds;
            report.layers[j].isReformat() && feeds && *feeds < report.layers.size() && matched[predicted + *feeds]) {
            joins.attach(predicted + j, predicted + *feeds);
            matched[predicted + j] = true;
        }
    std::map<size_t, FitObservation> groups;
    for (size_t k = 0; k < matched.size(); ++k) {
        if (!matched[k]) continue;
        FitObservation& o = groups[joins.root(k)];
        if (k < predicted) {
            o.predicted.push_back(k);
        } else {
            o.measured.push_back(k - predicted);
            o.measuredMs += report.layers[k - predicted].timeMs.value_or(0.0);
        }
    }
    for (auto& group : groups) {
        FitObservation& o = group.second;
        if (!o.predicted.empty() && !o.measured.empty() && o.measuredMs > 0)
            sample.observations.push_back(std::move(o));
    }
    sample.prediction = std::move(prediction);
    return sample;
}

PrecisionPlan planFromEngine(const Graph& graph, const EngineReport& report, const EngineMapping& mapping,
                             PrecisionPlan fallback) {
    const std::vector<bool> compute = computeNodes(graph);
    std::vector<bool> set(graph.nodes().size(), false);
    for (size_t j = 0; j < report.layers.size() && j < mapping.layers.size(); ++j) {
        if (report.layers[j].isReformat()) continue;
        std::optional<Precision> precision;
        switch (layerPrecision(report.layers[j])) {
            case EnginePrecision::Int8:
                precision = Precision::Int8;
                break;
            case EnginePrecision::Fp16:
            case EnginePrecision::Bf16:
                precision = Precision::Fp16;
                break;
            case EnginePrecision::Fp32:
                precision = Precision::Fp32;
                break;
            default:
                break;
        }
        if (!precision) continue;
        for (NodeId n : mapping.layers[j].nodes) {
            const size_t i = static_cast<size_t>(n);
            if (i >= set.size() || !compute[i] || set[i]) continue;
            set[i] = true;
            if (fallback.effective(n) != *precision) fallback.setRequested(n, *precision);
        }
    }
    return fallback;
}

Result<FitSample> fitSample(const Graph& graph, const PrecisionPlan& fallback, const EngineReport& report,
                            const TrtTarget& target, FitReportFiles files) {
    const std::string label = files.layers + (files.profile.empty() ? "" : " and " + files.profile);
    if (!report.hasProfile() || !report.totalTimeMs() || *report.totalTimeMs() <= 0)
        return invalidArgument(label +
                               ": no layer times; the fit needs the profile trtexec writes with --exportProfile");
    const EngineMapping mapping = mapEngineToModel(report, &graph);
    // As `engine` says it: a report of another model would fit the terms to the wrong layers.
    if (const std::string warning = otherModelWarning(mappingCoverage(report, mapping, graph)); !warning.empty())
        return invalidArgument(label + " against " + files.model + ": " + warning);
    const PrecisionPlan plan = planFromEngine(graph, report, mapping, fallback);
    return matchPrediction(std::move(files), predictEngine(graph, plan, target), report, mapping);
}

FitQuality fitQuality(const GpuProfile& profile, const std::vector<FitSample>& samples) {
    FitQuality quality;
    std::vector<double> errors, totals;
    std::optional<double> lowest;
    for (const FitSample& sample : samples) {
        double total = 0.0;
        const std::vector<double> predicted = observedPredictions(sample, profile, total);
        std::vector<double> measured, sampleErrors;
        for (size_t g = 0; g < predicted.size(); ++g) {
            measured.push_back(sample.observations[g].measuredMs);
            sampleErrors.push_back(relativeError(predicted[g], measured.back()));
        }
        FitReportQuality report;
        report.files = sample.files;
        report.layers = static_cast<int>(predicted.size());
        report.spearman = spearmanCorrelation(predicted, measured);
        report.medianLayerError = median(sampleErrors);
        report.measuredMs = sample.measuredTotalMs;
        report.predictedMs = total;
        report.totalError = relativeError(total, sample.measuredTotalMs);
        if (report.spearman) lowest = std::min(lowest.value_or(1.0), *report.spearman);
        errors.insert(errors.end(), sampleErrors.begin(), sampleErrors.end());
        totals.push_back(report.totalError);
        quality.reports.push_back(sample.files.layers);
        quality.layers += report.layers;
        quality.perReport.push_back(std::move(report));
    }
    quality.spearman = lowest.value_or(0.0);
    quality.medianLayerError = median(errors);
    quality.p90LayerError = percentile(errors, 0.9);
    quality.totalError = median(totals);
    return quality;
}

namespace {

GpuProfile fitTermsOf(const GpuProfile& start, const std::vector<const FitSample*>& samples) {
    Objective objective(start, samples);
    GpuProfile fitted = start;
    setParameters(fitted, minimize(objective));
    fitted.fit.reset();
    fitted.file.clear();
    return fitted;
}

}  // namespace

GpuProfile fitTerms(const GpuProfile& start, const std::vector<FitSample>& samples) {
    std::vector<const FitSample*> pointers;
    for (const FitSample& s : samples) pointers.push_back(&s);
    return fitTermsOf(start, pointers);
}

Result<GpuProfile> fitGpuProfile(const GpuProfile& start, const std::vector<FitSample>& samples) {
    size_t observations = 0;
    for (const FitSample& s : samples) observations += s.observations.size();
    if (observations == 0)
        return invalidArgument(
            "no engine layer could be matched to a predicted layer with a measured time: the fit needs each model's "
            "layer information (built with --profilingVerbosity=detailed) and its profile (--exportProfile)");
    GpuProfile fitted = fitTerms(start, samples);
    FitQuality quality = fitQuality(fitted, samples);
    if (samples.size() >= 2) {
        std::vector<double> leftOut;
        for (size_t i = 0; i < samples.size(); ++i) {
            std::vector<const FitSample*> others;
            for (size_t j = 0; j < samples.size(); ++j)
                if (j != i) others.push_back(&samples[j]);
            const GpuProfile other = fitTermsOf(start, others);
            const double error = relativeError(predictedTotal(samples[i], other), samples[i].measuredTotalMs);
            quality.perReport[i].leaveOneOutError = error;
            leftOut.push_back(error);
        }
        quality.leaveOneOutError = median(leftOut);
    }
    fitted.fit = std::move(quality);
    return fitted;
}

}  // namespace ql
