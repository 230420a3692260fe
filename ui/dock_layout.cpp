#include "ui/dock_layout.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QTimer>
#include <algorithm>

namespace ql::ui {

namespace {

QDockWidget* dock(QMainWindow& window, const char* name) {
    return window.findChild<QDockWidget*>(QLatin1String(name));
}

void sizeDocks(QMainWindow& window) {
    QDockWidget* findings = dock(window, "LintDock");
    QDockWidget* properties = dock(window, "NodePropertiesDock");
    QDockWidget* precision = dock(window, "PrecisionDock");
    QDockWidget* layers = dock(window, "LayerErrorDock");
    if (!findings || !properties || !precision || !layers) return;
    const int width = window.width(), height = window.height();
    const int right = std::clamp(width * 27 / 100, 320, 440);
    const int plots = std::clamp(width * 38 / 100, 460, 720);
    const int bottom = std::max(260, height * 37 / 100);
    window.resizeDocks({findings, properties}, {(height - bottom) * 2 / 5, (height - bottom) * 3 / 5}, Qt::Vertical);
    window.resizeDocks({findings}, {right}, Qt::Horizontal);
    window.resizeDocks({precision}, {bottom}, Qt::Vertical);
    window.resizeDocks({precision, layers}, {width - plots, plots}, Qt::Horizontal);
}

// Sizes the docks at the first Show of the window, then removes itself.
class FirstShowSizer : public QObject {
public:
    explicit FirstShowSizer(QMainWindow& window) : QObject(&window), mWindow(window) {
        window.installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == &mWindow && event->type() == QEvent::Show) {
            mWindow.removeEventFilter(this);
            // After the show's own layout pass, so the sizes are shares of the real geometry.
            QTimer::singleShot(0, &mWindow, [window = &mWindow] { sizeDocks(*window); });
            deleteLater();
        }
        return false;
    }

private:
    QMainWindow& mWindow;
};

}  // namespace

void arrangeDocks(QMainWindow& window) {
    QDockWidget* findings = dock(window, "LintDock");
    QDockWidget* properties = dock(window, "NodePropertiesDock");
    QDockWidget* precision = dock(window, "PrecisionDock");
    QDockWidget* histogram = dock(window, "HistogramDock");
    QDockWidget* layers = dock(window, "LayerErrorDock");
    if (!findings || !properties || !precision || !histogram || !layers) return;
    for (QDockWidget* d : window.findChildren<QDockWidget*>()) window.removeDockWidget(d);
    window.addDockWidget(Qt::RightDockWidgetArea, findings);
    window.addDockWidget(Qt::RightDockWidgetArea, properties);
    window.splitDockWidget(findings, properties, Qt::Vertical);
    window.addDockWidget(Qt::BottomDockWidgetArea, precision);
    // Split before tabbing: splitting a tabbed dock adds a tab instead.
    window.splitDockWidget(precision, layers, Qt::Horizontal);
    for (const char* name : {"NodesDock", "DiagnosticsDock", "LogDock"})
        if (QDockWidget* d = dock(window, name)) window.tabifyDockWidget(precision, d);
    if (QDockWidget* scatter = dock(window, "OutputScatterDock")) window.tabifyDockWidget(layers, scatter);
    window.tabifyDockWidget(layers, histogram);
    if (QDockWidget* engine = dock(window, "EngineDock")) window.tabifyDockWidget(findings, engine);
    for (QDockWidget* d : window.findChildren<QDockWidget*>()) d->show();
    precision->raise();
    histogram->raise();
    findings->raise();
    sizeDocks(window);
}

void sizeDocksWhenShown(QMainWindow& window) {
    new FirstShowSizer(window);
}

}  // namespace ql::ui
