#pragma once
// Quantize > Tune...: finds the plan closest to all-INT8 whose outputs meet a target (the CLI's `tune`), starting
// from the document's plan and calibration. Three states in one dialog: the settings (TuneSettingsWidget); the
// run in the background with its progress, current value and Cancel (a cancelled run changes nothing); the
// result (TuneResultWidget) with Apply, which replaces the document's plan (precisions and per-tensor methods) in
// one undo step. Closing the dialog cancels a running tune.
#include <QDialog>
#include <QList>
#include <QPointer>
#include <utility>

#include "core/quant/precision_plan.h"

class QLabel;
class QPushButton;
class QStackedWidget;

namespace ql::ui {

class ModelDocument;
class TuneProgressWidget;
class TuneResultWidget;
class TuneRunner;
class TuneSettingsWidget;

class TuneDialog : public QDialog {
    Q_OBJECT
public:
    explicit TuneDialog(ModelDocument* document, QWidget* parent = nullptr);
    ~TuneDialog() override;

    TuneSettingsWidget* settings() const { return mSettings; }
    TuneRunner* runner() const { return mRunner; }
    TuneProgressWidget* progress() const { return mProgress; }
    TuneResultWidget* result() const { return mResult; }
    bool isShowingResult() const;
    QString errorText() const;

    // Validates the settings and starts the run; false (with the error shown) when it cannot start.
    bool startTuning();
    // Applies the finished run's plan to the document (one undo step) and closes the dialog.
    void applyResult();

    void reject() override;  // cancels a running tune first

signals:
    // A one-line outcome for the window's status bar.
    void statusMessage(const QString& text);

private:
    QString startPlanText() const;
    QList<std::pair<QString, Precision>> planKeptOut() const;
    void startFromCalibrationData();
    void showError(const QString& message);
    void showSettings();
    void updateButtons();
    void runFinished();

    QPointer<ModelDocument> mDocument;
    TuneRunner* mRunner;
    TuneSettingsWidget* mSettings;
    TuneProgressWidget* mProgress;
    TuneResultWidget* mResult;
    QStackedWidget* mPages;
    QLabel* mError;
    QPushButton* mBack;
    QPushButton* mTune;
    QPushButton* mApply;
    QPushButton* mClose;
};

}  // namespace ql::ui
