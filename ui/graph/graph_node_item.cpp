#include "ui/graph/graph_node_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>

namespace ql::ui {

namespace {

constexpr double kMargin = 8;  // room around the box for the outline, selection and badges
constexpr double kRadius = 4;
constexpr double kBadge = 14;
constexpr double kOverviewPadding = 4;
constexpr double kOverviewOverflow = 2.5;
constexpr double kOverviewTitleHeight = 0.65;  // of the box's height: the font's pixel size

// Plain text in the HTML tooltip, its line breaks kept (an overlay's verdict under the layer's own numbers).
QString htmlLines(const QString& text) {
    return text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QString baseToolTip(const VisibleNode& node) {
    const QString title = QString::fromStdString(node.title).toHtmlEscaped();
    const QString subtitle = QString::fromStdString(node.subtitle).toHtmlEscaped();
    switch (node.kind) {
        case VisibleKind::Operator:
            return QStringLiteral("<b>%1</b><br>%2").arg(title, subtitle);
        case VisibleKind::Block:
            return QStringLiteral("<b>%1</b><br>%2, collapsed. Double-click to expand.").arg(title, subtitle);
        case VisibleKind::GraphInput:
            return QStringLiteral("Input <b>%1</b><br>%2").arg(title, subtitle);
        case VisibleKind::GraphOutput:
            return QStringLiteral("Output <b>%1</b><br>%2").arg(title, subtitle);
    }
    return title;
}

}  // namespace

GraphNodeItem::GraphNodeItem(int index, const VisibleNode& node, const NodeMetrics& metrics, const QRectF& sceneRect,
                             bool quantized)
    : mIndex(index),
      mKind(node.kind),
      mMetrics(metrics),
      mSize(sceneRect.size()),
      mFill(fillColor(node)),
      mBaseToolTip(baseToolTip(node)),
      mQuantized(quantized) {
    setPos(sceneRect.topLeft());
    setFlag(ItemIsSelectable);
    setCacheMode(DeviceCoordinateCache);
    setZValue(1);
    const double textWidth = mSize.width() - 2 * metrics.padding();
    mTitle =
        QFontMetricsF(metrics.titleFont()).elidedText(QString::fromStdString(node.title), Qt::ElideMiddle, textWidth);
    mSubtitle = metrics.elidedSubtitle(node, mSize.width());
    fitOverviewTitle(node);
    updateToolTip();
}

// The overview's title is as high as the box allows; an op type wider than the box gets a wider label behind it
// (up to kOverviewOverflow times the box), elided beyond that. A block shows the last part of its scope
// ("block12" of "/stage0/block12") within its own box: blocks sit side by side at fit zoom, and a wider label
// covered its neighbours' (the tooltip and the zoomed-in box keep the whole path).
void GraphNodeItem::fitOverviewTitle(const VisibleNode& node) {
    QString title = QString::fromStdString(node.title);
    double overflow = kOverviewOverflow;
    if (node.kind == VisibleKind::Block) {
        const QString leaf = title.section(QLatin1Char('/'), -1, -1, QString::SectionSkipEmpty);
        if (!leaf.isEmpty()) title = leaf;
        overflow = 1;
    }
    mOverviewFont = mMetrics.titleFont();
    mOverviewFont.setPixelSize(std::max(1, static_cast<int>(kOverviewTitleHeight * mSize.height())));
    const QFontMetricsF metrics(mOverviewFont);
    const double labelWidth =
        std::clamp(metrics.horizontalAdvance(title) + 2 * kOverviewPadding, mSize.width(), overflow * mSize.width());
    mOverviewRect = QRectF((mSize.width() - labelWidth) / 2, 0, labelWidth, mSize.height());
    mOverviewTitle = metrics.elidedText(title, Qt::ElideMiddle, labelWidth - 2 * kOverviewPadding);
    mOverviewPixels = metrics.height();
}

double GraphNodeItem::titlePixelsAt(double lod) const {
    if (namesShownAt(lod)) return mMetrics.titleHeight() * lod;
    return mOverviewPixels * lod;
}

void GraphNodeItem::addToolTipLine(const QString& line) {
    mBaseToolTip += QStringLiteral("<br>") + htmlLines(line);
    updateToolTip();
}

void GraphNodeItem::setPrecision(std::optional<Precision> precision) {
    if (mPrecision == precision) return;
    mPrecision = precision;
    updateToolTip();
    update();
}

QColor GraphNodeItem::outlineColor() const {
    return mPrecision ? precisionColor(*mPrecision) : mFill.darker(160);
}

void GraphNodeItem::setBadge(std::optional<Severity> severity, const QString& text) {
    mBadge = severity;
    mBadgeText = severity ? text : QString();
    updateToolTip();
    update();
}

void GraphNodeItem::setEngineMark(std::optional<QColor> fill, const QString& text, bool mismatch) {
    if (mEngineFill == fill && mEngineText == text && mMismatch == mismatch) return;
    mEngineFill = fill;
    mEngineText = text;
    mMismatch = mismatch;
    updateToolTip();
    update();
}

void GraphNodeItem::updateToolTip() {
    QString tip = mBaseToolTip;
    if (mPrecision) tip += QStringLiteral("<br>Precision: %1").arg(precisionLabel(*mPrecision));
    if (mQuantized) tip += QStringLiteral("<br>Quantized by Q/DQ pairs");
    if (mBadge)
        tip +=
            QStringLiteral("<br><b>%1:</b> %2").arg(QString::fromLatin1(severityName(*mBadge)), htmlLines(mBadgeText));
    if (!mEngineText.isEmpty()) tip += QStringLiteral("<br>") + htmlLines(mEngineText);
    setToolTip(tip);
}

QRectF GraphNodeItem::boundingRect() const {
    return boxRect().adjusted(-kMargin, -kMargin, kMargin, kMargin).united(mOverviewRect);
}

// Clicks and hovers hit the box (with its margin), not the overview's wider label.
QPainterPath GraphNodeItem::shape() const {
    QPainterPath path;
    path.addRect(boxRect().adjusted(-kMargin, -kMargin, kMargin, kMargin));
    return path;
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QRectF box = boxRect();
    if (!namesShownAt(lod)) {
        paintOverview(painter, lod);
        return;
    }
    painter->setRenderHint(QPainter::Antialiasing);
    if (isSelected()) {
        painter->setPen(QPen(selectionColor(), 3));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(box.adjusted(-4, -4, 4, 4), kRadius + 3, kRadius + 3);
    }
    const bool rounded = mKind == VisibleKind::GraphInput || mKind == VisibleKind::GraphOutput;
    const double radius = rounded ? box.height() / 2 : kRadius;
    if (mMismatch) {
        painter->setPen(QPen(mismatchColor(), 2.5, Qt::DashLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(box.adjusted(-6, -6, 6, 6), kRadius + 5, kRadius + 5);
    }
    if (mKind == VisibleKind::Block) {
        // A stack of cards: the block holds many nodes.
        painter->setPen(QPen(mFill.darker(160), 1));
        painter->setBrush(mFill.lighter(125));
        painter->drawRoundedRect(box.translated(3, -3), kRadius, kRadius);
    }
    painter->setPen(QPen(outlineColor(), mPrecision ? 2.5 : 1));
    painter->setBrush(fill());
    painter->drawRoundedRect(box.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius);
    paintText(painter);
    paintBadges(painter);
}

void GraphNodeItem::paintOverview(QPainter* painter, double lod) const {
    const bool labelled = titleShownAt(lod);
    const QRectF box = labelled ? mOverviewRect : boxRect();
    painter->fillRect(box, isSelected() ? selectionColor() : fill());
    if (mPrecision) {
        painter->setPen(QPen(outlineColor(), 2.0 / lod));
        painter->drawRect(box);
    }
    if (!labelled) return;
    painter->setPen(isSelected() ? Qt::black : Qt::white);
    painter->setFont(mOverviewFont);
    painter->drawText(box, Qt::AlignCenter, mOverviewTitle);
}

void GraphNodeItem::paintText(QPainter* painter) const {
    const double pad = mMetrics.padding();
    const double top =
        (mSize.height() - mMetrics.titleHeight() - (mSubtitle.isEmpty() ? 0 : mMetrics.subtitleHeight())) / 2;
    painter->setPen(Qt::white);
    painter->setFont(mMetrics.titleFont());
    painter->drawText(QRectF(pad, top, mSize.width() - 2 * pad, mMetrics.titleHeight()), Qt::AlignCenter, mTitle);
    if (mSubtitle.isEmpty()) return;
    painter->setPen(QColor(255, 255, 255, 200));
    painter->setFont(mMetrics.subtitleFont());
    painter->drawText(QRectF(pad, top + mMetrics.titleHeight(), mSize.width() - 2 * pad, mMetrics.subtitleHeight()),
                      Qt::AlignCenter, mSubtitle);
}

void GraphNodeItem::paintBadges(QPainter* painter) const {
    QFont font = mMetrics.subtitleFont();
    font.setBold(true);
    painter->setFont(font);
    if (mQuantized) {
        const QRectF chip(-kBadge / 2 + 2, -kBadge / 2 + 2, kBadge, kBadge);
        painter->setPen(QPen(Qt::black, 1));
        painter->setBrush(quantBadgeColor());
        painter->drawRoundedRect(chip, 3, 3);
        painter->drawText(chip, Qt::AlignCenter, QStringLiteral("Q"));
    }
    if (mBadge) {
        const QRectF dot(mSize.width() - kBadge / 2 - 2, -kBadge / 2 + 2, kBadge, kBadge);
        painter->setPen(QPen(Qt::white, 1.5));
        painter->setBrush(severityColor(*mBadge));
        painter->drawEllipse(dot);
        painter->drawText(dot, Qt::AlignCenter, QStringLiteral("!"));
    }
}

}  // namespace ql::ui
