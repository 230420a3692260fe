#include "ui/panels/precision_table_model.h"

#include <QApplication>
#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QPixmap>
#include <QStyle>
#include <cmath>
#include <limits>

#include "core/engine/prediction_report.h"
#include "core/model/fp16_form.h"
#include "core/quant/realized_precision.h"
#include "ui/engine/engine_overlay.h"
#include "ui/engine/engine_run.h"
#include "ui/engine/prediction_overlay.h"
#include "ui/engine/prediction_text.h"
#include "ui/graph/node_style.h"
#include "ui/model_document.h"
#include "ui/tuning/tune_report_text.h"

namespace ql::ui {

namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

double valueAt(const std::vector<double>& values, NodeId node) {
    return static_cast<size_t>(node) < values.size() ? values[static_cast<size_t>(node)] : kMissing;
}

double valueAt(const std::unordered_map<std::string, double>& values, const std::string& key) {
    const auto it = values.find(key);
    return it == values.end() ? kMissing : it->second;
}

// A body layer's key in the analysis: its body's path and its name ("route/then_branch/t1").
std::string bodyLayerKey(const TableRow& row) {
    return bodyPathPrefix(row.body->path) + row.body->body.graph.node(row.bodyNode).name;
}

// A small square in the precision's outline colour, so the table reads like the graph.
QIcon precisionSwatch(Precision precision) {
    QPixmap pixmap(12, 12);
    pixmap.fill(precisionColor(precision));
    return QIcon(pixmap);
}

// And a translucent red behind the engine cells of a node the engine ran otherwise than planned.
// A tune's reason kept in the plan (a reopened project has no tune report): the Tune column shows it.
QString savedTuneNote(const PrecisionPlan& plan, NodeId node) {
    const std::string& note = plan.placementNote(node);
    return isTuneNote(note) ? QString::fromStdString(note.substr(kTuneNotePrefix.size())) : QString();
}

QColor mismatchBackground() {
    return QColor(255, 23, 68, 70);
}

QString engineTimeText(double ms) {
    return QStringLiteral("%1 ms").arg(ms, 0, 'f', 4);
}

}  // namespace

PrecisionTableModel::PrecisionTableModel(ModelDocument* document, QObject* parent)
    : QAbstractTableModel(parent), mDocument(document) {
    connect(document, &ModelDocument::modelAboutToBeReplaced, this, &PrecisionTableModel::beginResetModel);
    connect(document, &ModelDocument::modelReplaced, this, [this] {
        rebuildRows();
        // Everything the columns show is read here, so that the signals replaceModel() emits next (each would
        // re-filter every row) have nothing left to announce.
        updateAnalysisColumns();
        updateRemedies();
        mStale = mDocument->isAnalysisStale();
        mEffectiveUpdating = false;  // a new model's plan is decided as it loads
        endResetModel();
    });
    connect(document, &ModelDocument::planChanged, this, &PrecisionTableModel::planChanged);
    connect(document, &ModelDocument::analysisChanged, this, &PrecisionTableModel::analysisChanged);
    connect(document, &ModelDocument::tuneReportChanged, this, &PrecisionTableModel::tuneReportChanged);
    connect(document, &ModelDocument::engineChanged, this, &PrecisionTableModel::engineChanged);
    connect(document, &ModelDocument::latencyPredictionChanged, this, &PrecisionTableModel::latencyPredictionChanged);
    for (Precision p : {Precision::Fp32, Precision::Fp16, Precision::Int8})
        mSwatches[static_cast<int>(p)] = precisionSwatch(p);
    rebuildRows();  // the document may hold a model already
    analysisChanged();
}

void PrecisionTableModel::rebuildRows() {
    mOpenDims = false;
    mRows.clear();
    mRowOfNode.clear();
    const Model* model = mDocument->model();
    if (!model) return;
    for (const Node& node : model->graph().nodes()) mOpenDims = mOpenDims || node.cost.approximate;
    mRows = precisionTableRows(model->graph(), mDocument->bodyGraphs());
    mFolded = constantComputed(model->graph());
    mRowOfNode.assign(model->graph().nodes().size(), -1);
    for (size_t row = 0; row < mRows.size(); ++row)
        if (!mRows[row].body) mRowOfNode[static_cast<size_t>(mRows[row].node)] = static_cast<int>(row);
}

