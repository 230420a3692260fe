#include "ui/tuning/tune_result_widget.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/plots/tune_steps_plot.h"
#include "ui/tuning/tune_report_text.h"
#include "ui/tuning/tune_steps_model.h"

namespace ql::ui {

TuneResultWidget::TuneResultWidget(QWidget* parent)
    : QWidget(parent),
      mSummary(new QLabel(this)),
      mPlot(new TuneStepsPlot(this)),
      mSteps(new TuneStepsModel(this)),
      mTable(new QTableView(this)) {
    mSummary->setWordWrap(true);
    mSummary->setTextFormat(Qt::RichText);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mTable->setModel(mSteps);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setAlternatingRowColors(true);
    mTable->setWordWrap(false);
    mTable->verticalHeader()->hide();
    mTable->verticalHeader()->setDefaultSectionSize(mTable->fontMetrics().height() + 6);
    mTable->horizontalHeader()->setStretchLastSection(true);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(mPlot);
    splitter->addWidget(mTable);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mSummary);
    layout->addWidget(splitter, 1);
}

void TuneResultWidget::showReport(const Graph& graph, const TuneReport& report) {
    mSummaryText = tuneSummaryText(graph, report);
    // The verdict first, in colour; the rest as plain text (node names may hold '<').
    const QString verdict = report.met ? tr("Target met") : tr("Target NOT met");
    const QString rest = mSummaryText.startsWith(verdict) ? mSummaryText.mid(verdict.size()) : mSummaryText;
    mSummary->setText(QStringLiteral("<b style=\"color:%1\">%2</b>%3")
                          .arg(report.met ? QStringLiteral("#2ca02c") : QStringLiteral("#d62728"),
                               mSummaryText.startsWith(verdict) ? verdict : QString(), rest.toHtmlEscaped()));
    std::vector<TuneStepRow> steps = describeSteps(graph, report);
    mSteps->setSteps(steps, report.target);
    mPlot->setSteps(std::move(steps), report.target);
    mTable->resizeColumnsToContents();
    mTable->setColumnWidth(TuneStepsModel::LayerColumn,
                           std::min(mTable->columnWidth(TuneStepsModel::LayerColumn), 200));
    mTable->setColumnWidth(TuneStepsModel::ChangeColumn,
                           std::min(mTable->columnWidth(TuneStepsModel::ChangeColumn), 240));
}

QString TuneResultWidget::summaryText() const {
    return mSummaryText;
}

}  // namespace ql::ui
