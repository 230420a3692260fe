#include "ui/panels/precision_panel.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/engine/gpu_choice_box.h"
#include "ui/graph/node_style.h"
#include "ui/model_document.h"
#include "ui/node_list_model.h"
#include "ui/panels/column_chooser.h"
#include "ui/panels/frozen_column_table.h"
#include "ui/panels/precision_delegate.h"
#include "ui/panels/precision_filter_model.h"
#include "ui/panels/precision_table_model.h"

namespace ql::ui {

namespace {

constexpr Precision kPrecisions[] = {Precision::Fp32, Precision::Fp16, Precision::Int8};

// Every column but the node's can be hidden from the header's context menu. Shown by default: what a user
// reads or edits to choose precisions, fitting beside the plots in a 1280x800 window with the node's name frozen.
std::vector<ChoosableColumn> choosableColumns() {
    using M = PrecisionTableModel;
    auto column = [](int c, const char* key, bool shown) {
        return ChoosableColumn{c, QString::fromLatin1(key), M::columnTitle(c), shown};
    };
    return {column(M::OpColumn, "op", true),
            column(M::RequestedColumn, "requested", true),
            column(M::EffectiveColumn, "effective", true),
            column(M::ReasonColumn, "reason", true),
            column(M::MacsColumn, "macs", true),
            column(M::SensitivityColumn, "isolatedSqnr", true),
            column(M::SqnrColumn, "sqnr", true),
            column(M::TuneColumn, "tune", true),
            column(M::EngineColumn, "engine", true),
            column(M::TimeColumn, "time", true),
            column(M::PredictedColumn, "predicted", true),
            column(M::GainColumn, "gain", true)};
}

}  // namespace

PrecisionPanel::PrecisionPanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent),
      mDocument(document),
      mModel(new PrecisionTableModel(document, this)),
      mFilter(new PrecisionFilterModel(this)),
      mTable(new FrozenColumnTableView(this)) {
    mFilter->setSourceModel(mModel);
    mTable->setObjectName(QStringLiteral("PrecisionTable"));
    mTable->setModel(mFilter);
    mTable->setItemDelegateForColumn(PrecisionTableModel::RequestedColumn, new PrecisionDelegate(mTable));
    mTable->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::SelectedClicked |
                            QAbstractItemView::EditKeyPressed);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::ExtendedSelection);
    mTable->setAlternatingRowColors(true);
    mTable->setWordWrap(false);
    mTable->verticalHeader()->hide();
    mTable->verticalHeader()->setDefaultSectionSize(mTable->fontMetrics().height() + 8);
    QHeaderView* header = mTable->horizontalHeader();
    header->setResizeContentsPrecision(kColumnFitRows);
    // Graph order until the user sorts; a third click on a header returns to it.
    header->setSortIndicator(-1, Qt::AscendingOrder);
    header->setSortIndicatorClearable(true);
    mTable->setSortingEnabled(true);
    // The long reason text goes last, where it can stretch; the numbers stay next to the precisions.
    header->moveSection(PrecisionTableModel::ReasonColumn, PrecisionTableModel::ColumnCount - 1);
    // What the engine ran next to what the plan says; shown once an engine report is imported.
    header->moveSection(header->visualIndex(PrecisionTableModel::EngineColumn),
                        header->visualIndex(PrecisionTableModel::EffectiveColumn) + 1);
    header->moveSection(header->visualIndex(PrecisionTableModel::TimeColumn),
                        header->visualIndex(PrecisionTableModel::EngineColumn) + 1);
    // The analysis numbers (what decides a precision) next to the precisions, before the costs: at 1280x800 the
    // MACs and predicted times pushed them out of view. The predicted time and INT8 gain beside the MACs they
    // follow from.
    header->moveSection(header->visualIndex(PrecisionTableModel::MacsColumn),
                        header->visualIndex(PrecisionTableModel::TuneColumn));
    header->moveSection(header->visualIndex(PrecisionTableModel::PredictedColumn),
                        header->visualIndex(PrecisionTableModel::MacsColumn) + 1);
    header->moveSection(header->visualIndex(PrecisionTableModel::GainColumn),
                        header->visualIndex(PrecisionTableModel::PredictedColumn) + 1);
    header->setStretchLastSection(true);
    mColumns = new ColumnChooser(mTable, QStringLiteral("precisionTable/columns"), choosableColumns(), this);
    connect(mColumns, &ColumnChooser::columnShown, mTable, &QTableView::resizeColumnToContents);
    showEngineColumns();
    showPredictionColumns();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(createToolBar());
    layout->addWidget(createFilterBar());
    layout->addWidget(createLatencyBar());
    layout->addWidget(mTable);
    createTableActions();

    connect(mTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PrecisionPanel::currentRowChanged);
    connect(mTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, &PrecisionPanel::updateActions);
    connect(mModel, &QAbstractItemModel::modelReset, this, &PrecisionPanel::resizeColumns);
    connect(mDocument, &ModelDocument::engineChanged, this, &PrecisionPanel::showEngineColumns);
    connect(mDocument, &ModelDocument::latencyPredictionChanged, this, &PrecisionPanel::showPredictionColumns);
    connect(mDocument, &ModelDocument::gpuProfileChanged, this, &PrecisionPanel::showPredictionColumns);
    connect(mDocument, &ModelDocument::tuneReportChanged, this, [this] {
        mTable->resizeColumnToContents(PrecisionTableModel::TuneColumn);
        const int width = mTable->columnWidth(PrecisionTableModel::TuneColumn);
        mTable->setColumnWidth(PrecisionTableModel::TuneColumn, std::min(width, 360));
    });
    // "SQNR (stale)" and back: the header text changes width.
    connect(mModel, &QAbstractItemModel::headerDataChanged, this, [this](Qt::Orientation, int first, int last) {
        for (int column = first; column <= last; ++column) mTable->resizeColumnToContents(column);
    });
    updateActions();
}

