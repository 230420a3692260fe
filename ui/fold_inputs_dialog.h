#pragma once
// File > Fix Inputs and Fold...: for a model whose Ifs are decided by graph inputs through constants (Silero VAD's
// `sr`), a value per such input and a file to write; the fold (core/export/input_folding.h, `quantlens-cli fold`)
// runs off the GUI thread and the folded model, its layers now in the main graph, opens in the window. The action
// is enabled only for a model with such an input.
#include <QDialog>
#include <QFutureWatcher>
#include <QObject>
#include <memory>

#include "core/common/status.h"

class QAction;
class QLabel;
class QLineEdit;
class QDialogButtonBox;

namespace ql {
class Model;
}

namespace ql::ui {

class ModelDocument;

class FoldInputsDialog : public QDialog {
    Q_OBJECT
public:
    // `inputs`: inputsDecidingIfs(*model).
    FoldInputsDialog(std::shared_ptr<const Model> model, const QStringList& inputs, QWidget* parent = nullptr);
    ~FoldInputsDialog() override;  // waits for a running fold

    QLineEdit* valueField(const QString& input) const;
    QLineEdit* outputField() const { return mOutput; }
    QString errorText() const;
    void accept() override;  // folds and writes, then closes; an error stays in the dialog

signals:
    void folded(const QString& path, const QString& summary);

private:
    QString fixText() const;  // "sr=16000,..." of the filled fields
    void suggestOutput();
    void finished();
    void setFieldsEnabled(bool enabled);  // the values and the file: not edited while a fold writes them

    std::shared_ptr<const Model> mModel;  // shared with a running fold
    QList<QPair<QString, QLineEdit*>> mValues;
    QLineEdit* mOutput;
    QLabel* mError;
    QDialogButtonBox* mButtons;
    bool mOutputEdited = false;
    // The file being written: what `folded` names and what is opened, whatever the fields say by then.
    QString mWriting;
    QFutureWatcher<Result<QString>> mWatcher;
};

// The File menu's action and what it opens.
class FoldInputsController : public QObject {
    Q_OBJECT
public:
    FoldInputsController(ModelDocument* document, QWidget* window);
    QAction* action() const { return mAction; }
    FoldInputsDialog* dialog() const { return mDialog; }  // the open dialog, for tests
    void showDialog();

signals:
    void folded(const QString& path);
    void message(const QString& text);

private:
    void update();

    ModelDocument* mDocument;
    QWidget* mWindow;
    QAction* mAction;
    FoldInputsDialog* mDialog = nullptr;
};

}  // namespace ql::ui
