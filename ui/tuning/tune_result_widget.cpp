#include "ui/tuning/tune_result_widget.h"

#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/plots/latency_accuracy_plot.h"
#include "ui/plots/tune_steps_plot.h"
#include "ui/tuning/tune_report_text.h"
#include "ui/tuning/tune_steps_model.h"

namespace ql::ui {

TuneResultWidget::TuneResultWidget(QWidget* parent)
    : QWidget(parent),
      mSummary(new QLabel(this)),
      mPlot(new TuneStepsPlot(this)),
      mLatencyPlot(new LatencyAccuracyPlot(this)),
      mRegions(new QPlainTextEdit(this)),
      mTabs(new QTabWidget(this)),
      mSteps(new TuneStepsModel(this)),
      mTable(new QTableView(this)) {
    mSummary->setWordWrap(true);
    mSummary->setTextFormat(Qt::RichText);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mTable->setModel(mSteps);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setAlternatingRowColors(true);
    mTable->setWordWrap(false);
    // Layer names end in what tells them apart ("If_0/then_branch/.../encoder/0/reparam_conv/Conv"): elided on the
    // left.
    mTable->setTextElideMode(Qt::ElideLeft);
    mTable->verticalHeader()->hide();
    mTable->verticalHeader()->setDefaultSectionSize(mTable->fontMetrics().height() + 6);
    mTable->horizontalHeader()->setStretchLastSection(true);
    mRegions->setReadOnly(true);
    mRegions->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    mTabs->addTab(mPlot, tr("Steps"));
    mTabs->addTab(mLatencyPlot, tr("Latency vs accuracy"));
    mTabs->addTab(mRegions, tr("Regions"));
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(mTabs);
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
    std::vector<TuneStepRow> steps = describeSteps(report);
    mSteps->setSteps(steps, report.target);
    if (report.latency) {
        const TuneLatency& l = *report.latency;
        const std::optional<double> fp16Value =
            l.fp16Score ? std::optional<double>(report.target.valueOf(*l.fp16Score)) : std::nullopt;
        mLatencyPlot->setPlans(steps, report.target,
                               {QString::fromStdString(l.gpu), l.startMs, l.fp16Ms, fp16Value, l.finalMs,
                                report.target.valueOf(report.finalScore)});
        const QStringList regions = tuneRegionLines(graph, report);
        mRegions->setPlainText(
            regions.isEmpty() ? tr("No INT8 region left to weigh on %1 (predicted).").arg(QString::fromStdString(l.gpu))
                              : regions.join(QLatin1Char('\n')));
    } else {
        mLatencyPlot->clear();
        mRegions->clear();
    }
    mTabs->setTabVisible(mTabs->indexOf(mLatencyPlot), report.latency.has_value());
    mTabs->setTabVisible(mTabs->indexOf(mRegions), report.latency.has_value());
    // A latency tune opens on what it is about: the plans tried, by time and value.
    mTabs->setCurrentWidget(report.objective == TuneObjective::Latency && report.latency
                                ? static_cast<QWidget*>(mLatencyPlot)
                                : static_cast<QWidget*>(mPlot));
    mPlot->setSteps(std::move(steps), report.target);
    mTable->resizeColumnsToContents();
    mTable->setColumnWidth(TuneStepsModel::LayerColumn,
                           std::min(mTable->columnWidth(TuneStepsModel::LayerColumn), 260));
    mTable->setColumnWidth(TuneStepsModel::ChangeColumn,
                           std::min(mTable->columnWidth(TuneStepsModel::ChangeColumn), 240));
}

QString TuneResultWidget::regionsText() const {
    return mRegions->toPlainText();
}

QString TuneResultWidget::summaryText() const {
    return mSummaryText;
}

}  // namespace ql::ui
