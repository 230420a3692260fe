#include "ui/model_document.h"

#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include "core/engine/plan_prediction.h"
#include "core/export/carried_model.h"
#include "core/export/qoperator_import.h"
#include "core/lint/lint_policy.h"
#include "core/lint/operator_form.h"
#include "core/quant/default_placement.h"
#include "ui/engine/engine_run.h"
#include "ui/plan_edit_command.h"
#include "ui/plural.h"

namespace ql::ui {

namespace {

Precision nextPrecision(Precision precision) {
    switch (precision) {
        case Precision::Fp32:
            return Precision::Fp16;
        case Precision::Fp16:
            return Precision::Int8;
        case Precision::Int8:
            return Precision::Fp32;
    }
    return Precision::Fp32;
}

QString precisionLabel(Precision precision) {
    return QString::fromUtf8(precisionName(precision)).toUpper();
}

// TensorRT's INT8 fallbacks, then the FP16 guard. The fallback is FP16 for every target: weakly typed scripts
// build with --fp16 and strongly typed exports write the non-INT8 float layers as float16 islands.
void applyTrtPolicies(const Graph& graph, PrecisionPlan& plan, TrtTarget target, const CalibrationResult* calibration) {
    const TrtPolicies policies(target.version, Precision::Fp16, calibration, target.typing);
    policies.apply(graph, plan);
}

// A file in ONNX Runtime's operator form gets the CLI's verdict: the operators TensorRT cannot parse, nothing else
// until the user works on its float import (core/lint/operator_form.h).
LintReport lintModel(const Model& model, const PrecisionPlan& plan, LintOptions options) {
    const Graph& graph = model.graph();
    if (hasQOperatorNodes(graph)) return {lintOperatorForm(graph, options).findings, {}};
    options.writtenForStrongTyping = writtenTyping(model) == "strong";
    return ql::lint(graph, plan, options);
}

// The default placement, or what a model that carries its precisions says (its Q/DQ, its float16 islands): the
// window shows a written model as the CLI reads it. An unreadable carried form keeps the default placement.
PrecisionPlan startingPlan(const Model& model) {
    auto written = writtenPlan(model);
    return written ? std::move(written).value() : defaultPrecisionPlan(model.graph());
}

// A project file or a caller may name a typing the version cannot build (8.6 strongly, 11 weakly).
TrtTarget buildableTarget(TrtTarget target) {
    if (!supportsTyping(target.version, target.typing)) target.typing = defaultTyping(target.version);
    return target;
}

// Nodes whose requested or effective precision differ between `a` and `b` (a tensor method counts once); -1 when
// the plans are of different models.
int changedLayers(const Graph& graph, const PrecisionPlan& a, const PrecisionPlan& b) {
    if (a.size() != b.size()) return -1;
    int changed = 0;
    for (const Node& node : graph.nodes())
        if (a.requested(node.id) != b.requested(node.id) || a.effective(node.id) != b.effective(node.id)) ++changed;
    return changed + static_cast<int>(planChange(graph, a, b).second.tensorMethods.size()) +
           changedBodyLayers(a.bodies(), b.bodies(), true);
}

bool sameTarget(const TrtTarget& a, const TrtTarget& b) {
    return a.version == b.version && a.typing == b.typing;
}

}  // namespace

ModelDocument::ModelDocument(QObject* parent)
    : QObject(parent), mUndoStack(new QUndoStack(this)), mRelintWatcher(new QFutureWatcher<Relinted>(this)) {
    connect(mRelintWatcher, &QFutureWatcher<Relinted>::finished, this, &ModelDocument::relintFinished);
    connect(this, &ModelDocument::lintChanged, this, &ModelDocument::replanEngine);  // after every plan change
    connect(mUndoStack, &QUndoStack::cleanChanged, this, [this] {
        const bool modified = isModified();
        if (modified != mLastModified) emit modifiedChanged(mLastModified = modified);
    });
}

// A relint still running holds what it reads (the model, a copy of the plan); the pool waits for it.
ModelDocument::~ModelDocument() = default;

std::shared_ptr<LoadedModel> ModelDocument::load(const QString& path, TrtTarget target,
                                                 const std::function<void(const Graph&)>& graphBuilt) {
    auto loaded = std::make_shared<LoadedModel>();
    loaded->path = path;
    auto model = Model::load(path.toStdString(), {.graphBuilt = graphBuilt});
    if (!model) {
        loaded->error = QString::fromStdString(model.status().message());
        return loaded;
    }
    loaded->model = std::shared_ptr<Model>(std::move(model).value());
    loaded->plan = startingPlan(*loaded->model);
    loaded->bodyGraphs = std::make_shared<const std::vector<BodyGraph>>(buildBodyGraphs(loaded->model->graph()));
    decidePrecisions(*loaded, target);
    return loaded;
}

void ModelDocument::decidePrecisions(LoadedModel& loaded, TrtTarget target) {
    target = buildableTarget(target);
    loaded.trtTarget = target;
    if (!loaded.model) return;
    applyTrtPolicies(loaded.model->graph(), loaded.plan, target, loaded.calibration.get());
    if (loaded.analysisPlan)
        applyTrtPolicies(loaded.model->graph(), *loaded.analysisPlan, target, loaded.calibration.get());
    loaded.lint = lintModel(*loaded.model, loaded.plan, {.version = target.version, .typing = target.typing});
}

QString ModelDocument::filePath() const {
    return mModel ? QString::fromStdString(mModel->path()) : QString();
}

QString ModelDocument::fileName() const {
    return mModel ? QString::fromStdString(mModel->fileName()) : QString();
}

void ModelDocument::replaceModel(std::shared_ptr<Model> model) {
    LoadedModel loaded;
    loaded.model = std::move(model);
    loaded.trtTarget = mTrtTarget;
    if (loaded.model) {
        loaded.plan = startingPlan(*loaded.model);
        decidePrecisions(loaded, mTrtTarget);
    }
    replaceModel(loaded);
}

void ModelDocument::replaceModel(const LoadedModel& loaded) {
    LoadedModel copy = loaded;
    replaceModel(std::move(copy));
}

void ModelDocument::replaceModel(LoadedModel&& loaded) {
    emit modelAboutToBeReplaced();
    mRelintPending = false;  // a relint of the model going is never taken
    mRelintUnannounced = false;
    mModel = loaded.model;
    mAnalysisPlan = loaded.analysisPlan ? std::move(*loaded.analysisPlan) : loaded.plan;  // the project's analyses
    mPlan = std::move(loaded.plan);
    // A model made elsewhere (replaceModel(model)) comes without its bodies: they are built here.
    mBodyGraphs = loaded.bodyGraphs || !mModel
                      ? loaded.bodyGraphs
                      : std::make_shared<const std::vector<BodyGraph>>(buildBodyGraphs(mModel->graph()));
    mLint = std::move(loaded.lint);
    mTrtTarget = buildableTarget(loaded.trtTarget);
    mCalibration = loaded.calibration;
    mAccumulated = loaded.accumulated;
    mIsolated = loaded.isolated;
    mAnalysisCalibration = loaded.calibration;
    mSavedStaleReason = loaded.analysisStaleReason;
    mTuneReport.reset();
    mEngine = loaded.model ? loaded.engine : nullptr;  // a report describes one model
    mGpuProfile = loaded.gpuProfile;
    mLatencyPrediction.reset();  // it predicted another model
    mLatencyPredictionStale = false;
    mDiagnosis.reset();
    if (mCalibration) relint();  // the load linted without the calibration's findings
    mProjectPath = loaded.projectPath;
    mSilencedRules = loaded.silencedRules;
    mDataSettings = loaded.dataSettings.is_object() ? loaded.dataSettings : nlohmann::json::object();
    mUndoStack->clear();
    markSaved();
    setResultsModified(loaded.modelRelocated, tr("the model's new place"));  // saved with the project
    // What listens to several of these may act on the last only (isReplacingModel()).
    mReplacing = true;
    emit modelReplaced();
    emit trtTargetChanged();
    emit planChanged();
    emit lintChanged();
    emit calibrationChanged();
    emit analysisChanged();
    emit tuneReportChanged();
    emit engineChanged();
    emit gpuProfileChanged();
    emit latencyPredictionChanged();
    mReplacing = false;
    emit silencedRulesChanged();
}

void ModelDocument::setLatencyPrediction(std::shared_ptr<const PlanPrediction> prediction) {
    mLatencyPrediction = std::move(prediction);
    mLatencyPredictionStale = false;
    emit latencyPredictionChanged();
}

void ModelDocument::markLatencyPredictionStale() {
    if (!mLatencyPrediction || mLatencyPredictionStale) return;
    mLatencyPredictionStale = true;
    emit latencyPredictionChanged();
}

void ModelDocument::setGpuProfile(std::shared_ptr<const GpuProfile> profile) {
    if (profile == mGpuProfile) return;
    mGpuProfile = std::move(profile);
    setResultsModified(true, tr("GPU profile"));  // saved in the project
    emit gpuProfileChanged();
}

void ModelDocument::setRuleSilenced(const QString& ruleId, bool silenced) {
    if (ruleId.isEmpty() || mSilencedRules.contains(ruleId) == silenced) return;
    if (silenced)
        mSilencedRules.append(ruleId);
    else
        mSilencedRules.removeAll(ruleId);
    setResultsModified(true, tr("silenced rules"));  // saved in the project
    emit silencedRulesChanged();
}

void ModelDocument::setTrtTarget(TrtTarget target) {
    target = buildableTarget(target);
    if (sameTarget(target, mTrtTarget)) return;
    mTrtTarget = target;
    relint();
    setResultsModified(true, tr("TensorRT target"));  // saved in the project; a no-op without a model
    emit trtTargetChanged();
    if (!mModel) return;
    emit planChanged();
    emit lintChanged();
}

const std::vector<BodyGraph>& ModelDocument::bodyGraphs() const {
    static const std::vector<BodyGraph> kNoBodies;
    return mBodyGraphs ? *mBodyGraphs : kNoBodies;
}

void ModelDocument::setRequestedPrecision(const QList<NodeId>& nodes, Precision precision, const QString& text,
                                          const QList<BodyNodeRef>& bodyNodes) {
    if (!mModel || (nodes.isEmpty() && bodyNodes.isEmpty())) return;
    PlanEdit before, after;
    for (NodeId node : nodes) {
        before.precisions.append(mPlan.requested(node));
        after.precisions.append(precision);
    }
    if (auto bodies = editedBodies(bodyNodes, precision)) {
        before.bodies = mPlan.bodies();
        after.bodies = std::move(bodies);
    }
    if (before.precisions == after.precisions && !after.bodies) return;
    before.nodes = after.nodes = nodes;
    const qsizetype count = nodes.size() + bodyNodes.size();
    const QString label =
        text.isEmpty() ? tr("Set %1 to %2").arg(counted(count, tr("1 node"), tr("%1 nodes")), precisionLabel(precision))
                       : text;
    pushPlanEdit(std::move(before), std::move(after), label);
}

void ModelDocument::cyclePrecision(const QList<NodeId>& nodes, const QList<BodyNodeRef>& bodyNodes) {
    if (!mModel || (nodes.isEmpty() && bodyNodes.isEmpty())) return;
    PlanEdit before, after;
    before.nodes = after.nodes = nodes;
    for (NodeId node : nodes) {
        before.precisions.append(mPlan.requested(node));
        after.precisions.append(nextPrecision(before.precisions.back()));
    }
    if (auto bodies = editedBodies(bodyNodes, std::nullopt)) {
        before.bodies = mPlan.bodies();
        after.bodies = std::move(bodies);
    }
    if (before.isEmpty()) return;
    pushPlanEdit(
        std::move(before), std::move(after),
        tr("Cycle precision of %1").arg(counted(nodes.size() + bodyNodes.size(), tr("1 node"), tr("%1 nodes"))));
}

std::optional<std::vector<BodyPlan>> ModelDocument::editedBodies(const QList<BodyNodeRef>& bodyNodes,
                                                                 std::optional<Precision> precision) const {
    if (bodyNodes.isEmpty()) return std::nullopt;
    PrecisionPlan edited;  // holds the body plans alone
    edited.bodies() = mPlan.bodies();
    for (const BodyNodeRef& ref : bodyNodes) {
        PrecisionPlan* body = ensureBodyPlan(edited, bodyGraphs(), ref.path);
        if (!body || ref.node < 0 || static_cast<size_t>(ref.node) >= body->size()) continue;
        body->setRequested(ref.node, precision ? *precision : nextPrecision(body->requested(ref.node)));
    }
    if (changedBodyLayers(mPlan.bodies(), edited.bodies(), false) == 0) return std::nullopt;
    return std::move(edited.bodies());
}

void ModelDocument::setOpTypePrecision(const QString& opType, Precision precision) {
    if (!mModel) return;
    QList<NodeId> nodes;
    const std::string op = opType.toStdString();
    for (const Node& node : mModel->graph().nodes())
        if (node.opType == op) nodes.append(node.id);
    // A body without a plan runs FP32 already: setting its layers to FP32 would only give it a plan.
    QList<BodyNodeRef> bodyNodes;
    for (BodyNodeRef& ref : bodyNodesOfOp(bodyGraphs(), op))
        if (precision != Precision::Fp32 || bodyPlan(mPlan, ref.path)) bodyNodes.append(std::move(ref));
    setRequestedPrecision(nodes, precision, tr("Set every %1 to %2").arg(opType, precisionLabel(precision)), bodyNodes);
}

void ModelDocument::setTensorMethod(const QString& tensor, std::optional<CalibrationMethod> method) {
    const std::string name = tensor.toStdString();
    if (!mModel || name.empty() || method == CalibrationMethod::Auto) return;
    const std::optional<CalibrationMethod> current = mPlan.tensorMethod(name);
    if (current == method) return;
    PlanEdit before, after;
    before.tensorMethods[name] = current;
    after.tensorMethods[name] = method;
    const QString label = method ? tr("Range of %1 from %2").arg(tensor, QString::fromUtf8(amaxMethodKey(*method)))
                                 : tr("Range of %1 from the calibration").arg(tensor);
    pushPlanEdit(std::move(before), std::move(after), label);
}

void ModelDocument::replacePlan(const PrecisionPlan& plan, const QString& text) {
    if (!mModel || plan.size() != mPlan.size()) return;
    auto [before, after] = planChange(mModel->graph(), mPlan, plan);
    if (!after.isEmpty()) pushPlanEdit(std::move(before), std::move(after), text);
}

void ModelDocument::pushPlanEdit(PlanEdit before, PlanEdit after, const QString& text) {
    mUndoStack->push(new PlanEditCommand(this, std::move(before), std::move(after), text));
}

void ModelDocument::applyPlanEdit(const PlanEdit& edit) {
    for (qsizetype i = 0; i < edit.nodes.size() && i < edit.precisions.size(); ++i)
        mPlan.setRequested(edit.nodes[i], edit.precisions[i], i < edit.notes.size() ? edit.notes[i] : std::string());
    for (const auto& [tensor, method] : edit.tensorMethods) mPlan.setTensorMethod(tensor, method);
    if (edit.bodies) mPlan.bodies() = *edit.bodies;
    relint(true);
    announcePlanEdit();
}

ModelDocument::Relinted ModelDocument::relinted(const Model& model, PrecisionPlan plan, TrtTarget target,
                                                const CalibrationResult* calibration) {
    Relinted out;
    applyTrtPolicies(model.graph(), plan, target, calibration);
    if (calibration) {
        // Fails only when a tensor method names a tensor this calibration has no per-method amax for: then
        // there are no calib-* findings until the next calibration.
        if (auto diagnosis = diagnoseCalibration(model.graph(), plan, *calibration))
            out.diagnosis = std::make_shared<const CalibrationDiagnosis>(std::move(diagnosis).value());
    }
    out.lint = lintModel(model, plan,
                         {.version = target.version, .calibration = out.diagnosis.get(), .typing = target.typing});
    out.plan = std::move(plan);
    return out;
}

void ModelDocument::relint(bool inBackground) {
    // A newer relint supersedes a running one: its outcome is never taken.
    mRelintPending = false;
    mRelintUnannounced = false;
    if (!mModel) return;
    if (!inBackground || mModel->graph().nodes().size() <= kRelintInBackgroundAbove) {
        adopt(relinted(*mModel, mPlan, mTrtTarget, mCalibration.get()));
        return;
    }
    mRelintPending = true;
    mRelintWatcher->setFuture(QtConcurrent::run(
        &mRelintPool, [model = std::shared_ptr<const Model>(mModel), plan = mPlan, target = mTrtTarget,
                       calibration = mCalibration] { return relinted(*model, plan, target, calibration.get()); }));
}

void ModelDocument::adopt(Relinted&& out) const {
    mPlan = std::move(out.plan);
    mDiagnosis = std::move(out.diagnosis);
    mLint = std::move(out.lint);
}

void ModelDocument::settleRelint() const {
    if (!mRelintPending) return;
    adopt(mRelintWatcher->future().takeResult());
    mRelintPending = false;
    mRelintUnannounced = true;
}

void ModelDocument::relintFinished() {
    if (mRelintPending) settleRelint();
    if (!mRelintUnannounced) return;  // superseded, or announced already
    mRelintUnannounced = false;
    emit planChanged();
    emit lintChanged();
}

void ModelDocument::announcePlanEdit() {
    emit planChanged();
    if (!mRelintPending) emit lintChanged();
}

void ModelDocument::setLatencyFindings(std::vector<Finding> findings) {
    std::vector<Finding>& all = mLint.findings;
    std::erase_if(all, [](const Finding& f) { return isLatencyRule(f.ruleId); });
    all.insert(all.end(), std::make_move_iterator(findings.begin()), std::make_move_iterator(findings.end()));
    std::stable_sort(all.begin(), all.end(),
                     [](const Finding& a, const Finding& b) { return a.severity < b.severity; });
    emit lintChanged();
}

void ModelDocument::setCalibration(std::shared_ptr<const CalibrationResult> calibration) {
    mCalibration = std::move(calibration);
    relint();  // the FP16 guard reads the new activations: effective precisions may move
    setResultsModified(true, tr("calibration"));
    emit planChanged();
    emit calibrationChanged();
    emit lintChanged();
}

std::shared_ptr<const AnalysisReport> ModelDocument::analysis(AnalysisMode mode) const {
    return mode == AnalysisMode::Accumulated ? mAccumulated : mIsolated;
}

void ModelDocument::setAnalysis(AnalysisMode mode, std::shared_ptr<const AnalysisReport> report,
                                const PrecisionPlan* measured) {
    std::shared_ptr<const AnalysisReport>& kept = mode == AnalysisMode::Accumulated ? mAccumulated : mIsolated;
    // A calibration without the error measured clears an analysis that was never there: nothing to save.
    const bool changed = kept || report;
    kept = std::move(report);
    mAnalysisPlan = measured ? *measured : mPlan;
    mAnalysisCalibration = mCalibration;
    mSavedStaleReason.clear();
    if (changed) setResultsModified(true, tr("error analysis"));
    emit analysisChanged();
}

QString ModelDocument::analysisStaleReason() const {
    if (!mModel || (!mAccumulated && !mIsolated) || !mAnalysisPlan) return {};
    // Every reason, not the first: a new calibration and an edited plan each need the other measured too.
    QStringList reasons;
    if (mAnalysisCalibration != mCalibration) reasons.append(tr("the calibration changed"));
    const int changed = changedLayers(mModel->graph(), *mAnalysisPlan, mPlan);
    if (changed < 0)
        reasons.append(tr("the plan changed"));
    else if (changed == 1)
        reasons.append(tr("the plan changed (1 layer differs)"));
    else if (changed > 1)
        reasons.append(tr("the plan changed (%1 layers differ)").arg(changed));
    if (reasons.isEmpty()) return mSavedStaleReason;
    return tr("%1 since it was measured").arg(reasons.join(tr(" and ")));
}

void ModelDocument::setDataSettings(nlohmann::json settings) {
    if (!settings.is_object() || settings == mDataSettings) return;
    mDataSettings = std::move(settings);
    setResultsModified(true, tr("data settings"));
}

void ModelDocument::setTuneReport(std::shared_ptr<const TuneReport> report) {
    mTuneReport = std::move(report);
    emit tuneReportChanged();
}

void ModelDocument::setEngineRun(std::shared_ptr<const EngineRun> run) {
    mEngine = std::move(run);
    setResultsModified(true, tr("engine report"));  // its files are saved in the project
    emit engineChanged();
}

void ModelDocument::replanEngine() {
    if (!mEngine || !mModel) return;
    const Graph& graph = mModel->graph();
    mEngine = replanEngineRun(*mEngine, graph, plannedFromPlan(graph, mPlan, mLint));
    emit engineChanged();
}

QStringList ModelDocument::unsavedChanges() const {
    if (!isModified()) return {};
    QStringList changes = mUnsavedChanges;
    if (!mUndoStack->isClean()) changes.prepend(tr("precisions"));
    return changes;
}

bool ModelDocument::isModified() const {
    return mModel && (mResultsModified || !mUndoStack->isClean());
}

void ModelDocument::setProjectPath(const QString& path) {
    if (path == mProjectPath) return;
    mProjectPath = path;
    emit projectPathChanged();
}

void ModelDocument::markSaved() {
    mUndoStack->setClean();
    setResultsModified(false);
}

void ModelDocument::setResultsModified(bool modified, const QString& what) {
    mResultsModified = modified;
    if (!modified) mUnsavedChanges.clear();
    if (modified && !what.isEmpty() && !mUnsavedChanges.contains(what)) mUnsavedChanges.append(what);
    const bool now = isModified();
    if (now != mLastModified) emit modifiedChanged(mLastModified = now);
}

}  // namespace ql::ui
