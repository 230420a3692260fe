#pragma once
// The precision dock: the precision table (sortable, filtered by name/op substring and "only fallbacks"; nodes
// without a precision to choose, such as Constants, hidden unless "All nodes" is on) with a toolbar that sets the
// selected rows to FP32/FP16/INT8 (Ctrl+1/2/3, one undo step) or every node of the current row's op type. In the
// table, P cycles the selected rows' precision as in the graph, and the context menu has the same commands. Row
// selection follows the graph and the other way round: selectNode() selects and scrolls without echoing,
// nodeSelected() reports the user's row. A third row chooses the GPU the latency prediction is for
// (GpuChoiceBox), which fills the Predicted ms and INT8 gain columns. The Node column stays in view while the
// others scroll (FrozenColumnTableView), and the header's context menu chooses the other columns (ColumnChooser).
#include <QList>
#include <QModelIndexList>
#include <QWidget>

#include "core/model/graph.h"
#include "core/quant/precision_plan.h"
#include "ui/body_graphs.h"

class QAction;
class QLineEdit;
class QTableView;
class QToolButton;

namespace ql::ui {

class ColumnChooser;
class GpuChoiceBox;
class ModelDocument;
class PrecisionFilterModel;
class PrecisionTableModel;

class PrecisionPanel : public QWidget {
    Q_OBJECT
public:
    explicit PrecisionPanel(ModelDocument* document, QWidget* parent = nullptr);

    PrecisionTableModel* tableModel() const { return mModel; }
    PrecisionFilterModel* filterModel() const { return mFilter; }
    GpuChoiceBox* gpuChoice() const { return mGpuChoice; }
    // The table; its Node column stays in view while the others scroll (FrozenColumnTableView).
    QTableView* view() const { return mTable; }
    // The header's context menu of the columns to show.
    ColumnChooser* columnChooser() const { return mColumns; }

    // The main graph nodes of the selected rows, in row order (body rows: selectedBodyNodes()).
    QList<NodeId> selectedNodes() const;
    // The body layers of the selected rows, in row order.
    QList<BodyNodeRef> selectedBodyNodes() const;
    // The node of the current row, or kNoId.
    NodeId currentNode() const;
    // Selects and scrolls to the row of `node` (nothing when it is filtered out); does not emit nodeSelected.
    void selectNode(NodeId node);
    // The same for a body's layer (a node clicked or found in an opened body).
    void selectBodyNode(const BodyNodeRef& node);

    // One undoable edit each.
    void setSelectionPrecision(Precision precision);
    void cycleSelectionPrecision();
    void setCurrentOpTypePrecision(Precision precision);
    // The table's commands, as its context menu shows them (Set to FP32/FP16/INT8, Cycle, All nodes).
    QList<QAction*> tableActions() const;

signals:
    // The user made `node` the current row; for a body row, the control-flow node around the layer.
    void nodeSelected(ql::NodeId node);
    // The user made a body row current (after nodeSelected with its control-flow node).
    void bodyNodeSelected(const ql::ui::BodyNodeRef& node);

private:
    QWidget* createToolBar();
    QWidget* createFilterBar();
    QWidget* createLatencyBar();
    void createTableActions();
    void showContextMenu(const QPoint& pos);
    void currentRowChanged(const QModelIndex& current);
    QModelIndexList selectedRows() const;  // sorted by row
    void selectRow(int row);               // of the model; without echo
    void updateActions();
    void resizeColumns();
    void showEngineColumns();
    void showPredictionColumns();

    ModelDocument* mDocument;
    PrecisionTableModel* mModel;
    PrecisionFilterModel* mFilter;
    QTableView* mTable;
    ColumnChooser* mColumns = nullptr;
    QLineEdit* mFilterEdit = nullptr;
    QToolButton* mOpTypeButton = nullptr;
    GpuChoiceBox* mGpuChoice = nullptr;
    QList<QAction*> mSelectionActions;  // FP32, FP16, INT8
    QAction* mCycleAction = nullptr;
    QAction* mAllNodesAction = nullptr;
    bool mSyncing = false;  // selectNode() is moving the current row
};

}  // namespace ql::ui
