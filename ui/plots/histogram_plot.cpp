#include "ui/plots/histogram_plot.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <algorithm>
#include <cmath>
#include <optional>

#include "ui/model_document.h"
#include "ui/plan_edit_command.h"

namespace ql::ui {

namespace {

// The QCPItemText property holding the amax of the line it labels (placeLineLabels).
constexpr const char* kLineAmax = "qlLineAmax";

struct MethodLine {
    CalibrationMethod method;
    QString label;
    float amax;
    std::optional<ExpectedQuantization> expected;  // for tensors the plan quantizes (the diagnosis has them)
};

constexpr CalibrationMethod kDrawnMethods[] = {CalibrationMethod::MinMax, CalibrationMethod::Percentile,
                                               CalibrationMethod::Entropy, CalibrationMethod::Mse};

QString methodLabel(CalibrationMethod method, const CalibrationConfig& config) {
    if (method == CalibrationMethod::Percentile) return QStringLiteral("percentile(%1)").arg(config.percentile);
    return QString::fromUtf8(amaxMethodKey(method));
}

// One line per method, with the diagnosis' numbers where the plan quantizes the tensor.
std::vector<MethodLine> methodLines(const TensorRange& range, const CalibrationConfig& config,
                                    const TensorDiagnosis* diagnosis) {
    if (!range.amaxByMethod)
        return {{range.method, methodLabel(range.method, config), range.amax,
                 diagnosis ? diagnosis->expected : std::nullopt}};
    std::vector<MethodLine> lines;
    for (CalibrationMethod method : kDrawnMethods) {
        MethodLine line{method, methodLabel(method, config), range.amaxByMethod->of(method), std::nullopt};
        if (diagnosis)
            for (const MethodQuality& quality : diagnosis->methods)
                if (quality.method == method) line.expected = quality.expected;
        lines.push_back(std::move(line));
    }
    return lines;
}

// "0 %", "<0.01 %", "0.35 %", "12.5 %": small shares matter (1 % clipped already costs accuracy).
QString clippedText(double fraction) {
    const double percent = 100.0 * fraction;
    if (percent == 0.0) return QStringLiteral("0 %");
    if (percent < 0.01) return QStringLiteral("<0.01 %");
    return QStringLiteral("%1 %").arg(percent, 0, 'f', percent < 1.0 ? 2 : 1);
}

QString lineText(const MethodLine& line, bool chosen) {
    QString text = QStringLiteral("%1%2 %3").arg(chosen ? QStringLiteral("\u25B6 ") : QString(), line.label,
                                                 QString::number(static_cast<double>(line.amax), 'g', 4));
    if (!line.expected) return text;
    const double db = line.expected->sqnrDb;
    const QString sqnr =
        db >= ExpectedQuantization::kMaxSqnrDb ? QObject::tr("exact") : QStringLiteral("%1 dB").arg(db, 0, 'f', 1);
    return text + QObject::tr(" \u00B7 clips %1 \u00B7 %2").arg(clippedText(line.expected->clippedFraction), sqnr);
}

QString noCalibrationPlaceholder() {
    return QObject::tr("No calibration yet.\nQuantize > Calibrate..., or drop a .npy file or folder here.");
}

int methodColorIndex(CalibrationMethod method) {
    switch (method) {
        case CalibrationMethod::MinMax:
            return 3;
        case CalibrationMethod::Percentile:
            return 4;
        case CalibrationMethod::Entropy:
            return 2;
        case CalibrationMethod::Mse:
            return 1;
        case CalibrationMethod::Auto:
            break;
    }
    return 7;
}

}  // namespace

HistogramPlot::HistogramPlot(QWidget* parent) : PlotWidget(parent) {
    setWindowTitle(tr("Activation histogram"));
    mTensor = new QComboBox(this);
    mTensor->setEditable(true);
    mTensor->setInsertPolicy(QComboBox::NoInsert);
    mTensor->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mTensor->setMinimumContentsLength(18);
    mTensor->completer()->setFilterMode(Qt::MatchContains);
    mTensor->completer()->setCompletionMode(QCompleter::PopupCompletion);
    mTensor->setToolTip(tr("The tensor whose histogram is shown; selecting a node in the graph shows its output"));
    mMethod = new QComboBox(this);
    mMethod->addItem(tr("the calibration's"), -1);
    for (CalibrationMethod method : kDrawnMethods)
        mMethod->addItem(QString::fromUtf8(amaxMethodKey(method)), static_cast<int>(method));
    mMethod->setToolTip(
        tr("The calibration method whose range this tensor uses in the plan (undoable; the analysis, "
           "export and tune use it)"));
    mLog = new QCheckBox(tr("Log scale"), this);
    controls()->addWidget(new QLabel(tr("Tensor:"), this));
    controls()->addWidget(mTensor, 1);
    controls()->addWidget(new QLabel(tr("Range from:"), this));
    controls()->addWidget(mMethod);
    controls()->addWidget(mLog);
    connect(mTensor, &QComboBox::currentIndexChanged, this, &HistogramPlot::redraw);
    connect(mMethod, &QComboBox::activated, this, &HistogramPlot::methodActivated);
    connect(mLog, &QCheckBox::toggled, this, &HistogramPlot::redraw);
    customPlot()->yAxis->setLabel(tr("count"));
    connect(customPlot(), &QCustomPlot::beforeReplot, this, &HistogramPlot::fitAxisCaption);
    connect(customPlot(), &QCustomPlot::beforeReplot, this, &HistogramPlot::placeLineLabels);
    showPlaceholder(noCalibrationPlaceholder());
}

void HistogramPlot::setDocument(ModelDocument* document) {
    if (mDocument) disconnect(mDocument, nullptr, this, nullptr);
    mDocument = document;
    setDialogDocument(document);
    if (document) {
        connect(document, &ModelDocument::calibrationChanged, this, &HistogramPlot::rebuildTensorList);
        // The diagnosis (numbers, method in use) follows the plan: an override, a precision that quantizes the
        // tensor or stops doing so.
        connect(document, &ModelDocument::lintChanged, this, &HistogramPlot::redraw);
    }
    rebuildTensorList();
}

void HistogramPlot::rebuildTensorList() {
    const QString previous = currentTensor();
    const QSignalBlocker block(mTensor);
    mTensor->clear();
    const auto calibration = mDocument ? mDocument->calibration() : nullptr;
    if (calibration)
        for (const TensorRange& r : calibration->activations) mTensor->addItem(QString::fromStdString(r.name));
    const int keep = mTensor->findText(previous);
    mTensor->setCurrentIndex(keep >= 0 ? keep : 0);
    redraw();
}

void HistogramPlot::showTensor(const QString& name) {
    const int index = mTensor->findText(name);
    if (index >= 0) mTensor->setCurrentIndex(index);
}

void HistogramPlot::showNode(NodeId node) {
    if (!mDocument || !mDocument->model() || !mDocument->calibration()) return;
    const Graph& graph = mDocument->model()->graph();
    if (node < 0 || static_cast<size_t>(node) >= graph.nodes().size()) return;
    for (ValueId out : graph.node(node).outputs) {
        if (out == kNoId) continue;
        const int index = mTensor->findText(QString::fromStdString(graph.value(out).name));
        if (index >= 0) {
            mTensor->setCurrentIndex(index);
            return;
        }
    }
}

QString HistogramPlot::currentTensor() const {
    return mTensor->currentIndex() >= 0 ? mTensor->itemText(mTensor->currentIndex()) : QString();
}

void HistogramPlot::setLogScale(bool logScale) {
    mLog->setChecked(logScale);
}

bool HistogramPlot::logScale() const {
    return mLog->isChecked();
}

std::optional<CalibrationMethod> HistogramPlot::methodInUse(bool* fromPlan) const {
    if (fromPlan) *fromPlan = false;
    const auto calibration = mDocument ? mDocument->calibration() : nullptr;
    const TensorRange* range = calibration ? calibration->activation(currentTensor().toStdString()) : nullptr;
    if (!range) return std::nullopt;
    const std::optional<CalibrationMethod> chosen = mDocument->plan().tensorMethod(range->name);
    if (fromPlan) *fromPlan = chosen.has_value();
    return chosen ? chosen : range->method;
}

void HistogramPlot::chooseMethod(std::optional<CalibrationMethod> method) {
    if (mDocument && !currentTensor().isEmpty()) mDocument->setTensorMethod(currentTensor(), method);
}

void HistogramPlot::methodActivated(int index) {
    const int method = mMethod->itemData(index).toInt();
    chooseMethod(method < 0 ? std::nullopt : std::optional(static_cast<CalibrationMethod>(method)));
}

void HistogramPlot::syncMethodCombo(const TensorRange* range) {
    const QSignalBlocker block(mMethod);
    mMethod->setItemText(0, range ? tr("the calibration's (%1)").arg(QString::fromUtf8(amaxMethodKey(range->method)))
                                  : tr("the calibration's"));
    bool fromPlan = false;
    const std::optional<CalibrationMethod> method = methodInUse(&fromPlan);
    mMethod->setCurrentIndex(fromPlan ? std::max(0, mMethod->findData(static_cast<int>(*method))) : 0);
    // Only a calibration that kept every method's amax can switch (files written before it cannot).
    mMethod->setEnabled(range && range->amaxByMethod);
}

QStringList HistogramPlot::lineLabels() const {
    QStringList labels;
    const QCustomPlot* plot = customPlot();
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i))) labels.append(text->text());
    return labels;
}

