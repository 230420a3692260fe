#include "tests/support/calibration_fixture.h"

#include "core/model/subgraph_model.h"

namespace ql::test {

namespace {

TensorRange uniformRange(const std::string& name, const std::map<std::string, float>& amax, const std::string& key,
                         float fallback) {
    const auto it = amax.find(key);
    TensorRange range;
    range.name = name;
    range.amax = it == amax.end() ? fallback : it->second;
    range.min = -range.amax;
    range.max = range.amax;
    return range;
}

// The tensors the nodes of If/Loop/Scan bodies produce, under their paths, nested bodies too.
void addBodyRanges(const Graph& graph, const std::string& prefix, const std::map<std::string, float>& amax,
                   float fallback, CalibrationResult& result) {
    for (const Node& node : graph.nodes())
        for (const SubgraphInfo& subgraph : node.subgraphs) {
            auto body = buildSubgraphModel(graph, node, subgraph.attribute);
            if (!body) continue;
            const std::string path = prefix + node.name + "/" + subgraph.attribute + "/";
            // What the body's nodes produce, and its own inputs (a Loop's state), as a calibration run sees them.
            for (const Value& value : body->graph.values())
                if (value.producer != kNoId || (value.isGraphInput && !graph.findValue(value.name)))
                    result.subgraphActivations.push_back(
                        uniformRange(path + value.name, amax, path + value.name, fallback));
            addBodyRanges(body->graph, path, amax, fallback, result);
        }
}

}  // namespace

CalibrationResult uniformCalibration(const Graph& graph, const std::map<std::string, float>& amax, float fallback) {
    CalibrationResult result;
    for (const Value& value : graph.values())
        if (value.initializer < 0) result.activations.push_back(uniformRange(value.name, amax, value.name, fallback));
    addBodyRanges(graph, "", amax, fallback, result);
    return result;
}

}  // namespace ql::test
