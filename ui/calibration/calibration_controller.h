#pragma once
// The window's side of calibration: the Quantize > Calibrate... action, the dialog, the background runner
// and its status-bar strip, and the messages at the end. The main window creates one and places its action
// and widget; dropping data files on the window calls openDialog(path).
#include <QObject>
#include <QPointer>

class QAction;
class QMimeData;
class QWidget;

namespace ql::ui {

class CalibrationDialog;
class CalibrationRunner;
class CalibrationStatusWidget;
class ModelDocument;

class CalibrationController : public QObject {
    Q_OBJECT
public:
    CalibrationController(ModelDocument* document, QWidget* window);
    ~CalibrationController() override;

    QAction* calibrateAction() const { return mCalibrateAction; }
    // Quantize > Measure Again: the error of the current plan with the current calibration, on the data of the
    // last calibration (no new calibration); enabled while the analysis is stale or missing.
    QAction* measureAction() const { return mMeasureAction; }
    QWidget* statusWidget() const;  // a CalibrationStatusWidget
    CalibrationRunner* runner() const { return mRunner; }
    // The open dialog, or null.
    CalibrationDialog* dialog() const;

    // Opens the dialog (window-modal, not blocking), with `dataPath` as the first input's data when given.
    // False when there is no model to calibrate.
    bool openDialog(const QString& dataPath = {});
    // Measures the current plan again in the background; false (with a status message) when it cannot.
    bool measureAgain();

signals:
    // A one-line outcome for the status bar ("Calibrated 256 samples", "Calibration cancelled", ...).
    void statusMessage(const QString& text);

private:
    void updateActions();
    void showFailure(const QString& message);

    ModelDocument* mDocument;
    QWidget* mWindow;
    CalibrationRunner* mRunner;
    CalibrationStatusWidget* mStatus;
    QAction* mCalibrateAction;
    QAction* mMeasureAction;
    QPointer<CalibrationDialog> mDialog;
};

// The calibration data among dropped URLs: a .npy or .npz file, or a folder; empty when there is none.
QString dataPathFromMime(const QMimeData* mime);

}  // namespace ql::ui