void HistogramPlot::redraw() {
    const auto calibration = mDocument ? mDocument->calibration() : nullptr;
    const TensorRange* range = calibration ? calibration->activation(currentTensor().toStdString()) : nullptr;
    syncMethodCombo(range);
    if (!range) {  // the caption and the note speak of the tensor shown, and none is
        mAxisTensor.clear();
        customPlot()->xAxis->setLabel({});
        setNote({});
    }
    if (!calibration) {
        showPlaceholder(noCalibrationPlaceholder());
        return;
    }
    if (!range) {
        showPlaceholder(tr("Choose a tensor, or select a node in the graph."));
        return;
    }
    clearPlot();
    drawHistogram(*range);
    drawMethodLines(*range);
    customPlot()->replot();
}

void HistogramPlot::drawHistogram(const TensorRange& range) {
    QCustomPlot* plot = customPlot();
    const Histogram& h = range.histogram;
    const bool log = logScale();
    QVector<double> keys, counts;
    double peak = 0.0;
    for (size_t i = 0; i < h.bins(); ++i) {
        const double count = static_cast<double>(h.counts[i]);
        keys.append(h.binEdge(i) + 0.5 * h.binWidth());
        // A log axis has no 0: empty bins become gaps.
        counts.append(log && count == 0.0 ? std::nan("") : count);
        peak = std::max(peak, count);
    }
    auto* graph = plot->addGraph();
    graph->setName(tr("histogram"));
    graph->setLineStyle(QCPGraph::lsStepCenter);
    QColor color = seriesColor(0);
    graph->setPen(QPen(color, 1));
    color.setAlpha(110);
    graph->setBrush(color);
    graph->setData(keys, counts, true);

    float widest = std::max(std::abs(range.min), std::abs(range.max));
    for (const MethodLine& line : methodLines(range, mDocument->calibration()->config, nullptr))
        widest = std::max(widest, line.amax);
    const double pad = 0.04 * std::max(1e-6, static_cast<double>(widest));
    plot->xAxis->setRange(std::min(0.0, static_cast<double>(range.min)) - pad,
                          std::max<double>(range.max, widest) + pad);
    plot->yAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log) {
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        plot->yAxis->setRange(0.5, std::max(10.0, peak * 3.0));
    } else {
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->yAxis->setRange(0.0, std::max(1.0, peak * 1.08));
    }
    mAxisTensor = QString::fromStdString(range.name);
    mAxisFacts = tr("(min %1, max %2)")
                     .arg(static_cast<double>(range.min), 0, 'g', 4)
                     .arg(static_cast<double>(range.max), 0, 'g', 4);
    if (range.nonFinite > 0) mAxisFacts += tr(", %n NaN/Inf ignored", nullptr, static_cast<int>(range.nonFinite));
    if (h.bins() == 0) mAxisFacts += tr("; no histogram stored");
    setNote(notesOf(range));
}

