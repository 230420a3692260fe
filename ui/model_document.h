#pragma once
// The UI-side owner of a loaded model and of everything the user does with it (STYLE.md rule 2): the
// precision plan (requested and effective precisions, edited through the undo stack), the TensorRT lint
// report that follows from it, the calibration and the analysis results. Views hold no core pointers across
// a reload; they listen to the signals below.
//
// With a calibration, the lint report also holds the calib-* findings of the calibration's diagnosis
// (diagnoseCalibration on the effective plan), recomputed whenever the plan or the calibration changes.
//
// The TensorRT target (version and typing) decides the effective precisions: its INT8 fallbacks, then the FP16
// guard (TrtPolicies, with the calibration's activations once there is one), the same policies the CLI and the
// export apply, so the precision table shows what the exported engine runs.
//
// Threads: the document lives on the GUI thread. Workers receive shared_ptr copies (sharedModel(),
// plan()) and hand their results back through setCalibration()/setAnalysis()/setTuneReport() on the GUI thread.
#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/lint/linter.h"
#include "core/lint/trt_version.h"
#include "core/model/model.h"
#include "core/quant/analysis.h"
#include "core/quant/calibration.h"
#include "core/quant/calibration_diagnosis.h"
#include "core/quant/precision_plan.h"
#include "core/quant/tuning.h"
#include "ui/body_graphs.h"

class QUndoStack;

namespace ql {
struct GpuProfile;
struct PlanPrediction;
}  // namespace ql

namespace ql::ui {

struct PlanEdit;
struct EngineRun;

// What a background load produces: the model with its default plan and lint report, or an error.
struct LoadedModel {
    QString path;
    std::shared_ptr<Model> model;
    QString error;
    PrecisionPlan plan;  // the default placement (or the project's), effective precisions from the TensorRT rules
    // The model's control-flow bodies as graphs (the precision table's body rows, the body plans' graphs).
    std::shared_ptr<const std::vector<BodyGraph>> bodyGraphs;
    LintReport lint;
    TrtTarget trtTarget;  // the TensorRT the rules were applied for
    // Set when the model was opened from a project file (project_file.h).
    QString projectPath;
    QString missingModel;         // the project's model, not found where it says (Locate... can find it)
    bool modelRelocated = false;  // the model was located elsewhere: the project on disk names the old place
    std::shared_ptr<const CalibrationResult> calibration;
    std::shared_ptr<const AnalysisReport> accumulated, isolated;
    // The plan the analyses measured (a project saved after a plan change says so); nullopt: `plan`.
    std::optional<PrecisionPlan> analysisPlan;
    QString analysisStaleReason;  // why the project said its analyses were stale when it was saved; empty: current
    QStringList silencedRules;    // lint rules the project silenced
    nlohmann::json dataSettings;  // the calibration dialog's last settings (data paths, preprocessing, method)
    std::shared_ptr<const EngineRun> engine;       // the project's engine report, read again with it
    QString engineError;                           // why the project's engine report could not be read again
    std::shared_ptr<const GpuProfile> gpuProfile;  // the project's GPU profile (fitted to engine reports)
};

class ModelDocument : public QObject {
    Q_OBJECT
public:
    explicit ModelDocument(QObject* parent = nullptr);
    ~ModelDocument() override;

    // Runs on any thread: load, default plan, TensorRT policies and lint. `graphBuilt` (LoadOptions::graphBuilt):
    // called with the graph's structure before the rest of the load runs.
    static std::shared_ptr<LoadedModel> load(const QString& path, TrtTarget target = {},
                                             const std::function<void(const Graph&)>& graphBuilt = {});
    // Effective precisions (TensorRT rules, FP16 guard with `loaded.calibration`) and lint report of
    // `loaded.plan`'s requested precisions. A typing `target.version` cannot build becomes the version's default.
    static void decidePrecisions(LoadedModel& loaded, TrtTarget target);

