#include "ui/graph/graph_layout_engine.h"

#include <limits>

namespace ql::ui {

GraphLayoutEngine::GraphLayoutEngine(QObject* parent) : QObject(parent), mWorker(new QObject) {
    mThread.setObjectName(QStringLiteral("GraphLayout"));
    mWorker->moveToThread(&mThread);
    connect(&mThread, &QThread::finished, mWorker, &QObject::deleteLater);
    mThread.start(QThread::LowPriority);
}

GraphLayoutEngine::~GraphLayoutEngine() {
    // Queued requests see they are stale and return at once.
    mLatest.store(std::numeric_limits<quint64>::max());
    mThread.quit();
    mThread.wait();
}

quint64 GraphLayoutEngine::requestLayout(VisibleGraph graph, const LayoutOptions& options) {
    const quint64 generation = ++mLatest;
    auto input = std::make_shared<VisibleGraph>(std::move(graph));
    QMetaObject::invokeMethod(
        mWorker,
        [this, generation, input, options] {
            if (generation != mLatest.load()) return;  // superseded before it started
            auto layout = std::make_shared<const GraphLayout>(layoutGraph(std::move(*input), options));
            QMetaObject::invokeMethod(
                this, [this, generation, layout] { deliver(generation, layout); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return generation;
}

void GraphLayoutEngine::deliver(quint64 generation, std::shared_ptr<const GraphLayout> layout) {
    if (generation != mLatest.load()) return;  // superseded while it ran
    mDelivered = generation;
    emit layoutFinished(generation, std::move(layout));
}

}  // namespace ql::ui
