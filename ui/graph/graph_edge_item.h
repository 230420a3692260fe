#pragma once
// One edge of the graph: a bezier (Graphviz) or smoothed polyline (layered layout) with an arrowhead, and the
// tensor it carries (name, dtype and shape) in a tooltip and, optionally, its shape as a label; highlighted under
// the mouse.
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>

#include "ui/graph/graph_layout.h"

namespace ql::ui {

class GraphEdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };

    // `label`: the tensor's shape, shown at the middle of the edge while the label is visible (painted by the scene).
    GraphEdgeItem(const EdgeRoute& route, const QString& toolTip, const QString& label);

    int type() const override { return Type; }
    const QPainterPath& path() const { return mPath; }
    const QPolygonF& arrowHead() const { return mArrow; }
    const QString& label() const { return mLabel; }
    void setLabelVisible(bool visible);
    // A label that would cover another edge's label is left out (the tool tip still names the shape).
    void setLabelCrowded(bool crowded);
    bool isLabelCrowded() const { return mLabelCrowded; }
    // Shown: Show Tensor Shapes is on and the label is not crowded out.
    bool isLabelVisible() const { return mLabelVisible && !mLabelCrowded; }
    const QRectF& labelRect() const { return mLabelRect; }
    // The shape label, in scene coordinates; the scene paints it above the nodes.
    void paintLabel(QPainter* painter) const;

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
    QString mLabel;
    QRectF mLabelRect;
    bool mLabelVisible = false;
    bool mLabelCrowded = false;
    bool mHovered = false;
};

}  // namespace ql::ui
