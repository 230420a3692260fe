#pragma once
// The window's side of tuning: the Quantize > Tune... action (enabled with a model and a calibration) and the
// tune dialog it opens. The main window creates one and places its action.
#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace ql::ui {

class ModelDocument;
class TuneDialog;

class TuneController : public QObject {
    Q_OBJECT
public:
    TuneController(ModelDocument* document, QWidget* window);

    QAction* tuneAction() const { return mTuneAction; }
    // The open dialog, or null.
    TuneDialog* dialog() const;
    // Opens the dialog (window-modal, not blocking); false when there is no model or no calibration.
    bool openDialog();

signals:
    void statusMessage(const QString& text);

private:
    void updateAction();

    ModelDocument* mDocument;
    QWidget* mWindow;
    QAction* mTuneAction;
    QPointer<TuneDialog> mDialog;
};

}  // namespace ql::ui
