#include "ui/tuning/tune_progress_widget.h"

#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <cmath>

#include "ui/tuning/tune_runner.h"

namespace ql::ui {

TuneProgressWidget::TuneProgressWidget(TuneRunner* runner, QWidget* parent) : QWidget(parent), mRunner(runner) {
    mPhase = new QLabel(this);
    QFont bold = mPhase->font();
    bold.setBold(true);
    mPhase->setFont(bold);
    mBar = new QProgressBar(this);
    mBar->setRange(0, 1000);
    mValue = new QLabel(this);
    mStep = new QLabel(this);
    mStep->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mCancel = new QPushButton(tr("Cancel"), this);
    mCancel->setToolTip(tr("Stop tuning; the plan stays as it is"));
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mPhase, 0, 0);
    layout->addWidget(mValue, 0, 1, Qt::AlignRight);
    layout->addWidget(mBar, 1, 0, 1, 2);
    layout->addWidget(mCancel, 1, 2);
    layout->addWidget(mStep, 2, 0, 1, 3);
    layout->setColumnStretch(0, 1);
    hide();

    connect(mCancel, &QPushButton::clicked, this, &TuneProgressWidget::showCancelling);
    connect(runner, &TuneRunner::started, this, [this] {
        mCancel->setEnabled(true);
        mValue->clear();
        mStep->clear();
        show();
    });
    connect(runner, &TuneRunner::progressChanged, this, &TuneProgressWidget::showProgress);
    connect(runner, &TuneRunner::finished, this, &QWidget::hide);
    connect(runner, &TuneRunner::cancelled, this, &QWidget::hide);
    connect(runner, &TuneRunner::failed, this, &QWidget::hide);
}

void TuneProgressWidget::setValueFormatter(std::function<QString(double)> format) {
    mFormat = std::move(format);
}

QString TuneProgressWidget::phaseText() const {
    return mPhase->text();
}

QString TuneProgressWidget::valueText() const {
    return mValue->text();
}

void TuneProgressWidget::showProgress(double fraction, const QString& phase, const QString& step, double value) {
    if (mCancel->isEnabled()) mPhase->setText(phase);  // else keep "Cancelling..."
    if (fraction < 0.0) {
        mBar->setRange(0, 0);  // busy: the phase has no known end
    } else {
        mBar->setRange(0, 1000);
        mBar->setValue(static_cast<int>(std::lround(fraction * 1000.0)));
    }
    if (!std::isnan(value)) mValue->setText(tr("now: %1").arg(mFormat ? mFormat(value) : QString::number(value)));
    if (!step.isEmpty()) mStep->setText(tr("Last tried: %1").arg(step));
}

void TuneProgressWidget::showCancelling() {
    mCancel->setEnabled(false);
    mPhase->setText(tr("Cancelling..."));
    mRunner->cancel();
}

}  // namespace ql::ui
