#include "ui/panels/float_import_offer.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>

#include "core/export/carried_model.h"
#include "core/export/qoperator_import.h"
#include "core/lint/operator_form.h"
#include "core/quant/default_placement.h"
#include "ui/model_document.h"
#include "ui/model_loader.h"

namespace ql::ui {

namespace {

QString opsOf(const Graph& graph) {
    const OperatorFormLint shipped = lintOperatorForm(graph, {});
    QStringList ops;
    for (const std::string& op : shipped.ops) ops << QString::fromStdString(op);
    return ops.join(QStringLiteral(", "));
}

}  // namespace

// The float import of the operator-form file at `path`, as the CLI makes it (carriedModel), with the plan it carries
// and the lint of `target`; an error naming the file when it cannot be made. Runs on a worker thread.
FloatImportOffer::Outcome FloatImportOffer::importFloat(const QString& path, TrtTarget target) {
    Outcome outcome{std::make_shared<LoadedModel>(), {}};
    LoadedModel& loaded = *outcome.loaded;
    loaded.path = path;
    auto shipped = Model::load(path.toStdString());
    if (!shipped) {
        loaded.error = QString::fromStdString(shipped.status().message());
        return outcome;
    }
    auto carried = carriedModel(std::move(shipped).value());
    if (!carried) {
        loaded.error = QString::fromStdString(carried.status().message());
        return outcome;
    }
    loaded.model = std::shared_ptr<Model>(std::move(carried->model));
    measureModelCosts(*loaded.model);
    // The plan the operator form carries (its quantized layers INT8), as `quantize` and `lint` of the file take it.
    loaded.plan = carried->plan ? std::move(*carried->plan) : defaultPrecisionPlan(loaded.model->graph());
    ModelDocument::decidePrecisions(loaded, target);
    outcome.summary = QString::fromStdString(carried->qoperatorImport);
    return outcome;
}

FloatImportOffer::FloatImportOffer(ModelDocument* document, QWidget* parent)
    : QFrame(parent), mDocument(document), mLabel(new QLabel(this)), mButton(new QPushButton(this)) {
    setObjectName(QStringLiteral("FloatImportOffer"));
    setFrameShape(QFrame::StyledPanel);
    mLabel->setWordWrap(true);
    mLabel->setTextFormat(Qt::RichText);
    mButton->setText(tr("Work on the float model it was made from"));
    mButton->setToolTip(
        tr("Import the float model this file was quantized from (its weights dequantized), as quantlens-cli lint "
           "and calibrate do; then calibrate, tune and export Q/DQ, which TensorRT parses"));
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(mLabel, 1);
    layout->addWidget(mButton);
    connect(mButton, &QPushButton::clicked, this, &FloatImportOffer::switchToFloatImport);
    connect(&mWatcher, &QFutureWatcher<Outcome>::finished, this, &FloatImportOffer::imported);
    connect(mDocument, &ModelDocument::modelReplaced, this, &FloatImportOffer::update);
    update();
}

FloatImportOffer::~FloatImportOffer() {
    if (mWatcher.isRunning()) mWatcher.waitForFinished();
}

bool FloatImportOffer::switchToFloatImport() {
    const Model* model = mDocument->model();
    if (!model || mWatcher.isRunning() || !hasQOperatorNodes(model->graph())) return false;
    mShippedName = mDocument->fileName();
    mShippedOps = opsOf(model->graph());
    mButton->setEnabled(false);
    emit message(tr("Importing the float model %1 was made from...").arg(mShippedName));
    const QString path = mDocument->filePath();
    const TrtTarget target = mDocument->trtTarget();
    mWatcher.setFuture(QtConcurrent::run([path, target] { return importFloat(path, target); }));
    return true;
}

void FloatImportOffer::imported() {
    mButton->setEnabled(true);
    const Outcome outcome = mWatcher.future().takeResult();
    const std::shared_ptr<LoadedModel>& loaded = outcome.loaded;
    if (!loaded->model) {
        emit message(tr("Cannot import the float model of %1: %2").arg(mShippedName, loaded->error));
        emit switched(false);
        return;
    }
    mFloatImport = loaded->model.get();  // before replaceModel(), whose modelReplaced() updates the banner
    mDocument->replaceModel(*loaded);
    emit message(tr("Working on the float model %1 was made from (%2)").arg(mShippedName, outcome.summary));
    emit switched(true);
}

// Shown for an operator-form model (with the button) and for the float import made from one (without).
void FloatImportOffer::update() {
    const Model* model = mDocument->model();
    if (model && model == mFloatImport) {
        mLabel->setText(tr("Working on the float model <b>%1</b> was made from (ONNX Runtime operator form: %2, which "
                           "TensorRT cannot parse). Calibrate and export Q/DQ from it.")
                            .arg(mShippedName.toHtmlEscaped(), mShippedOps.toHtmlEscaped()));
        mButton->hide();
        show();
        return;
    }
    mFloatImport = nullptr;
    if (!model || !hasQOperatorNodes(model->graph())) {
        hide();
        return;
    }
    mLabel->setText(tr("<b>TensorRT cannot parse this file</b>: it is in ONNX Runtime's operator form (%1). Work on "
                       "the float model it was made from to calibrate and export Q/DQ.")
                        .arg(opsOf(model->graph()).toHtmlEscaped()));
    mButton->show();
    show();
}

}  // namespace ql::ui
