#include "ui/graph/graph_view_actions.h"

#include <QAction>
#include <QMenu>
#include <QSettings>
#include <functional>

#include "ui/graph/graph_fit.h"
#include "ui/graph/graph_minimap.h"
#include "ui/graph/graph_search_bar.h"
#include "ui/graph/graph_view.h"

namespace ql::ui {

namespace {

// A check box saved under `key`: applied now from the setting, then on every toggle.
QAction* addSetting(QMenu* menu, const QString& text, const char* key, const std::function<void(bool)>& apply) {
    QAction* action = menu->addAction(text);
    action->setCheckable(true);
    action->setChecked(QSettings().value(QLatin1String(key), false).toBool());
    apply(action->isChecked());
    QObject::connect(action, &QAction::toggled, menu, [key, apply](bool on) {
        QSettings().setValue(QLatin1String(key), on);
        apply(on);
    });
    return action;
}

}  // namespace

void addGraphViewActions(QMenu* menu, GraphView* view, GraphSearchBar* search) {
    menu->addAction(search->findNextAction());
    menu->addAction(search->findPreviousAction());
    menu->addSeparator();
    // The graph shown: the main graph or an open subgraph body.
    menu->addAction(QObject::tr("&Collapse All"), view, [view] { view->shownScene()->collapseAll(); });
    menu->addAction(QObject::tr("&Expand All"), view, [view] { view->shownScene()->expandAll(); });
    addSetting(menu, QObject::tr("Show &Tensor Shapes"), kShowTensorShapesSetting, [view](bool on) {
        view->setShowTensorShapes(on);
    })->setObjectName(QStringLiteral("ShowTensorShapesAction"));
    addSetting(menu, QObject::tr("Mouse &Wheel Zooms"), kWheelZoomsSetting, [view](bool on) {
        view->setWheelZooms(on);
    })->setObjectName(QStringLiteral("WheelZoomsAction"));
    // Fit to Window may wrap a long graph into columns (graph_fit.h): this one fits it in one column, as laid out.
    menu->addAction(QObject::tr("Fit to Window &As Laid Out"), view, [view] { view->fit()->fitAsLaidOut(); });
    QAction* overview = view->minimap()->showAction();
    overview->setChecked(QSettings().value(QLatin1String(kShowOverviewSetting), true).toBool());
    QObject::connect(overview, &QAction::toggled, menu,
                     [](bool on) { QSettings().setValue(QLatin1String(kShowOverviewSetting), on); });
    menu->addAction(overview);
    menu->addSeparator();
}

}  // namespace ql::ui
