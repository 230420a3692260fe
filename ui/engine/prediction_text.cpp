#include "ui/engine/prediction_text.h"

#include <QObject>
#include <cmath>

#include "core/engine/prediction_report.h"

namespace ql::ui {

namespace {

QString precisionWord(EnginePrecision precision) {
    return QString::fromLatin1(enginePrecisionName(precision)).toUpper();
}

QString approximateNote(const PlanPrediction& prediction) {
    return prediction.engine.approximateShapes
               ? QObject::tr(
                     "The model leaves some dims open (a symbolic batch or size): each counts as 1, as in "
                     "the MACs column.")
               : QString();
}

}  // namespace

QString predictedMsText(double ms, bool signedValue) {
    const QString text = QString::number(std::fabs(ms), 'f', 4);
    if (!signedValue || std::fabs(ms) < kNeutralGainMs) return text;  // no "-0.0000"
    return (ms < 0 ? QStringLiteral("\u2212") : QStringLiteral("+")) + text;
}

QString checkedErrorText(const GpuProfile& profile) {
    return QStringLiteral("\u00b1%1%").arg(std::round(estimateCheckedError(profile) * 100.0), 0, 'f', 0);
}

QString gpuLabel(const GpuSpec& gpu) {
    QString name = QString::fromStdString(gpu.displayName);
    for (const char* prefix : {"NVIDIA GeForce ", "NVIDIA "})
        if (name.startsWith(QLatin1String(prefix))) name = name.mid(static_cast<int>(qstrlen(prefix)));
    return name.isEmpty() ? QString::fromStdString(gpu.name) : name;
}

QString predictionStatusText(const PlanPrediction& prediction, bool stale) {
    QString text = QObject::tr("Predicted on %1: plan %2 ms \u00b7 all-FP16 %3 \u00b7 all-INT8 %4 (estimate, %5)")
                       .arg(gpuLabel(prediction.profile.gpu))
                       .arg(prediction.estimate.totalMs, 0, 'f', 3)
                       .arg(prediction.fp16TotalMs, 0, 'f', 3)
                       .arg(prediction.int8TotalMs, 0, 'f', 3)
                       .arg(checkedErrorText(prediction.profile));
    if (prediction.engine.approximateShapes) text += QObject::tr(", open dims as 1");
    if (!prediction.engine.unpredictedBodies.empty()) text += QObject::tr(", without If/Loop bodies");
    if (stale) text += QObject::tr(" (updating...)");
    return text;
}

QString predictionStatusToolTip(const PlanPrediction& prediction) {
    QString tip = QObject::tr(
                      "The TensorRT engine of the current plan, of the same model all FP16, and of the default INT8 "
                      "placement, predicted before any build on the %1 (%2 layers, %3 reformats in the plan's).\n%4")
                      .arg(QString::fromStdString(prediction.profile.gpu.displayName))
                      .arg(prediction.engine.layers.size())
                      .arg(prediction.engine.reformatCount())
                      .arg(QString::fromStdString(estimateNote(prediction.profile)));
    if (const QString note = approximateNote(prediction); !note.isEmpty()) tip += QLatin1Char('\n') + note;
    if (!prediction.engine.unpredictedBodies.empty())
        tip += QLatin1Char('\n') + QString::fromStdString(unpredictedBodiesText(prediction.engine));
    return tip;
}

QString int8GainText(const PredictedLayer& layer, std::optional<double> gainMs) {
    if (!gainMs) {
        if (layer.precision == EnginePrecision::Int8) return QObject::tr("INT8: no FP16 form to compare with");
        if (layer.precision == EnginePrecision::Fp16)
            return QObject::tr("FP16: TensorRT's rules would not run it in INT8");
        return QObject::tr("%1: no INT8 vs FP16 comparison").arg(precisionWord(layer.precision));
    }
    const QString ms = predictedMsText(std::fabs(*gainMs));
    const bool int8 = layer.precision == EnginePrecision::Int8;
    if (std::fabs(*gainMs) < kNeutralGainMs)
        return int8 ? QObject::tr("INT8 gains nothing over FP16 here (incl. reformats)")
                    : QObject::tr("INT8 would gain nothing over FP16 here (incl. reformats)");
    if (*gainMs > 0)
        return int8 ? QObject::tr("INT8 saves %1 ms vs FP16 (incl. reformats)").arg(ms)
                    : QObject::tr("INT8 would save %1 ms vs FP16 (incl. reformats)").arg(ms);
    return int8 ? QObject::tr("INT8 costs %1 ms vs FP16 (incl. reformats)").arg(ms)
                : QObject::tr("INT8 would cost %1 ms vs FP16 (incl. reformats)").arg(ms);
}

GainVerdict gainVerdict(const PredictedLayer& layer, std::optional<double> gainMs) {
    if (layer.precision != EnginePrecision::Int8 || !gainMs || std::fabs(*gainMs) < kNeutralGainMs)
        return GainVerdict::Neutral;
    return *gainMs > 0 ? GainVerdict::Pays : GainVerdict::Costs;
}

GainVerdict regionVerdict(const PlanPrediction& prediction, NodeId node) {
    const PredictedLayer* layer = prediction.layerOf(node);
    if (!layer) return GainVerdict::Neutral;
    const RegionDecision* region = prediction.regionOf(node);
    if (!region || layer->precision != EnginePrecision::Int8) return gainVerdict(*layer, prediction.int8Gain(node));
    if (std::fabs(region->netMs()) < kNeutralGainMs) return GainVerdict::Neutral;
    return region->pays() ? GainVerdict::Pays : GainVerdict::Costs;
}

QString predictedNodeSummary(const PlanPrediction& prediction, const Graph& graph, NodeId node) {
    const PredictedLayer* layer = prediction.layerOf(node);
    if (!layer) return {};
    QString text = QObject::tr("Predicted on %1: %2 layer %3, %4 ms")
                       .arg(gpuLabel(prediction.profile.gpu), precisionWord(layer->precision),
                            QString::fromStdString(layer->name), predictedMsText(*prediction.layerMs(node)));
    if (!prediction.isLayerLead(node))
        text += QObject::tr("\nFused into %1: the layer's time is shown on that node")
                    .arg(QString::fromStdString(graph.node(layer->nodes.front()).name));
    text += QLatin1Char('\n') + int8GainText(*layer, prediction.int8Gain(node));
    if (const RegionDecision* region = prediction.regionOf(node); region && layer->precision == EnginePrecision::Int8)
        text += QObject::tr("\nIts INT8 island (%n layer(s)), all FP16 instead: %1", nullptr,
                            static_cast<int>(region->layers))
                    .arg(QString::fromStdString(region->why));
    text += QLatin1Char('\n') + QString::fromStdString(estimateNote(prediction.profile));
    if (const QString note = approximateNote(prediction); !note.isEmpty()) text += QLatin1Char('\n') + note;
    return text;
}

}  // namespace ql::ui
