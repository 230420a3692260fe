#include "ui/graph/graph_legend.h"

#include <QFontMetrics>
#include <QPainter>

#include "ui/graph/node_style.h"

namespace ql::ui {

namespace {

constexpr int kRow = 16;
constexpr int kSwatch = 11;
constexpr int kSwatchWidth = 18;
constexpr int kPad = 6;
constexpr int kGap = 14;  // between entries

}  // namespace

GraphLegend::GraphLegend(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    setFont(small);
    // What matters most first: the precision outlines and badges, then the op families.
    for (Precision precision : {Precision::Fp32, Precision::Fp16, Precision::Int8})
        addEntry(Shape::Box, QColor(0x56616b), precisionColor(precision), 2.5, precisionLabel(precision));
    addEntry(Shape::Box, quantBadgeColor(), Qt::black, 1, tr("Q/DQ-fed"));
    for (Severity severity : {Severity::Error, Severity::Warning})
        addEntry(Shape::Dot, severityColor(severity), Qt::white, 1,
                 tr("lint %1").arg(QString::fromLatin1(severityName(severity))));
    for (int i = 0; i < kOpFamilyCount; ++i) {
        const auto family = static_cast<OpFamily>(i);
        addEntry(Shape::Box, opFamilyColor(family), opFamilyColor(family).darker(160), 1, opFamilyName(family));
    }
    fitToWidth(1200);
}

void GraphLegend::addEntry(Shape shape, const QColor& fill, const QColor& outline, double outlineWidth,
                           const QString& label) {
    const int width = kSwatchWidth + 4 + QFontMetrics(font()).horizontalAdvance(label);
    mEntries.append({shape, fill, outline, outlineWidth, label, width});
}

void GraphLegend::fitToWidth(int width) {
    int rows = 1, x = kPad, used = 0;
    for (const Entry& entry : mEntries) {
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
    for (const Entry& entry : mEntries) {
        if (x > kPad && x + entry.width + kPad > width()) {
            x = kPad;
            y += kRow;
        }
        painter.setPen(QPen(entry.outline, entry.outlineWidth));
        painter.setBrush(entry.fill);
        const double top = y + (kRow - kSwatch) / 2.0;
        if (entry.shape == Shape::Dot)
            painter.drawEllipse(QRectF(x + 3, top, kSwatch, kSwatch));
        else
            painter.drawRoundedRect(QRectF(x, top, kSwatchWidth, kSwatch), 2, 2);
        painter.setPen(text);
        painter.drawText(QRect(x + kSwatchWidth + 4, y, entry.width, kRow), Qt::AlignVCenter, entry.label);
        x += entry.width + kGap;
    }
}

}  // namespace ql::ui
