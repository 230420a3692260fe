#pragma once
// Calibrators turn the statistics an Observer collected into an amax (the symmetric range [-amax, amax]
// that INT8 scale = amax / 127 covers). One factory, makeCalibrator, picks the method from a typed
// CalibrationConfig and holds the defaults (STYLE rule 12).
#include <memory>
#include <string>

#include "core/common/status.h"
#include "core/quant/histogram_observer.h"

namespace ql {

enum class CalibrationMethod { MinMax, Percentile, Entropy, Mse };

struct CalibrationConfig {
    CalibrationMethod method = CalibrationMethod::Entropy;
    double percentile = 99.99;  // Percentile: share of |x| (in percent) that lies below amax
    int bins = 2048;            // histogram bins (Percentile, Entropy, Mse)
    int startBin = 128;         // Entropy, Mse: the smallest candidate amax, in bins
    int levels = 128;           // Entropy, Mse: quantization levels of |x| (INT8: 128)
};

// "minmax", "percentile" (99.99), "percentile:99.9", "entropy", "mse".
Result<CalibrationConfig> parseCalibrationMethod(const std::string& text);
// The inverse: "entropy", "percentile:99.99", ...
std::string calibrationMethodName(const CalibrationConfig& config);

class Calibrator {
public:
    virtual ~Calibrator() = default;
    // A fresh observer of the kind this method needs, for one tensor.
    virtual std::unique_ptr<Observer> makeObserver() const = 0;
    // amax >= 0 from an observer this calibrator made; 0 when only zeros (or nothing) were seen.
    virtual Result<float> computeAmax(const Observer& observer) const = 0;
};

// The amax each method gives from the same statistics (percentile: at the config's percentile).
struct MethodAmax {
    float minmax = 0.0f, percentile = 0.0f, entropy = 0.0f, mse = 0.0f;
    float of(CalibrationMethod method) const;
};

// All four from one signed histogram observer of 2 * config.bins bins (calibrationObserver): minmax from
// its exact extremes, the others from its histogram folded to |x|, as each method's Calibrator would.
MethodAmax amaxByMethod(const HistogramObserver& observer, const CalibrationConfig& config);
// The observer amaxByMethod reads: one pass per batch gives every method and the histogram the UI plots.
std::unique_ptr<HistogramObserver> calibrationObserver(const CalibrationConfig& config);

// Checks the config (percentile in (0, 100], bins >= 4, 0 < startBin, 1 < levels).
Result<std::unique_ptr<Calibrator>> makeCalibrator(const CalibrationConfig& config);

}  // namespace ql
