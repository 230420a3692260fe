#pragma once
// The settings page of the tune dialog: the target (kind and value), the budget (trials and/or seconds), the
// fallback precision of the layers kept out of INT8 (worded for the TensorRT target's typing), whether the layers
// the user's plan keeps out of INT8 stay so ("Keep my FP16 layers", on by default, with the layers listed), and the
// evaluation data with its labels, sample counts and
// image preprocessing (the calibration dialog's widgets), and the objective: accuracy (the plan closest to all-INT8)
// or latency (the fastest plan predicted on a GPU: the project's GPU profile when it has one, else a row of the GPU
// table). Remembers the last settings (QSettings group "tune");
// the first time it starts from the calibration dialog's evaluation data, labels and preprocessing.
#include <QWidget>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/lint/trt_version.h"
#include "core/model/graph.h"
#include "ui/tuning/tune_request.h"

namespace ql {
struct GpuProfile;
}

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace ql::ui {

class DataPathsEditor;
class ImagePreprocessEditor;
class LabelsPathEdit;

class TuneSettingsWidget : public QWidget {
    Q_OBJECT
public:
    explicit TuneSettingsWidget(const Graph& graph, QWidget* parent = nullptr);

    void setTarget(TuneTarget::Kind kind, double threshold);
    // Whether the target list offers `kind`: the top-1 targets need a class vector as the first output.
    bool offersTarget(TuneTarget::Kind kind) const;
    void setBudget(int trials, double seconds);  // 0: no limit
    void setFallback(Precision precision);
    // Words the fallback choices for the target: weakly typed, the engine is built with --fp16; strongly typed,
    // the type written in the exported graph decides.
    void setTrtTyping(TrtTyping typing);
    QString fallbackText(Precision precision) const;
    // The layers the start plan keeps out of INT8 where the default placement runs them INT8
    // (planKeptOutLayers), by name with their precision: listed under "Keep my FP16 layers".
    void setPlanKeptOut(const QList<std::pair<QString, Precision>>& layers);
    void setKeepPlanKeptOut(bool keep);
    QString planKeptOutText() const;
    void setDataPath(const QString& path);
    void setLabelsPath(const QString& path);
    void setSampleCount(int samples);  // 0: all
    void setObjective(TuneObjective objective);
    // The project's GPU profile (ModelDocument::gpuProfile), listed first and chosen; null: the table's GPUs only.
    void setProjectGpuProfile(std::shared_ptr<const GpuProfile> profile);
    // Chooses a GPU by its table name ("t4"), or the project's profile with "project"; false when not listed.
    bool setGpu(const QString& name);
    QString gpuName() const;  // the chosen GPU's table name
    // The evaluation data (one path per input), its labels and its image preprocessing (ImagePreprocessEditor's
    // JSON), e.g. the calibration's; an empty list or labels leaves that field as it is.
    void setEvaluationData(const QStringList& paths, const QString& labels, const nlohmann::json& preprocess);
    // Where the data and labels pickers start while their fields are empty (dialog_folder.h: the model's folder).
    void setDialogFolder(const QString& folder);

    // Every field but trtVersion and threads (the dialog's).
    TuneRequest request() const;
    // Empty when the settings can run, else what is wrong, naming the file or field.
    QString validate() const;

    void saveSettings() const;
    void restoreSettings();

private:
    QWidget* createTargetGroup();
    // Disables the top-1 targets, saying why (`whyNot`, whyNoTopClass), and leaves none of them chosen.
    void offerTopClassTargets(const QString& whyNot);
    QWidget* createPlanKeptOutRow(QWidget* parent);
    QWidget* createDataGroup(const Graph& graph);
    void objectiveChanged();
    void targetKindChanged();
    std::optional<TuneTarget> target() const;

    QComboBox* mTargetKind;
    QDoubleSpinBox* mTargetValue;
    QSpinBox* mTrials;
    QSpinBox* mSeconds;
    QComboBox* mFallback;
    TrtTyping mTyping = TrtTyping::Strong;
    QCheckBox* mKeepPlanKeptOut;
    QLabel* mPlanKeptOut;
    QComboBox* mObjective;
    QComboBox* mGpu;
    std::shared_ptr<const GpuProfile> mProjectGpu;
    DataPathsEditor* mData;
    LabelsPathEdit* mLabels;
    QSpinBox* mSamples;
    QSpinBox* mSubset;
    QSpinBox* mBatch;
    ImagePreprocessEditor* mPreprocess;
};

}  // namespace ql::ui