int PrecisionTableModel::rowOf(NodeId node) const {
    return node >= 0 && static_cast<size_t>(node) < mRowOfNode.size() ? mRowOfNode[static_cast<size_t>(node)] : -1;
}

int PrecisionTableModel::rowOf(const BodyNodeRef& node) const {
    for (size_t row = 0; row < mRows.size(); ++row)
        if (mRows[row].body && mRows[row].bodyNode == node.node && mRows[row].body->path == node.path)
            return static_cast<int>(row);
    return -1;
}

std::optional<BodyNodeRef> PrecisionTableModel::bodyNodeAt(int row) const {
    if (row < 0 || row >= rowCount() || !mRows[static_cast<size_t>(row)].body) return std::nullopt;
    const TableRow& at = mRows[static_cast<size_t>(row)];
    return BodyNodeRef{at.body->path, at.bodyNode};
}

int PrecisionTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !mDocument->model()) return 0;
    return static_cast<int>(mRows.size());
}

int PrecisionTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

std::optional<Precision> PrecisionTableModel::precisionFromVariant(const QVariant& value) {
    if (value.typeId() == QMetaType::Int) {
        const int p = value.toInt();
        if (p < static_cast<int>(Precision::Fp32) || p > static_cast<int>(Precision::Int8)) return std::nullopt;
        return static_cast<Precision>(p);
    }
    return parsePrecision(value.toString().trimmed().toLower().toStdString());
}

QVariant PrecisionTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !mDocument->model() || index.row() >= rowCount()) return {};
    const TableRow& row = mRows[static_cast<size_t>(index.row())];
    if (row.body) {
        const auto key = bodyLayerKey(row);
        const BodyRowAnalysis analysis{valueAt(mBodySensitivity, key), valueAt(mBodySqnr, key), mStale};
        return bodyRowData(*mDocument, row, index.column(), role, mSwatches, analysis);
    }
    const Node& node = mDocument->model()->graph().node(row.node);
    const PrecisionPlan& plan = mDocument->shownPlan();
    // A control-flow node computes nothing itself (kept FP32 with its bodies as written): its bodies' layers, on rows
    // of their own, are what runs in a precision or falls back.
    const bool folded = mFolded[static_cast<size_t>(node.id)];
    const bool fallback = plan.effective(node.id) != plan.requested(node.id) && node.subgraphs.empty() && !folded;
    const int column = index.column();
    if ((column == EngineColumn || column == TimeColumn) && role != NodeIdRole && role != OpTypeRole)
        return engineData(node, column, role);
    if (isPredictionColumn(column) && role != NodeIdRole && role != OpTypeRole)
        return predictionData(node, column, role);
    switch (role) {
        case Qt::DisplayRole:
            return displayData(node, column);
        case Qt::EditRole:
            return column == RequestedColumn ? QVariant(static_cast<int>(plan.requested(node.id)))
                                             : displayData(node, column);
        case Qt::ToolTipRole:
            return toolTip(node, column);
        case Qt::ForegroundRole:
            if (mStale && isAnalysisColumn(column))
                return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
            return {};
        case Qt::DecorationRole:
            if (column == RequestedColumn) return mSwatches[static_cast<int>(plan.requested(node.id))];
            if (column == EffectiveColumn && fallback)
                return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
            if (column == EffectiveColumn) return mSwatches[static_cast<int>(plan.effective(node.id))];
            return {};
        case Qt::BackgroundRole:
            if (fallback && (column == EffectiveColumn || column == ReasonColumn)) return fallbackBackground();
            return {};
        case Qt::TextAlignmentRole:
            if (column == MacsColumn || isAnalysisColumn(column)) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case NodeIdRole:
            return node.id;
        case BodyRowRole:
            return false;
        case OpTypeRole:
            return QString::fromStdString(node.opType);
        case RequestedPrecisionRole:
            return static_cast<int>(plan.requested(node.id));
        case EffectivePrecisionRole:
            return static_cast<int>(plan.effective(node.id));
        case FallbackRole:
            return fallback;
        case PrecisionChoiceRole:
            return !folded && hasPrecisionChoice(mDocument->model()->graph(), node);
        case SortRole:
            return sortData(node, column);
        default:
            return {};
    }
}

