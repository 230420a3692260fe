#include "ui/tuning/tune_settings_widget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <algorithm>
#include <optional>

#include "core/engine/gpu_specs.h"
#include "core/engine/latency_model.h"
#include "core/quant/output_kind.h"
#include "ui/calibration/data_paths_editor.h"
#include "ui/calibration/image_preprocess_editor.h"
#include "ui/calibration/labels_path_edit.h"
#include "ui/plural.h"

namespace ql::ui {

namespace {

const QString kGroup = QStringLiteral("tune");
const QString kCalibrationGroup = QStringLiteral("calibration");
// The GPU combo's data for the project's profile (the table's rows carry their names).
const QString kProjectGpu = QStringLiteral("project");

struct TargetKind {
    TuneTarget::Kind kind;
    const char* label;
    const char* syntax;  // TuneTarget::parse's name and comparison
    double minimum, maximum, initial;
    const char* suffix;
};

// The targets the window offers (the user's metric needs a command: the CLI's).
constexpr TargetKind kTargetKinds[] = {
    {TuneTarget::Kind::Top1Agreement, QT_TRANSLATE_NOOP("TuneSettingsWidget", "Top-1 agreement with FP32 at least"),
     "top1-agreement>=", 0.0, 100.0, 99.0, " %"},
    {TuneTarget::Kind::AccuracyDrop, QT_TRANSLATE_NOOP("TuneSettingsWidget", "Accuracy drop (needs labels) at most"),
     "accuracy-drop<=", 0.0, 100.0, 0.5, " points"},
    {TuneTarget::Kind::OutputSqnr, QT_TRANSLATE_NOOP("TuneSettingsWidget", "SQNR of every output vs FP32 at least"),
     "output-sqnr>=", 0.0, 200.0, 30.0, " dB"},
};

const TargetKind& targetKind(int index) {
    return kTargetKinds[static_cast<size_t>(std::clamp(index, 0, static_cast<int>(std::size(kTargetKinds)) - 1))];
}

QSpinBox* limitBox(QWidget* parent, int maximum, const QString& zeroText, const QString& suffix = {}) {
    auto* box = new QSpinBox(parent);
    box->setRange(0, maximum);
    box->setSpecialValueText(zeroText);
    box->setSuffix(suffix);
    return box;
}

}  // namespace

TuneSettingsWidget::TuneSettingsWidget(const Graph& graph, QWidget* parent) : QWidget(parent) {
    mPreprocess = new ImagePreprocessEditor(this);
    auto* left = new QVBoxLayout;
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(createTargetGroup());
    left->addWidget(createDataGroup(graph));
    left->addStretch(1);
    auto* columns = new QHBoxLayout(this);
    columns->setContentsMargins(0, 0, 0, 0);
    columns->addLayout(left, 3);
    columns->addWidget(mPreprocess, 2, Qt::AlignTop);
    restoreSettings();
    offerTopClassTargets(QString::fromStdString(whyNoTopClass(graph)));
}

void TuneSettingsWidget::offerTopClassTargets(const QString& whyNot) {
    if (whyNot.isEmpty()) return;
    // A top-1 target on a detector's or a map's output is met by one element staying the largest: not offered.
    auto* items = qobject_cast<QStandardItemModel*>(mTargetKind->model());
    const QString tip = tr("Needs a class vector as the first output (one class score per sample): %1").arg(whyNot);
    for (TuneTarget::Kind kind : {TuneTarget::Kind::Top1Agreement, TuneTarget::Kind::AccuracyDrop}) {
        QStandardItem* item = items->item(mTargetKind->findData(static_cast<int>(kind)));
        item->setEnabled(false);
        item->setToolTip(tip);
    }
    mTargetKind->setToolTip(tip);
    if (!items->item(mTargetKind->currentIndex())->isEnabled())  // its initial threshold comes with it
        mTargetKind->setCurrentIndex(mTargetKind->findData(static_cast<int>(TuneTarget::Kind::OutputSqnr)));
}

bool TuneSettingsWidget::offersTarget(TuneTarget::Kind kind) const {
    const int index = mTargetKind->findData(static_cast<int>(kind));
    return index >= 0 && qobject_cast<QStandardItemModel*>(mTargetKind->model())->item(index)->isEnabled();
}

QWidget* TuneSettingsWidget::createTargetGroup() {
    auto* group = new QGroupBox(tr("Target and budget"), this);
    auto* form = new QFormLayout(group);
    mTargetKind = new QComboBox(group);
    mTargetKind->setObjectName(QStringLiteral("tuneTarget"));
    for (const TargetKind& kind : kTargetKinds) mTargetKind->addItem(tr(kind.label), static_cast<int>(kind.kind));
    mTargetValue = new QDoubleSpinBox(group);
    mTargetValue->setDecimals(2);
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(mTargetKind, 1);
    targetRow->addWidget(mTargetValue);
    form->addRow(tr("Target:"), targetRow);
    connect(mTargetKind, &QComboBox::currentIndexChanged, this, &TuneSettingsWidget::targetKindChanged);
    targetKindChanged();

    mTrials = limitBox(group, 100000, tr("no trial limit"), tr(" trials"));
    mTrials->setToolTip(tr("A trial runs the model once over the tuning subset with one candidate plan"));
    mSeconds = limitBox(group, 24 * 3600, tr("no time limit"), tr(" s"));
    mSeconds->setToolTip(tr("Stop after this many seconds; the best plan found so far is the result"));
    mSeconds->setValue(300);  // until the user says otherwise: a run that ends on its own
    auto* budgetRow = new QHBoxLayout;
    budgetRow->addWidget(mTrials, 1);
    budgetRow->addWidget(mSeconds, 1);
    form->addRow(tr("Budget:"), budgetRow);
    mFallback = new QComboBox(group);
    mFallback->setObjectName(QStringLiteral("tuneFallback"));
    mFallback->addItem(QString(), static_cast<int>(Precision::Fp16));
    mFallback->addItem(QString(), static_cast<int>(Precision::Fp32));
    setTrtTyping(TrtTyping::Strong);
    form->addRow(tr("Layers kept out of INT8 run:"), mFallback);
    form->addRow(tr("Your plan:"), createPlanKeptOutRow(group));
    mObjective = new QComboBox(group);
    mObjective->addItem(tr("Accuracy: the plan closest to all-INT8"), static_cast<int>(TuneObjective::Accuracy));
    mObjective->addItem(tr("Latency: the fastest plan predicted on the GPU"), static_cast<int>(TuneObjective::Latency));
    mObjective->setToolTip(
        tr("Latency: among plans that meet the target, the one with the lowest predicted engine "
           "time (INT8 only where it pays), as `tune --objective latency`"));
    form->addRow(tr("Objective:"), mObjective);
    mGpu = new QComboBox(group);
    mGpu->setObjectName(QStringLiteral("tuneGpu"));
    for (const GpuSpec& gpu : gpuSpecs())
        mGpu->addItem(
            QStringLiteral("%1 (%2)").arg(QString::fromStdString(gpu.displayName), QString::fromStdString(gpu.name)),
            QString::fromStdString(gpu.name));
    mGpu->setToolTip(
        tr("The GPU the plans are timed on (predicted from its public specifications, or the project's "
           "GPU profile fitted to your engine reports); the times are estimates"));
    form->addRow(tr("GPU:"), mGpu);
    connect(mObjective, &QComboBox::currentIndexChanged, this, &TuneSettingsWidget::objectiveChanged);
    objectiveChanged();
    return group;
}

QWidget* TuneSettingsWidget::createPlanKeptOutRow(QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* layout = new QVBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    mKeepPlanKeptOut = new QCheckBox(tr("Keep my FP16 layers"), row);
    mKeepPlanKeptOut->setObjectName(QStringLiteral("keepPlanKeptOut"));
    mKeepPlanKeptOut->setChecked(true);
    mKeepPlanKeptOut->setToolTip(
        tr("Checked: the layers your plan keeps out of INT8 stay as they are and count as kept out. Unchecked: they "
           "start in INT8, as the default placement has them, and the tune decides."));
    mPlanKeptOut = new QLabel(row);
    mPlanKeptOut->setWordWrap(true);
    mPlanKeptOut->setTextFormat(Qt::PlainText);  // node names may hold '<'
    layout->addWidget(mKeepPlanKeptOut);
    layout->addWidget(mPlanKeptOut);
    setPlanKeptOut({});
    return row;
}

void TuneSettingsWidget::setPlanKeptOut(const QList<std::pair<QString, Precision>>& layers) {
    QStringList names;
    bool fp32 = false;
    for (const auto& [name, precision] : layers) {
        names.append(QStringLiteral("%1 (%2)").arg(name, QString::fromUtf8(upperPrecisionName(precision))));
        fp32 |= precision == Precision::Fp32;
    }
    mKeepPlanKeptOut->setText(fp32 ? tr("Keep my FP16 and FP32 layers") : tr("Keep my FP16 layers"));
    mKeepPlanKeptOut->setEnabled(!layers.isEmpty());
    mPlanKeptOut->setText(layers.isEmpty() ? tr("It keeps no layer out of INT8 that the default placement runs INT8.")
                                           : tr("It keeps %1 out of INT8 that the default placement runs INT8: %2.")
                                                 .arg(counted(layers.size(), tr("1 layer"), tr("%1 layers")),
                                                      names.join(QStringLiteral(", "))));
}

void TuneSettingsWidget::setKeepPlanKeptOut(bool keep) {
    mKeepPlanKeptOut->setChecked(keep);
}

QString TuneSettingsWidget::planKeptOutText() const {
    return mKeepPlanKeptOut->text() + QLatin1Char('\n') + mPlanKeptOut->text();
}

void TuneSettingsWidget::setTrtTyping(TrtTyping typing) {
    mTyping = typing;
    for (Precision precision : {Precision::Fp16, Precision::Fp32})
        mFallback->setItemText(mFallback->findData(static_cast<int>(precision)), fallbackText(precision));
    mFallback->setToolTip(typing == TrtTyping::Strong
                              ? tr("Strongly typed: a layer runs in the type the exported graph gives it (FP16 "
                                   "layers are written as float16); trtexec gets no precision flag")
                              : tr("Weakly typed: trtexec --int8 --fp16 lets TensorRT run the layers out of INT8 in "
                                   "FP16; FP32 layers are pinned with --layerPrecisions"));
}

QString TuneSettingsWidget::fallbackText(Precision precision) const {
    const bool fp16 = precision == Precision::Fp16;
    if (mTyping == TrtTyping::Strong)
        return fp16 ? tr("FP16 (written as float16 in the exported graph)")
                    : tr("FP32 (left float32 in the exported graph)");
    return fp16 ? tr("FP16 (the engine is built with --fp16)") : tr("FP32 (pinned with --layerPrecisions)");
}

void TuneSettingsWidget::objectiveChanged() {
    mGpu->setEnabled(static_cast<TuneObjective>(mObjective->currentData().toInt()) == TuneObjective::Latency);
}

void TuneSettingsWidget::setObjective(TuneObjective objective) {
    mObjective->setCurrentIndex(std::max(0, mObjective->findData(static_cast<int>(objective))));
}

void TuneSettingsWidget::setProjectGpuProfile(std::shared_ptr<const GpuProfile> profile) {
    if (const int at = mGpu->findData(kProjectGpu); at >= 0) mGpu->removeItem(at);
    mProjectGpu = std::move(profile);
    if (!mProjectGpu) return;
    mGpu->insertItem(0,
                     tr("The project's GPU profile: %1%2")
                         .arg(QString::fromStdString(mProjectGpu->gpu.displayName),
                              mProjectGpu->fit ? tr(", fitted to your engine reports") : QString()),
                     kProjectGpu);
    mGpu->setCurrentIndex(0);
}

bool TuneSettingsWidget::setGpu(const QString& name) {
    const int at = mGpu->findData(name);
    if (at < 0) return false;
    mGpu->setCurrentIndex(at);
    return true;
}

QString TuneSettingsWidget::gpuName() const {
    const QString data = mGpu->currentData().toString();
    return data == kProjectGpu && mProjectGpu ? QString::fromStdString(mProjectGpu->gpu.name) : data;
}

void TuneSettingsWidget::setDialogFolder(const QString& folder) {
    mData->setDialogFolder(folder);
    mLabels->setDialogFolder(folder);
}

QWidget* TuneSettingsWidget::createDataGroup(const Graph& graph) {
    auto* group = new QGroupBox(tr("Evaluation data"), this);
    auto* form = new QFormLayout(group);
    mData = new DataPathsEditor(DataPathsEditor::inputNamesOf(graph), group);
    form->addRow(mData);
    mLabels = new LabelsPathEdit(group);
    form->addRow(tr("Labels:"), mLabels);
    mSamples = limitBox(group, 10'000'000, tr("all"));
    mSubset = limitBox(group, 10'000'000, tr("auto (a quarter, at least 64)"));
    mSubset->setToolTip(
        tr("Candidate plans are scored on this many samples first; a plan that meets the target "
           "there is confirmed on all samples"));
    auto* countRow = new QHBoxLayout;
    countRow->addWidget(mSamples, 1);
    countRow->addWidget(new QLabel(tr("Subset:"), group));
    countRow->addWidget(mSubset, 1);
    form->addRow(tr("Samples:"), countRow);
    mBatch = new QSpinBox(group);
    mBatch->setRange(1, 1024);
    mBatch->setValue(8);
    mBatch->setToolTip(tr("Used when the model's batch axis is not fixed. Smaller batches cancel sooner."));
    form->addRow(tr("Batch:"), mBatch);
    return group;
}

void TuneSettingsWidget::targetKindChanged() {
    const TargetKind& kind = targetKind(mTargetKind->currentIndex());
    mTargetValue->setRange(kind.minimum, kind.maximum);
    mTargetValue->setSuffix(tr(kind.suffix));
    mTargetValue->setValue(kind.initial);
}

void TuneSettingsWidget::setTarget(TuneTarget::Kind kind, double threshold) {
    mTargetKind->setCurrentIndex(std::max(0, mTargetKind->findData(static_cast<int>(kind))));
    mTargetValue->setValue(threshold);
}

void TuneSettingsWidget::setBudget(int trials, double seconds) {
    mTrials->setValue(trials);
    mSeconds->setValue(static_cast<int>(seconds));
}

void TuneSettingsWidget::setFallback(Precision precision) {
    mFallback->setCurrentIndex(std::max(0, mFallback->findData(static_cast<int>(precision))));
}

void TuneSettingsWidget::setDataPath(const QString& path) {
    mData->setPath(0, path);
}

void TuneSettingsWidget::setEvaluationData(const QStringList& paths, const QString& labels,
                                           const nlohmann::json& preprocess) {
    if (!paths.join(QString()).isEmpty()) mData->setPaths(paths);
    if (!labels.isEmpty()) mLabels->setPath(labels);
    if (preprocess.is_object()) mPreprocess->setFromJson(preprocess);
}

void TuneSettingsWidget::setLabelsPath(const QString& path) {
    mLabels->setPath(path);
}

void TuneSettingsWidget::setSampleCount(int samples) {
    mSamples->setValue(samples);
}

std::optional<TuneTarget> TuneSettingsWidget::target() const {
    const TargetKind& kind = targetKind(mTargetKind->currentIndex());
    auto parsed = TuneTarget::parse(kind.syntax + QString::number(mTargetValue->value(), 'g', 8).toStdString());
    return parsed ? std::optional(*parsed) : std::nullopt;
}

TuneRequest TuneSettingsWidget::request() const {
    TuneRequest r;
    r.target = target().value_or(TuneTarget());
    r.fallback = static_cast<Precision>(mFallback->currentData().toInt());
    r.keepPlanKeptOut = mKeepPlanKeptOut->isChecked();
    r.maxTrials = mTrials->value();
    r.maxSeconds = mSeconds->value();
    r.data = mData->specs(mPreprocess->value());
    r.labelsPath = mLabels->path().toStdString();
    r.samples = mSamples->value();
    r.subsetSamples = mSubset->value();
    r.batchSize = mBatch->value();
    r.objective = static_cast<TuneObjective>(mObjective->currentData().toInt());
    if (r.objective == TuneObjective::Latency) {
        if (mGpu->currentData().toString() == kProjectGpu && mProjectGpu)
            r.gpu = mProjectGpu;
        else if (const GpuSpec* spec = findGpu(mGpu->currentData().toString().toStdString()))
            r.gpu = std::make_shared<const GpuProfile>(defaultGpuProfile(*spec));
    }
    return r;
}

QString TuneSettingsWidget::validate() const {
    if (!target()) return tr("Target: %1 is not a valid value.").arg(mTargetValue->text());
    if (QString error = mData->validate(tr("Evaluation data")); !error.isEmpty()) return error;
    if (QString error = mPreprocess->validate(); !error.isEmpty()) return error;
    if (QString error = mLabels->validate(); !error.isEmpty()) return error;
    if (target()->needsLabels() && mLabels->path().isEmpty())
        return tr("Labels: the accuracy-drop target compares accuracies; choose the labels of the evaluation data.");
    return {};
}

void TuneSettingsWidget::saveSettings() const {
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.setValue(QStringLiteral("targetKind"), mTargetKind->currentData());
    settings.setValue(QStringLiteral("targetValue"), mTargetValue->value());
    settings.setValue(QStringLiteral("trials"), mTrials->value());
    settings.setValue(QStringLiteral("seconds"), mSeconds->value());
    settings.setValue(QStringLiteral("fallback"), mFallback->currentData());
    settings.setValue(QStringLiteral("data"), mData->paths());
    settings.setValue(QStringLiteral("labels"), mLabels->path());
    settings.setValue(QStringLiteral("samples"), mSamples->value());
    settings.setValue(QStringLiteral("subset"), mSubset->value());
    settings.setValue(QStringLiteral("batch"), mBatch->value());
    settings.setValue(QStringLiteral("objective"), mObjective->currentData());
    settings.setValue(QStringLiteral("gpu"), mGpu->currentData());
    settings.beginGroup(QStringLiteral("preprocess"));
    mPreprocess->save(settings);
}

void TuneSettingsWidget::restoreSettings() {
    QSettings settings;
    const bool saved = settings.childGroups().contains(kGroup);
    // Never tuned yet: the calibration dialog's evaluation data (or its calibration data) and labels.
    settings.beginGroup(saved ? kGroup : kCalibrationGroup);
    QStringList data = settings.value(saved ? QStringLiteral("data") : QStringLiteral("evaluationData")).toStringList();
    if (!saved && data.join(QString()).isEmpty()) data = settings.value(QStringLiteral("data")).toStringList();
    mData->setPaths(data);
    mLabels->setPath(settings.value(QStringLiteral("labels")).toString());
    settings.beginGroup(QStringLiteral("preprocess"));
    mPreprocess->restore(settings);
    settings.endGroup();
    if (!saved) return;
    const auto kind = static_cast<TuneTarget::Kind>(
        settings.value(QStringLiteral("targetKind"), static_cast<int>(TuneTarget::Kind::Top1Agreement)).toInt());
    mTargetKind->setCurrentIndex(std::max(0, mTargetKind->findData(static_cast<int>(kind))));
    mTargetValue->setValue(settings.value(QStringLiteral("targetValue"), mTargetValue->value()).toDouble());
    mTrials->setValue(settings.value(QStringLiteral("trials"), 0).toInt());
    mSeconds->setValue(settings.value(QStringLiteral("seconds"), 0).toInt());
    setFallback(
        static_cast<Precision>(settings.value(QStringLiteral("fallback"), static_cast<int>(Precision::Fp16)).toInt()));
    mSamples->setValue(settings.value(QStringLiteral("samples"), 0).toInt());
    mSubset->setValue(settings.value(QStringLiteral("subset"), 0).toInt());
    mBatch->setValue(settings.value(QStringLiteral("batch"), 8).toInt());
    setObjective(static_cast<TuneObjective>(
        settings.value(QStringLiteral("objective"), static_cast<int>(TuneObjective::Accuracy)).toInt()));
    setGpu(settings.value(QStringLiteral("gpu")).toString());
}

}  // namespace ql::ui