// What else a user should know about the numbers shown, in sentences.
QString HistogramPlot::notesOf(const TensorRange& range) const {
    QStringList notes;
    const auto diagnosis = mDocument->diagnosis();
    const CalibrationResult& calibration = *mDocument->calibration();
    // A tensor the fusion hides is counted on fewer samples (CalibrationOptions::fullStatistics): say so, why, and
    // whether it matters: only when the plan now quantizes it.
    if (range.samples > 0) {
        const QString measured =
            tr("Measured on %1 of the %2 samples, spread over the run: at calibration this "
               "tensor lay inside a layer TensorRT fuses (a Conv before its activation), "
               "which never reads its range, so the calibration looked at 1 sample in %3 to save time.")
                .arg(range.samples)
                .arg(calibration.samples)
                .arg(CalibrationOptions::kFusedAwayShare);
        notes.append(diagnosis && diagnosis->find(range.name)
                         ? measured + QLatin1Char(' ') +
                               tr("This plan quantizes it, so its range rests on those samples alone: "
                                  "`quantlens-cli calibrate --full-statistics` measures it on every sample.")
                         : measured + QLatin1Char(' ') + tr("The histogram shows its shape; nothing depends on it."));
    }
    // auto's criterion, beside its choice (the line marked \u25B6): the numbers shown decide it.
    bool overridden = false;
    const std::optional<CalibrationMethod> inUse = methodInUse(&overridden);
    if (calibration.config.method == CalibrationMethod::Auto && !overridden)
        notes.append(tr("auto chose %1: of the four methods, the highest expected SQNR on this histogram (\u25B6).")
                         .arg(QString::fromUtf8(amaxMethodKey(range.method))));
    if (diagnosis && !diagnosis->find(range.name)) {
        // No Q/DQ reads the tensor. Its layer may still run INT8, fused with the next one (Conv+Relu, Conv+SiLU):
        // "not quantized" beside an Effective INT8 read as a contradiction.
        const Graph& graph = mDocument->model()->graph();
        const auto value = graph.findValue(range.name);
        const NodeId producer = value ? graph.value(*value).producer : kNoId;
        notes.append(producer != kNoId && mDocument->plan().effective(producer) == Precision::Int8
                         ? tr("No Q/DQ reads this tensor: it stays inside a fused INT8 layer, so nothing is clipped.")
                         : tr("Not quantized by this plan: nothing is clipped."));
    }
    if (const TensorDiagnosis* quantized = diagnosis ? diagnosis->find(range.name) : nullptr)
        if (const std::optional<ChannelSpread>& s = quantized->channels;
            s && s->ratio >= DiagnosisThresholds::kOutlierChannelRatio && !s->outliers.empty())
            notes.append(tr("Outlier channels (%1 of %2 on axis %3; the widest is channel %4): %5x the median "
                            "channel's range, so under this tensor's one scale the median channel spans %6 INT8 "
                            "steps, %7 dB below a scale of its own (calib-outlier-channels).")
                             .arg(s->outlierCount)
                             .arg(s->channels)
                             .arg(s->axis)
                             .arg(s->outliers.front())
                             .arg(s->ratio, 0, 'f', 0)
                             .arg(s->medianSteps, 0, 'g', 2)
                             .arg(s->sqnrLossDb, 0, 'f', 1));
    if (overridden && inUse)
        notes.append(
            tr("Range from %1, chosen for this tensor (the calibration used %2).")
                .arg(QString::fromUtf8(amaxMethodKey(*inUse)), QString::fromUtf8(amaxMethodKey(range.method))));
    return notes.join(QLatin1Char(' '));
}

