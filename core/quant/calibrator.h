#pragma once
// Calibrators turn the statistics an Observer collected into an amax (the symmetric range [-amax, amax]
// that INT8 scale = amax / 127 covers). One factory, makeCalibrator, picks the method from a typed
// CalibrationConfig and holds the defaults (STYLE rule 12).
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/status.h"
#include "core/quant/histogram_observer.h"

namespace ql {

// Auto: per tensor, whichever of the other four gives the highest expected SQNR on the tensor's histogram
// (bestExpectedMethod); the choice is recorded per tensor (TensorRange::method).
enum class CalibrationMethod { MinMax, Percentile, Entropy, Mse, Auto };

// The methods every calibration computes an amax for (MethodAmax), in the order ties between them are broken.
inline constexpr CalibrationMethod kAmaxMethods[] = {CalibrationMethod::Entropy, CalibrationMethod::Mse,
                                                     CalibrationMethod::Percentile, CalibrationMethod::MinMax};

struct CalibrationConfig {
    CalibrationMethod method = CalibrationMethod::Entropy;
    double percentile = 99.99;  // Percentile: share of |x| (in percent) that lies below amax
    int bins = 2048;            // histogram bins (Percentile, Entropy, Mse)
    int startBin = 128;         // Entropy, Mse: the smallest candidate amax, in bins
    int levels = 128;           // Entropy, Mse: quantization levels of |x| (INT8: 128)
};

// "minmax", "percentile" (99.99), "percentile:99.9", "entropy", "mse", "auto".
Result<CalibrationConfig> parseCalibrationMethod(const std::string& text);
// The inverse: "entropy", "percentile:99.99", ...
std::string calibrationMethodName(const CalibrationConfig& config);
// One method's name with the config's percentile: "mse", "percentile:99.99", ...
std::string calibrationMethodName(CalibrationMethod method, const CalibrationConfig& config);
// The name of one of kAmaxMethods, without the percentile ("percentile"); see parseAmaxMethod.
const char* amaxMethodKey(CalibrationMethod method);
// "minmax", "percentile" (also "percentile:P", P ignored: the calibration's own percentile), "entropy", "mse".
std::optional<CalibrationMethod> parseAmaxMethod(std::string_view text);

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
    float of(CalibrationMethod method) const;  // 0 for Auto, which is not a method of its own
};

// The method of kAmaxMethods whose amax gives the highest expected SQNR (expected_error.h) on `absolute`, a
// histogram of |x|; ties go to the earlier one in kAmaxMethods.
CalibrationMethod bestExpectedMethod(const Histogram& absolute, const MethodAmax& amax, int levels);

// All four from one signed histogram observer of 2 * config.bins bins (calibrationObserver): minmax from
// its exact extremes, the others from its histogram folded to |x|, as each method's Calibrator would.
MethodAmax amaxByMethod(const HistogramObserver& observer, const CalibrationConfig& config);
// The observer amaxByMethod reads: one pass per batch gives every method and the histogram the UI plots.
std::unique_ptr<HistogramObserver> calibrationObserver(const CalibrationConfig& config);

// Checks the config (percentile in (0, 100], bins >= 4, 0 < startBin, 1 < levels).
Result<std::unique_ptr<Calibrator>> makeCalibrator(const CalibrationConfig& config);

}  // namespace ql
