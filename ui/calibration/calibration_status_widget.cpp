#include "ui/calibration/calibration_status_widget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <cmath>

#include "ui/calibration/calibration_runner.h"

namespace ql::ui {

QString formatEta(double seconds) {
    if (seconds < 0.0 || !std::isfinite(seconds)) return {};
    const int s = static_cast<int>(std::lround(seconds));
    if (s < 60) return QObject::tr("%1 s left").arg(s);
    if (s < 3600) return QObject::tr("%1 min %2 s left").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QObject::tr("%1 h %2 min left").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

CalibrationStatusWidget::CalibrationStatusWidget(CalibrationRunner* runner, QWidget* parent)
    : QWidget(parent), mRunner(runner) {
    mPhase = new QLabel(this);
    mBar = new QProgressBar(this);
    mBar->setRange(0, 1000);
    mBar->setMinimumWidth(220);
    mBar->setMaximumWidth(280);
    mBar->setTextVisible(true);
    mCancel = new QPushButton(tr("Cancel"), this);
    mCancel->setToolTip(tr("Stop the calibration; the previous results stay"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mPhase);
    layout->addWidget(mBar);
    layout->addWidget(mCancel);
    hide();

    connect(mCancel, &QPushButton::clicked, this, &CalibrationStatusWidget::showCancelling);
    connect(runner, &CalibrationRunner::started, this, [this] {
        mCancel->setEnabled(true);
        show();
    });
    connect(runner, &CalibrationRunner::progressChanged, this, &CalibrationStatusWidget::showProgress);
    connect(runner, &CalibrationRunner::finished, this, &QWidget::hide);
    connect(runner, &CalibrationRunner::cancelled, this, &QWidget::hide);
    connect(runner, &CalibrationRunner::failed, this, &QWidget::hide);
}

QString CalibrationStatusWidget::phaseText() const {
    return mPhase->text();
}

QString CalibrationStatusWidget::etaText() const {
    return mBar->format();
}

int CalibrationStatusWidget::progressValue() const {
    return mBar->value();
}

void CalibrationStatusWidget::showProgress(double fraction, const QString& phase, double etaSeconds) {
    if (mCancel->isEnabled()) mPhase->setText(phase);  // else keep "Cancelling..."

    mBar->setValue(static_cast<int>(std::lround(fraction * 1000.0)));
    const QString eta = formatEta(etaSeconds);
    mBar->setFormat(eta.isEmpty() ? QStringLiteral("%p%") : QStringLiteral("%p%, ") + eta);
}

void CalibrationStatusWidget::showCancelling() {
    mCancel->setEnabled(false);
    mPhase->setText(tr("Cancelling..."));
    mRunner->cancel();
}

}  // namespace ql::ui
