#pragma once
// The steps of a tune run as a table (the tune dialog's result): what was tried on which layer, the target's
// value after it, whether it was kept, and why it was tried. Read-only; setSteps() resets it.
#include <QAbstractTableModel>
#include <vector>

#include "ui/tuning/tune_report_text.h"

namespace ql::ui {

class TuneStepsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        StepColumn,
        ActionColumn,
        LayerColumn,
        ChangeColumn,
        ValueColumn,
        KeptColumn,
        WhyColumn,
        ColumnCount
    };
    enum Role {
        KeptRole = Qt::UserRole,  // bool
        ValueRole,                // double: the target's value after the step
    };

    explicit TuneStepsModel(QObject* parent = nullptr);

    void setSteps(std::vector<TuneStepRow> steps, const TuneTarget& target);
    const std::vector<TuneStepRow>& steps() const { return mSteps; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayData(const TuneStepRow& step, int column) const;

    std::vector<TuneStepRow> mSteps;
    TuneTarget mTarget;
};

}  // namespace ql::ui
