#pragma once
// One edge of the graph: a bezier (Graphviz) or smoothed polyline (layered layout) with an arrowhead, and the
// tensor it carries (name, dtype and shape) in a tooltip; highlighted under the mouse.
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>

#include "ui/graph/graph_layout.h"

namespace ql::ui {

class GraphEdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };

    GraphEdgeItem(const EdgeRoute& route, const QString& toolTip);

    int type() const override { return Type; }
    const QPainterPath& path() const { return mPath; }
    const QPolygonF& arrowHead() const { return mArrow; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    QPainterPath mPath;
    QPolygonF mArrow;
    QPainterPath mShape;
    QRectF mBounds;
    bool mHovered = false;
};

}  // namespace ql::ui
