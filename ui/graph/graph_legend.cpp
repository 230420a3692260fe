#include "ui/graph/graph_legend.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSettings>
#include <QToolTip>

#include "ui/graph/graph_view.h"
#include "ui/graph/node_style.h"

namespace ql::ui {

namespace {

constexpr int kRow = 16;
constexpr int kSwatch = 11;
constexpr int kSwatchWidth = 18;
constexpr int kPad = 6;
constexpr int kGap = 14;    // between entries
constexpr int kArrow = 12;  // the toggle's triangle
const char* const kCollapsedKey = "graph/legendCollapsed";

}  // namespace

GraphLegend::GraphLegend(QWidget* parent) : QWidget(parent), mCollapsed(QSettings().value(kCollapsedKey).toBool()) {
    setMouseTracking(true);  // the hand cursor over the toggle
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    setFont(small);
    rebuild({}, {});
    fitToWidth(1200);
}

void GraphLegend::setFillKeys(const QString& title, const QVector<FillKey>& keys) {
    mTitle = title;
    mKeys = keys;
    rebuild(title, keys);
    fitToWidth(width());
}

void GraphLegend::setShowsOuterScopeEdges(bool shows) {
    if (mOuterScopeEdges == shows) return;
    mOuterScopeEdges = shows;
    rebuild(mTitle, mKeys);
    fitToWidth(width());
}

// What matters most first: the fills when they show the engine, the plan's precision outlines and badges, then
// the op families (when the fills are theirs).
void GraphLegend::rebuild(const QString& title, const QVector<FillKey>& keys) {
    mEntries.clear();
    addEntry(Shape::Toggle, {}, {}, 0, mCollapsed ? tr("Legend") : QString());
    if (!keys.isEmpty()) {
        addEntry(Shape::Text, {}, {}, 0, title);
        for (const FillKey& key : keys) addEntry(Shape::Box, key.color, key.color.darker(160), 1, key.label);
        addEntry(Shape::Ring, Qt::transparent, mismatchColor(), 2, tr("differs from plan"));
        addEntry(Shape::Text, {}, {}, 0, tr("Outline: planned"));
    }
    for (Precision precision : {Precision::Fp32, Precision::Fp16, Precision::Int8})
        addEntry(Shape::Box, QColor(0x56616b), precisionColor(precision), 2.5, precisionLabel(precision));
    addEntry(Shape::Box, quantBadgeColor(), Qt::black, 1, tr("Q/DQ-fed"));
    for (Severity severity : {Severity::Error, Severity::Warning})
        addEntry(Shape::Dot, severityColor(severity), Qt::white, 1,
                 tr("lint %1").arg(QString::fromLatin1(severityName(severity))));
    if (mOuterScopeEdges) addEntry(Shape::DashedLine, {}, edgeColor(), 1.3, tr("read inside a body"));
    if (!keys.isEmpty()) return;
    for (int i = 0; i < kOpFamilyCount; ++i) {
        const auto family = static_cast<OpFamily>(i);
        addEntry(Shape::Box, opFamilyColor(family), opFamilyColor(family).darker(160), 1, opFamilyName(family));
    }
}

QStringList GraphLegend::labels() const {
    QStringList labels;
    for (const Entry& entry : mEntries)
        if (entry.shape != Shape::Toggle) labels << entry.label;
    return labels;
}

void GraphLegend::setCollapsed(bool collapsed) {
    if (collapsed == mCollapsed) return;
    mCollapsed = collapsed;
    QSettings().setValue(kCollapsedKey, collapsed);
    rebuild(mTitle, mKeys);
    // The view gives the legend a strip of its own under the graph, as tall as the legend (placeOverlays), and
    // measures it again whenever the legend is shown.
    if (auto* view = qobject_cast<GraphView*>(parentWidget()))
        view->setLegendVisible(!isHidden());
    else
        fitToWidth(width());
    emit collapsedChanged(collapsed);
}

QRect GraphLegend::toggleRect() const {
    return mEntries.isEmpty() ? QRect() : QRect(kPad - 2, kPad, mEntries.front().width + 4, kRow);
}

bool GraphLegend::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (toggleRect().contains(help->pos()))
            QToolTip::showText(help->globalPos(), mCollapsed ? tr("Show the legend") : tr("Collapse the legend"), this,
                               toggleRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void GraphLegend::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !toggleRect().contains(event->position().toPoint())) {
        event->ignore();
        return;
    }
    setCollapsed(!mCollapsed);
}

