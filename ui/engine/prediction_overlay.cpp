#include "ui/engine/prediction_overlay.h"

#include <QObject>
#include <unordered_map>

#include "ui/engine/engine_overlay.h"
#include "ui/engine/prediction_text.h"
#include "ui/graph/graph_view.h"
#include "ui/model_document.h"

namespace ql::ui {

namespace {

QColor faded(QColor color, bool stale) {
    if (stale) color.setAlphaF(0.45f);
    return color;
}

QColor verdictFill(GainVerdict verdict) {
    switch (verdict) {
        case GainVerdict::Pays:
            return int8PaysFill();
        case GainVerdict::Costs:
            return int8CostsFill();
        case GainVerdict::Neutral:
            break;
    }
    return neutralGainFill();
}

}  // namespace

QColor int8PaysFill() {
    return QColor(0x2e7d32);
}

QColor int8CostsFill() {
    return QColor(0xc62828);
}

QColor neutralGainFill() {
    return QColor(0x78828c);
}

void paintPredictionOverlay(GraphView& view, const ModelDocument& document) {
    const auto prediction = document.latencyPrediction();
    const Model* model = document.model();
    if (!prediction || !model) {
        view.clearEngineMarks();
        view.setLegendFillKeys(QObject::tr("Fill: choose a GPU to predict latency (Latency on, precision panel)"),
                               {{noLayerFill(), QObject::tr("no prediction")}});
        return;
    }
    const bool stale = document.isLatencyPredictionStale();
    const Graph& graph = model->graph();
    std::unordered_map<NodeId, GraphScene::EngineMark> marks;
    marks.reserve(graph.nodes().size());
    for (const Node& node : graph.nodes()) {
        GraphScene::EngineMark mark;
        const PredictedLayer* layer = prediction->layerOf(node.id);
        if (!layer) {
            mark.fill = noLayerFill();
            mark.weight = -1.0;
            mark.text = QObject::tr("Predicted: no layer of its own (absorbed, or computed from constants)");
        } else {
            const std::optional<double> gain = prediction->int8Gain(node.id);
            mark.fill = faded(verdictFill(regionVerdict(*prediction, node.id)), stale);
            // A block shows its member with the highest weight: the one INT8 costs most, where one does.
            mark.weight = gain ? -*gain : 0.0;
            mark.text = predictedNodeSummary(*prediction, graph, node.id);
            if (stale) mark.text += QObject::tr("\n(stale: a new prediction is under way)");
        }
        marks.emplace(node.id, std::move(mark));
    }
    view.setNodeEngineMarks(std::move(marks));
    view.setLegendFillKeys(QObject::tr("Fill: INT8 vs FP16 on %1 (estimate, %2)")
                               .arg(gpuLabel(prediction->profile.gpu), checkedErrorText(prediction->profile)),
                           {{int8PaysFill(), QObject::tr("INT8 pays")},
                            {int8CostsFill(), QObject::tr("INT8 costs (reformats incl.)")},
                            {neutralGainFill(), QObject::tr("float / no gain")},
                            {noLayerFill(), QObject::tr("no layer")}});
}

}  // namespace ql::ui
