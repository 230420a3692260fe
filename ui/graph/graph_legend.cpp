#include "ui/graph/graph_legend.h"

#include <QPainter>

#include "ui/graph/node_style.h"

namespace ql::ui {

namespace {

constexpr int kRow = 16;
constexpr int kSwatch = 11;
constexpr int kPad = 8;
constexpr int kColumnWidth = 160;
constexpr int kRightRows = 6;  // three precisions, the Q badge, two finding severities

void drawSwatch(QPainter& painter, int x, int y, const QColor& fill, const QColor& outline, double width) {
    painter.setPen(QPen(outline, width));
    painter.setBrush(fill);
    painter.drawRoundedRect(QRectF(x, y + (kRow - kSwatch) / 2.0, kSwatch * 1.6, kSwatch), 2, 2);
}

void drawLabel(QPainter& painter, int x, int y, const QString& text, const QColor& color) {
    painter.setPen(color);
    painter.drawText(QRect(x + kSwatch * 2, y, kColumnWidth - kSwatch * 2, kRow), Qt::AlignVCenter, text);
}

}  // namespace

GraphLegend::GraphLegend(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    setFont(small);
    resize(sizeHint());
}

QSize GraphLegend::sizeHint() const {
    return QSize(2 * kColumnWidth + 2 * kPad, kOpFamilyCount * kRow + 2 * kPad);
}

void GraphLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QColor background = palette().color(QPalette::Window);
    background.setAlpha(215);
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.setBrush(background);
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    const QColor text = palette().color(QPalette::WindowText);
    for (int i = 0; i < kOpFamilyCount; ++i) {
        const auto family = static_cast<OpFamily>(i);
        const int y = kPad + i * kRow;
        drawSwatch(painter, kPad, y, opFamilyColor(family), opFamilyColor(family).darker(160), 1);
        drawLabel(painter, kPad, y, opFamilyName(family), text);
    }
    const int x = kPad + kColumnWidth;
    int y = kPad;
    for (Precision precision : {Precision::Fp32, Precision::Fp16, Precision::Int8}) {
        drawSwatch(painter, x, y, QColor(0x56616b), precisionColor(precision), 2.5);
        drawLabel(painter, x, y, precisionLabel(precision) + tr(" outline"), text);
        y += kRow;
    }
    drawSwatch(painter, x, y, quantBadgeColor(), Qt::black, 1);
    drawLabel(painter, x, y, tr("Q: fed by Q/DQ pairs"), text);
    y += kRow;
    for (Severity severity : {Severity::Error, Severity::Warning}) {
        painter.setPen(QPen(Qt::white, 1));
        painter.setBrush(severityColor(severity));
        painter.drawEllipse(QRectF(x + 3, y + (kRow - kSwatch) / 2.0, kSwatch, kSwatch));
        drawLabel(painter, x, y, tr("Lint %1").arg(QString::fromLatin1(severityName(severity))), text);
        y += kRow;
    }
    static_assert(kRightRows <= kOpFamilyCount, "the right column must fit beside the families");
}

}  // namespace ql::ui
