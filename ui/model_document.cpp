#include "ui/model_document.h"

#include <QUndoCommand>
#include <QUndoStack>

#include "core/lint/lint_policy.h"
#include "core/quant/default_placement.h"

namespace ql::ui {

namespace {

// Requested precisions of some nodes before and after an edit.
class PrecisionEditCommand final : public QUndoCommand {
public:
    PrecisionEditCommand(ModelDocument* document, QList<NodeId> nodes, QList<Precision> before, QList<Precision> after,
                         const QString& text)
        : QUndoCommand(text),
          mDocument(document),
          mNodes(std::move(nodes)),
          mBefore(std::move(before)),
          mAfter(std::move(after)) {}
    void redo() override { mDocument->applyRequested(mNodes, mAfter); }
    void undo() override { mDocument->applyRequested(mNodes, mBefore); }

private:
    ModelDocument* mDocument;
    QList<NodeId> mNodes;
    QList<Precision> mBefore, mAfter;
};

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

void applyTrtPolicies(const Graph& graph, PrecisionPlan& plan, TrtVersion version) {
    const LintPolicy policy(version);
    const PrecisionPolicy* policies[] = {&policy};
    plan.applyPolicies(graph, policies);
}

}  // namespace

ModelDocument::ModelDocument(QObject* parent) : QObject(parent), mUndoStack(new QUndoStack(this)) {
    connect(mUndoStack, &QUndoStack::cleanChanged, this, [this] {
        const bool modified = isModified();
        if (modified != mLastModified) emit modifiedChanged(mLastModified = modified);
    });
}

ModelDocument::~ModelDocument() = default;

std::shared_ptr<LoadedModel> ModelDocument::load(const QString& path, TrtVersion version) {
    auto loaded = std::make_shared<LoadedModel>();
    loaded->path = path;
    auto model = Model::load(path.toStdString());
    if (!model) {
        loaded->error = QString::fromStdString(model.status().message());
        return loaded;
    }
    loaded->model = std::shared_ptr<Model>(std::move(model).value());
    const Graph& graph = loaded->model->graph();
    loaded->plan = defaultPrecisionPlan(graph);
    decidePrecisions(*loaded, version);
    return loaded;
}

void ModelDocument::decidePrecisions(LoadedModel& loaded, TrtVersion version) {
    if (!loaded.model) return;
    applyTrtPolicies(loaded.model->graph(), loaded.plan, version);
    loaded.lint = ql::lint(loaded.model->graph(), loaded.plan, {version});
    loaded.trtVersion = version;
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
    loaded.trtVersion = mTrtVersion;
    if (loaded.model) {
        loaded.plan = defaultPrecisionPlan(loaded.model->graph());
        decidePrecisions(loaded, mTrtVersion);
    }
    replaceModel(loaded);
}

void ModelDocument::replaceModel(const LoadedModel& loaded) {
    emit modelAboutToBeReplaced();
    mModel = loaded.model;
    mPlan = loaded.plan;
    mLint = loaded.lint;
    mTrtVersion = loaded.trtVersion;
    mCalibration = loaded.calibration;
    mAccumulated = loaded.accumulated;
    mIsolated = loaded.isolated;
    mProjectPath = loaded.projectPath;
    mDataSettings = loaded.dataSettings.is_object() ? loaded.dataSettings : nlohmann::json::object();
    mUndoStack->clear();
    mResultsModified = false;
    markSaved();
    emit modelReplaced();
    emit planChanged();
    emit calibrationChanged();
    emit analysisChanged();
}

void ModelDocument::setRequestedPrecision(const QList<NodeId>& nodes, Precision precision, const QString& text) {
    if (!mModel || nodes.isEmpty()) return;
    QList<Precision> before, after;
    for (NodeId node : nodes) {
        before.append(mPlan.requested(node));
        after.append(precision);
    }
    if (before == after) return;
    const QString label =
        text.isEmpty()
            ? tr("Set %n node(s) to %1", nullptr, static_cast<int>(nodes.size())).arg(precisionLabel(precision))
            : text;
    mUndoStack->push(new PrecisionEditCommand(this, nodes, before, after, label));
}

void ModelDocument::cyclePrecision(const QList<NodeId>& nodes) {
    if (!mModel || nodes.isEmpty()) return;
    QList<Precision> before, after;
    for (NodeId node : nodes) {
        before.append(mPlan.requested(node));
        after.append(nextPrecision(before.back()));
    }
    mUndoStack->push(new PrecisionEditCommand(
        this, nodes, before, after, tr("Cycle precision of %n node(s)", nullptr, static_cast<int>(nodes.size()))));
}

void ModelDocument::setOpTypePrecision(const QString& opType, Precision precision) {
    if (!mModel) return;
    QList<NodeId> nodes;
    const std::string op = opType.toStdString();
    for (const Node& node : mModel->graph().nodes())
        if (node.opType == op) nodes.append(node.id);
    setRequestedPrecision(nodes, precision, tr("Set every %1 to %2").arg(opType, precisionLabel(precision)));
}

void ModelDocument::replacePlan(const PrecisionPlan& plan, const QString& text) {
    if (!mModel || plan.size() != mPlan.size()) return;
    QList<NodeId> nodes;
    QList<Precision> before, after;
    for (const Node& node : mModel->graph().nodes()) {
        if (plan.requested(node.id) == mPlan.requested(node.id)) continue;
        nodes.append(node.id);
        before.append(mPlan.requested(node.id));
        after.append(plan.requested(node.id));
    }
    if (!nodes.isEmpty()) mUndoStack->push(new PrecisionEditCommand(this, nodes, before, after, text));
}

void ModelDocument::applyRequested(const QList<NodeId>& nodes, const QList<Precision>& precisions) {
    for (qsizetype i = 0; i < nodes.size() && i < precisions.size(); ++i) mPlan.setRequested(nodes[i], precisions[i]);
    relint();
    emit planChanged();
}

void ModelDocument::relint() {
    if (!mModel) return;
    applyTrtPolicies(mModel->graph(), mPlan, mTrtVersion);
    mLint = ql::lint(mModel->graph(), mPlan, {mTrtVersion});
}

void ModelDocument::setCalibration(std::shared_ptr<const CalibrationResult> calibration) {
    mCalibration = std::move(calibration);
    setResultsModified(true);
    emit calibrationChanged();
}

std::shared_ptr<const AnalysisReport> ModelDocument::analysis(AnalysisMode mode) const {
    return mode == AnalysisMode::Accumulated ? mAccumulated : mIsolated;
}

void ModelDocument::setAnalysis(AnalysisMode mode, std::shared_ptr<const AnalysisReport> report) {
    (mode == AnalysisMode::Accumulated ? mAccumulated : mIsolated) = std::move(report);
    setResultsModified(true);
    emit analysisChanged();
}

bool ModelDocument::isModified() const {
    return mModel && (mResultsModified || !mUndoStack->isClean());
}

void ModelDocument::markSaved() {
    mUndoStack->setClean();
    setResultsModified(false);
}

void ModelDocument::setResultsModified(bool modified) {
    mResultsModified = modified;
    const bool now = isModified();
    if (now != mLastModified) emit modifiedChanged(mLastModified = now);
}

}  // namespace ql::ui
