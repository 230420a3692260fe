#pragma once
// The running strip of the tune dialog: the phase, a progress bar (busy while the phase has no known end), the
// target's current value, the step just tried, and Cancel. Hidden while nothing runs.
#include <QWidget>
#include <functional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace ql::ui {

class TuneRunner;

class TuneProgressWidget : public QWidget {
    Q_OBJECT
public:
    explicit TuneProgressWidget(TuneRunner* runner, QWidget* parent = nullptr);

    // The target's name and unit for the value label ("top1-agreement", value text from tuneValueText).
    void setValueFormatter(std::function<QString(double)> format);
    QString phaseText() const;
    QString valueText() const;

private:
    void showProgress(double fraction, const QString& phase, const QString& step, double value);
    void showCancelling();

    TuneRunner* mRunner;
    std::function<QString(double)> mFormat;
    QLabel* mPhase;
    QProgressBar* mBar;
    QLabel* mValue;
    QLabel* mStep;
    QPushButton* mCancel;
};

}  // namespace ql::ui