QVariant PrecisionTableModel::displayData(const Node& node, int column) const {
    const PrecisionPlan& plan = mDocument->shownPlan();
    switch (column) {
        case NodeColumn:
            return QString::fromStdString(node.name);
        case OpColumn:
            return opText(node);
        case RequestedColumn:
            return precisionLabel(plan.requested(node.id));
        case EffectiveColumn:
            return precisionLabel(plan.effective(node.id));
        case ReasonColumn:
            return QString::fromStdString(nodeExplanation(*mDocument, node.id));
        case MacsColumn:
            return macsText(node.cost);
        case SensitivityColumn:
            return decibelText(valueAt(mSensitivity, node.id));
        case SqnrColumn:
            return decibelText(valueAt(mSqnr, node.id));
        case TuneColumn: {
            const auto remedy = mRemedies.find(node.id);
            return remedy == mRemedies.end() ? savedTuneNote(plan, node.id) : remedy->second.text;
        }
        default:
            return {};
    }
}

QVariant PrecisionTableModel::sortData(const Node& node, int column) const {
    switch (column) {
        case RequestedColumn:
            return static_cast<int>(mDocument->shownPlan().requested(node.id));
        case EffectiveColumn:
            return static_cast<int>(mDocument->shownPlan().effective(node.id));
        case MacsColumn:
            return static_cast<double>(node.cost.macs);
        case SensitivityColumn:
            return valueAt(mSensitivity, node.id);
        case SqnrColumn:
            return valueAt(mSqnr, node.id);
        case TuneColumn: {  // the tune's output sensitivity: ascending puts the least robust layer first
            const auto remedy = mRemedies.find(node.id);
            return remedy == mRemedies.end() ? kMissing : remedy->second.outputSqnrDb;
        }
        default:
            return displayData(node, column);
    }
}

QString PrecisionTableModel::toolTip(const Node& node, int column) const {
    if (column == TuneColumn) {
        const auto remedy = mRemedies.find(node.id);
        if (remedy == mRemedies.end())
            return savedTuneNote(mDocument->shownPlan(), node.id).isEmpty()
                       ? tr("The last tune did not rank this node (it was not INT8 in its plan).")
                       : tr("Kept in the plan from a tune: %1").arg(savedTuneNote(mDocument->shownPlan(), node.id));
        return tr("#%1 least robust of the tune's layers: %2\n%3")
            .arg(remedy->second.rank)
            .arg(remedy->second.text, remedy->second.why);
    }
    if (mStale && isAnalysisColumn(column)) return staleAnalysisToolTip();
    if (column == MacsColumn && node.cost.approximate)
        return tr(
            "Approximate: the model leaves some dimensions of this layer open (a symbolic batch or size), "
            "and each was counted as 1.");
    const PrecisionPlan& plan = mDocument->shownPlan();
    QString tip = tr("%1 (%2)\nRequested %3, effective %4")
                      .arg(QString::fromStdString(node.name), QString::fromStdString(node.opType),
                           precisionLabel(plan.requested(node.id)), precisionLabel(plan.effective(node.id)));
    if (const std::string explanation = nodeExplanation(*mDocument, node.id); !explanation.empty())
        tip += QStringLiteral("\n") + QString::fromStdString(explanation);
    return tip;
}

// The Engine and Time cells: empty without a report or for a node in no compute layer.
QVariant PrecisionTableModel::engineData(const Node& node, int column, int role) const {
    const auto run = mDocument->engineRun();
    const NodeRun* nodeRun = run ? run->run(node.id) : nullptr;
    if (!nodeRun) return role == SortRole ? QVariant(kMissing) : QVariant();
    const bool mismatch = !run->mismatchesOf(node.id).empty();
    switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole:
            if (column == EngineColumn) return QString::fromLatin1(enginePrecisionName(nodeRun->precision)).toUpper();
            return nodeRun->timeMs ? engineTimeText(*nodeRun->timeMs) : QString();
        case SortRole:
            if (column == EngineColumn) return static_cast<int>(nodeRun->precision);
            return nodeRun->timeMs.value_or(kMissing);
        case Qt::ToolTipRole:
            return engineNodeSummary(*run, node.id);
        case Qt::BackgroundRole:
            return mismatch ? QVariant(mismatchBackground()) : QVariant();
        case Qt::TextAlignmentRole:
            return column == TimeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        default:
            return {};
    }
}

