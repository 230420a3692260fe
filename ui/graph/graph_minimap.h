#pragma once
// The overview of the graph view (issue 29): the whole shown scene (the main graph's or the open body's) scaled
// down, each box a rectangle in its precision's colour (its op family's fill while it has none), with the viewport
// as a rectangle; a click centres the view there and a drag moves it (grabbing the rectangle keeps it under the
// mouse). It sits at the right end of the strip under the viewport, beside the legend (GraphView::placeOverlays),
// so it never covers a box; collapsed it is a small button that opens it again (View > Show Overview, kept in
// QSettings).
//
// The picture is rendered from the layout into a cached image only when the scene changes (a new layout, another
// level, precisions or engine marks), never while panning or zooming, which repaint only the rectangle.
#include <QImage>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QAction;
class QToolButton;

namespace ql::ui {

class GraphScene;
class GraphView;

inline constexpr char kShowOverviewSetting[] = "graph/showOverview";

class GraphMinimap : public QWidget {
    Q_OBJECT
public:
    explicit GraphMinimap(GraphView* view);

    // Expanded: the overview; collapsed: the button alone. The action (checkable) toggles it and follows it.
    void setExpanded(bool expanded);
    bool isExpanded() const { return mExpanded; }
    QAction* showAction() const { return mShowAction; }

    // Where the picture shows the scene, and the viewport's rectangle in it, in the minimap's coordinates.
    QRectF pictureRect() const;
    QRectF viewportRect() const;
    QPointF mapToScene(QPointF point) const;
    QPointF mapFromScene(QPointF point) const;
    // The scene's picture, rendered when the scene last changed; and how long that took (milliseconds).
    const QImage& picture() const { return mPicture; }
    double lastRenderMs() const { return mRenderMs; }
    // Renders the picture now if the scene changed since (otherwise on the next turn of the event loop).
    void renderIfChanged();

signals:
    void expandedChanged(bool expanded);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    // The picture is drawn in the palette's colours: a theme switch renders it again (it stayed white in dark).
    void changeEvent(QEvent* event) override;

private:
    void scheduleRender();
    void render();
    void moveViewTo(QPointF point);

    GraphView* mView;
    QToolButton* mToggle;
    QAction* mShowAction;
    bool mExpanded = true;
    QImage mPicture;
    QRectF mSceneRect;  // the scene rectangle the picture shows
    QPointer<GraphScene> mRenderedScene;
    const void* mRenderedLayout = nullptr;  // the scene's layout when rendered: another one means render again
    bool mStale = true;
    QTimer mRenderTimer;
    double mRenderMs = 0;
    QRectF mShownViewport;  // the last viewport rectangle painted
    bool mDragging = false;
    QPointF mGrabOffset;  // from the rectangle's centre to the mouse, while dragging it
};

}  // namespace ql::ui
