#pragma once
// The status-bar strip of a running calibration: phase text, a progress bar with the ETA, and Cancel.
// Hidden while nothing runs.
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace ql::ui {

class CalibrationRunner;

class CalibrationStatusWidget : public QWidget {
    Q_OBJECT
public:
    explicit CalibrationStatusWidget(CalibrationRunner* runner, QWidget* parent = nullptr);

    QString phaseText() const;
    QString etaText() const;
    int progressValue() const;  // 0..1000

private:
    void showProgress(double fraction, const QString& phase, double etaSeconds);
    void showCancelling();

    CalibrationRunner* mRunner;
    QLabel* mPhase;
    QProgressBar* mBar;
    QPushButton* mCancel;
};

// "1 min 05 s", "12 s", "" when unknown (< 0).
QString formatEta(double seconds);

}  // namespace ql::ui
