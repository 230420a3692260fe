#pragma once
// Runs layoutGraph() on an owned thread (STYLE.md rule 8: a long-lived service restarted on every change).
// A newer request supersedes older ones: a queued request that is no longer the latest is skipped, and the
// result of one that was already running (Graphviz cannot be interrupted) is dropped, so only the latest
// request ever reports.
#include <QObject>
#include <QThread>
#include <atomic>
#include <memory>

#include "ui/graph/graph_layout.h"

namespace ql::ui {

class GraphLayoutEngine : public QObject {
    Q_OBJECT
public:
    explicit GraphLayoutEngine(QObject* parent = nullptr);
    // Waits for a layout in progress to end (it cannot be interrupted).
    ~GraphLayoutEngine() override;
    GraphLayoutEngine(const GraphLayoutEngine&) = delete;
    GraphLayoutEngine& operator=(const GraphLayoutEngine&) = delete;

    // Starts laying out `graph`; returns the request's generation (increasing from 1).
    quint64 requestLayout(VisibleGraph graph, const LayoutOptions& options = {});
    quint64 latestGeneration() const { return mLatest.load(); }
    // Whether the latest request has not reported yet.
    bool isBusy() const { return mLatest.load() != mDelivered; }

signals:
    // Emitted on the GUI thread for the latest request only.
    void layoutFinished(quint64 generation, std::shared_ptr<const ql::ui::GraphLayout> layout);

private:
    void deliver(quint64 generation, std::shared_ptr<const GraphLayout> layout);

    QThread mThread;
    QObject* mWorker;  // lives on mThread: the context of the queued layout calls
    std::atomic<quint64> mLatest{0};
    quint64 mDelivered = 0;
};

}  // namespace ql::ui
