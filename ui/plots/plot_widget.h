#pragma once
// The base of the QCustomPlot docks: a row for the plot's own controls above the plot, a note under them, a
// centred message when there is nothing to show ("No calibration yet", wrapped to the plot's width), colours from the
// widget palette (light and dark themes), and a context menu "Export..." that writes PNG or SVG.
//
// qcustomplot.h costs ~19 s per translation unit: only the plot .cpp files include it (with a
// precompiled header); this header forward-declares QCustomPlot.
#include <QColor>
#include <QPointer>
#include <QString>
#include <QWidget>
#include <utility>
#include <vector>

class QComboBox;
class QMouseEvent;
class QCustomPlot;
class QCPItemText;
class QHBoxLayout;
class QLabel;

namespace ql::ui {

class ModelDocument;

// Background, axes, grid and legend of `plot` in the colours of `palette` (light or dark theme).
void applyPlotPalette(QCustomPlot* plot, const QPalette& palette);

class PlotWidget : public QWidget {
    Q_OBJECT
public:
    explicit PlotWidget(QWidget* parent = nullptr);
    ~PlotWidget() override;

    QCustomPlot* customPlot() const { return mPlot; }
    // The message shown instead of data, empty when data is shown.
    QString placeholderText() const { return mPlaceholder; }

    // Writes the plot as PNG or SVG (by the suffix) at its current size; false with `error` set on failure.
    bool exportTo(const QString& path, QString* error = nullptr) const;
    // Asks for a file name (starting in the model's folder: dialog_folder.h) and exports.
    void exportWithDialog();
    // The document whose folder the export dialog starts in.
    void setDialogDocument(const ModelDocument* document);

    // The amber "stale" banner in the controls row: why the numbers shown describe another plan or calibration,
    // with a "Measure again" link; empty hides it.
    void setStaleReason(const QString& reason);
    QString staleReason() const { return mStaleReason; }
    bool isStale() const { return !mStaleReason.isEmpty(); }

    // A note under the controls, in sentences that wrap to the dock's width (an axis label runs past a narrow
    // dock's edges); empty hides it. `toolTip`: more than fits, on hovering the note.
    void setNote(const QString& note, const QString& toolTip = {});
    QString note() const;
    QString noteToolTip() const;

    // Without the banner's and the note's rows (fitTextRowsInMinimum): the dock's size hint must not change either.
    QSize sizeHint() const override;
    // The same whatever the banner and the note say (fitTextRowsInMinimum); no height for a width, so that a dock
    // never asks for the rows a long note wraps into at a narrow width (four outputs' errors in a tab behind
    // another made the window taller than a 1280x800 screen).
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return false; }

signals:
    // The stale banner's "Measure again" link was clicked.
    void remeasureRequested();

protected:
    QHBoxLayout* controls() const { return mControls; }
    // A combo box of (text, value) items in the controls row, after `label` unless it is empty. It is as wide as
    // its texts where the dock has room and narrower where not: a row of full-width combos set the dock's
    // minimum width wider than a 1280-pixel window gives it.
    QComboBox* addChoice(const QString& label, const std::vector<std::pair<QString, int>>& items = {});
    // Clears the plot and shows `text` in the middle of it, wrapped to the plot's width (again on every resize).
    void showPlaceholder(const QString& text);
    // Clears plottables, items, the placeholder and the x bounds before new data is drawn.
    void clearPlot();
    // The legend in a row of its own above the axes, its entries side by side: inside the axes it covered the data
    // of a narrow dock.
    void placeLegendAbove();
    // Shows [lower, upper] on x and lets the wheel zoom and a drag pan along x only, never past those bounds (the
    // data's extent): with hundreds of layers or steps a user zooms in, and a free range lost the data off screen.
    void showKeyRange(double lower, double upper);
    // The hover tip at the mouse of `event`: `text`, or none when it is empty (the mouse over no point).
    void showHoverTip(const QMouseEvent* event, const QString& text);
    // The palette's colours for lines and text (light or dark theme).
    QColor textColor() const;
    QColor accentColor() const;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void applyPalette();
    void wrapPlaceholder();
    void keepKeyRangeInBounds();
    // The stale banner and the note take their rows from the plot's minimum height: shown, hidden or rewrapped, the
    // widget asks the same minimum of its dock, so no dock moves and the window does not grow (a precision change
    // showed the banner and a longer note, and at 1280x800 the window grew past the screen).
    void fitTextRowsInMinimum();
    int textRowsHeight(int width) const;

    QCustomPlot* mPlot;
    QHBoxLayout* mControls;
    QLabel* mStale = nullptr;
    QLabel* mNote;
    QString mPlaceholder;
    QPointer<QCPItemText> mPlaceholderItem;  // deleted with the plot's items by clearPlot()
    QColor mAppliedText, mAppliedBase;       // the palette's text and base colours the items were drawn in
    QPointer<const ModelDocument> mDialogDocument;
    QString mStaleReason;
    std::pair<double, double> mKeyBounds{0.0, 0.0};  // lower >= upper: no bounds
};

// The placeholder of the plots that show an error analysis (per-layer error, output scatter) while there is none.
QString noAnalysisPlaceholder();

// A distinct colour for series `index` that reads on light and dark backgrounds.
QColor seriesColor(int index);

}  // namespace ql::ui
