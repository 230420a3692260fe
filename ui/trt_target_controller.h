#pragma once
// The window's TensorRT target (trt_version.h): Quantize > TensorRT Target, one checkable action per version and
// typing TensorRT can build, and a permanent status-bar label naming the target. Choosing one re-decides the
// document's effective precisions and lint report (ModelDocument::setTrtTarget) on the GUI thread, as every plan
// edit does: the policies and the lint rules are single passes over the graph.
#include <QObject>
#include <QString>
#include <utility>
#include <vector>

#include "core/lint/trt_version.h"

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QWidget;

namespace ql::ui {

class ModelDocument;

class TrtTargetController : public QObject {
    Q_OBJECT
public:
    TrtTargetController(ModelDocument* document, QWidget* window);

    QMenu* menu() const { return mMenu; }
    QLabel* statusLabel() const { return mStatusLabel; }
    // The action that chooses `target`, or null when TensorRT cannot build it (8.6 strongly typed, 11 weakly).
    QAction* actionFor(const TrtTarget& target) const;

signals:
    // A one-line outcome for the status bar ("TensorRT target: 11.x, strongly typed; ...").
    void statusMessage(const QString& text);

private:
    void addTarget(TrtTarget target, const QString& text, const QString& tip);
    void choose(TrtTarget target);
    void showTarget();

    ModelDocument* mDocument;
    QMenu* mMenu;
    QActionGroup* mGroup;
    QLabel* mStatusLabel;
    std::vector<std::pair<TrtTarget, QAction*>> mActions;
};

// "TensorRT 10.x, strongly typed"
QString trtTargetLabel(const TrtTarget& target);

}  // namespace ql::ui
