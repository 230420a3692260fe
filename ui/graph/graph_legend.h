#pragma once
// The legend drawn over the graph view: op family colours, precision outlines and badges. A child widget of
// the view (not of its viewport, whose children scroll with the scene).
#include <QWidget>

namespace ql::ui {

class GraphLegend : public QWidget {
    Q_OBJECT
public:
    explicit GraphLegend(QWidget* parent = nullptr);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace ql::ui
