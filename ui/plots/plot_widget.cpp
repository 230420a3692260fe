#include "ui/plots/plot_widget.h"

#include "ui/dialog_folder.h"
#include "ui/message_box.h"
#include "ui/model_document.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextLayout>
#include <QToolTip>
#include <QVBoxLayout>

#include <functional>

namespace ql::ui {

namespace {

constexpr int kPlotMinimumHeight = 160;

void styleAxis(QCPAxis* axis, const QColor& text, const QColor& grid) {
    axis->setBasePen(QPen(text, 1));
    axis->setTickPen(QPen(text, 1));
    axis->setSubTickPen(QPen(text, 1));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(QPen(grid, 1));
}

// Writes through QSaveFile, so a failed export never leaves a half-written file.
bool writeAtomically(const QString& path, QString* error, const std::function<bool(QIODevice&)>& write) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !write(file) || !file.commit()) {
        if (error) *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

// `text` broken into lines no wider than `width` in `font` (at word boundaries, or anywhere in a longer word):
// QCPItemText draws only the line breaks it is given, so a placeholder in a narrow dock was cut off at both sides.
QString wrapToWidth(const QString& text, const QFont& font, int width) {
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QTextLayout layout(paragraph, font);
        QTextOption option;
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        layout.setTextOption(option);
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            lines.append(paragraph.mid(line.textStart(), line.textLength()).trimmed());
        }
        layout.endLayout();
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

QString noAnalysisPlaceholder() {
    return QObject::tr("No error analysis yet.\nCalibrate with \"Then measure the quantization error\" checked.");
}

QColor seriesColor(int index) {
    // Mid-tone colours (matplotlib's tab10) that read on white and on dark grey.
    static const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                    QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                    QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f)};
    return colors[static_cast<size_t>(index) % std::size(colors)];
}

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent), mPlot(new QCustomPlot(this)), mNote(new QLabel(this)) {
    mControls = new QHBoxLayout;
    mControls->setContentsMargins(4, 2, 4, 0);
    mNote->setWordWrap(true);
    mNote->setContentsMargins(6, 0, 6, 0);
    mNote->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // wraps instead of widening the dock
    mNote->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(mControls);
    layout->addWidget(mNote);
    layout->addWidget(mPlot, 1);
    mPlot->setMinimumSize(240, kPlotMinimumHeight);
    mPlot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(mPlot, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        menu.addAction(tr("Export..."), this, &PlotWidget::exportWithDialog);
        menu.exec(mPlot->mapToGlobal(pos));
    });
    connect(mPlot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &PlotWidget::keepKeyRangeInBounds);
    applyPalette();
}

PlotWidget::~PlotWidget() = default;

bool PlotWidget::exportTo(const QString& path, QString* error) const {
    const int w = mPlot->width(), h = mPlot->height();
    if (QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0) {
        return writeAtomically(path, error, [&](QIODevice& device) {
            QSvgGenerator svg;
            svg.setOutputDevice(&device);
            svg.setSize(QSize(w, h));
            svg.setViewBox(QRect(0, 0, w, h));
            svg.setTitle(windowTitle());
            QCPPainter painter;
            if (!painter.begin(&svg)) return false;
            mPlot->toPainter(&painter, w, h);
            return painter.end();
        });
    }
    // Twice the screen size, so the PNG stays sharp in documents.
    const QPixmap pixmap = mPlot->toPixmap(w, h, 2.0);
    return writeAtomically(path, error, [&](QIODevice& device) { return pixmap.save(&device, "PNG"); });
}

void PlotWidget::setDialogDocument(const ModelDocument* document) {
    mDialogDocument = document;
}

void PlotWidget::exportWithDialog() {
    QString selected;
    // The plot's title as the file name, without characters some file systems refuse (':' in "Output: ...").
    QString name = windowTitle().remove(QRegularExpression(QStringLiteral("[^\\w\\- ]"))).simplified();
    if (name.isEmpty()) name = tr("plot");
    QString path = QFileDialog::getSaveFileName(this, tr("Export Plot"), suggestedPath(mDialogDocument, name + ".png"),
                                                tr("PNG image (*.png);;SVG drawing (*.svg)"), &selected);
    if (path.isEmpty()) return;
    rememberDialogFolder(path);
    if (QFileInfo(path).suffix().isEmpty()) path += selected.contains(QStringLiteral("svg")) ? ".svg" : ".png";
    QString error;
    if (!exportTo(path, &error)) showMessage(this, QMessageBox::Warning, tr("Export failed"), error);
}

