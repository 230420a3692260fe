#pragma once
// File > Import > A/B Builds Folder... (issue 28, item 5, in the window): a folder `quantize --ab-scripts` wrote, once
// its scripts ran on the user's GPU. Every build's reports fit the GPU profile (core/engine/ab_import.h: the manifest
// names the GPU, TensorRT version and typing; the document's profile of that GPU is refined, else the table's), which
// becomes the document's (later predictions use it, the project keeps it); a report then says per A/B pair which
// variant ran faster against which the prediction said, before and after the fit. Runs off the GUI thread.
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include "core/common/status.h"
#include "core/engine/ab_import.h"

class QAction;
class QWidget;

namespace ql::ui {

class ModelDocument;

class AbImportController : public QObject {
    Q_OBJECT
public:
    AbImportController(ModelDocument* document, QWidget* window);
    ~AbImportController() override;  // waits for a running import

    QAction* action() const { return mAction; }
    // Imports `folder` (what the action does once a folder is chosen); false while an import runs.
    bool importFolder(const QString& folder);
    bool isRunning() const { return mWatcher.isRunning(); }
    // What the last import said: the fit and the A/B verdicts, or why it failed.
    const QString& lastReport() const { return mLastReport; }

signals:
    void message(const QString& text);
    void imported(bool ok);

private:
    void chooseFolder();
    void finished();

    ModelDocument* mDocument;
    QWidget* mWindow;
    QAction* mAction;
    QFutureWatcher<Result<AbImport>> mWatcher;
    QString mLastReport;
    bool mQuiet = true;  // no dialog for this import (importFolder called directly, not from the action)
};

}  // namespace ql::ui
