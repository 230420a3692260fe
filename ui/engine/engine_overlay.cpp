#include "ui/engine/engine_overlay.h"

#include <QObject>
#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

#include "ui/engine/engine_run.h"
#include "ui/engine/prediction_overlay.h"
#include "ui/graph/graph_view.h"
#include "ui/model_document.h"

namespace ql::ui {

namespace {

constexpr std::array<double, 5> kHeatKeys = {0.0, 0.25, 0.5, 0.75, 1.0};

QColor mix(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QString precisionText(EnginePrecision precision) {
    return precision == EnginePrecision::Unknown ? QObject::tr("type not reported")
                                                 : QString::fromLatin1(enginePrecisionName(precision)).toUpper();
}

QVector<GraphLegendFillKey> precisionKeys(const EngineRun& run) {
    QVector<GraphLegendFillKey> keys;
    std::vector<EnginePrecision> seen;
    for (const NodeRun& node : run.analysis.nodes)
        if (std::find(seen.begin(), seen.end(), node.precision) == seen.end()) seen.push_back(node.precision);
    std::sort(seen.begin(), seen.end());
    for (EnginePrecision precision : seen) keys.append({enginePrecisionFill(precision), precisionText(precision)});
    keys.append({noLayerFill(), QObject::tr("no compute layer")});
    return keys;
}

// Every key in ms; one key when every timed node took the same time.
QVector<GraphLegendFillKey> heatKeys(const HeatScale& scale) {
    QVector<GraphLegendFillKey> keys;
    for (double key : kHeatKeys) {
        if (scale.fastestMs == scale.slowestMs && key < 1.0) continue;
        keys.append({heatColor(key), QObject::tr("%1 ms").arg(scale.msAt(key), 0, 'g', 2)});
    }
    keys.append({noLayerFill(), QObject::tr("not timed")});
    return keys;
}

GraphScene::EngineMark markOf(const EngineRun& run, NodeId node, NodeColoring coloring, const HeatScale& scale) {
    GraphScene::EngineMark mark;
    mark.mismatch = !run.mismatchesOf(node).empty();
    const NodeRun* nodeRun = run.run(node);
    mark.text = nodeRun ? engineNodeSummary(run, node) : QObject::tr("Engine: no compute layer holds this node");
    if (!nodeRun) {
        mark.fill = noLayerFill();
        mark.weight = -1.0;
        return mark;
    }
    if (coloring == NodeColoring::EnginePrecision) {
        mark.fill = enginePrecisionFill(nodeRun->precision);
        return mark;
    }
    const double time = nodeRun->timeMs.value_or(-1.0);
    mark.weight = time;
    mark.fill = time < 0.0 || scale.isEmpty() ? noLayerFill() : heatColor(scale.fraction(time));
    return mark;
}

}  // namespace

QString nodeColoringName(NodeColoring coloring) {
    switch (coloring) {
        case NodeColoring::OpFamily:
            return QObject::tr("Op family");
        case NodeColoring::EnginePrecision:
            return QObject::tr("Engine precision");
        case NodeColoring::EngineTime:
            return QObject::tr("Engine time");
        case NodeColoring::PredictedGain:
            return QObject::tr("Predicted INT8 gain");
    }
    return {};
}

QColor enginePrecisionFill(EnginePrecision precision) {
    switch (precision) {
        case EnginePrecision::Int8:
        case EnginePrecision::Int4:
            return QColor(0x2e7d32);
        case EnginePrecision::Fp16:
        case EnginePrecision::Bf16:
            return QColor(0xc25e00);
        case EnginePrecision::Fp32:
            return QColor(0x1565c0);
        case EnginePrecision::Fp8:
        case EnginePrecision::Fp4:
            return QColor(0x6a1b9a);
        default:
            return QColor(0x5d6d7e);
    }
}

QColor noLayerFill() {
    return QColor(0x3c3f44);
}

QColor heatColor(double fraction) {
    const double t = std::clamp(fraction, 0.0, 1.0);
    const QColor cold(0x1f3b63), warm(0xa86800), hot(0xd32f2f);
    return t < 0.5 ? mix(cold, warm, t * 2) : mix(warm, hot, (t - 0.5) * 2);
}

double HeatScale::fraction(double ms) const {
    if (isEmpty() || ms >= slowestMs) return 1.0;
    if (ms <= fastestMs) return 0.0;
    return std::log(ms / fastestMs) / std::log(slowestMs / fastestMs);
}

double HeatScale::msAt(double fraction) const {
    return fastestMs * std::pow(slowestMs / fastestMs, std::clamp(fraction, 0.0, 1.0));
}

HeatScale heatScaleOf(const EngineRun& run) {
    HeatScale scale;
    for (const NodeRun& node : run.analysis.nodes) {
        const double ms = node.timeMs.value_or(0.0);
        if (ms <= 0.0) continue;
        scale.fastestMs = scale.isEmpty() ? ms : std::min(scale.fastestMs, ms);
        scale.slowestMs = std::max(scale.slowestMs, ms);
    }
    return scale;
}

QString engineNodeSummary(const EngineRun& run, NodeId node) {
    const NodeRun* nodeRun = run.run(node);
    if (!nodeRun) return {};
    QString text = QObject::tr("Engine: %1").arg(precisionText(nodeRun->precision));
    if (nodeRun->timeMs) {
        text += QObject::tr(", %1 ms").arg(*nodeRun->timeMs, 0, 'f', 4);
        if (run.analysis.totalTimeMs && *run.analysis.totalTimeMs > 0)
            text += QStringLiteral(" (%1%)").arg(100.0 * *nodeRun->timeMs / *run.analysis.totalTimeMs, 0, 'f', 1);
    }
    if (const auto layer = run.mainLayer(node))
        text += QObject::tr(" in layer %1").arg(QString::fromStdString(run.report->layers[*layer].name));
    for (const PrecisionMismatch* mismatch : run.mismatchesOf(node))
        text += QStringLiteral("\n") + QString::fromStdString(mismatch->reason);
    return text;
}

// Each path sets every mark or clears them (setting replaces them all: no clearing first, which refreshed every box
// twice).
void paintEngineOverlay(GraphView& view, const ModelDocument& document, NodeColoring coloring) {
    if (coloring == NodeColoring::PredictedGain) {
        paintPredictionOverlay(view, document);
        return;
    }
    const auto run = document.engineRun();
    const Model* model = document.model();
    if (!run || !model || coloring == NodeColoring::OpFamily) {
        view.clearEngineMarks();
        view.setLegendFillKeys({}, {});
        return;
    }
    const HeatScale scale = heatScaleOf(*run);
    std::unordered_map<NodeId, GraphScene::EngineMark> marks;
    marks.reserve(model->graph().nodes().size());
    for (const Node& node : model->graph().nodes()) marks.emplace(node.id, markOf(*run, node.id, coloring, scale));
    view.setNodeEngineMarks(std::move(marks));
    if (coloring == NodeColoring::EnginePrecision)
        view.setLegendFillKeys(QObject::tr("Fill: engine ran"), precisionKeys(*run));
    else if (!scale.isEmpty())
        view.setLegendFillKeys(QObject::tr("Fill: engine time (log scale)"), heatKeys(scale));
    else
        view.setLegendFillKeys(QObject::tr("Fill: no profile, no times"), {{noLayerFill(), QObject::tr("not timed")}});
}

}  // namespace ql::ui
