#include "ui/graph/graph_minimap.h"

#include <QAction>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolButton>
#include <algorithm>

#include "ui/graph/graph_edge_item.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"

namespace ql::ui {

namespace {

constexpr int kWidth = 220;
constexpr int kHeight = 100;
constexpr int kPadding = 4;
constexpr double kSmallestRectangle = 4;  // pixels: the viewport's rectangle stays visible however far zoomed in
// Past this many edges the boxes alone show the structure (edges then cost more to draw than they tell).
constexpr size_t kMostEdgesDrawn = 20000;

QPointF toQt(const LayoutPoint& p) {
    return {p.x, p.y};
}

}  // namespace

GraphMinimap::GraphMinimap(GraphView* view)
    : QWidget(view), mView(view), mToggle(new QToolButton(this)), mShowAction(new QAction(tr("Show &Overview"), this)) {
    setObjectName(QStringLiteral("GraphMinimap"));
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("Overview of the graph: click or drag to move the view"));
    mToggle->setAutoRaise(true);
    connect(mToggle, &QToolButton::clicked, this, [this] { setExpanded(!mExpanded); });
    mShowAction->setCheckable(true);
    mShowAction->setChecked(true);
    connect(mShowAction, &QAction::toggled, this, &GraphMinimap::setExpanded);
    mRenderTimer.setSingleShot(true);
    mRenderTimer.setInterval(0);
    connect(&mRenderTimer, &QTimer::timeout, this, &GraphMinimap::render);
    connect(view, &GraphView::layoutApplied, this, &GraphMinimap::scheduleRender);
    view->viewport()->installEventFilter(this);
    mExpanded = false;
    setExpanded(true);
}

void GraphMinimap::setExpanded(bool expanded) {
    if (mExpanded == expanded) return;
    mExpanded = expanded;
    mShowAction->setChecked(expanded);
    mToggle->setToolButtonStyle(expanded ? Qt::ToolButtonIconOnly : Qt::ToolButtonTextBesideIcon);
    mToggle->setArrowType(expanded ? Qt::DownArrow : Qt::UpArrow);
    mToggle->setText(tr("Overview"));
    mToggle->setToolTip(expanded ? tr("Hide the overview") : tr("Show the overview"));
    mToggle->adjustSize();
    if (expanded) {
        mToggle->resize(16, 16);
        resize(kWidth, kHeight);
        mToggle->move(width() - mToggle->width() - 1, 1);
        scheduleRender();
    } else {
        mToggle->move(0, 0);
        resize(mToggle->size());
    }
    update();
    emit expandedChanged(expanded);
}

QRectF GraphMinimap::pictureRect() const {
    if (mSceneRect.isEmpty()) return {};
    const QRectF area = QRectF(0, 0, kWidth, kHeight).adjusted(kPadding, kPadding, -kPadding, -kPadding);
    const double scale = std::min(area.width() / mSceneRect.width(), area.height() / mSceneRect.height());
    const QSizeF size = mSceneRect.size() * scale;
    return QRectF(area.center() - QPointF(size.width() / 2, size.height() / 2), size);
}

QPointF GraphMinimap::mapFromScene(QPointF point) const {
    const QRectF picture = pictureRect();
    if (picture.isEmpty()) return {};
    const double scale = picture.width() / mSceneRect.width();
    return picture.topLeft() + (point - mSceneRect.topLeft()) * scale;
}

QPointF GraphMinimap::mapToScene(QPointF point) const {
    const QRectF picture = pictureRect();
    if (picture.isEmpty()) return {};
    const double scale = picture.width() / mSceneRect.width();
    return mSceneRect.topLeft() + (point - picture.topLeft()) / scale;
}

QRectF GraphMinimap::viewportRect() const {
    if (pictureRect().isEmpty()) return {};
    const QRectF shown = mView->mapToScene(mView->viewport()->rect()).boundingRect();
    QRectF rect(mapFromScene(shown.topLeft()), mapFromScene(shown.bottomRight()));
    if (rect.width() < kSmallestRectangle) rect.adjust(-kSmallestRectangle / 2, 0, kSmallestRectangle / 2, 0);
    if (rect.height() < kSmallestRectangle) rect.adjust(0, -kSmallestRectangle / 2, 0, kSmallestRectangle / 2);
    return rect;
}

void GraphMinimap::scheduleRender() {
    mStale = true;
    if (mExpanded) mRenderTimer.start();
}

void GraphMinimap::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) scheduleRender();
}

void GraphMinimap::renderIfChanged() {
    const GraphScene* scene = mView->shownScene();
    if (mStale || scene != mRenderedScene.data() || scene->layout() != mRenderedLayout) render();
}