// The Predicted ms and INT8 gain cells: empty without a prediction or for a node in no layer; a fused layer's
// numbers on its first node only (its other nodes say where in the tool tip), so Predicted ms sums to the plan's
// layers.
QVariant PrecisionTableModel::predictionData(const Node& node, int column, int role) const {
    const auto prediction = mDocument->latencyPrediction();
    if (!prediction) {
        if (role == Qt::ToolTipRole) return predictionHeader(column, Qt::ToolTipRole);
        return role == SortRole ? QVariant(kMissing) : QVariant();
    }
    const PredictedLayer* layer = prediction->layerOf(node.id);
    const bool lead = prediction->isLayerLead(node.id);
    const std::optional<double> value = !layer || !lead             ? std::nullopt
                                        : column == PredictedColumn ? prediction->layerMs(node.id)
                                                                    : prediction->int8Gain(node.id);
    switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole:
            if (!value) return layer && !lead ? tr("fused") : QString();
            return predictedMsText(*value, column == GainColumn);
        case SortRole:
            return value.value_or(kMissing);
        case Qt::ToolTipRole:
            return predictedNodeSummary(*prediction, mDocument->model()->graph(), node.id);
        case Qt::ForegroundRole:
            if (mDocument->isLatencyPredictionStale() || !value)
                return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
            if (column == GainColumn && layer && gainVerdict(*layer, value) != GainVerdict::Neutral)
                return gainVerdict(*layer, value) == GainVerdict::Pays ? int8PaysFill() : int8CostsFill();
            return {};
        case Qt::TextAlignmentRole:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
    }
}

QVariant PrecisionTableModel::predictionHeader(int section, int role) const {
    const auto prediction = mDocument->latencyPrediction();
    const bool stale = prediction && mDocument->isLatencyPredictionStale();
    if (role == Qt::DisplayRole) {
        if (!prediction && section == PredictedColumn)
            return mDocument->gpuProfile() ? tr("Predicted ms (predicting...)") : tr("Predicted ms: choose a GPU");
        const QString title = section == PredictedColumn ? tr("Predicted ms") : tr("INT8 gain ms");
        return stale ? tr("%1 (updating)").arg(title) : title;
    }
    if (role != Qt::ToolTipRole) return {};
    if (!prediction)
        return mDocument->gpuProfile()
                   ? tr("The engine's latency is being predicted for the current plan.")
                   : tr("Choose a GPU in the Latency on box above to predict the TensorRT engine's latency per layer.");
    const QString note = QString::fromStdString(estimateNote(prediction->profile));
    if (section == PredictedColumn)
        return tr("The time of the node's TensorRT layer in the engine the current plan builds, predicted on %1 "
                  "(a fused layer's time on its first node). %2")
            .arg(gpuLabel(prediction->profile.gpu), note);
    return tr("What INT8 saves against FP16 in the node's layer, the reformats it causes or spares included, in the "
              "plan's predicted time on %1: positive (green) pays, negative (red) costs. For an FP16 layer, what "
              "INT8 would save. %2")
        .arg(gpuLabel(prediction->profile.gpu), note);
}

void PrecisionTableModel::latencyPredictionChanged() {
    if (mDocument->isReplacingModel()) return;  // the reset showed it
    emit headerDataChanged(Qt::Horizontal, PredictedColumn, GainColumn);
    if (rowCount() > 0) emit dataChanged(index(0, PredictedColumn), index(rowCount() - 1, GainColumn));
}

bool PrecisionTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid() || index.column() != RequestedColumn || !mDocument->model())
        return false;
    const std::optional<Precision> precision = precisionFromVariant(value);
    if (!precision) return false;
    // The document pushes the undo step and announces planChanged, which refreshes the cells.
    if (auto bodyNode = bodyNodeAt(index.row()))
        mDocument->setRequestedPrecision({}, *precision, {}, {std::move(*bodyNode)});
    else
        mDocument->setRequestedPrecision({mRows[static_cast<size_t>(index.row())].node}, *precision);
    return true;
}

