#pragma once
// The base of the QCustomPlot docks: a row for the plot's own controls above the plot, a centred message
// when there is nothing to show ("No calibration yet"), colours from the widget palette (light and dark
// themes), and a context menu "Export..." that writes PNG or SVG.
//
// qcustomplot.h costs ~19 s per translation unit: only the plot .cpp files include it (with a
// precompiled header); this header forward-declares QCustomPlot.
#include <QString>
#include <QWidget>

class QCustomPlot;
class QHBoxLayout;
class QLabel;

namespace ql::ui {

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
    // Asks for a file name and exports.
    void exportWithDialog();

    // The amber "stale" banner in the controls row: why the numbers shown describe another plan or calibration,
    // with a "Measure again" link; empty hides it.
    void setStaleReason(const QString& reason);
    QString staleReason() const { return mStaleReason; }
    bool isStale() const { return !mStaleReason.isEmpty(); }

signals:
    // The stale banner's "Measure again" link was clicked.
    void remeasureRequested();

protected:
    QHBoxLayout* controls() const { return mControls; }
    // Clears the plot and shows `text` in the middle of it.
    void showPlaceholder(const QString& text);
    // Clears plottables, items and the placeholder before new data is drawn.
    void clearPlot();
    // The palette's colours for lines and text (light or dark theme).
    QColor textColor() const;
    QColor accentColor() const;
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();

    QCustomPlot* mPlot;
    QHBoxLayout* mControls;
    QLabel* mStale = nullptr;
    QString mPlaceholder;
    QString mStaleReason;
};

// A distinct colour for series `index` that reads on light and dark backgrounds.
QColor seriesColor(int index);

}  // namespace ql::ui