// Straight from the layout's rectangles and routes (no item is painted): a cheap picture however big the scene.
void GraphMinimap::render() {
    QElapsedTimer timer;
    timer.start();
    mRenderTimer.stop();
    GraphScene* scene = mView->shownScene();
    if (scene != mRenderedScene.data())
        connect(scene, &GraphScene::decorationsChanged, this, &GraphMinimap::scheduleRender);
    mRenderedScene = scene;
    mRenderedLayout = scene->layout();
    mStale = false;
    mSceneRect = scene->layout() ? scene->sceneRect() : QRectF();
    const double ratio = devicePixelRatioF();
    mPicture = QImage(QSize(kWidth, kHeight) * ratio, QImage::Format_ARGB32_Premultiplied);
    mPicture.setDevicePixelRatio(ratio);
    mPicture.fill(palette().color(QPalette::Base));
    if (const GraphLayout* layout = scene->layout()) {
        QPainter painter(&mPicture);
        const QRectF picture = pictureRect();
        const double scale = picture.width() / mSceneRect.width();
        const QPointF origin = picture.topLeft() - mSceneRect.topLeft() * scale;
        if (layout->edgeRoutes.size() <= kMostEdgesDrawn) {
            QColor edge = edgeColor();
            edge.setAlpha(150);
            painter.setPen(QPen(edge, 0));
            QPolygonF line;
            for (const EdgeRoute& route : layout->edgeRoutes) {
                line.clear();
                for (const LayoutPoint& point : route.points) line << origin + toQt(point) * scale;
                painter.drawPolyline(line);
            }
        }
        const auto& items = scene->nodeItems();
        for (size_t i = 0; i < items.size() && i < layout->nodeRects.size(); ++i) {
            const LayoutRect& r = layout->nodeRects[i];
            const std::optional<Precision> precision = items[i]->precision();
            const QColor color = precision ? precisionColor(*precision) : items[i]->fill();
            const QPointF topLeft = origin + QPointF(r.x, r.y) * scale;
            painter.fillRect(QRectF(topLeft, QSizeF(std::max(1.0, r.width * scale), std::max(1.0, r.height * scale))),
                             color);
        }
    }
    mRenderMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    update();
}

void GraphMinimap::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    if (!mExpanded) {
        painter.fillRect(rect(), palette().color(QPalette::Window));
        return;
    }
    if (mStale) scheduleRender();
    if (mPicture.isNull())
        painter.fillRect(rect(), palette().color(QPalette::Base));
    else
        painter.drawImage(QPointF(0, 0), mPicture);
    const QRectF shown = viewportRect();
    mShownViewport = shown;
    if (!shown.isEmpty()) {
        // Outside the viewport dimmed, the rectangle outlined: where the view is reads at a glance.
        QPainterPath outside;
        outside.addRect(pictureRect());
        QPainterPath inside;
        inside.addRect(shown);
        painter.fillPath(outside.subtracted(inside), QColor(0, 0, 0, 60));
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
        painter.drawRect(shown.intersected(QRectF(rect()).adjusted(1, 1, -1, -1)));
        painter.setRenderHint(QPainter::Antialiasing, false);
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(rect().adjusted(0, 0, -1, -1));
}

void GraphMinimap::moveViewTo(QPointF point) {
    mView->centerOn(mapToScene(point));
    update();
}

void GraphMinimap::mousePressEvent(QMouseEvent* event) {
    if (!mExpanded || event->button() != Qt::LeftButton || pictureRect().isEmpty()) {
        QWidget::mousePressEvent(event);
        return;
    }
    const QRectF shown = viewportRect();
    mGrabOffset = shown.contains(event->position()) ? event->position() - shown.center() : QPointF();
    mDragging = true;
    moveViewTo(event->position() - mGrabOffset);
    event->accept();
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* event) {
    if (!mDragging) {
        QWidget::mouseMoveEvent(event);
        return;
    }
    moveViewTo(event->position() - mGrabOffset);
    event->accept();
}

void GraphMinimap::mouseReleaseEvent(QMouseEvent* event) {
    if (!mDragging) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    mDragging = false;
    event->accept();
}

// Every pan, zoom, scroll, new layout or level repaints the viewport: the rectangle follows it, and another scene or
// layout renders the picture again.
bool GraphMinimap::eventFilter(QObject* watched, QEvent* event) {
    if (mExpanded && watched == mView->viewport() &&
        (event->type() == QEvent::Paint || event->type() == QEvent::Resize)) {
        const GraphScene* scene = mView->shownScene();
        if (scene != mRenderedScene.data() || scene->layout() != mRenderedLayout) scheduleRender();
        if (viewportRect() != mShownViewport) update();
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace ql::ui