void GraphLegend::mouseMoveEvent(QMouseEvent* event) {
    if (toggleRect().contains(event->position().toPoint()))
        setCursor(Qt::PointingHandCursor);
    else
        unsetCursor();
    event->ignore();
}

void GraphLegend::addEntry(Shape shape, const QColor& fill, const QColor& outline, double outlineWidth,
                           const QString& label) {
    const int swatch = shape == Shape::Text ? -4 : shape == Shape::Toggle ? kArrow : kSwatchWidth;
    QFont labelFont = font();
    labelFont.setBold(shape == Shape::Text);
    const int width = swatch + 4 + QFontMetrics(labelFont).horizontalAdvance(label);
    mEntries.append({shape, fill, outline, outlineWidth, label, width});
}

void GraphLegend::fitToWidth(int width) {
    int rows = 1, x = kPad, used = 0;
    for (const Entry& entry : mCollapsed ? mEntries.mid(0, 1) : mEntries) {
        if (x > kPad && x + entry.width + kPad > width) {
            ++rows;
            x = kPad;
        }
        x += entry.width + kGap;
        used = std::max(used, x - kGap + kPad);
    }
    mRows = rows;
    resize(std::min(width, used), rows * kRow + 2 * kPad);
    update();
}

QSize GraphLegend::sizeHint() const {
    return size();
}

void GraphLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QColor background = palette().color(QPalette::Window);
    background.setAlpha(225);
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.setBrush(background);
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    const QColor text = palette().color(QPalette::WindowText);
    int x = kPad, y = kPad;
    for (const Entry& entry : mCollapsed ? mEntries.mid(0, 1) : mEntries) {
        if (x > kPad && x + entry.width + kPad > width()) {
            x = kPad;
            y += kRow;
        }
        const double top = y + (kRow - kSwatch) / 2.0;
        const int swatch = entry.shape == Shape::Text ? -4 : entry.shape == Shape::Toggle ? kArrow : kSwatchWidth;
        const bool dashed = entry.shape == Shape::Ring || entry.shape == Shape::DashedLine;
        painter.setPen(QPen(entry.outline, entry.outlineWidth, dashed ? Qt::DashLine : Qt::SolidLine));
        painter.setBrush(entry.fill);
        if (entry.shape == Shape::Toggle) {
            // Pointing up to open the strip above it, down to fold it away.
            const double mid = y + kRow / 2.0, half = 3.5;
            QPainterPath arrow;
            const double tip = mCollapsed ? mid - half : mid + half, base = mCollapsed ? mid + half : mid - half;
            arrow.moveTo(x + 1, base);
            arrow.lineTo(x + kArrow - 3, base);
            arrow.lineTo(x + (kArrow - 2) / 2.0, tip);
            arrow.closeSubpath();
            painter.setPen(Qt::NoPen);
            painter.setBrush(text);
            painter.drawPath(arrow);
        } else if (entry.shape == Shape::Dot)
            painter.drawEllipse(QRectF(x + 3, top, kSwatch, kSwatch));
        else if (entry.shape == Shape::DashedLine)
            painter.drawLine(QPointF(x, y + kRow / 2.0), QPointF(x + kSwatchWidth, y + kRow / 2.0));
        else if (entry.shape != Shape::Text)
            painter.drawRoundedRect(QRectF(x, top, kSwatchWidth, kSwatch), 2, 2);
        QFont labelFont = font();
        labelFont.setBold(entry.shape == Shape::Text);
        painter.setFont(labelFont);
        painter.setPen(text);
        painter.drawText(QRect(x + swatch + 4, y, entry.width, kRow), Qt::AlignVCenter, entry.label);
        x += entry.width + kGap;
    }
}

}  // namespace ql::ui