void PlotWidget::setStaleReason(const QString& reason) {
    mStaleReason = reason;
    if (!mStale) {
        mStale = new QLabel(this);
        mStale->setStyleSheet(QStringLiteral("QLabel { background: #ffc107; color: #202020; padding: 1px 6px; }"));
        mStale->setTextFormat(Qt::RichText);
        // Wraps instead of widening the dock (a long reason squeezed the tables beside it).
        mStale->setWordWrap(true);
        mStale->setContentsMargins(4, 0, 4, 0);
        mStale->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        connect(mStale, &QLabel::linkActivated, this, &PlotWidget::remeasureRequested);
        // Its own row above the controls: beside them it was squeezed into a tall narrow block.
        static_cast<QVBoxLayout*>(layout())->insertWidget(0, mStale);
    }
    mStale->setText(tr("stale: %1 \u2014 <a href=\"measure\" style=\"color:#202020\">Measure again</a>")
                        .arg(reason.toHtmlEscaped()));
    mStale->setToolTip(tr("These numbers describe another plan or calibration: %1. Quantize > Measure Again (Ctrl+M) "
                          "measures the current one; undoing back to the measured plan also clears this.")
                           .arg(reason));
    mStale->setVisible(!reason.isEmpty());
    fitTextRowsInMinimum();
}

QSize PlotWidget::sizeHint() const {
    QSize hint = QWidget::sizeHint();
    hint.rheight() -= textRowsHeight(hint.width());
    return hint;
}

QSize PlotWidget::minimumSizeHint() const {
    QSize hint = QWidget::minimumSizeHint();
    hint.setHeight(mControls->minimumSize().height() + layout()->spacing() + kPlotMinimumHeight);
    return hint;
}

int PlotWidget::textRowsHeight(int width) const {
    int height = 0;
    for (const QLabel* label : {mStale, mNote})
        if (label && !label->isHidden()) height += label->heightForWidth(std::max(1, width)) + layout()->spacing();
    return height;
}

void PlotWidget::fitTextRowsInMinimum() {
    mPlot->setMinimumHeight(std::max(kPlotMinimumHeight / 2, kPlotMinimumHeight - textRowsHeight(width())));
}

void PlotWidget::setNote(const QString& note, const QString& toolTip) {
    mNote->setText(note);
    mNote->setToolTip(toolTip);
    mNote->setVisible(!note.isEmpty());
    fitTextRowsInMinimum();
}

QString PlotWidget::note() const {
    return mNote->text();
}

QString PlotWidget::noteToolTip() const {
    return mNote->toolTip();
}

void PlotWidget::clearPlot() {
    mKeyBounds = {0.0, 0.0};
    mPlot->clearPlottables();
    mPlot->clearItems();
    mPlaceholder.clear();
    for (QCPAxis* axis : {mPlot->xAxis, mPlot->yAxis}) axis->setVisible(true);
}

QComboBox* PlotWidget::addChoice(const QString& label, const std::vector<std::pair<QString, int>>& items) {
    auto* combo = new QComboBox(this);
    for (const auto& [text, value] : items) combo->addItem(text, value);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    combo->setMinimumWidth(4 * fontMetrics().averageCharWidth() + 24);  // a few letters and the arrow
    if (!label.isEmpty()) mControls->addWidget(new QLabel(label, this));
    mControls->addWidget(combo);
    return combo;
}

void PlotWidget::showHoverTip(const QMouseEvent* event, const QString& text) {
    if (text.isEmpty()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), text, mPlot);
}

void PlotWidget::showKeyRange(double lower, double upper) {
    mPlot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    mPlot->axisRect()->setRangeDrag(Qt::Horizontal);
    mPlot->axisRect()->setRangeZoom(Qt::Horizontal);
    mKeyBounds = {lower, upper};
    mPlot->xAxis->setRange(lower, upper);
}

