#pragma once
// Fit to Window that shows a readable structure (issue 29). Fitting a long graph as laid out gave a one-pixel
// sliver (a 672-node chain is one box wide and 50,000 units tall), so when the whole graph would show at less than
// kReadableZoom the fit changes what is laid out, in the background, one layout at a time:
//
//   1. the graph as it is shown, wrapped into side-by-side columns (LayoutOptions::wrapWidth: rank ranges laid out
//      left to right, the edge between columns from the bottom of one to the top of the next) when that fits;
//   2. else the deepest name-scope level whose blocks, wrapped if need be, fit (GraphScene::collapseToLevel);
//   3. else the coarsest level (or, without scopes, the wrapped graph) at whatever zoom fits it whole.
//
// Both, because neither does alone: wrapping keeps every box (a flat chain has no scopes to collapse), but no
// wrapping makes 100,000 boxes readable on one screen, while scope blocks are what a big exported model is made of.
// Levels that cannot fit by their box count alone are skipped without a layout. Undo: expanding a block re-opens
// it, and fitAsLaidOut() drops the columns and fits the plain layout, however small.
//
//   GraphFit fit(view);
//   fit.fitReadably();  // View > Fit to Window, F, 0
//   connect(&fit, &GraphFit::fitted, ...);
#include <QObject>
#include <QPointer>
#include <vector>

namespace ql::ui {

class GraphScene;
class GraphView;

class GraphFit : public QObject {
    Q_OBJECT
public:
    // Boxes show their op type from about 0.22 (GraphNodeItem::titleShownAt for a box of one line's height).
    static constexpr double kReadableZoom = 0.25;

    explicit GraphFit(GraphView* view);

    void fitReadably();
    // One column, the user's blocks as they are, fitted whole.
    void fitAsLaidOut();
    // A fit waits for a layout.
    bool isFitting() const { return !mScene.isNull(); }
    // The zoom that fits the shown scene whole into the viewport.
    double wholeSceneZoom() const;

signals:
    // The view shows the result of fitReadably() or fitAsLaidOut().
    void fitted();

private:
    void onLayoutApplied();
    bool tryNextLevel();
    void finish();
    // Whether `boxes` boxes could fit at kReadableZoom, at the smallest box of the layout shown.
    bool couldFit(size_t boxes) const;
    void setWrapped(bool wrapped, bool relayout);

    GraphView* mView;
    QPointer<GraphScene> mScene;  // the scene being fitted; null when no fit waits
    std::vector<int> mLevels;     // scope levels still to try, deepest first
};

}  // namespace ql::ui
