#include "ui/calibration/calibration_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/calibration/data_paths_editor.h"
#include "ui/calibration/image_preprocess_editor.h"
#include "ui/calibration/labels_path_edit.h"
#include "ui/calibration/preprocess_preview.h"

namespace ql::ui {

namespace {

const QString kGroup = QStringLiteral("calibration");

// "'input' float32 [N, 1, 16, 16]": what each row of the data must match.
QString describeInput(const InputSpec& spec) {
    QStringList dims;
    for (size_t i = 0; i < spec.dims.size(); ++i)
        dims.append(spec.dims[i] >= 0 ? QString::number(spec.dims[i])
                                      : (i == 0 ? QStringLiteral("N") : QStringLiteral("?")));
    const QString shape = spec.hasShape ? QStringLiteral(" [%1]").arg(dims.join(QStringLiteral(", "))) : QString();
    return QStringLiteral("'%1' %2%3")
        .arg(QString::fromStdString(spec.name), QString::fromStdString(numpyDtypeName(spec.dtype)), shape);
}

QSpinBox* countBox(QWidget* parent, int maximum, const QString& zeroText) {
    auto* box = new QSpinBox(parent);
    box->setRange(0, maximum);
    box->setSpecialValueText(zeroText);
    return box;
}

}  // namespace

CalibrationDialog::CalibrationDialog(const Graph& graph, QWidget* parent)
    : QDialog(parent), mInputs(inputSpecs(graph)) {
    setWindowTitle(tr("Calibrate"));
    QStringList described;
    for (const InputSpec& spec : mInputs) described.append(describeInput(spec));
    auto* header = new QLabel(tr("Runs the model on your data to find the INT8 range of every tensor, then measures "
                                 "the error the precision plan gives. Model input(s): %1.")
                                  .arg(described.join(QStringLiteral(", "))),
                              this);
    header->setWordWrap(true);

    mData = new DataPathsEditor(DataPathsEditor::inputNamesOf(graph), this);
    mEvaluation = new DataPathsEditor(DataPathsEditor::inputNamesOf(graph), this);
    mPreprocess = new ImagePreprocessEditor(this);
    // What this model suggests, never what the previous model used (a 640x640 detector's size fails elsewhere).
    if (!mInputs.empty()) {
        const ImagePreprocess defaults = defaultImagePreprocess(mInputs.front());
        mPreprocess->setValue(defaults);
        if (auto geometry = imageGeometry(mInputs.front(), defaults); geometry.isOk())
            mPreprocess->setChannels(geometry->channels);
    }
    mPreview = new PreprocessPreview(this);
    mError = new QLabel(this);
    mError->setWordWrap(true);
    mError->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold;"));
    mError->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Calibrate"));
    connect(buttons, &QDialogButtonBox::accepted, this, &CalibrationDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &CalibrationDialog::reject);

    auto* columns = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    left->addWidget(createDataGroup());
    left->addWidget(createAnalysisGroup());
    left->addStretch(1);
    columns->addLayout(left, 3);
    auto* right = new QVBoxLayout;
    right->addWidget(mPreprocess);
    right->addWidget(mPreview);
    right->addStretch(1);
    columns->addLayout(right, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(header);
    layout->addLayout(columns);
    layout->addWidget(mError);
    layout->addWidget(buttons);
    restoreSettings();
    connect(mData, &DataPathsEditor::pathsChanged, this, &CalibrationDialog::updatePreview);
    connect(mPreprocess, &ImagePreprocessEditor::changed, this, &CalibrationDialog::updatePreview);
    updatePreview();
}

// The first input with a path: its data as calibration will read it.
void CalibrationDialog::updatePreview() {
    const std::vector<DataSpec> specs = mData->specs(mPreprocess->value());
    if (specs.empty() || mInputs.empty()) {
        mPreview->showNothing(tr("Choose the calibration data to see its first sample."));
        return;
    }
    // A mean that is not a number would be read as the default: say what is wrong instead of showing that.
    if (const QString error = mPreprocess->validate(); !error.isEmpty()) {
        mPreview->showNothing(error);
        return;
    }
    const DataSpec& data = specs.front();
    const auto named = std::find_if(mInputs.begin(), mInputs.end(),
                                    [&data](const InputSpec& input) { return input.name == data.input; });
    mPreview->showFirstSampleOf(named != mInputs.end() ? *named : mInputs.front(), data);
}

QWidget* CalibrationDialog::createDataGroup() {
    auto* group = new QGroupBox(tr("Calibration"), this);
    auto* form = new QFormLayout(group);
    form->addRow(mData);
    mMethod = new QComboBox(group);
    mMethod->addItem(tr("Auto (per tensor, the best expected SQNR)"), static_cast<int>(CalibrationMethod::Auto));
    mMethod->addItem(tr("Entropy (TensorRT's default)"), static_cast<int>(CalibrationMethod::Entropy));
    mMethod->addItem(tr("Min/max"), static_cast<int>(CalibrationMethod::MinMax));
    mMethod->addItem(tr("Percentile"), static_cast<int>(CalibrationMethod::Percentile));
    mMethod->addItem(tr("MSE"), static_cast<int>(CalibrationMethod::Mse));
    mPercentile = new QDoubleSpinBox(group);
    mPercentile->setRange(50.0, 100.0);
    mPercentile->setDecimals(4);
    mPercentile->setSuffix(QStringLiteral(" %"));
    mPercentile->setValue(99.99);
    connect(mMethod, &QComboBox::currentIndexChanged, this, [this] {
        mPercentile->setEnabled(mMethod->currentData().toInt() == static_cast<int>(CalibrationMethod::Percentile));
    });
    mPercentile->setEnabled(false);
    auto* methodRow = new QHBoxLayout;
    methodRow->addWidget(mMethod, 1);
    methodRow->addWidget(mPercentile);
    form->addRow(tr("Method:"), methodRow);
    mSamples = countBox(group, 10'000'000, tr("all"));
    mBatch = new QSpinBox(group);
    mBatch->setRange(1, 1024);
    mBatch->setValue(8);
    mBatch->setToolTip(tr("Used when the model's batch axis is not fixed. Smaller batches cancel sooner."));
    auto* countRow = new QHBoxLayout;
    countRow->addWidget(mSamples, 1);
    countRow->addWidget(new QLabel(tr("Batch:"), group));
    countRow->addWidget(mBatch);
    form->addRow(tr("Samples:"), countRow);
    return group;
}

QWidget* CalibrationDialog::createAnalysisGroup() {
    mAnalysis = new QGroupBox(tr("Then measure the quantization error (per layer, output agreement)"), this);
    mAnalysis->setCheckable(true);
    auto* form = new QFormLayout(mAnalysis);
    auto* note = new QLabel(tr("Evaluation data (empty: the calibration data):"), mAnalysis);
    form->addRow(note);
    form->addRow(mEvaluation);
    mLabels = new LabelsPathEdit(mAnalysis);
    form->addRow(tr("Labels:"), mLabels);
    mEvaluationSamples = countBox(mAnalysis, 10'000'000, tr("all"));
    form->addRow(tr("Samples:"), mEvaluationSamples);
    return mAnalysis;
}

void CalibrationDialog::setDialogFolder(const QString& folder) {
    mData->setDialogFolder(folder);
    mEvaluation->setDialogFolder(folder);
    mLabels->setDialogFolder(folder);
}

void CalibrationDialog::setDataPath(const QString& path) {
    mData->setPath(0, path);
}

QString CalibrationDialog::dataPath(int input) const {
    return mData->paths().value(input);
}

void CalibrationDialog::setEvaluationPath(const QString& path) {
    mEvaluation->setPath(0, path);
}

void CalibrationDialog::setLabelsPath(const QString& path) {
    mLabels->setPath(path);
}

void CalibrationDialog::setMethod(CalibrationMethod method, double percentile) {
    mMethod->setCurrentIndex(mMethod->findData(static_cast<int>(method)));
    mPercentile->setValue(percentile);
}

void CalibrationDialog::setSampleCount(int samples) {
    mSamples->setValue(samples);
}

void CalibrationDialog::setAnalyze(bool analyze) {
    mAnalysis->setChecked(analyze);
}

CalibrationRequest CalibrationDialog::request() const {
    CalibrationRequest r;
    const ImagePreprocess image = mPreprocess->value();
    r.data = mData->specs(image);
    r.config.method = static_cast<CalibrationMethod>(mMethod->currentData().toInt());
    r.config.percentile = mPercentile->value();
    r.samples = mSamples->value();
    r.batchSize = mBatch->value();
    // One core stays free for the window.
    r.threads = std::max(1, QThread::idealThreadCount() - 1);
    r.analyze = mAnalysis->isChecked();
    r.evaluationData = mEvaluation->specs(image);
    r.labelsPath = mLabels->path().toStdString();
    r.evaluationSamples = mEvaluationSamples->value();
    return r;
}

QString CalibrationDialog::validate() const {
    if (QString error = mData->validate(tr("Calibration data")); !error.isEmpty()) return error;
    if (QString error = mPreprocess->validate(); !error.isEmpty()) return error;
    if (!mAnalysis->isChecked()) return {};
    if (!mEvaluation->isEmpty())
        if (QString error = mEvaluation->validate(tr("Evaluation data")); !error.isEmpty()) return error;
    return mLabels->validate();
}

QString CalibrationDialog::errorText() const {
    return mError->text();
}

void CalibrationDialog::showError(const QString& message) {
    mError->setText(message);
    mError->setVisible(!message.isEmpty());
}

void CalibrationDialog::accept() {
    const QString error = validate();
    showError(error);
    if (!error.isEmpty()) return;
    saveSettings();
    QDialog::accept();
}

nlohmann::json CalibrationDialog::settings() const {
    const auto paths = [](const QStringList& list) {
        nlohmann::json array = nlohmann::json::array();
        for (const QString& path : list) array.push_back(path.toStdString());
        return array;
    };
    CalibrationConfig config;
    config.method = static_cast<CalibrationMethod>(mMethod->currentData().toInt());
    config.percentile = mPercentile->value();
    return {{"data", paths(mData->paths())},
            {"method", calibrationMethodName(config)},
            {"samples", mSamples->value()},
            {"batch", mBatch->value()},
            {"analyze", mAnalysis->isChecked()},
            {"evaluation_data", paths(mEvaluation->paths())},
            {"labels", mLabels->path().toStdString()},
            {"evaluation_samples", mEvaluationSamples->value()},
            {"preprocess", mPreprocess->toJson()}};
}

void CalibrationDialog::applySettings(const nlohmann::json& json) {
    if (!json.is_object()) return;
    const auto paths = [&json](const char* key, DataPathsEditor* editor) {
        const auto it = json.find(key);
        if (it == json.end() || !it->is_array()) return;
        QStringList list;
        for (const auto& path : *it)
            list.append(path.is_string() ? QString::fromStdString(path.get<std::string>()) : QString());
        editor->setPaths(list);
    };
    const auto count = [&json](const char* key, QSpinBox* box) {
        if (const auto it = json.find(key); it != json.end() && it->is_number_integer()) box->setValue(it->get<int>());
    };
    paths("data", mData);
    paths("evaluation_data", mEvaluation);
    if (const auto it = json.find("method"); it != json.end() && it->is_string())
        if (auto config = parseCalibrationMethod(it->get<std::string>())) setMethod(config->method, config->percentile);
    count("samples", mSamples);
    count("batch", mBatch);
    count("evaluation_samples", mEvaluationSamples);
    if (const auto it = json.find("analyze"); it != json.end() && it->is_boolean()) setAnalyze(it->get<bool>());
    if (const auto it = json.find("labels"); it != json.end() && it->is_string())
        setLabelsPath(QString::fromStdString(it->get<std::string>()));
    if (const auto it = json.find("preprocess"); it != json.end()) mPreprocess->setFromJson(*it);
}

// Only what suits every model: paths name one model's data, and the preprocessing fits one model's input.
void CalibrationDialog::saveSettings() const {
    nlohmann::json json = settings();
    for (const char* key : {"data", "evaluation_data", "labels", "preprocess"}) json.erase(key);
    QSettings settings;
    settings.setValue(kGroup + QStringLiteral("/defaults"), QString::fromStdString(json.dump()));
}

void CalibrationDialog::restoreSettings() {
    const QString text = QSettings().value(kGroup + QStringLiteral("/defaults")).toString();
    auto json = nlohmann::json::parse(text.toStdString(), nullptr, /*allow_exceptions=*/false);
    if (json.is_object()) json.erase("preprocess");  // saved there by versions before issue 29
    applySettings(json);
}

}  // namespace ql::ui