Qt::ItemFlags PrecisionTableModel::flags(const QModelIndex& index) const {
    const Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    return index.column() == RequestedColumn ? flags | Qt::ItemIsEditable : flags;
}

QVariant PrecisionTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (isPredictionColumn(section) && (role == Qt::DisplayRole || role == Qt::ToolTipRole))
        return predictionHeader(section, role);
    if (role == Qt::ToolTipRole && mStale && isAnalysisColumn(section))
        return tr("Stale: %1. Quantize > Measure Again (Ctrl+M) measures the current plan.")
            .arg(mDocument->analysisStaleReason());
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case RequestedColumn:
                return tr("The precision you ask for (double-click to change)");
            case EffectiveColumn:
                return tr("The precision TensorRT will use");
            case SensitivityColumn:
                return tr(
                    "SQNR (dB) of the node's output with only this node at its planned precision (INT8 or FP16) "
                    "and everything before it in FP32: the layer's own error, one layer at a time (the isolated "
                    "analysis, quantlens-cli compare --mode isolated). Higher is better: a high value means the "
                    "layer quantizes well; the lowest values mark the sensitive layers, candidates for FP16.");
            case SqnrColumn:
                return tr(
                    "SQNR (dB) of the node's output with the whole plan applied (the accumulated analysis): its own "
                    "error and everything upstream's. Higher is better.");
            case MacsColumn:
                return macsHeaderToolTip();
            case TuneColumn:
                return tr(
                    "The remedy the last Quantize > Tune gave the layer, and its output SQNR with it alone "
                    "in INT8. Sorts by that sensitivity, least robust first: select the top rows and press "
                    "Ctrl+2 to keep them in FP16.");
            case EngineColumn:
                return tr(
                    "The precision the TensorRT engine ran the node in (File > Import Engine Report...); red: "
                    "not what the plan says");
            case TimeColumn:
                return tr(
                    "The node's share of its engine layers' time per inference (a fused layer's time is split "
                    "evenly among its nodes)");
            default:
                return {};
        }
    }
    if (role == Qt::InitialSortOrderRole) return static_cast<int>(Qt::AscendingOrder);
    if (role != Qt::DisplayRole) return {};
    if (section < 0 || section >= ColumnCount) return {};
    // Stale analysis numbers must not look current.
    if (mStale && isAnalysisColumn(section)) return tr("%1 (stale)").arg(columnTitle(section));
    if (section == MacsColumn && mOpenDims) return tr("MACs (open dims = 1)");
    // A big graph's edit shows its request there until TensorRT's rules have been applied.
    if (section == EffectiveColumn && mEffectiveUpdating) return tr("Effective (updating)");
    return columnTitle(section);
}

QString PrecisionTableModel::columnTitle(int column) {
    static const char* const kTitles[ColumnCount] = {
        QT_TR_NOOP("Node"),        QT_TR_NOOP("Op"),     QT_TR_NOOP("Requested"),     QT_TR_NOOP("Effective"),
        QT_TR_NOOP("Reason"),      QT_TR_NOOP("MACs"),   QT_TR_NOOP("Isolated SQNR"), QT_TR_NOOP("SQNR"),
        QT_TR_NOOP("Tune"),        QT_TR_NOOP("Engine"), QT_TR_NOOP("Time"),          QT_TR_NOOP("Predicted ms"),
        QT_TR_NOOP("INT8 gain ms")};
    return column >= 0 && column < ColumnCount ? tr(kTitles[column]) : QString();
}

// The graph inputs with a dimension the model leaves open, and what the MAC counts make of them.
QString PrecisionTableModel::macsHeaderToolTip() const {
    const QString what = tr("Multiply-accumulates of one inference of the node.");
    if (!mOpenDims) return what;
    QStringList inputs;
    const Graph& graph = mDocument->model()->graph();
    for (ValueId id : graph.inputs()) {
        const Value& value = graph.value(id);
        if (!value.type.fullyKnown())
            inputs << QString::fromStdString(value.name) + QLatin1Char(' ') +
                          QString::fromStdString(value.type.shapeString());
    }
    return tr("%1 The model leaves some dimensions open (%2): each was counted as 1, so a count marked \u2248 is "
              "for those dimensions at 1 and grows with their real sizes.")
        .arg(what, inputs.isEmpty() ? tr("inside the graph") : inputs.join(QStringLiteral(", ")));
}

