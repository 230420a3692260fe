#pragma once
// The nodes of the model in topological order: name, op, inputs/outputs with shapes, MACs.
#include <QAbstractTableModel>

class QTableView;

namespace ql::ui {

class ModelDocument;

class NodeListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IndexColumn, NameColumn, OpColumn, InputsColumn, OutputsColumn, MacsColumn, ColumnCount };
    enum Role { NodeIdRole = Qt::UserRole, OpTypeRole };

    explicit NodeListModel(ModelDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString valueList(const std::vector<int32_t>& values) const;
    ModelDocument* mDocument;
};

// A view of the node list: whole rows selected, headers left-aligned so a wide column's name shows at its start
// (centred, the Inputs header sat beyond the dock's edge and the column looked unnamed).
void setUpNodeListView(QTableView* view);
// Columns sized to their contents, the inputs and outputs at most kMaxValueListWidth (their tooltips list them in
// full), so every column and its header stay in reach.
void fitNodeListColumns(QTableView* view);
inline constexpr int kMaxValueListWidth = 280;
// The rows a column fitted to its contents is measured on (Qt's default of 1,000 cost a big model's node tables
// 50-75 ms each on every load); a longer text further down is elided, as one past the width caps is.
inline constexpr int kColumnFitRows = 200;

}  // namespace ql::ui
