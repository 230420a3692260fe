#pragma once
// The legend drawn over the graph view: precision outlines, badges and op family colours, as a strip along
// the bottom of the view that wraps into as few rows as the width allows (a tall box would hide the graph in
// small windows). A child widget of the view (not of its viewport, whose children scroll with the scene).
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
    QStringList labels() const;
    // Sizes the strip for `width` pixels: the entries wrap into rows.
    void fitToWidth(int width);
    QSize sizeHint() const override;
    int rowCount() const { return mRows; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    enum class Shape { Box, Dot, Ring, Text, DashedLine };
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
    int mRows = 1;
};

}  // namespace ql::ui
