// GraphView's search (graph_search.h): matches in the level shown, then inside the bodies below it
// (body_search.h), which a match opens.
#include "ui/graph/graph_view.h"

namespace ql::ui {

void GraphView::startSearch(const QString& text) {
    const Graph* graph = shownGraph();
    mSearch.start(shownScene()->snapshot(), text, graph ? searchBodies(*graph, text) : std::vector<BodyMatch>{});
    mSearchDepth = mLevels.depth();
}

bool GraphView::findAndCenter(const QString& text) {
    if (!shownScene()->hasGraph()) return false;
    startSearch(text.trimmed());
    showMatch(mSearch.currentNode());
    return mSearch.count() > 0;
}

void GraphView::findNext(const QString& text) {
    if (text.trimmed() != mSearch.text()) {
        findAndCenter(text);
        return;
    }
    showMatch(mSearch.next());
}

void GraphView::findPrevious(const QString& text) {
    if (text.trimmed() != mSearch.text()) {
        findAndCenter(text);
        return;
    }
    showMatch(mSearch.previous());
}

void GraphView::showMatch(std::optional<NodeId> node) {
    // Matches are of the level searched and the bodies below it: go back there, open the bodies a match is in.
    // Changing level clears the search (showCurrentLevel); this one goes on.
    const GraphSearch search = mSearch;
    const BodyMatch* body = search.currentBodyMatch();  // the copy: the levels opened clear mSearch
    if (mLevels.depth() > mSearchDepth && (node || body)) returnTo(mSearchDepth);
    if (body) node = openBodiesOf(*body);
    mSearch = search;
    emit searchChanged(mSearch.current(), mSearch.count());
    if (!node) return;
    GraphScene* shown = shownScene();
    if (shown->layout() == nullptr || shown->isLayoutPending() || shown->revealNode(*node)) {
        mPendingFocus = *node;  // selected when the layout that shows it arrives
        return;
    }
    selectShownNode(*node);
}

std::optional<NodeId> GraphView::openBodiesOf(const BodyMatch& match) {
    for (const BodyStep& step : match.path) {
        const auto owner = shownScene()->snapshot().findNode(step.owner);
        if (!owner || !openSubgraph(*owner, QString::fromStdString(step.attribute))) return std::nullopt;
    }
    return shownScene()->snapshot().findNode(match.node);
}

}  // namespace ql::ui
