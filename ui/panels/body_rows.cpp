#include "ui/panels/body_rows.h"

#include <QApplication>
#include <QLocale>
#include <QStyle>
#include <cmath>
#include <limits>
#include <optional>

#include "core/model/body_graphs.h"
#include "core/model/fp16_form.h"
#include "ui/engine/prediction_text.h"
#include "ui/graph/node_style.h"
#include "ui/model_document.h"
#include "ui/panels/precision_table_model.h"

namespace ql::ui {

namespace {

using M = PrecisionTableModel;

// The rows of the bodies of `parent` (a node of the graph that holds `bodies`), nested bodies after their node.
void appendBodyRows(const std::vector<BodyGraph>& bodies, NodeId parent, NodeId mainNode, std::vector<TableRow>& rows) {
    for (const BodyGraph& body : bodies) {
        if (body.parent != parent) continue;
        const Graph& graph = body.body.graph;
        for (const Node& node : graph.nodes()) {
            if (hasPrecisionChoice(graph, node)) rows.push_back({mainNode, &body, node.id});
            if (!node.subgraphs.empty()) appendBodyRows(body.bodies, node.id, mainNode, rows);
        }
    }
}

bool isMainGraphOnlyColumn(int column) {
    return column >= M::TuneColumn && column < M::ColumnCount && column != M::PredictedColumn;
}

// A body layer's predicted time (one run of its body), on its layer's first node; nullopt without a prediction or
// for a node of no layer or not first in it.
std::optional<double> bodyLayerMs(const ModelDocument& document, const TableRow& row, const Node& node) {
    const auto prediction = document.latencyPrediction();
    if (!prediction) return std::nullopt;
    const auto it = prediction->bodyLayerMs.find(bodyPathPrefix(row.body->path) + node.name);
    if (it == prediction->bodyLayerMs.end()) return std::nullopt;
    return it->second;
}

bool isAnalysisColumn(int column) {
    return column == M::SensitivityColumn || column == M::SqnrColumn;
}

}  // namespace

std::vector<TableRow> precisionTableRows(const Graph& graph, const std::vector<BodyGraph>& bodies) {
    std::vector<TableRow> rows;
    rows.reserve(graph.nodes().size());
    for (const Node& node : graph.nodes()) {
        rows.push_back({node.id, nullptr, kNoId});
        if (!node.subgraphs.empty()) appendBodyRows(bodies, node.id, node.id, rows);
    }
    return rows;
}

QVariant bodyRowData(const ModelDocument& document, const TableRow& row, int column, int role,
                     const QIcon (&swatches)[3], const BodyRowAnalysis& analysis) {
    const Node& node = row.body->body.graph.node(row.bodyNode);
    const PrecisionPlan* plan = bodyPlan(document.shownPlan(), row.body->path);  // null: the body runs float
    const Precision requested = plan ? plan->requested(node.id) : Precision::Fp32;
    const Precision effective = plan ? plan->effective(node.id) : Precision::Fp32;
    const QString explanation = plan ? QString::fromStdString(plan->explanation(node.id)) : QString();
    const bool fallback = requested != effective;
    const QString label = QString::fromStdString(bodyNodeLabel(row.body->path, node.name));
    QVariant display;
    switch (column) {
        case M::NodeColumn:
            display = label;
            break;
        case M::OpColumn:
            display = opText(node);
            break;
        case M::RequestedColumn:
            display = precisionLabel(requested);
            break;
        case M::EffectiveColumn:
            display = precisionLabel(effective);
            break;
        case M::ReasonColumn:
            display = explanation;
            break;
        case M::MacsColumn:
            display = macsText(node.cost);
            break;
        case M::PredictedColumn:
            if (const auto ms = bodyLayerMs(document, row, node)) display = predictedMsText(*ms);
            break;
        case M::SensitivityColumn:
            display = decibelText(analysis.sensitivity);
            break;
        case M::SqnrColumn:
            display = decibelText(analysis.sqnr);
            break;
        default:
            display = QString();
    }
    switch (role) {
        case Qt::DisplayRole:
            return display;
        case Qt::EditRole:
            return column == M::RequestedColumn ? QVariant(static_cast<int>(requested)) : display;
        case Qt::ToolTipRole: {
            if (isMainGraphOnlyColumn(column)) return QObject::tr("Measured for the main graph only");
            if (column == M::PredictedColumn)
                return QObject::tr(
                    "Predicted time of this layer in one run of its body (an estimate); an If counts "
                    "its slower branch in the plan's total, a Loop its body times its trip count");
            if (analysis.stale && isAnalysisColumn(column)) return staleAnalysisToolTip();
            QString tip = QObject::tr("%1 (%2), a layer of a control-flow body\nRequested %3, effective %4")
                              .arg(label, QString::fromStdString(node.opType), precisionLabel(requested),
                                   precisionLabel(effective));
            if (!plan)
                tip += QObject::tr("\nThe body has no plan yet: it runs in FP32 until one of its layers is set.");
            if (!explanation.isEmpty()) tip += QStringLiteral("\n") + explanation;
            return tip;
        }
        case Qt::DecorationRole:
            if (column == M::RequestedColumn) return swatches[static_cast<int>(requested)];
            if (column == M::EffectiveColumn && fallback)
                return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
            if (column == M::EffectiveColumn) return swatches[static_cast<int>(effective)];
            return {};
        case Qt::ForegroundRole:
            if (analysis.stale && isAnalysisColumn(column))
                return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
            if (column == M::PredictedColumn && document.isLatencyPredictionStale())
                return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
            return {};
        case Qt::BackgroundRole:
            if (fallback && (column == M::EffectiveColumn || column == M::ReasonColumn)) return fallbackBackground();
            return {};
        case Qt::TextAlignmentRole:
            if (column == M::MacsColumn || column == M::PredictedColumn || isAnalysisColumn(column))
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case M::NodeIdRole:
            return row.node;
        case M::BodyRowRole:
            return true;
        case M::OpTypeRole:  // "All <op> nodes" sets those of the main graph and of every body
            return QString::fromStdString(node.opType);
        case M::RequestedPrecisionRole:
            return static_cast<int>(requested);
        case M::EffectivePrecisionRole:
            return static_cast<int>(effective);
        case M::FallbackRole:
            return fallback;
        case M::PrecisionChoiceRole:
            return true;  // only such layers get a row
        case M::SortRole:
            if (column == M::RequestedColumn) return static_cast<int>(requested);
            if (column == M::EffectiveColumn) return static_cast<int>(effective);
            if (column == M::MacsColumn) return static_cast<double>(node.cost.macs);
            if (column == M::SensitivityColumn) return analysis.sensitivity;
            if (column == M::SqnrColumn) return analysis.sqnr;
            if (column == M::PredictedColumn)
                return bodyLayerMs(document, row, node).value_or(std::numeric_limits<double>::quiet_NaN());
            if (isMainGraphOnlyColumn(column)) return std::numeric_limits<double>::quiet_NaN();
            return display;
        default:
            return {};
    }
}

QString opText(const Node& node) {
    return node.domain.empty() ? QString::fromStdString(node.opType)
                               : QString::fromStdString(node.domain + "." + node.opType);
}

QString macsText(const LayerCost& cost) {
    if (!cost.macs) return QString();
    // "≈": a dimension the model leaves open (a symbolic batch, a dynamic H/W) was counted as 1.
    const QString macs = QLocale().toString(static_cast<qlonglong>(cost.macs));
    return cost.approximate ? QStringLiteral("\u2248 ") + macs : macs;
}

QString staleAnalysisToolTip() {
    return QObject::tr(
        "Stale: the plan changed since this analysis. Calibrate again (with the error measurement) to update it.");
}

QString decibelText(double db) {
    if (std::isnan(db)) return {};
    if (std::isinf(db)) return QObject::tr("exact");
    return QStringLiteral("%1 dB").arg(db, 0, 'f', 1);
}

QColor fallbackBackground() {
    return QColor(255, 167, 38, 70);
}

}  // namespace ql::ui
