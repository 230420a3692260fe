#pragma once
// Importing the builds of `quantize --ab-scripts` (ab_scripts.h): per A/B pair of its manifest, which variant your
// GPU ran faster (NAME.times.json's median GPU compute time, else the sum of NAME.profile.json's layers) against
// which the prediction said: before the fit (the manifest's figures) and after it (the fitted profile on what was
// built). A difference under 2% of the faster one is within the noise of a build and called even.
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/engine/gpu_profile_fit.h"

namespace ql {

struct AbOutcome {
    std::string a;
    std::string b;
    std::string what;
    double measuredAMs = 0.0;
    double measuredBMs = 0.0;
    double predictedAMs = 0.0;  // when the scripts were written
    double predictedBMs = 0.0;
    std::optional<double> fittedAMs;  // with the fitted profile
    std::optional<double> fittedBMs;
    // -1: A faster, 1: B faster, 0: even (measured only)
    int measured() const;
    bool predictedRight() const;
    std::optional<bool> fittedRight() const;
};

// The pairs of `folder`'s manifest whose two builds have reports among `samples` (fit-gpu's, by model file);
// empty without a manifest. An error names a manifest that cannot be read.
Result<std::vector<AbOutcome>> abOutcomes(const std::string& folder, const std::vector<FitSample>& samples,
                                          const GpuProfile& fitted);

// The outcomes as lines for a terminal; empty when there are none.
std::string abOutcomesText(const std::vector<AbOutcome>& outcomes);

}  // namespace ql