    const Model* model() const { return mModel.get(); }
    std::shared_ptr<const Model> sharedModel() const { return mModel; }
    QString filePath() const;
    QString fileName() const;
    // Takes a model loaded elsewhere and announces it; plan and lint default to the default placement.
    void replaceModel(std::shared_ptr<Model> model);
    void replaceModel(const LoadedModel& loaded);
    // The same, taking the plans and the lint over rather than copying them (a 100k-node graph's lint holds tens of
    // thousands of findings); the rest of `loaded` is left as it was.
    void replaceModel(LoadedModel&& loaded);

    // The precision plan: requested precisions from the user, effective ones from the TensorRT rules. After an edit
    // of a graph of more than kRelintInBackgroundAbove nodes, the rules and the lint run off the GUI thread
    // (isRelintPending(): a second at 100k nodes); plan(), lint() and diagnosis() wait for them, so what is exported,
    // calibrated, tuned or saved follows the rules. planChanged() and lintChanged() announce the outcome.
    const PrecisionPlan& plan() const {
        settleRelint();
        return mPlan;
    }
    const LintReport& lint() const {
        settleRelint();
        return mLint;
    }
    // Without waiting, for views: the requested precisions as edited; while isRelintPending(), the effective ones
    // from before the edit (planChanged() comes again with the new ones).
    const PrecisionPlan& shownPlan() const { return mPlan; }
    // Without waiting, for views: the lint of before the edit while isRelintPending().
    const LintReport& shownLint() const { return mLint; }
    bool isRelintPending() const { return mRelintPending; }
    static constexpr size_t kRelintInBackgroundAbove = 5000;
    // The model's control-flow bodies, nested ones inside (built once per model): the graphs of plan().bodies().
    const std::vector<BodyGraph>& bodyGraphs() const;
    // The same, shared: holds them for whoever shows one after the document loads another model.
    std::shared_ptr<const std::vector<BodyGraph>> sharedBodyGraphs() const { return mBodyGraphs; }
    // The latency rules' findings (core/lint/linter.h isLatencyRule) computed off the GUI thread with the GPU profile
    // (LatencyPredictionController), merged into lint(); a relint drops them until the next ones arrive.
    void setLatencyFindings(std::vector<Finding> findings);
    TrtTarget trtTarget() const { return mTrtTarget; }
    TrtVersion trtVersion() const { return mTrtTarget.version; }
    // Re-decides the effective precisions and the lint report for `target` (a typing its version cannot build
    // becomes the version's default) and marks the document modified. Not undoable: the target is a setting of
    // the whole document, not an edit of the plan.
    void setTrtTarget(TrtTarget target);

    // Undoable edit: sets the requested precision of `nodes` and of the body layers `bodyNodes` (one undo step,
    // `text` names it in Edit > Undo). A body without a plan gets an all-FP32 one first (PrecisionPlan::ensureBody).
    void setRequestedPrecision(const QList<NodeId>& nodes, Precision precision, const QString& text = {},
                               const QList<BodyNodeRef>& bodyNodes = {});
    // Undoable edit: FP32 -> FP16 -> INT8 -> FP32, each node (and body layer) from its own requested precision.
    void cyclePrecision(const QList<NodeId>& nodes, const QList<BodyNodeRef>& bodyNodes = {});
    // Undoable edit: every node of `opType` to `precision`, in the main graph and in every body (a body without a
    // plan gets one for FP16 or INT8; for FP32 it is left as it is, running FP32 already).
    void setOpTypePrecision(const QString& opType, Precision precision);
    // Undoable edit: the calibration method whose amax `tensor` uses (nullopt: the calibration's own).
    void setTensorMethod(const QString& tensor, std::optional<CalibrationMethod> method);
    // Replaces the whole plan, requested precisions, per-tensor methods and body plans (a plan file, a tuned
    // plan); one undo step, none when nothing differs.
    void replacePlan(const PrecisionPlan& plan, const QString& text);
    QUndoStack* undoStack() const { return mUndoStack; }
    // Applies an edit without an undo step (used by PlanEditCommand itself).
    void applyPlanEdit(const PlanEdit& edit);

