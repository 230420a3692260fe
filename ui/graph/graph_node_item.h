#pragma once
// One box of the graph: an operator, a collapsed name-scope block, or a graph input/output. Filled by op
// family, outlined by precision, with a "Q" badge when Q/DQ pairs feed it and a lint badge. Level of detail: zoomed
// in it shows its op type and name; at overview zooms only the op type, in a font as big as the box allows; when
// even that would be too small to read, a plain rectangle, so that big graphs stay smooth.
#include <QGraphicsItem>
#include <optional>

#include "ui/graph/node_style.h"

namespace ql::ui {

class GraphNodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };
    // Zooming to a node goes at least this far (one scene unit = this many pixels); edges draw arrows from it.
    static constexpr double kTextLevelOfDetail = 0.4;
    // Names (the subtitle) show from this zoom on; below it the box shows its op type alone, larger.
    static constexpr double kNameLevelOfDetail = 0.6;
    // The overview's op type shows while its line of text is at least this many pixels high.
    static constexpr double kMinLabelPixels = 7;

    GraphNodeItem(int index, const VisibleNode& node, const NodeMetrics& metrics, const QRectF& sceneRect,
                  bool quantized);

    int type() const override { return Type; }
    int index() const { return mIndex; }  // into the layout's visible nodes
    VisibleKind kind() const { return mKind; }
    QRectF boxRect() const { return QRectF(QPointF(0, 0), mSize); }

    // A line of the tool tip under the box's own (how to open a control-flow node's body).
    void addToolTipLine(const QString& line);
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

    // What a zoom of `lod` (pixels per scene unit) shows: the op type (title) and the name (subtitle).
    bool titleShownAt(double lod) const {
        return lod >= kNameLevelOfDetail || lod * mOverviewPixels >= kMinLabelPixels;
    }
    static bool namesShownAt(double lod) { return lod >= kNameLevelOfDetail; }
    // The height in pixels of the title's line of text at zoom `lod` (the overview's font below kNameLevelOfDetail).
    double titlePixelsAt(double lod) const;
    // What the overview zooms paint: the title (elided) and the label's rectangle, in the item's coordinates.
    const QString& overviewTitle() const { return mOverviewTitle; }
    const QRectF& overviewRect() const { return mOverviewRect; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void paintText(QPainter* painter) const;
    void paintOverview(QPainter* painter, double lod) const;
    void fitOverviewTitle(const VisibleNode& node);
    void paintBadges(QPainter* painter) const;
    void updateToolTip();

    int mIndex;
    VisibleKind mKind;
    const NodeMetrics& mMetrics;
    QSizeF mSize;
    QColor mFill;
    QString mTitle;
    QString mSubtitle;
    QFont mOverviewFont;  // the title alone, as big as the box allows
    QString mOverviewTitle;
    QRectF mOverviewRect;  // the box, or wider when the op type needs it
    double mOverviewPixels = 0;
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
