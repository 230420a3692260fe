#pragma once
// The legend drawn over the graph view: precision outlines, badges and op family colours, as a strip along
// the bottom of the view that wraps into as few rows as the width allows (a tall box would hide the graph in
// small windows). A child widget of the view (not of its viewport, whose children scroll with the scene). A small
// toggle at its start collapses it to that toggle alone (the rows go back to the graph) and expands it again;
// the choice is remembered (QSettings "graph/legendCollapsed").
#include <QColor>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

namespace ql::ui {

struct GraphLegendFillKey {
    QColor color;
    QString label;
};

class GraphLegend : public QWidget {
    Q_OBJECT
public:
    using FillKey = GraphLegendFillKey;

    explicit GraphLegend(QWidget* parent = nullptr);
    // What the box fills mean when they do not show op families (the engine's precision or time): `keys` replace
    // the op family entries, after `title`, with the dashed ring of a mismatch. Empty: op families again.
    void setFillKeys(const QString& title, const QVector<FillKey>& keys);
    // The dashed edge of a value that If/Loop/Scan bodies read from the graph around them: listed only while the
    // shown graph has one (most models have none).
    void setShowsOuterScopeEdges(bool shows);
    // The entries' labels (not the toggle's).
    QStringList labels() const;
    // Collapsed: only the toggle shows. Remembered for the next window; the view is told to place the legend again.
    void setCollapsed(bool collapsed);
    bool isCollapsed() const { return mCollapsed; }
    // Where the toggle is, in the legend's coordinates.
    QRect toggleRect() const;
    // Sizes the strip for `width` pixels: the entries wrap into rows.
    void fitToWidth(int width);
    QSize sizeHint() const override;
    int rowCount() const { return mRows; }

signals:
    void collapsedChanged(bool collapsed);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    enum class Shape { Box, Dot, Ring, Text, DashedLine, Toggle };
    struct Entry {
        Shape shape;
        QColor fill, outline;
        double outlineWidth;
        QString label;
        int width;  // pixels the entry takes in a row
    };
    void addEntry(Shape shape, const QColor& fill, const QColor& outline, double outlineWidth, const QString& label);
    void rebuild(const QString& title, const QVector<FillKey>& keys);

    QVector<Entry> mEntries;
    QString mTitle;
    QVector<FillKey> mKeys;
    bool mOuterScopeEdges = false;
    bool mCollapsed = false;
    int mRows = 1;
};

}  // namespace ql::ui
