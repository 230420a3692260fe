#include "ui/tuning/tune_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/calibration/data_settings.h"
#include "ui/dialog_folder.h"
#include "ui/model_document.h"
#include "ui/plan_edit_command.h"
#include "ui/tuning/tune_progress_widget.h"
#include "ui/tuning/tune_report_text.h"
#include "ui/tuning/tune_result_widget.h"
#include "ui/tuning/tune_runner.h"
#include "ui/tuning/tune_settings_widget.h"

namespace ql::ui {

TuneDialog::TuneDialog(ModelDocument* document, QWidget* parent)
    : QDialog(parent),
      mDocument(document),
      mRunner(new TuneRunner(document, this)),
      mSettings(new TuneSettingsWidget(document->model()->graph(), this)),
      mProgress(new TuneProgressWidget(mRunner, this)),
      mResult(new TuneResultWidget(this)),
      mPages(new QStackedWidget(this)),
      mError(new QLabel(this)) {
    setWindowTitle(tr("Tune"));
    auto* header =
        new QLabel(tr("Finds the plan closest to all-INT8 whose outputs meet the target: layers ranked by "
                      "their effect on the outputs, then the cheapest remedy first (another calibration "
                      "method for an input, then the fallback precision); with the latency objective, the fastest "
                      "such plan predicted on a GPU, INT8 only where it pays. %1")
                       .arg(startPlanText()),
                   this);
    header->setWordWrap(true);
    mSettings->setDialogFolder(dialogFolder(document));
    mSettings->setProjectGpuProfile(document->gpuProfile());
    mSettings->setPlanKeptOut(planKeptOut());
    startFromCalibrationData();
    const auto followTarget = [this] { mSettings->setTrtTyping(mDocument->trtTarget().typing); };
    followTarget();
    connect(document, &ModelDocument::trtTargetChanged, this, followTarget);
    mPages->addWidget(mSettings);
    mPages->addWidget(mResult);
    mError->setWordWrap(true);
    mError->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold;"));
    mError->hide();

    auto* buttons = new QDialogButtonBox(this);
    mBack = buttons->addButton(tr("Change Settings"), QDialogButtonBox::ResetRole);
    mTune = buttons->addButton(tr("Tune"), QDialogButtonBox::ActionRole);
    mApply = buttons->addButton(tr("Apply"), QDialogButtonBox::AcceptRole);
    mClose = buttons->addButton(QDialogButtonBox::Close);
    connect(mBack, &QPushButton::clicked, this, &TuneDialog::showSettings);
    connect(mTune, &QPushButton::clicked, this, &TuneDialog::startTuning);
    connect(mApply, &QPushButton::clicked, this, &TuneDialog::applyResult);
    connect(mClose, &QPushButton::clicked, this, &TuneDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(header);
    layout->addWidget(mPages, 1);
    layout->addWidget(mProgress);
    layout->addWidget(mError);
    layout->addWidget(buttons);

    connect(mRunner, &TuneRunner::started, this, &TuneDialog::updateButtons);
    connect(mRunner, &TuneRunner::finished, this, &TuneDialog::runFinished);
    connect(mRunner, &TuneRunner::cancelled, this, [this] {
        updateButtons();
        emit statusMessage(tr("Tuning cancelled; the plan is unchanged."));
    });
    connect(mRunner, &TuneRunner::failed, this, [this](const QString& message) {
        showError(tr("Tuning failed: %1").arg(message));
        updateButtons();
    });
    if (mDocument) connect(mDocument, &ModelDocument::modelAboutToBeReplaced, this, &TuneDialog::reject);
    updateButtons();
}

TuneDialog::~TuneDialog() = default;

QString TuneDialog::startPlanText() const {
    const Graph& graph = mDocument->model()->graph();
    const auto calibration = mDocument->calibration();
    const auto [int8, total] = int8Macs(graph, mDocument->plan(), mDocument->bodyGraphs());
    const QString plan =
        tr("It starts from the current plan (INT8 share of MACs %1 %)")
            .arg(total > 0 ? 100.0 * static_cast<double>(int8) / static_cast<double>(total) : 0.0, 0, 'f', 1);
    if (!calibration) return plan + QLatin1Char('.');
    return plan + tr(" and calibration (%1 on %2 samples).")
                      .arg(QString::fromStdString(calibrationMethodName(calibration->config)))
                      .arg(calibration->samples);
}

QList<std::pair<QString, Precision>> TuneDialog::planKeptOut() const {
    QList<std::pair<QString, Precision>> layers;
    const Graph& graph = mDocument->model()->graph();
    const auto calibration = mDocument->calibration();
    if (!calibration) return layers;
    const auto found = planKeptOutLayers(graph, mDocument->plan(), *calibration);
    if (!found.isOk()) return layers;  // the tune itself reports what is wrong
    for (NodeId node : *found)
        layers.append({QString::fromStdString(graph.node(node).name), mDocument->plan().requested(node)});
    return layers;
}

// The data and labels just given to Calibrate for this model (its project's "data"), over whatever the last tune of
// any model used: a tune measures what the calibration measured.
void TuneDialog::startFromCalibrationData() {
    const nlohmann::json calibration = dataSettingsOf(*mDocument);
    const auto text = [&calibration](const char* key) {
        const auto it = calibration.find(key);
        return it != calibration.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
    };
    const auto paths = [&calibration](const char* key) {
        QStringList list;
        if (const auto it = calibration.find(key); it != calibration.end() && it->is_array())
            for (const auto& path : *it)
                list.append(path.is_string() ? QString::fromStdString(path.get<std::string>()) : QString());
        return list;
    };
    QStringList data = paths("evaluation_data");
    if (data.join(QString()).isEmpty()) data = paths("data");  // evaluation data left empty: the calibration data
    mSettings->setEvaluationData(data, text("labels"), calibration.value("preprocess", nlohmann::json()));
}

bool TuneDialog::isShowingResult() const {
    return mPages->currentWidget() == mResult;
}

QString TuneDialog::errorText() const {
    return mError->text();
}

void TuneDialog::showError(const QString& message) {
    mError->setText(message);
    mError->setVisible(!message.isEmpty());
    // The error line takes its room from the settings, whose wrapped lines the layout's minimum leaves no room for:
    // the dialog grows instead.
    layout()->activate();
    if (isVisible() && height() < sizeHint().height()) resize(width(), sizeHint().height());
}

bool TuneDialog::startTuning() {
    if (mRunner->isRunning() || !mDocument) return false;
    const QString error = mSettings->validate();
    showError(error);
    if (!error.isEmpty()) return false;
    mSettings->saveSettings();
    TuneRequest request = mSettings->request();
    request.trtVersion = mDocument->trtVersion();
    request.trtTyping = mDocument->trtTarget().typing;
    request.threads = std::max(1, QThread::idealThreadCount() - 1);  // one core stays free for the window
    const TuneTarget target = request.target;
    mProgress->setValueFormatter([target](double value) {
        return QStringLiteral("%1 %2").arg(QString::fromStdString(target.name()), tuneValueText(target, value));
    });
    mPages->setCurrentWidget(mSettings);
    if (!mRunner->start(request)) {
        showError(tr("The tune could not start: it needs a model and a calibration (Quantize > Calibrate...)."));
        return false;
    }
    return true;
}

void TuneDialog::runFinished() {
    const auto report = mRunner->report();
    if (report && mDocument && mDocument->model()) {
        mResult->showReport(mDocument->model()->graph(), *report);
        mPages->setCurrentWidget(mResult);
        resize(std::max(width(), 960), std::max(height(), 680));  // room for the plot and the steps
    }
    updateButtons();
    if (!report || !isShowingResult()) return;
    // Apply is named only when it can do what the message says.
    if (report->met)
        emit statusMessage(mApply->isEnabled() ? tr("Tuning met the target; Apply takes the tuned plan.")
                                               : tr("Tuning met the target with the plan as it is: nothing to apply."));
    else
        emit statusMessage(mApply->isEnabled()
                               ? tr("Tuning did not meet the target; Apply takes the best plan found.")
                               : tr("Tuning did not meet the target and found no better plan than the current one."));
}

void TuneDialog::applyResult() {
    const auto report = mRunner->report();
    if (!report || !mDocument || mRunner->isRunning()) return;
    mDocument->replacePlan(report->plan,
                           tr("Apply tuned plan (%1)").arg(QString::fromStdString(report->target.text())));
    emit statusMessage(tr("Applied the tuned plan (Edit > Undo takes it back)."));
    accept();
}

void TuneDialog::showSettings() {
    mPages->setCurrentWidget(mSettings);
    updateButtons();
}

void TuneDialog::reject() {
    mRunner->cancel();
    QDialog::reject();
}

void TuneDialog::updateButtons() {
    const bool running = mRunner->isRunning();
    const bool result = isShowingResult();
    mSettings->setEnabled(!running);
    mBack->setVisible(result);
    mTune->setVisible(!result);
    mTune->setEnabled(!running);
    mTune->setDefault(!result);
    mApply->setVisible(result);
    const auto report = mRunner->report();
    const bool differs = report && mDocument && mDocument->model() &&
                         !planChange(mDocument->model()->graph(), mDocument->plan(), report->plan).second.isEmpty();
    mApply->setEnabled(result && differs && !running);
    mApply->setToolTip(differs || !report
                           ? tr("Replace the plan with the tuned one (one step: Edit > Undo takes it back)")
                           : tr("The plan already is the tuned one: nothing to apply"));
    mApply->setDefault(result);
    if (running) showError({});
}

}  // namespace ql::ui
