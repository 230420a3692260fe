#include "ui/node_list_model.h"

#include <QHeaderView>
#include <QLocale>
#include <QTableView>
#include <algorithm>

#include "ui/model_document.h"

namespace ql::ui {

NodeListModel::NodeListModel(ModelDocument* document, QObject* parent)
    : QAbstractTableModel(parent), mDocument(document) {
    connect(document, &ModelDocument::modelAboutToBeReplaced, this, &NodeListModel::beginResetModel);
    connect(document, &ModelDocument::modelReplaced, this, &NodeListModel::endResetModel);
}

int NodeListModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !mDocument->model()) return 0;
    return static_cast<int>(mDocument->model()->graph().nodes().size());
}

int NodeListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString NodeListModel::valueList(const std::vector<int32_t>& values) const {
    const Graph& graph = mDocument->model()->graph();
    QStringList parts;
    for (ValueId id : values) {
        if (id == kNoId) continue;
        const Value& v = graph.value(id);
        QString text = QString::fromStdString(v.name);
        if (v.initializer < 0) text += QStringLiteral(" ") + QString::fromStdString(v.type.shapeString());
        parts << text;
    }
    return parts.join(QStringLiteral(", "));
}

QVariant NodeListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !mDocument->model()) return {};
    const Node& node = mDocument->model()->graph().node(index.row());
    if (role == NodeIdRole) return node.id;
    if (role == OpTypeRole) return QString::fromStdString(node.opType);
    if (role == Qt::TextAlignmentRole && (index.column() == IndexColumn || index.column() == MacsColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
        case IndexColumn:
            return node.id;
        case NameColumn:
            return QString::fromStdString(node.name);
        case OpColumn:
            return node.domain.empty() ? QString::fromStdString(node.opType)
                                       : QString::fromStdString(node.domain + "." + node.opType);
        case InputsColumn:
            return valueList(node.inputs);
        case OutputsColumn:
            return valueList(node.outputs);
        case MacsColumn:
            return node.cost.macs ? QLocale().toString(static_cast<qlonglong>(node.cost.macs)) : QString();
        default:
            return {};
    }
}

QVariant NodeListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case IndexColumn:
            return tr("#");
        case NameColumn:
            return tr("Node");
        case OpColumn:
            return tr("Op");
        case InputsColumn:
            return tr("Inputs");
        case OutputsColumn:
            return tr("Outputs");
        case MacsColumn:
            return tr("MACs");
        default:
            return {};
    }
}

void setUpNodeListView(QTableView* view) {
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setResizeContentsPrecision(kColumnFitRows);
}

void fitNodeListColumns(QTableView* view) {
    view->resizeColumnsToContents();
    for (int column : {NodeListModel::InputsColumn, NodeListModel::OutputsColumn})
        view->setColumnWidth(column, std::min(view->columnWidth(column), kMaxValueListWidth));
}

}  // namespace ql::ui
