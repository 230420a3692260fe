#pragma once
// One box of the graph: an operator, a collapsed name-scope block, or a graph input/output. Filled by op
// family, outlined by precision, with a "Q" badge when Q/DQ pairs feed it and a lint badge. Below a zoom
// threshold it draws a plain rectangle (level of detail) so that big graphs stay smooth.
#include <QGraphicsItem>
#include <optional>

#include "ui/graph/node_style.h"

namespace ql::ui {

class GraphNodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };
    // Draws text only when one scene unit is at least this many pixels.
    static constexpr double kTextLevelOfDetail = 0.4;

    GraphNodeItem(int index, const VisibleNode& node, const NodeMetrics& metrics, const QRectF& sceneRect,
                  bool quantized);

    int type() const override { return Type; }
    int index() const { return mIndex; }  // into the layout's visible nodes
    VisibleKind kind() const { return mKind; }
    QRectF boxRect() const { return QRectF(QPointF(0, 0), mSize); }

    void setPrecision(std::optional<Precision> precision);
    std::optional<Precision> precision() const { return mPrecision; }
    // The pen colour of the outline: the precision's colour, or a darker fill when none is set.
    QColor outlineColor() const;
    void setBadge(std::optional<Severity> severity, const QString& text);
    std::optional<Severity> badge() const { return mBadge; }
    bool quantized() const { return mQuantized; }
    // What the engine report paints on the box: a fill in place of the op family's (precision or time), a line of
    // text for the tool tip, and a dashed red ring when the engine differs from the plan.
    void setEngineMark(std::optional<QColor> fill, const QString& text, bool mismatch);
    QColor fill() const { return mEngineFill.value_or(mFill); }
    bool mismatch() const { return mMismatch; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void paintText(QPainter* painter) const;
    void paintBadges(QPainter* painter) const;
    void updateToolTip();

    int mIndex;
    VisibleKind mKind;
    const NodeMetrics& mMetrics;
    QSizeF mSize;
    QColor mFill;
    QString mTitle;
    QString mSubtitle;
    QString mBaseToolTip;
    QString mBadgeText;
    bool mQuantized;
    std::optional<Precision> mPrecision;
    std::optional<Severity> mBadge;
    std::optional<QColor> mEngineFill;
    QString mEngineText;
    bool mMismatch = false;
};

}  // namespace ql::ui
