#include "ui/graph/graph_fit.h"

#include <algorithm>
#include <limits>

#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"

namespace ql::ui {

namespace {

// Operators and blocks shown (the graph's inputs and outputs aside, as in boxesCollapsedAt).
size_t shownBoxes(const GraphLayout& layout) {
    return static_cast<size_t>(std::count_if(layout.graph.nodes.begin(), layout.graph.nodes.end(), [](const auto& n) {
        return n.kind == VisibleKind::Operator || n.kind == VisibleKind::Block;
    }));
}

}  // namespace

GraphFit::GraphFit(GraphView* view) : QObject(view), mView(view) {
    connect(view, &GraphView::layoutApplied, this, &GraphFit::onLayoutApplied);
    connect(view, &GraphView::graphReplaced, this, [this] {
        mScene = nullptr;
        mLevels.clear();
    });
}

double GraphFit::wholeSceneZoom() const {
    const QRectF scene = mView->shownScene()->sceneRect();
    const QSize viewport = mView->viewport()->size();
    if (scene.isEmpty() || viewport.isEmpty()) return 1;
    return std::min(viewport.width() / scene.width(), viewport.height() / scene.height());
}

bool GraphFit::couldFit(size_t boxes) const {
    const GraphLayout* layout = mView->shownScene()->layout();
    const LayoutOptions& options = mView->shownScene()->layoutOptions();
    double smallest = std::numeric_limits<double>::max();
    for (const LayoutRect& r : layout->nodeRects)
        smallest = std::min(smallest, (r.width + options.nodeSeparation) * (r.height + options.rankSeparation));
    const QSize viewport = mView->viewport()->size();
    const double area = viewport.width() * viewport.height() / (kReadableZoom * kReadableZoom);
    return static_cast<double>(boxes) * smallest <= area;
}

// The wrap area is the viewport at kReadableZoom, less the scene's margins.
void GraphFit::setWrapped(bool wrapped, bool relayout) {
    GraphScene* scene = mView->shownScene();
    LayoutOptions options = scene->layoutOptions();
    const QSize viewport = mView->viewport()->size();
    options.wrapWidth = wrapped ? viewport.width() / kReadableZoom - 2 * GraphScene::kSceneMargin : 0;
    options.wrapHeight = wrapped ? viewport.height() / kReadableZoom - 2 * GraphScene::kSceneMargin : 0;
    scene->setLayoutOptions(options, relayout);
}

void GraphFit::fitReadably() {
    mScene = nullptr;
    mLevels.clear();
    GraphScene* scene = mView->shownScene();
    const GraphLayout* layout = scene->layout();
    if (!layout) return;
    if (wholeSceneZoom() >= kReadableZoom) {
        finish();
        return;
    }
    // The scope levels that show fewer boxes than now, deepest first; the coarsest stays as the last resort.
    const size_t shown = shownBoxes(*layout);
    int deepest = 0;
    for (const auto& entry : scene->shownScopeSizes()) deepest = std::max(deepest, scopeLevel(entry.first));
    std::vector<int> fewer;
    for (int level = deepest; level >= 1; --level) {
        const size_t boxes = boxesCollapsedAt(scene->shownScopeSizes(), layout->graph.operatorCount, level);
        if (boxes >= shown) continue;
        fewer.push_back(level);
        if (couldFit(boxes)) mLevels.push_back(level);
    }
    if (mLevels.empty() && !fewer.empty()) mLevels.push_back(fewer.back());
    mScene = scene;
    const LayoutOptions before = scene->layoutOptions();
    setWrapped(true, false);
    const bool alreadyWrapped =
        before.wrapWidth == scene->layoutOptions().wrapWidth && before.wrapHeight == scene->layoutOptions().wrapHeight;
    // The graph as shown, wrapped, when it can fit (or nothing else can help); else straight to the levels.
    if (!alreadyWrapped && (couldFit(shown) || mLevels.empty()))
        scene->setLayoutOptions(scene->layoutOptions());
    else if (!tryNextLevel())
        finish();
}

void GraphFit::fitAsLaidOut() {
    mLevels.clear();
    mScene = nullptr;
    if (mView->shownScene()->layoutOptions().wrapWidth <= 0) {
        finish();
        return;
    }
    mScene = mView->shownScene();
    setWrapped(false, true);  // fitted when laid out (onLayoutApplied, no level left to try)
}

void GraphFit::onLayoutApplied() {
    GraphScene* scene = mView->shownScene();
    if (!mScene) return;
    if (mScene.data() != scene) {
        mScene = nullptr;
        mLevels.clear();
        return;
    }
    if (scene->isLayoutPending()) return;  // a newer layout is on its way
    if (scene->layoutOptions().wrapWidth <= 0 || wholeSceneZoom() >= kReadableZoom || !tryNextLevel()) finish();
}

bool GraphFit::tryNextLevel() {
    if (mLevels.empty()) return false;
    const int level = mLevels.front();
    mLevels.erase(mLevels.begin());
    mScene->collapseToLevel(level);
    return true;
}

void GraphFit::finish() {
    mScene = nullptr;
    mLevels.clear();
    mView->fitWholeScene();
    emit fitted();
}

}  // namespace ql::ui