void PrecisionTableModel::planChanged() {
    if (mDocument->isReplacingModel()) return;                 // the reset showed it
    if (mDocument->isRelintPending() != mEffectiveUpdating) {  // "(updating)" comes or goes
        mEffectiveUpdating = mDocument->isRelintPending();
        emit headerDataChanged(Qt::Horizontal, EffectiveColumn, EffectiveColumn);
    }
    updateStale();
    if (rowCount() == 0) return;
    emit dataChanged(index(0, RequestedColumn), index(rowCount() - 1, ReasonColumn));
}

void PrecisionTableModel::updateStale() {
    const bool stale = mDocument->isAnalysisStale();
    if (stale == mStale) return;
    mStale = stale;
    emit headerDataChanged(Qt::Horizontal, SensitivityColumn, SqnrColumn);
    if (rowCount() > 0) emit dataChanged(index(0, SensitivityColumn), index(rowCount() - 1, SqnrColumn));
}

void PrecisionTableModel::updateRemedies() {
    const Model* model = mDocument->model();
    const auto report = mDocument->tuneReport();
    mRemedies = model && report ? layerRemedies(model->graph(), *report) : std::map<NodeId, LayerRemedy>();
}

void PrecisionTableModel::tuneReportChanged() {
    if (mDocument->isReplacingModel()) return;  // the reset showed it
    updateRemedies();
    if (rowCount() > 0) emit dataChanged(index(0, TuneColumn), index(rowCount() - 1, TuneColumn));
}

void PrecisionTableModel::engineChanged() {
    if (mDocument->isReplacingModel()) return;  // the reset showed it
    if (rowCount() > 0) emit dataChanged(index(0, EngineColumn), index(rowCount() - 1, TimeColumn));
}

std::vector<double> PrecisionTableModel::sqnrByNode(const Graph& graph, const AnalysisReport* report) {
    if (!report) return {};
    std::vector<double> values(graph.nodes().size(), kMissing);
    for (const LayerError& layer : report->layers) {
        if (layer.node < 0 || static_cast<size_t>(layer.node) >= values.size()) continue;
        double& value = values[static_cast<size_t>(layer.node)];
        // A node with several outputs shows its worst one.
        if (std::isnan(value) || layer.metrics.sqnrDb < value) value = layer.metrics.sqnrDb;
    }
    return values;
}

std::unordered_map<std::string, double> PrecisionTableModel::sqnrByBodyLayer(const AnalysisReport* report) {
    std::unordered_map<std::string, double> values;
    if (!report) return values;
    for (const BodyLayerError& layer : report->bodyLayers) {
        const auto [it, added] = values.try_emplace(layer.body + layer.node, layer.metrics.sqnrDb);
        if (!added) it->second = std::min(it->second, layer.metrics.sqnrDb);  // its worst output
    }
    return values;
}

void PrecisionTableModel::updateAnalysisColumns() {
    const Model* model = mDocument->model();
    mBodySensitivity = sqnrByBodyLayer(mDocument->analysis(AnalysisMode::Isolated).get());
    mBodySqnr = sqnrByBodyLayer(mDocument->analysis(AnalysisMode::Accumulated).get());
    mSensitivity =
        model ? sqnrByNode(model->graph(), mDocument->analysis(AnalysisMode::Isolated).get()) : std::vector<double>();
    mSqnr = model ? sqnrByNode(model->graph(), mDocument->analysis(AnalysisMode::Accumulated).get())
                  : std::vector<double>();
}

void PrecisionTableModel::analysisChanged() {
    if (mDocument->isReplacingModel()) return;  // the reset showed it
    updateAnalysisColumns();
    updateStale();
    if (rowCount() == 0) return;
    emit dataChanged(index(0, SensitivityColumn), index(rowCount() - 1, SqnrColumn));
}

}  // namespace ql::ui
