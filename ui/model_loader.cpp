#include "ui/model_loader.h"

#include <QFileInfo>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "core/exec/observed_costs.h"
#include "ui/graph/graph_snapshot.h"
#include "ui/model_document.h"
#include "ui/project_file.h"

namespace ql::ui {

void measureModelCosts(Model& model) {
    (void)measureLayerCosts(model, std::max(1, QThread::idealThreadCount()));
}

bool isProjectPath(const QString& path) {
    return QFileInfo(path).suffix().compare(QLatin1String(kProjectSuffix), Qt::CaseInsensitive) == 0;
}

ModelLoader::ModelLoader(QObject* parent) : QObject(parent) {
    connect(&mWatcher, &QFutureWatcher<std::shared_ptr<LoadedModel>>::finished, this, &ModelLoader::finished);
}

ModelLoader::~ModelLoader() {
    if (mWatcher.isRunning()) mWatcher.waitForFinished();  // a taken result leaves nothing to wait for
}

bool ModelLoader::isLoading() const {
    return mWatcher.isRunning() || mPending.has_value();
}

void ModelLoader::load(const QString& path, TrtTarget target, const QString& modelPath) {
    if (mWatcher.isRunning()) {
        mPending = Request{path, target, modelPath};
        return;
    }
    mPending.reset();
    // The structure goes to the GUI thread while the load goes on (queued: this object lives there, and a
    // destroyed loader drops it).
    auto preview = [this](const Graph& graph) {
        if (graph.nodes().size() < kPreviewNodes) return;
        auto structure = std::make_shared<GraphSnapshot>(GraphSnapshot::from(graph));
        QMetaObject::invokeMethod(
            this,
            [this, structure] {
                if (!mPending) emit previewReady(structure);
            },
            Qt::QueuedConnection);
    };
    // A bare model takes the target the caller gives; a project brings its own.
    mWatcher.setFuture(QtConcurrent::run([path, target, modelPath, preview] {
        auto loaded = isProjectPath(path) ? loadProject(path, modelPath) : ModelDocument::load(path, target, preview);
        if (loaded->model) measureModelCosts(*loaded->model);
        return loaded;
    }));
}

void ModelLoader::finished() {
    if (mPending) {
        const Request next = *mPending;
        load(next.path, next.target, next.modelPath);
        return;
    }
    // Taken out of the future, so that it holds no model once the document lets go of it.
    const std::shared_ptr<LoadedModel> outcome = mWatcher.future().takeResult();
    emit loaded(outcome);
}

}  // namespace ql::ui
