#pragma once
// The nodes of the model in topological order: name, op, inputs/outputs with shapes, MACs.
#include <QAbstractTableModel>

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

}  // namespace ql::ui
