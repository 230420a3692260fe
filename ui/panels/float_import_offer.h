#pragma once
// The banner over the TensorRT findings for a model in ONNX Runtime's operator form (ConvInteger,
// DynamicQuantizeLinear, QLinearConv, ...: core/export/qoperator_import.h). TensorRT cannot parse such a file, so the
// findings say so (trt-unsupported-op, one per operator) and the banner offers, in one click, the float model it was
// made from (its float import, as `quantlens-cli lint` and `calibrate` use it); calibrate, tune and export then work
// on that model. After the switch the banner says which file the float model came from. The import runs in the
// background; the document then holds the float model with its default plan (an unsaved new document).
#include <QFrame>
#include <QFutureWatcher>
#include <memory>

#include "core/lint/trt_version.h"

class QLabel;
class QPushButton;

namespace ql::ui {

class ModelDocument;
struct LoadedModel;

class FloatImportOffer : public QFrame {
    Q_OBJECT
public:
    explicit FloatImportOffer(ModelDocument* document, QWidget* parent = nullptr);
    ~FloatImportOffer() override;  // waits for a running import

    QPushButton* button() const { return mButton; }
    QLabel* label() const { return mLabel; }
    // Starts the import of the document's model (what the button does); false when there is nothing to import.
    bool switchToFloatImport();

signals:
    void message(const QString& text);  // for the status bar and the log
    void switched(bool ok);

private:
    void update();
    void imported();

    ModelDocument* mDocument;
    QLabel* mLabel;
    QPushButton* mButton;
    struct Outcome {
        std::shared_ptr<LoadedModel> loaded;  // the float model, or an error
        QString summary;                      // what the import did (qoperatorImportSummary)
    };
    static Outcome importFloat(const QString& path, TrtTarget target);

    QFutureWatcher<Outcome> mWatcher;
    const void* mFloatImport = nullptr;  // the document's model when it is the float import this banner made
    QString mShippedName;                // the operator-form file it was made from
    QString mShippedOps;
};

}  // namespace ql::ui