QWidget* PrecisionPanel::createToolBar() {
    auto* bar = new QToolBar(this);
    bar->setIconSize(QSize(12, 12));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addWidget(new QLabel(tr("Selection:"), bar));
    const QKeyCombination keys[] = {Qt::CTRL | Qt::Key_1, Qt::CTRL | Qt::Key_2, Qt::CTRL | Qt::Key_3};
    for (int i = 0; i < 3; ++i) {
        const Precision p = kPrecisions[i];
        QAction* action =
            bar->addAction(tr("Set to %1").arg(precisionLabel(p)), this, [this, p] { setSelectionPrecision(p); });
        action->setIconText(precisionLabel(p));  // the button after "Selection:"; menus show "Set to FP32"
        action->setShortcut(keys[i]);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(tr("Set the selected rows to %1 (%2)")
                               .arg(precisionLabel(p), action->shortcut().toString(QKeySequence::NativeText)));
        mSelectionActions.append(action);
        addAction(action);  // the shortcut works wherever the focus is inside the panel
    }
    bar->addSeparator();

    mOpTypeButton = new QToolButton(bar);
    mOpTypeButton->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(mOpTypeButton);
    for (Precision p : kPrecisions)
        menu->addAction(precisionLabel(p), this, [this, p] { setCurrentOpTypePrecision(p); });
    mOpTypeButton->setMenu(menu);
    bar->addWidget(mOpTypeButton);
    return bar;
}

// The filters get a row of their own: beside the edit buttons they overflowed a dock of a 1280-pixel window,
// clipping the filter's placeholder and hiding the check boxes behind the toolbar's extension arrow.
QWidget* PrecisionPanel::createFilterBar() {
    auto* bar = new QToolBar(this);
    mFilterEdit = new QLineEdit(bar);
    mFilterEdit->setPlaceholderText(tr("Filter by node or op"));
    mFilterEdit->setClearButtonEnabled(true);
    mFilterEdit->setMaximumWidth(240);
    connect(mFilterEdit, &QLineEdit::textChanged, mFilter, &PrecisionFilterModel::setFilterText);
    bar->addWidget(mFilterEdit);
    QAction* fallbacks = bar->addAction(tr("Only fallbacks"));
    fallbacks->setCheckable(true);
    fallbacks->setToolTip(tr("Show only the nodes TensorRT runs at another precision than requested"));
    connect(fallbacks, &QAction::toggled, mFilter, &PrecisionFilterModel::setOnlyFallbacks);
    mAllNodesAction = bar->addAction(tr("All nodes"));
    mAllNodesAction->setCheckable(true);
    mAllNodesAction->setToolTip(
        tr("Also list the nodes that have no precision to choose: constants, Q/DQ, shape and index computations"));
    connect(mAllNodesAction, &QAction::toggled, mFilter, &PrecisionFilterModel::setShowAllNodes);
    return bar;
}

// The GPU of the latency prediction gets a row of its own too: beside the filters it overflowed a 1280-pixel window.
QWidget* PrecisionPanel::createLatencyBar() {
    auto* bar = new QToolBar(this);
    bar->addWidget(new QLabel(tr("Latency on "), bar));
    mGpuChoice = new GpuChoiceBox(mDocument, bar);
    bar->addWidget(mGpuChoice);
    return bar;
}

// P cycles the selection as in the graph (only while the table has the focus: the filter box takes a typed P);
// the context menu offers every command on the selected rows.
void PrecisionPanel::createTableActions() {
    mCycleAction = new QAction(tr("Cycle precision (FP32, FP16, INT8)"), mTable);
    mCycleAction->setShortcut(Qt::Key_P);
    mCycleAction->setShortcutContext(Qt::WidgetShortcut);
    connect(mCycleAction, &QAction::triggered, this, &PrecisionPanel::cycleSelectionPrecision);
    mTable->addAction(mCycleAction);
    mTable->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(mTable, &QWidget::customContextMenuRequested, this, &PrecisionPanel::showContextMenu);
}

QList<QAction*> PrecisionPanel::tableActions() const {
    return QList<QAction*>(mSelectionActions) << mCycleAction << mAllNodesAction;
}