void HistogramPlot::drawMethodLines(const TensorRange& range) {
    QCustomPlot* plot = customPlot();
    const CalibrationConfig& config = mDocument->calibration()->config;
    const auto diagnosis = mDocument->diagnosis();
    std::vector<MethodLine> lines = methodLines(range, config, diagnosis ? diagnosis->find(range.name) : nullptr);
    const std::optional<CalibrationMethod> inUse = methodInUse();
    // Labels stacked from the top in amax order, one row of text each (in pixels, whatever the plot's height), so
    // close lines never print over each other.
    std::stable_sort(lines.begin(), lines.end(),
                     [](const MethodLine& a, const MethodLine& b) { return a.amax < b.amax; });
    QColor labelBackground = palette().color(QPalette::Base);
    labelBackground.setAlpha(210);
    QFont boldFont = font();
    boldFont.setBold(true);
    const int rowHeight = QFontMetrics(boldFont).height() + 6;  // the text, its padding and frame, a gap
    for (size_t k = 0; k < lines.size(); ++k) {
        const MethodLine& line = lines[k];
        const bool chosen = line.method == inUse;
        const QColor color = seriesColor(methodColorIndex(line.method));
        auto* item = new QCPItemStraightLine(plot);
        for (QCPItemPosition* p : {item->point1, item->point2}) {
            p->setTypeX(QCPItemPosition::ptPlotCoords);
            p->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        item->point1->setCoords(line.amax, 0.0);
        item->point2->setCoords(line.amax, 1.0);
        item->setPen(chosen ? QPen(color, 2.5) : QPen(color, 1.5, Qt::DashLine));

        auto* text = new QCPItemText(plot);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAbsolute);
        text->position->setParentAnchorY(item->point1);  // pixels below the top of the plot
        text->position->setCoords(line.amax, 4.0 + static_cast<double>(k) * rowHeight);
        text->setProperty(kLineAmax, line.amax);
        text->setPadding(QMargins(3, 1, 3, 1));
        text->setText(lineText(line, chosen));
        text->setColor(textColor());
        text->setBrush(labelBackground);
        text->setPen(QPen(color));
        text->setFont(chosen ? boldFont : font());
    }
}

