#include "ui/graph/graph_edge_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <QtMath>

#include "ui/graph/graph_node_item.h"
#include "ui/graph/node_style.h"

namespace ql::ui {

namespace {

constexpr double kArrowLength = 8;
constexpr double kArrowHalfWidth = 4;

QPointF toQt(const LayoutPoint& p) {
    return {p.x, p.y};
}

QPainterPath routePath(const EdgeRoute& route) {
    QPainterPath path;
    if (route.points.empty()) return path;
    path.moveTo(toQt(route.points[0]));
    if (route.bezier) {
        for (size_t i = 1; i + 2 < route.points.size(); i += 3)
            path.cubicTo(toQt(route.points[i]), toQt(route.points[i + 1]), toQt(route.points[i + 2]));
        return path;
    }
    // Round the corners of the polyline: curve through each inner point towards the middle of the next segment.
    for (size_t i = 1; i + 1 < route.points.size(); ++i) {
        const QPointF corner = toQt(route.points[i]);
        path.quadTo(corner, (corner + toQt(route.points[i + 1])) / 2);
    }
    if (route.points.size() > 1) path.lineTo(toQt(route.points.back()));
    return path;
}

// The arrowhead ends at the tip and points along the last direction of the path.
QPolygonF makeArrowHead(const QPointF& tip, const QPointF& from) {
    QLineF line(tip, from);
    if (line.length() < 0.01) line = QLineF(tip, tip - QPointF(0, 1));
    const QPointF dir = (line.p2() - line.p1()) / line.length();
    const QPointF normal(-dir.y(), dir.x());
    const QPointF base = tip + dir * kArrowLength;
    return QPolygonF({tip, base + normal * kArrowHalfWidth, base - normal * kArrowHalfWidth});
}

const QFont& labelFont() {
    static const QFont font = [] {
        QFont f;
        f.setPointSizeF(std::max(6.0, f.pointSizeF() * 0.8));
        return f;
    }();
    return font;
}

}  // namespace

GraphEdgeItem::GraphEdgeItem(const EdgeRoute& route, const VisibleEdge& edge, const QString& toolTip,
                             const QString& label)
    : mPath(routePath(route)), mLabel(label), mFrom(edge.from), mTo(edge.to), mOuterScope(edge.outerScope) {
    if (route.hasArrowTip && !route.points.empty()) {
        const QPointF tip = toQt(route.arrowTip);
        QPointF from = mPath.pointAtPercent(1.0);
        // Dot ends the path where the arrow starts; our polylines end at the tip itself.
        if (QLineF(tip, from).length() < 1)
            from = mPath.pointAtPercent(mPath.percentAtLength(std::max(0.0, mPath.length() - kArrowLength)));
        mArrow = makeArrowHead(tip, from);
    }
    QPainterPathStroker stroker;
    stroker.setWidth(7);
    mShape = stroker.createStroke(mPath);
    mShape.addPolygon(mArrow);
    mBounds = mShape.boundingRect();
    const QSizeF text = QFontMetricsF(labelFont()).size(Qt::TextSingleLine, mLabel) + QSizeF(4, 0);
    mLabelRect = QRectF(mPath.pointAtPercent(0.5) - QPointF(text.width() / 2, text.height() / 2), text);
    setToolTip(toolTip);
    setAcceptHoverEvents(true);
    setZValue(0);
}

void GraphEdgeItem::setLabelVisible(bool visible) {
    if (mLabelVisible == visible || mLabel.isEmpty()) return;
    prepareGeometryChange();
    mLabelVisible = visible;
}

void GraphEdgeItem::setLabelCrowded(bool crowded) {
    if (mLabelCrowded == crowded) return;
    prepareGeometryChange();
    mLabelCrowded = crowded;
}

QRectF GraphEdgeItem::boundingRect() const {
    return isLabelVisible() ? mBounds.united(mLabelRect) : mBounds;
}

QPainterPath GraphEdgeItem::shape() const {
    return mShape;
}

void GraphEdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QColor color = mHovered ? QColor(0xff9800) : edgeColor();
    // Outer-scope reads: the same grey, dashed (dashes in pen widths, so they keep their look when hovered).
    auto pen = [&](double width) {
        QPen p(color, width);
        if (mOuterScope) p.setDashPattern({4, 3});
        return p;
    };
    if (lod < GraphNodeItem::kTextLevelOfDetail) {
        painter->setPen(pen(0));
        painter->drawPath(mPath);
        return;
    }
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(pen(mHovered ? 2.5 : 1.3));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(mPath);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawPolygon(mArrow);
}

// Painted by the scene above every node (GraphScene::drawForeground): drawn with the edge, a node beside the edge's
// middle covered the end of the label and "1x16x160x160" read as "1x16x160".
void GraphEdgeItem::paintLabel(QPainter* painter) const {
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(255, 255, 255, 220));
    painter->drawRoundedRect(mLabelRect, 3, 3);
    painter->setPen(QColor(0x30363d));
    painter->setFont(labelFont());
    painter->drawText(mLabelRect, Qt::AlignCenter, mLabel);
}

void GraphEdgeItem::hoverEnterEvent(QGraphicsSceneHoverEvent*) {
    mHovered = true;
    setZValue(0.5);
    update();
}

void GraphEdgeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*) {
    mHovered = false;
    setZValue(0);
    update();
}

}  // namespace ql::ui
