#pragma once
// Quantize > Calibrate...: the calibration data of every model input (file or folder, or dropped on the
// window), the image preprocessing, the method and sample count, and optionally the evaluation data and
// labels for the error analysis that follows, and a preview of the first preprocessed sample. Checks the paths
// before it closes. The method and counts are remembered for every model (QSettings, group "calibration"); the
// paths and the preprocessing belong to one model: the dialog starts from what the model's input suggests
// (defaultImagePreprocess), and the controller keeps the model's own settings per model and in the project
// (settings()/applySettings()).
#include <QDialog>
#include <nlohmann/json.hpp>

#include "core/model/graph.h"
#include "ui/calibration/calibration_request.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QSpinBox;

namespace ql::ui {

class DataPathsEditor;
class ImagePreprocessEditor;
class LabelsPathEdit;
class PreprocessPreview;

class CalibrationDialog : public QDialog {
    Q_OBJECT
public:
    explicit CalibrationDialog(const Graph& graph, QWidget* parent = nullptr);

    // Fills the first input's calibration data (a file or folder dropped on the window).
    void setDataPath(const QString& path);
    QString dataPath(int input = 0) const;
    void setEvaluationPath(const QString& path);
    void setLabelsPath(const QString& path);
    void setMethod(CalibrationMethod method, double percentile = 99.99);
    void setSampleCount(int samples);
    void setAnalyze(bool analyze);
    // Where the data and labels pickers start while their fields are empty (dialog_folder.h: the model's folder).
    void setDialogFolder(const QString& folder);

    CalibrationRequest request() const;
    // Every setting as JSON (the project's "data"): data paths per input, method, counts, evaluation data, labels
    // and image preprocessing. applySettings() takes what it finds and keeps the rest.
    nlohmann::json settings() const;
    void applySettings(const nlohmann::json& settings);
    // Empty when the dialog's settings can be run, else what is wrong, naming the file.
    QString validate() const;
    QString errorText() const;

    ImagePreprocessEditor* preprocessEditor() const { return mPreprocess; }
    PreprocessPreview* preview() const { return mPreview; }

    void accept() override;  // validates first; on success remembers the settings

private:
    QWidget* createDataGroup();
    QWidget* createAnalysisGroup();
    void saveSettings() const;
    void restoreSettings();
    void showError(const QString& message);
    void updatePreview();

    DataPathsEditor* mData;
    std::vector<InputSpec> mInputs;
    ImagePreprocessEditor* mPreprocess;
    PreprocessPreview* mPreview;
    QComboBox* mMethod;
    QDoubleSpinBox* mPercentile;
    QSpinBox* mSamples;
    QSpinBox* mBatch;
    QGroupBox* mAnalysis;
    DataPathsEditor* mEvaluation;
    LabelsPathEdit* mLabels;
    QSpinBox* mEvaluationSamples;
    QLabel* mError;
};

}  // namespace ql::ui