QList<QRectF> HistogramPlot::lineLabelRects() const {
    QList<QRectF> rects;
    const QCustomPlot* plot = customPlot();
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i))) {
            const QPointF topLeft = text->topLeft->pixelPosition(), bottomRight = text->bottomRight->pixelPosition();
            rects.append(QRectF(topLeft, bottomRight).normalized());
        }
    return rects;
}

// The tensor's name shortened in the middle where the whole caption would run past the plot (the combo above names
// it whole); the range facts after it are always whole.
void HistogramPlot::fitAxisCaption() {
    if (mAxisTensor.isEmpty()) return;
    QCPAxis* axis = customPlot()->xAxis;
    const QFontMetrics metrics(axis->labelFont());
    const QString facts = QStringLiteral("   ") + mAxisFacts;
    const int room = customPlot()->axisRect()->width() - metrics.horizontalAdvance(tr("value of ") + facts) - 8;
    axis->setLabel(tr("value of ") + metrics.elidedText(mAxisTensor, Qt::ElideMiddle, std::max(room, 40)) + facts);
}

void HistogramPlot::placeLineLabels() {
    QCustomPlot* plot = customPlot();
    const QRect area = plot->axisRect()->rect();
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(plot->item(i));
        if (!text || !text->property(kLineAmax).isValid()) continue;
        const double amax = text->property(kLineAmax).toDouble();
        const QMargins padding = text->padding();
        const double width =
            QFontMetricsF(text->font()).horizontalAdvance(text->text()) + padding.left() + padding.right() + 2.0;
        const double at = plot->xAxis->coordToPixel(amax);
        const double y = text->position->coords().y();
        const bool right = at + width <= area.right(), left = at - width >= area.left();
        text->setPositionAlignment((right || !left ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
        // Neither side has room: against the plot's right edge (its left edge when the label is wider still).
        const double x =
            right || left ? amax : plot->xAxis->pixelToCoord(std::max<double>(area.left(), area.right() - width));
        text->position->setCoords(x, y);
    }
}

}  // namespace ql::ui
