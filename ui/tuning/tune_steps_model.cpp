#include "ui/tuning/tune_steps_model.h"

#include <QColor>

namespace ql::ui {

TuneStepsModel::TuneStepsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TuneStepsModel::setSteps(std::vector<TuneStepRow> steps, const TuneTarget& target) {
    beginResetModel();
    mSteps = std::move(steps);
    mTarget = target;
    endResetModel();
}

int TuneStepsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(mSteps.size());
}

int TuneStepsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TuneStepsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const TuneStepRow& step = mSteps[static_cast<size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return displayData(step, index.column());
        case Qt::ToolTipRole:
            return step.why.isEmpty() ? QVariant() : QVariant(step.why);
        case Qt::ForegroundRole:
            // Rejected steps recede; the plan did not take them.
            if (!step.kept && index.column() != WhyColumn) return QColor(150, 150, 150);
            return {};
        case Qt::TextAlignmentRole:
            if (index.column() == StepColumn || index.column() == ValueColumn)
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case KeptRole:
            return step.kept;
        case ValueRole:
            return step.value;
        default:
            return {};
    }
}

QVariant TuneStepsModel::displayData(const TuneStepRow& step, int column) const {
    switch (column) {
        case StepColumn:
            return step.number;
        case ActionColumn:
            return step.actionText;
        case LayerColumn:
            return step.layer;
        case ChangeColumn:
            return step.change;
        case ValueColumn:
            return tuneValueText(mTarget, step.value);
        case KeptColumn:
            return step.kept ? tr("kept") : tr("rejected");
        case WhyColumn:
            return step.why;
        default:
            return {};
    }
}

QVariant TuneStepsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case StepColumn:
            return tr("Step");
        case ActionColumn:
            return tr("Action");
        case LayerColumn:
            return tr("Layer");
        case ChangeColumn:
            return tr("Change");
        case ValueColumn:
            return QString::fromStdString(mTarget.name());
        case KeptColumn:
            return tr("Kept");
        case WhyColumn:
            return tr("Why");
        default:
            return {};
    }
}

}  // namespace ql::ui
