#include "core/quant/calibrator.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "core/quant/expected_error.h"
#include "core/quant/histogram_amax.h"
#include "core/quant/histogram_observer.h"
#include "core/quant/min_max_observer.h"

namespace ql {
namespace {

class MinMaxCalibrator final : public Calibrator {
public:
    std::unique_ptr<Observer> makeObserver() const override { return std::make_unique<MinMaxObserver>(); }
    Result<float> computeAmax(const Observer& observer) const override {
        const auto* o = dynamic_cast<const MinMaxObserver*>(&observer);
        if (!o) return internalError("minmax calibration was given an observer it did not make");
        return o->amax();
    }
};

// Percentile, entropy and mse: a histogram of |x|, then one of the functions of histogram_amax.h.
class HistogramCalibrator final : public Calibrator {
public:
    using Method = std::function<double(const Histogram&)>;
    HistogramCalibrator(int bins, Method method) : mBins(bins), mMethod(std::move(method)) {}
    std::unique_ptr<Observer> makeObserver() const override {
        return std::make_unique<HistogramObserver>(HistogramObserver::Mode::Absolute, mBins);
    }
    Result<float> computeAmax(const Observer& observer) const override {
        const auto* o = dynamic_cast<const HistogramObserver*>(&observer);
        if (!o || !o->histogram().absolute)
            return internalError("histogram calibration was given an observer it did not make");
        return static_cast<float>(mMethod(o->histogram()));
    }

private:
    int mBins;
    Method mMethod;
};

}  // namespace

Result<CalibrationConfig> parseCalibrationMethod(const std::string& text) {
    CalibrationConfig config;
    const std::string bad = "unknown calibration method '" + text +
                            "'; use auto, entropy, minmax, mse, percentile or percentile:P (e.g. percentile:99.9)";
    if (text == "entropy") return config;
    if (text == "minmax") config.method = CalibrationMethod::MinMax;
    if (text == "mse") config.method = CalibrationMethod::Mse;
    if (text == "auto") config.method = CalibrationMethod::Auto;
    if (config.method != CalibrationMethod::Entropy) return config;
    if (!text.starts_with("percentile")) return invalidArgument(bad);
    config.method = CalibrationMethod::Percentile;
    if (text == "percentile") return config;
    if (text[10] != ':') return invalidArgument(bad);
    const char* begin = text.data() + 11;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(begin, end, config.percentile);
    if (ec != std::errc() || ptr != end || begin == end || !(config.percentile > 0.0 && config.percentile <= 100.0))
        return invalidArgument("'" + text + "': the percentile must be a number in (0, 100], e.g. percentile:99.99");
    return config;
}

std::string calibrationMethodName(const CalibrationConfig& config) {
    return calibrationMethodName(config.method, config);
}

std::string calibrationMethodName(CalibrationMethod method, const CalibrationConfig& config) {
    switch (method) {
        case CalibrationMethod::Auto:
            return "auto";
        case CalibrationMethod::MinMax:
            return "minmax";
        case CalibrationMethod::Entropy:
            return "entropy";
        case CalibrationMethod::Mse:
            return "mse";
        case CalibrationMethod::Percentile: {
            std::ostringstream s;
            s << "percentile:" << config.percentile;
            return s.str();
        }
    }
    return "unknown";
}

const char* amaxMethodKey(CalibrationMethod method) {
    switch (method) {
        case CalibrationMethod::MinMax:
            return "minmax";
        case CalibrationMethod::Percentile:
            return "percentile";
        case CalibrationMethod::Entropy:
            return "entropy";
        case CalibrationMethod::Mse:
            return "mse";
        case CalibrationMethod::Auto:
            break;
    }
    return "auto";
}

std::optional<CalibrationMethod> parseAmaxMethod(std::string_view text) {
    if (text.starts_with("percentile:")) text = "percentile";
    for (CalibrationMethod m : kAmaxMethods)
        if (text == amaxMethodKey(m)) return m;
    return std::nullopt;
}

CalibrationMethod bestExpectedMethod(const Histogram& absolute, const MethodAmax& amax, int levels) {
    // minmax is the largest |x| seen: no value lies beyond it, whatever the bins' edges.
    const double magnitude = amax.minmax > 0.0f ? amax.minmax : std::numeric_limits<double>::infinity();
    CalibrationMethod best = kAmaxMethods[0];
    double bestSqnr = -1.0;
    for (CalibrationMethod m : kAmaxMethods) {
        const double sqnr = expectedQuantization(absolute, amax.of(m), levels, magnitude).sqnrDb;
        if (sqnr > bestSqnr) {
            bestSqnr = sqnr;
            best = m;
        }
    }
    return best;
}

float MethodAmax::of(CalibrationMethod method) const {
    switch (method) {
        case CalibrationMethod::Auto:
            return 0.0f;
        case CalibrationMethod::MinMax:
            return minmax;
        case CalibrationMethod::Percentile:
            return percentile;
        case CalibrationMethod::Entropy:
            return entropy;
        case CalibrationMethod::Mse:
            return mse;
    }
    return 0.0f;
}

std::unique_ptr<HistogramObserver> calibrationObserver(const CalibrationConfig& config) {
    // Twice the absolute bins, each rounded as HistogramObserver does, so the fold has exactly config.bins.
    const int absoluteBins = std::max(4, (config.bins + 3) / 4 * 4);
    return std::make_unique<HistogramObserver>(HistogramObserver::Mode::Signed, 2 * absoluteBins);
}

namespace {

// The histogram methods' amax from a histogram of |x|; minmax is left to the caller.
MethodAmax histogramAmax(const Histogram& h, const CalibrationConfig& c) {
    MethodAmax m;
    m.percentile = static_cast<float>(percentileAmax(h, c.percentile));
    m.entropy = static_cast<float>(entropyAmax(h, c.startBin, c.levels));
    m.mse = static_cast<float>(mseAmax(h, c.startBin, c.levels));
    return m;
}

// Auto from an absolute histogram alone: minmax is the upper edge of the last non-empty bin.
double autoAmax(const Histogram& h, const CalibrationConfig& c) {
    MethodAmax m = histogramAmax(h, c);
    for (size_t i = h.bins(); i-- > 0;)
        if (h.counts[i]) {
            m.minmax = static_cast<float>(h.binEdge(i + 1));
            break;
        }
    return m.of(bestExpectedMethod(h, m, c.levels));
}

}  // namespace

MethodAmax amaxByMethod(const HistogramObserver& observer, const CalibrationConfig& c) {
    MethodAmax m = histogramAmax(foldToAbsolute(observer.histogram()), c);
    m.minmax = std::max(std::fabs(observer.min()), std::fabs(observer.max()));
    return m;
}

Result<std::unique_ptr<Calibrator>> makeCalibrator(const CalibrationConfig& c) {
    if (!(c.percentile > 0.0 && c.percentile <= 100.0))
        return invalidArgument("the calibration percentile must be in (0, 100], not " + std::to_string(c.percentile));
    if (c.bins < 4 || c.startBin < 1 || c.levels < 2)
        return invalidArgument("calibration needs bins >= 4, startBin >= 1 and levels >= 2");
    switch (c.method) {
        case CalibrationMethod::MinMax:
            return std::unique_ptr<Calibrator>(new MinMaxCalibrator);
        case CalibrationMethod::Percentile:
            return std::unique_ptr<Calibrator>(new HistogramCalibrator(
                c.bins, [p = c.percentile](const Histogram& h) { return percentileAmax(h, p); }));
        case CalibrationMethod::Entropy:
            return std::unique_ptr<Calibrator>(new HistogramCalibrator(
                c.bins, [c](const Histogram& h) { return entropyAmax(h, c.startBin, c.levels); }));
        case CalibrationMethod::Mse:
            return std::unique_ptr<Calibrator>(
                new HistogramCalibrator(c.bins, [c](const Histogram& h) { return mseAmax(h, c.startBin, c.levels); }));
        case CalibrationMethod::Auto:
            return std::unique_ptr<Calibrator>(
                new HistogramCalibrator(c.bins, [c](const Histogram& h) { return autoAmax(h, c); }));
    }
    return internalError("unknown calibration method");
}

}  // namespace ql
