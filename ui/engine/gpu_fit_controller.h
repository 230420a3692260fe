#pragma once
// File > Import > Fit GPU Profile to the Engine Report... (issue 28, item 3, in the window): the engine report the
// document holds, with its profile, fits the latency model's terms for the GPU it was measured on (gpu_profile_fit.h,
// what `quantlens-cli fit-gpu` does); the fitted profile becomes the document's, so every later prediction (the
// precision table's columns, the overlay, the status bar, Tune's latency objective) uses it, and the project keeps it.
// The GPU is asked for (the document's profile's, else the first of the table, preselected). The fit runs off the GUI
// thread; the status bar says how well it fits.
#include <QFutureWatcher>
#include <QObject>

#include "core/common/status.h"
#include "core/engine/latency_model.h"

class QAction;
class QWidget;

namespace ql::ui {

class ModelDocument;

// What a fit says to the user (the status bar, the log, the A/B import's report): the fitted profile's GPU, how many
// layer times (and engine reports, when more than one) it was fitted to, and how well it fits them.
QString fittedProfileText(const GpuProfile& profile);

class GpuFitController : public QObject {
    Q_OBJECT
public:
    GpuFitController(ModelDocument* document, QWidget* window);
    ~GpuFitController() override;  // waits for a running fit

    QAction* action() const { return mAction; }
    // Fits for the GPU of the table named `gpu` ("t4"); what the action does once a GPU is chosen. False when
    // nothing can be fitted (no report with a profile) or a fit is running.
    bool fitFor(const QString& gpu);
    bool isRunning() const { return mWatcher.isRunning(); }

signals:
    void message(const QString& text);
    void fitted(bool ok);

private:
    void update();
    void chooseGpuAndFit();
    void finished();

    ModelDocument* mDocument;
    QWidget* mWindow;
    QAction* mAction;
    QFutureWatcher<Result<GpuProfile>> mWatcher;
    const void* mFittedModel = nullptr;  // the model the running fit is for (a replaced model drops its result)
};

}  // namespace ql::ui
