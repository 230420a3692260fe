#pragma once
// A tune report in words for the window, computed once when a report arrives (no core pointers kept):
// the steps (the dialog's table and plot), the remedy each ranked layer got (the precision table's Tune column),
// and the one-paragraph summary.
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <vector>

#include "core/model/graph.h"
#include "core/quant/tuning.h"

namespace ql::ui {

class ModelDocument;

struct TuneStepRow {
    int number = 0;  // 1-based, as the CLI prints them
    TuneStep::Action action = TuneStep::Action::Baseline;
    QString actionText;  // "fallback"
    QString layer;       // node name, or empty
    QString change;      // "fp16", "/stem/Relu_output_0 -> mse", or empty
    double value = 0.0;  // the target's value after the step (report.target.valueOf(score))
    bool kept = false;
    qint64 samples = 0;
    QString why;
    std::optional<double> predictedMs;  // the plan's predicted engine time after the step (latency objective)
};

struct LayerRemedy {
    QString text;               // "fp16: 37.6 dB alone at the outputs", "input r2: mse; ...", "int8: ..."
    QString why;                // every step the tune took on the layer, one per line
    double outputSqnrDb = 0.0;  // outputs vs FP32 with the layer alone INT8: its sensitivity
    int rank = 0;               // 1: the least robust layer
};

std::vector<TuneStepRow> describeSteps(const TuneReport& report);
// Per node of every ranked unit (the layer and the nodes fused after it); empty when the tune ranked none
// (the start plan met the target at once).
std::map<NodeId, LayerRemedy> layerRemedies(const Graph& graph, const TuneReport& report);
// "Target met: top1-agreement 100.0 on 450 samples (start 99.8). 1 of 8 layers kept out of INT8 ..."
QString tuneSummaryText(const Graph& graph, const TuneReport& report);
// The same for one node: the plan's explanation, else the last tune's note while the node follows the tune.
std::string nodeExplanation(const ModelDocument& document, NodeId node);

// Latency objective: each region's decision with its reason, one line each ("fp16 for speed on t4: conv_a, conv_b:
// INT8 saves 0.004 ms but its 2 reformats cost 0.009 ms: ... (predicted, an estimate)"); empty without latency.
QStringList tuneRegionLines(const Graph& graph, const TuneReport& report);
// "Predicted on t4 (an estimate): 0.144 ms, against 0.151 ms all-INT8 (the start plan) and 0.139 ms all-FP16."
QString tuneLatencyText(const TuneReport& report);

// "top1-agreement 99.78" style value of the target, with its unit: "99.78 %", "0.44 points", "31.2 dB".
QString tuneValueText(const TuneTarget& target, double value);

}  // namespace ql::ui