    // Calibration and analysis results; null when there are none (yet).
    std::shared_ptr<const CalibrationResult> calibration() const { return mCalibration; }
    void setCalibration(std::shared_ptr<const CalibrationResult> calibration);
    std::shared_ptr<const AnalysisReport> analysis(AnalysisMode mode) const;
    // `measured`: the plan the analysis ran with (null: the current one), so isAnalysisStale() can tell. The
    // analysis measured the current calibration.
    void setAnalysis(AnalysisMode mode, std::shared_ptr<const AnalysisReport> report,
                     const PrecisionPlan* measured = nullptr);
    // True when there is an analysis and it describes another plan or calibration: the plan's choices (requested
    // precisions, tensor methods) or its effective precisions (a new TensorRT target) differ from those it
    // measured, or the calibration was replaced since.
    bool isAnalysisStale() const { return !analysisStaleReason().isEmpty(); }
    // Why the analysis is stale, in words ("the plan changed: 3 layers"), or empty when it is current.
    QString analysisStaleReason() const;
    // The plan the analysis measured; null without an analysis.
    const PrecisionPlan* analysisPlan() const { return mAnalysisPlan ? &*mAnalysisPlan : nullptr; }
    // The calibration's diagnosis under the current plan; null without a calibration (or when it cannot be made).
    std::shared_ptr<const CalibrationDiagnosis> diagnosis() const {
        settleRelint();
        return mDiagnosis;
    }

    // The last finished tune (Quantize > Tune...), applied or not; null when there is none.
    std::shared_ptr<const TuneReport> tuneReport() const { return mTuneReport; }
    void setTuneReport(std::shared_ptr<const TuneReport> report);

    // What TensorRT built (File > Import Engine Report...); null when none. It describes the current model only:
    // a new model drops it. Its mismatches follow the plan: every plan, target or calibration change recomputes
    // them against the new effective precisions (engineChanged() follows lintChanged()).
    std::shared_ptr<const EngineRun> engineRun() const { return mEngine; }
    void setEngineRun(std::shared_ptr<const EngineRun> run);

    // The GPU profile later predictions use (`fit-gpu` fits it to engine reports); null: none chosen. Kept in the
    // project.
    std::shared_ptr<const GpuProfile> gpuProfile() const { return mGpuProfile; }
    void setGpuProfile(std::shared_ptr<const GpuProfile> profile);

    // The predicted engine time of the current plan on the GPU profile's GPU (LatencyPredictionController computes
    // it off the GUI thread); null: no GPU chosen, or none computed yet. Stale from a change of the model, plan,
    // target or GPU until the new one arrives (views grey it out). Not kept in the project: it follows from it.
    std::shared_ptr<const PlanPrediction> latencyPrediction() const { return mLatencyPrediction; }
    bool isLatencyPredictionStale() const { return mLatencyPredictionStale; }
    void setLatencyPrediction(std::shared_ptr<const PlanPrediction> prediction);
    void markLatencyPredictionStale();

    // The project file this document was opened from or saved to; empty for a bare model.
    QString projectPath() const { return mProjectPath; }
    void setProjectPath(const QString& path);
    // Calibration data settings kept in the project (opaque here: the calibration dialog defines them).
    const nlohmann::json& dataSettings() const { return mDataSettings; }
    // Marks the document modified when they change (the project keeps them).
    void setDataSettings(nlohmann::json settings);

    // Lint rules silenced in this project (their findings stay in the report, listed apart, without graph badges).
    QStringList silencedRules() const { return mSilencedRules; }
    void setRuleSilenced(const QString& ruleId, bool silenced);