void PlotWidget::keepKeyRangeInBounds() {
    const auto [lower, upper] = mKeyBounds;
    if (lower >= upper) return;
    const QCPRange range = mPlot->xAxis->range();
    const double span = std::min(range.size(), upper - lower);
    QCPRange kept(range.lower, range.lower + span);
    if (kept.lower < lower) kept = QCPRange(lower, lower + span);
    if (kept.upper > upper) kept = QCPRange(upper - span, upper);
    // Changed only when out of bounds: the setRange below emits rangeChanged again, which then changes nothing.
    if (kept != range) mPlot->xAxis->setRange(kept);
}

void PlotWidget::placeLegendAbove() {
    QCPLayoutInset* inset = mPlot->axisRect()->insetLayout();
    if (!inset->take(mPlot->legend)) return;  // already placed
    inset->simplify();
    // Right-aligned at its own width: a spacer on the left takes what the entries leave.
    auto* row = new QCPLayoutGrid;
    mPlot->plotLayout()->insertRow(0);
    mPlot->plotLayout()->addElement(0, 0, row);
    mPlot->plotLayout()->setRowStretchFactor(0, 0.001);  // as high as its entries, the rest to the axes
    row->addElement(0, 0, new QCPLayoutElement(mPlot));
    row->addElement(0, 1, mPlot->legend);
    row->setColumnStretchFactor(1, 0.001);
    row->setMargins(QMargins(0, 4, 8, 0));
    mPlot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    mPlot->legend->setMargins(QMargins(4, 2, 4, 0));
}

void PlotWidget::showPlaceholder(const QString& text) {
    clearPlot();
    mPlaceholder = text;
    // Nothing of the previous data stays: no axes, ranges or legend of another model.
    for (QCPAxis* axis : {mPlot->xAxis, mPlot->yAxis}) {
        axis->setRange(0.0, 1.0);
        axis->setVisible(false);
    }
    mPlot->legend->setVisible(false);
    mPlaceholderItem = new QCPItemText(mPlot);
    mPlaceholderItem->position->setType(QCPItemPosition::ptAxisRectRatio);
    mPlaceholderItem->position->setCoords(0.5, 0.5);
    mPlaceholderItem->setPositionAlignment(Qt::AlignCenter);
    mPlaceholderItem->setTextAlignment(Qt::AlignCenter);
    mPlaceholderItem->setColor(textColor());
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 1.1);
    mPlaceholderItem->setFont(font);
    wrapPlaceholder();
    mPlot->replot();
}

void PlotWidget::wrapPlaceholder() {
    if (!mPlaceholderItem) return;
    const int margin = 2 * QFontMetrics(mPlaceholderItem->font()).averageCharWidth();
    mPlaceholderItem->setText(
        wrapToWidth(mPlaceholder, mPlaceholderItem->font(), std::max(1, mPlot->width() - margin)));
}

void PlotWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitTextRowsInMinimum();  // the banner and the note wrap to the new width
    if (mPlaceholder.isEmpty()) return;
    wrapPlaceholder();
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

QColor PlotWidget::textColor() const {
    return palette().color(QPalette::Text);
}

QColor PlotWidget::accentColor() const {
    return palette().color(QPalette::Highlight);
}

void PlotWidget::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        mPlot->replot();
    }
}

void PlotWidget::applyPalette() {
    applyPlotPalette(mPlot, palette());
    // Texts drawn in the previous theme's colours (the placeholder, labels on a Base background) follow the new
    // one: after View > Theme dark -> light the placeholder was light grey on white.
    const QColor text = textColor(), base = palette().color(QPalette::Base);
    for (int i = 0; i < mPlot->itemCount(); ++i) {
        auto* item = qobject_cast<QCPItemText*>(mPlot->item(i));
        if (!item) continue;
        if (item->color() == mAppliedText) item->setColor(text);
        if (item->brush().style() != Qt::NoBrush && item->brush().color().rgb() == mAppliedBase.rgb()) {
            QColor background = base;
            background.setAlpha(item->brush().color().alpha());
            item->setBrush(background);
        }
    }
    mAppliedText = text;
    mAppliedBase = base;
}

void applyPlotPalette(QCustomPlot* plot, const QPalette& palette) {
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(60);
    plot->setBackground(palette.color(QPalette::Base));
    for (QCPAxis* axis : plot->axisRect()->axes()) styleAxis(axis, text, grid);
    plot->legend->setBrush(palette.color(QPalette::Base));
    plot->legend->setTextColor(text);
    plot->legend->setBorderPen(QPen(grid));
}

}  // namespace ql::ui