void PrecisionPanel::showContextMenu(const QPoint& pos) {
    QMenu menu(this);
    for (QAction* action : mSelectionActions) menu.addAction(action);
    menu.addAction(mCycleAction);
    menu.addSeparator();
    menu.addAction(mAllNodesAction);
    menu.exec(mTable->viewport()->mapToGlobal(pos));
}

QModelIndexList PrecisionPanel::selectedRows() const {
    QModelIndexList rows = mTable->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    return rows;
}

QList<NodeId> PrecisionPanel::selectedNodes() const {
    QList<NodeId> nodes;
    for (const QModelIndex& row : selectedRows())
        if (!row.data(PrecisionTableModel::BodyRowRole).toBool())
            nodes.append(row.data(PrecisionTableModel::NodeIdRole).toInt());
    return nodes;
}

QList<BodyNodeRef> PrecisionPanel::selectedBodyNodes() const {
    QList<BodyNodeRef> nodes;
    for (const QModelIndex& row : selectedRows())
        if (auto body = mModel->bodyNodeAt(mFilter->mapToSource(row).row())) nodes.append(std::move(*body));
    return nodes;
}

NodeId PrecisionPanel::currentNode() const {
    const QModelIndex current = mTable->selectionModel()->currentIndex();
    return current.isValid() ? current.data(PrecisionTableModel::NodeIdRole).toInt() : kNoId;
}

void PrecisionPanel::selectNode(NodeId node) {
    // A body row stands for its control-flow node in the graph: the graph echoing that node back must not move the
    // table off the body layer the user is on.
    const QModelIndex current = mTable->selectionModel()->currentIndex();
    if (current.isValid() && current.data(PrecisionTableModel::BodyRowRole).toBool() &&
        current.data(PrecisionTableModel::NodeIdRole).toInt() == node)
        return;
    selectRow(mModel->rowOf(node));
}

void PrecisionPanel::selectBodyNode(const BodyNodeRef& node) {
    selectRow(mModel->rowOf(node));
}

void PrecisionPanel::selectRow(int row) {
    if (row < 0) return;
    const QModelIndex index = mFilter->mapFromSource(mModel->index(row, PrecisionTableModel::NodeColumn));
    if (!index.isValid()) return;
    mSyncing = true;
    mTable->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    mSyncing = false;
    mTable->scrollTo(index);
}

void PrecisionPanel::setSelectionPrecision(Precision precision) {
    mDocument->setRequestedPrecision(selectedNodes(), precision, {}, selectedBodyNodes());
}

void PrecisionPanel::cycleSelectionPrecision() {
    mDocument->cyclePrecision(selectedNodes(), selectedBodyNodes());
}

void PrecisionPanel::setCurrentOpTypePrecision(Precision precision) {
    const QModelIndex current = mTable->selectionModel()->currentIndex();
    if (!current.isValid()) return;
    mDocument->setOpTypePrecision(current.data(PrecisionTableModel::OpTypeRole).toString(), precision);
}

void PrecisionPanel::currentRowChanged(const QModelIndex& current) {
    updateActions();
    if (mSyncing || !current.isValid()) return;
    emit nodeSelected(current.data(PrecisionTableModel::NodeIdRole).toInt());
    if (auto body = mModel->bodyNodeAt(mFilter->mapToSource(current).row())) emit bodyNodeSelected(*body);
}

void PrecisionPanel::updateActions() {
    const bool hasSelection = mTable->selectionModel()->hasSelection();
    for (QAction* action : mSelectionActions) action->setEnabled(hasSelection);
    if (mCycleAction) mCycleAction->setEnabled(hasSelection);
    const QModelIndex current = mTable->selectionModel()->currentIndex();
    const QString op = current.isValid() ? current.data(PrecisionTableModel::OpTypeRole).toString() : QString();
    mOpTypeButton->setEnabled(!op.isEmpty());
    mOpTypeButton->setText(op.isEmpty() ? tr("All of op type") : tr("All %1 nodes").arg(op));
    mOpTypeButton->setToolTip(op.isEmpty() ? tr("Select a row to set every node of its op type")
                                           : tr("Set every %1 node of the model to a precision").arg(op));
}

void PrecisionPanel::showEngineColumns() {
    const bool shown = mDocument->engineRun() != nullptr;
    for (int column : {PrecisionTableModel::EngineColumn, PrecisionTableModel::TimeColumn})
        mColumns->setAvailable(column, shown);
}

// Without a GPU there is no gain to show: the Predicted column stays, its header saying to choose one.
void PrecisionPanel::showPredictionColumns() {
    mColumns->setAvailable(PrecisionTableModel::GainColumn, mDocument->latencyPrediction() != nullptr);
    mTable->resizeColumnToContents(PrecisionTableModel::PredictedColumn);
}

void PrecisionPanel::resizeColumns() {
    mTable->resizeColumnsToContents();
    // Names can be very long paths, and the frozen name column takes its width from every scroll position; the
    // reason column takes what is left.
    const int nameWidth = mTable->columnWidth(PrecisionTableModel::NodeColumn);
    mTable->setColumnWidth(PrecisionTableModel::NodeColumn, std::min(nameWidth, 220));
    updateActions();
}

}  // namespace ql::ui