    // Unsaved changes: an edit since the last markSaved() (undo back to it clears it), or new results.
    bool isModified() const;
    // While replaceModel() announces the new model: from modelReplaced() up to, not including, the last of its
    // signals, silencedRulesChanged(). A listener to several of them (a table re-filtering 100k rows, the lint's
    // badges) may act once: on modelReplaced() or on that last one.
    bool isReplacingModel() const { return mReplacing; }
    // What isModified() stands for, for the unsaved-changes prompt: "precisions" (edits on the undo stack), then
    // what else changed since the last save ("calibration", "TensorRT target", ...), each once.
    QStringList unsavedChanges() const;
    void markSaved();

signals:
    void modelAboutToBeReplaced();
    void modelReplaced();
    // The TensorRT target changed (also when a model or project replaced the document's).
    void trtTargetChanged();
    // Requested and/or effective precisions changed (any node: effective precisions of neighbours can move
    // too), and the lint report with them.
    void planChanged();
    // The lint report changed: after every planChanged(), and when a calibration changes the calib-* findings.
    void lintChanged();
    void calibrationChanged();
    void analysisChanged();
    void tuneReportChanged();
    void engineChanged();
    void gpuProfileChanged();
    // A new latency prediction, none, or the current one became stale.
    void latencyPredictionChanged();
    void silencedRulesChanged();
    void modifiedChanged(bool modified);
    // The project file changed: saved under a new name, or a bare model saved as a project (replaceModel() announces
    // its own through modelReplaced()).
    void projectPathChanged();

private:
    // What a relint decides: the effective precisions, the calibration's diagnosis and the lint.
    struct Relinted {
        PrecisionPlan plan;
        std::shared_ptr<const CalibrationDiagnosis> diagnosis;
        LintReport lint;
    };
    static Relinted relinted(const Model& model, PrecisionPlan plan, TrtTarget target,
                             const CalibrationResult* calibration);
    // Re-decides the effective precisions and the lint: at once, or off the GUI thread for a big graph when
    // `inBackground` (then the caller announces planChanged() only; relintFinished() announces both).
    void relint(bool inBackground = false);
    void adopt(Relinted&& out) const;
    void settleRelint() const;
    void relintFinished();
    // planChanged(), and lintChanged() unless the lint is still being made.
    void announcePlanEdit();
    void replanEngine();
    void setResultsModified(bool modified, const QString& what = {});
    void pushPlanEdit(PlanEdit before, PlanEdit after, const QString& text);
    // The body plans with `bodyNodes` set to `precision` (each node's own next one when `precision` is null),
    // or nullopt when nothing changes.
    std::optional<std::vector<BodyPlan>> editedBodies(const QList<BodyNodeRef>& bodyNodes,
                                                      std::optional<Precision> precision) const;

    std::shared_ptr<Model> mModel;
    // Mutable: settleRelint() completes them from const accessors (the outcome was decided by the last edit).
    mutable PrecisionPlan mPlan;
    std::shared_ptr<const std::vector<BodyGraph>> mBodyGraphs;
    mutable LintReport mLint;
    TrtTarget mTrtTarget;
    QUndoStack* mUndoStack;
    std::shared_ptr<const CalibrationResult> mCalibration;
    std::shared_ptr<const AnalysisReport> mAccumulated, mIsolated;
    std::optional<PrecisionPlan> mAnalysisPlan;                     // the plan the analyses measured
    std::shared_ptr<const CalibrationResult> mAnalysisCalibration;  // the calibration they measured
    QString mSavedStaleReason;  // the project's word that its analyses were stale (until the next analysis)
    mutable std::shared_ptr<const CalibrationDiagnosis> mDiagnosis;
    std::shared_ptr<const TuneReport> mTuneReport;
    std::shared_ptr<const EngineRun> mEngine;
    std::shared_ptr<const GpuProfile> mGpuProfile;
    std::shared_ptr<const PlanPrediction> mLatencyPrediction;
    bool mLatencyPredictionStale = false;
    QString mProjectPath;
    QStringList mSilencedRules;
    nlohmann::json mDataSettings = nlohmann::json::object();
    QStringList mUnsavedChanges;    // what set mResultsModified, in order
    bool mResultsModified = false;  // new results or a new target since the last save (the undo stack has the edits)
    bool mLastModified = false;
    bool mReplacing = false;
    // The relint running off the GUI thread; settleRelint() (from const accessors) takes its outcome early. Its own
    // pool: behind a tune or a prediction in the global one, a plan() that waits for it would wait for them too.
    QThreadPool mRelintPool;
    QFutureWatcher<Relinted>* mRelintWatcher;
    mutable bool mRelintPending = false;
    mutable bool mRelintUnannounced = false;  // taken early by settleRelint(), not yet announced
};

}  // namespace ql::ui
