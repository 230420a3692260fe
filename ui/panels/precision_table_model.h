#pragma once
// The precision table: one row per node of the document's model, in graph order, with its requested and
// effective precision (and the TensorRT reason when they differ), its MACs (the header says when open dimensions
// were counted as 1), its sensitivity (the "Isolated SQNR" of its output with it alone at its precision: higher is
// less sensitive), its accumulated SQNR, and the remedy the last tune gave it (the Tune column, which sorts by the
// tune's output sensitivity: least robust first). The two analysis columns are marked stale once the plan
// differs from the one the analysis measured. `requested` is editable: setData pushes an undoable edit on the
// document. Plan and analysis changes update the cells in place (dataChanged), so views keep their selection and
// scroll position; only a new model resets the table. With an engine report (File > Import Engine Report...), the
// Engine and Time columns show the precision TensorRT ran the node in and its share of its layers' time; cells of a
// node the engine ran otherwise than planned are tinted red. With a GPU chosen (GpuChoiceBox), Predicted ms and INT8
// gain show the document's latency prediction (core/engine/plan_prediction.h): the time of the node's layer in the
// current plan's predicted engine (a fused layer's on its first node) and what INT8 saves against FP16 there, the
// reformats it causes included; estimates, greyed while a new prediction is under way. The layers of If/Loop/Scan
// bodies follow their control-flow node's row (body_rows.h), editable too, with their analysis columns from the
// analysis' body layers; their NodeIdRole is that node's id.
#include <QAbstractTableModel>
#include <QIcon>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/graph.h"
#include "core/quant/precision_plan.h"
#include "ui/panels/body_rows.h"
#include "ui/tuning/tune_report_text.h"

namespace ql {
struct AnalysisReport;
}

namespace ql::ui {

class ModelDocument;

class PrecisionTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NodeColumn,
        OpColumn,
        RequestedColumn,
        EffectiveColumn,
        ReasonColumn,
        MacsColumn,
        SensitivityColumn,  // titled "Isolated SQNR": each layer alone at its precision; higher is less sensitive
        SqnrColumn,
        TuneColumn,
        EngineColumn,
        TimeColumn,
        PredictedColumn,
        GainColumn,
        ColumnCount
    };
    enum Role {
        NodeIdRole = Qt::UserRole,
        OpTypeRole,
        RequestedPrecisionRole,  // int(Precision)
        EffectivePrecisionRole,  // int(Precision)
        FallbackRole,            // bool: effective differs from requested
        SortRole,                // a number for numeric columns (missing values: NaN), text otherwise
        PrecisionChoiceRole,     // bool: the node has a precision to choose (hasPrecisionChoice)
        BodyRowRole,             // bool: a layer of a control-flow body (NodeIdRole: the main graph's node around it)
    };

    explicit PrecisionTableModel(ModelDocument* document, QObject* parent = nullptr);

    ModelDocument* document() const { return mDocument; }
    // The row of `node`, a node of the main graph, or -1.
    int rowOf(NodeId node) const;
    // The row of a body's layer, or -1 (its body unplanned, or rows of its kind hidden).
    int rowOf(const BodyNodeRef& node) const;
    // The body layer of `row`; nullopt for a main graph node's row.
    std::optional<BodyNodeRef> bodyNodeAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The column's title without the state the header adds ("(stale)", "choose a GPU"), as in the column chooser.
    static QString columnTitle(int column);

    // A precision from an edit value: a Precision as int, or its name in any case ("int8", "FP16").
    static std::optional<Precision> precisionFromVariant(const QVariant& value);

private:
    QVariant displayData(const Node& node, int column) const;
    QVariant sortData(const Node& node, int column) const;
    QString toolTip(const Node& node, int column) const;
    bool isAnalysisColumn(int column) const { return column == SensitivityColumn || column == SqnrColumn; }
    void rebuildRows();  // mRows, mRowOfNode and mOpenDims for the document's model
    void planChanged();
    void analysisChanged();
    void tuneReportChanged();
    void engineChanged();
    QVariant engineData(const Node& node, int column, int role) const;
    bool isPredictionColumn(int column) const { return column == PredictedColumn || column == GainColumn; }
    QVariant predictionData(const Node& node, int column, int role) const;
    QVariant predictionHeader(int section, int role) const;
    void latencyPredictionChanged();
    void updateStale();
    void updateAnalysisColumns();
    void updateRemedies();
    QString macsHeaderToolTip() const;
    static std::vector<double> sqnrByNode(const Graph& graph, const AnalysisReport* report);
    // By body layer ("route/then_branch/t1"): the worst SQNR (dB) of its outputs.
    static std::unordered_map<std::string, double> sqnrByBodyLayer(const AnalysisReport* report);

    ModelDocument* mDocument;
    std::vector<TableRow> mRows;  // precisionTableRows of the model
    std::vector<int> mRowOfNode;  // per main graph node
    // Per main graph node: computed from constants alone (constantComputed), which the export folds into a float32
    // initializer: a weight, not a layer with a precision to choose (PyTorch writes an Identity per shared weight).
    std::vector<bool> mFolded;
    // Per node: the worst SQNR (dB) of its outputs, NaN when the report has none; empty without a report.
    std::vector<double> mSensitivity;
    std::vector<double> mSqnr;
    std::unordered_map<std::string, double> mBodySensitivity, mBodySqnr;  // the same for body layers
    bool mStale = false;                                                  // the analysis measured another plan
    bool mEffectiveUpdating = false;          // the Effective column shows requests until a big edit's relint is in
    bool mOpenDims = false;                   // some MAC count took an open dimension as 1
    std::map<NodeId, LayerRemedy> mRemedies;  // of the last tune
    QIcon mSwatches[3];                       // per Precision
};

}  // namespace ql::ui
