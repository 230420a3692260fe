// engineToText: the table `quantlens-cli engine` prints without --json.
#include <cstdio>
#include <sstream>

#include "core/engine/engine_coverage.h"
#include "core/engine/engine_view.h"

namespace ql {

namespace {

constexpr size_t kNameWidth = 56;

std::string shortened(const std::string& text, size_t width) {
    if (text.size() <= width) return text;
    return text.substr(0, width - 3) + "...";
}

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string timeText(const std::optional<double>& ms) {
    return ms ? format("%.4f", *ms) : "-";
}

std::string shareText(const std::optional<double>& ms, const std::optional<double>& total) {
    if (!ms || !total || *total <= 0.0) return "-";
    return format("%.1f%%", 100.0 * *ms / *total);
}

std::string percentText(const std::optional<double>& share) {
    return share ? format("%.1f%%", 100.0 * *share) : "n/a";
}

std::string padded(const std::string& text, size_t width) {
    return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

std::string onnxNodes(const EngineView& view, size_t index) {
    std::string text;
    for (NodeId node : view.mapping.layers[index].nodes)
        text += (text.empty() ? "" : ", ") + view.graph->node(node).name;
    return text;
}

void writeLayers(const EngineView& view, std::ostringstream& out) {
    const auto& report = view.report;
    out << report.layersFile << " (" << layerInfoSchemaName(report.schema) << "): " << report.layers.size()
        << " layers";
    if (view.analysis.totalTimeMs) out << ", " << timeText(view.analysis.totalTimeMs) << " ms per inference";
    out << "\n  " << padded("#", 5) << padded("layer", kNameWidth + 1) << padded("type", 26) << padded("precision", 10)
        << padded("ms", 9) << padded("share", 7) << "onnx nodes\n";
    for (size_t i = 0; i < report.layers.size(); ++i) {
        const EngineLayer& layer = report.layers[i];
        out << "  " << padded(std::to_string(i), 5) << padded(shortened(layer.name, kNameWidth), kNameWidth + 1)
            << padded(layer.type.empty() ? "-" : layer.type, 26)
            << padded(enginePrecisionName(view.analysis.layerPrecisions[i]), 10) << padded(timeText(layer.timeMs), 9)
            << padded(shareText(layer.timeMs, view.analysis.totalTimeMs), 7);
        if (layer.isReformat() && view.mapping.layers[i].feeds)
            out << "-> " << shortened(report.layers[*view.mapping.layers[i].feeds].name, kNameWidth);
        else if (view.graph)
            out << onnxNodes(view, i);
        out << "\n";
    }
}

// How much of the model and of the engine the mapping accounts for, and a warning when it is too little.
void writeMapping(const EngineView& view, std::ostringstream& out) {
    const MappingCoverage c = mappingCoverage(view.report, view.mapping, *view.graph);
    out << "\nMapped: " << c.mappedNodes << " of " << c.computeNodes << " compute nodes ("
        << format("%.0f%%", 100.0 * c.nodeShare()) << "), " << c.mappedLayers << " of " << c.layers
        << " engine layers (" << format("%.0f%%", 100.0 * c.layerShare()) << ")\n";
    if (c.likelyOtherModel()) out << "WARNING: the report " << otherModelWarning(c) << "\n";
}

void writeMismatches(const EngineView& view, std::ostringstream& out) {
    const PlanDifferences differences = countPlanDifferences(view.analysis.mismatches);
    out << "\nMismatches with the plan: " << differences.total() << " (" << differences.precision << " precision, "
        << differences.reformat << " reformat)\n";
    for (const PrecisionMismatch& m : view.analysis.mismatches) {
        out << "  " << view.graph->node(m.node).name << ": " << m.reason;
        if (!m.rule.empty()) out << " [" << m.rule << "]";
        out << "\n";
    }
    out << "Compute nodes in no engine layer: " << view.mapping.unmappedNodes.size() << "\n";
    for (NodeId node : view.mapping.unmappedNodes)
        out << "  " << view.graph->node(node).name << " (" << view.graph->node(node).opType << ")\n";
    out << "Engine layers naming no node of the model: " << view.mapping.unmappedLayers.size() << "\n";
    for (size_t i : view.mapping.unmappedLayers) out << "  " << shortened(view.report.layers[i].name, 100) << "\n";
}

void writeSummary(const EngineView& view, std::ostringstream& out) {
    if (!view.analysis.topLayers.empty()) out << "\nSlowest layers:\n";
    for (size_t i : view.analysis.topLayers) {
        const EngineLayer& layer = view.report.layers[i];
        out << "  " << padded(timeText(layer.timeMs) + " ms", 12)
            << padded(shareText(layer.timeMs, view.analysis.totalTimeMs), 7)
            << padded(enginePrecisionName(view.analysis.layerPrecisions[i]), 8) << shortened(layer.name, 90) << "\n";
    }
    const Int8Coverage& c = view.analysis.coverage;
    out << "\nINT8 coverage: " << percentText(c.byTime) << " of the time, " << percentText(c.byMacs) << " of the MACs";
    if (view.report.hasProfile()) out << "; reformats " << timeText(view.analysis.reformatTimeMs) << " ms";
    out << "\n";
    if (view.timing)
        out << "Timing: " << view.timing->iterations << " inferences, median GPU compute "
            << timeText(view.timing->medianComputeMs) << " ms\n";
}

void writeComparison(const EngineBaselineView& baseline, std::ostringstream& out) {
    const EngineComparison& c = baseline.comparison;
    out << "\nAgainst " << baseline.report.layersFile << ": " << timeText(c.totalTimeMs) << " ms vs "
        << timeText(c.baselineTotalTimeMs) << " ms\n  " << padded(c.byNode ? "node" : "layer", 41)
        << padded("precision", 16) << padded("ms", 9) << padded("baseline", 9) << "delta\n";
    for (const TimeDelta& row : c.rows) {
        const std::string precisions =
            std::string(enginePrecisionName(row.precision)) + " (" + enginePrecisionName(row.baselinePrecision) + ")";
        const auto delta = row.deltaMs();
        out << "  " << padded(shortened(row.name, 40), 41) << padded(precisions, 16) << padded(timeText(row.timeMs), 9)
            << padded(timeText(row.baselineTimeMs), 9) << (delta ? format("%+.4f", *delta) : "-") << "\n";
    }
}

}  // namespace

std::string engineToText(const EngineView& view) {
    std::ostringstream out;
    writeLayers(view, out);
    if (view.graph) {
        writeMapping(view, out);
        writeMismatches(view, out);
    }
    writeSummary(view, out);
    if (view.baseline) writeComparison(*view.baseline, out);
    return out.str();
}

}  // namespace ql
