#include "tests/support/calibration_fixture.h"

namespace ql::test {

CalibrationResult uniformCalibration(const Graph& graph, const std::map<std::string, float>& amax, float fallback) {
    CalibrationResult result;
    for (const Value& value : graph.values()) {
        if (value.initializer >= 0) continue;
        const auto it = amax.find(value.name);
        TensorRange range;
        range.name = value.name;
        range.amax = it == amax.end() ? fallback : it->second;
        range.min = -range.amax;
        range.max = range.amax;
        result.activations.push_back(range);
    }
    return result;
}

}  // namespace ql::test
