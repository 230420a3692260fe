#pragma once
// How graph boxes look: the op family of an op type and its fill colour (a fixed palette that reads well on
// light and dark backgrounds: mid-dark fills with white text), the outline colour of each precision, badge
// colours, fonts, and the box size that fits a node's text.
#include <QColor>
#include <QFont>
#include <QString>
#include <string>

#include "core/lint/finding.h"
#include "core/quant/precision_plan.h"
#include "ui/graph/visible_graph.h"

namespace ql::ui {

enum class OpFamily {
    ConvLinear,
    Activation,
    Normalization,
    Pooling,
    DataMovement,
    Elementwise,
    Quantization,
    ControlFlow,
    Other,
};
inline constexpr int kOpFamilyCount = 9;

OpFamily opFamily(const std::string& opType);
QString opFamilyName(OpFamily family);  // "Conv / linear", ...
QColor opFamilyColor(OpFamily family);
QColor fillColor(const VisibleNode& node);

QColor precisionColor(Precision precision);
QString precisionLabel(Precision precision);  // "FP32", "FP16", "INT8"
QColor severityColor(Severity severity);
QColor quantBadgeColor();
QColor selectionColor();
QColor edgeColor();      // edges, and the legend's dashed line for outer-scope reads
QColor mismatchColor();  // the dashed ring of a node the engine ran otherwise than planned

// Fonts and box metrics shared by the scene (sizes for the layout) and the items (painting).
class NodeMetrics {
public:
    NodeMetrics();
    const QFont& titleFont() const { return mTitleFont; }
    const QFont& subtitleFont() const { return mSubtitleFont; }
    double padding() const { return 8; }
    double titleHeight() const { return mTitleHeight; }
    double subtitleHeight() const { return mSubtitleHeight; }
    // The text widths the box is made for; longer subtitles are elided.
    double maxTextWidth() const { return 180; }
    // Sets node.width / node.height to fit its title and (elided) subtitle.
    void size(VisibleNode& node) const;
    QString elidedSubtitle(const VisibleNode& node, double width) const;

private:
    QFont mTitleFont;
    QFont mSubtitleFont;
    double mTitleHeight = 0;
    double mSubtitleHeight = 0;
};

}  // namespace ql::ui
