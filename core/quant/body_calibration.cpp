#include "core/quant/body_calibration.h"

#include "core/model/body_path.h"

namespace ql {

CalibrationResult bodyCalibration(const CalibrationResult& outer, const Graph& body, const std::string& node,
                                  const std::string& attribute) {
    CalibrationResult result;
    result.config = outer.config;
    result.samples = outer.samples;
    for (const ValueId input : body.inputs())
        if (const TensorRange* range = outer.activation(body.value(input).name)) result.activations.push_back(*range);
    const std::string prefix = bodyPathStep(node, attribute);
    for (const TensorRange& range : outer.subgraphActivations) {
        if (range.name.size() <= prefix.size() || range.name.compare(0, prefix.size(), prefix) != 0) continue;
        TensorRange inner = range;
        inner.name = range.name.substr(prefix.size());
        // A tensor name may hold '/' itself ("/conv/Conv_output_0"): what the body has is its own, the rest nested.
        if (body.findValue(inner.name))
            result.activations.push_back(std::move(inner));
        else
            result.subgraphActivations.push_back(std::move(inner));
    }
    return result;
}

}  // namespace ql
