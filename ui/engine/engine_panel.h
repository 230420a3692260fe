#pragma once
// The "TensorRT Engine" dock: what the imported engine report says about the document's model, in one tree —
// a summary line (files, layers, total time, INT8 share), the differences from the plan with their reasons, and
// the slowest layers. Clicking a row selects its node (nodeSelected). Rebuilt whenever the report or its
// mismatches change (a plan edit recomputes them).
#include <QWidget>

#include "core/model/graph.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace ql::ui {

class ModelDocument;
struct EngineRun;

class EnginePanel : public QWidget {
    Q_OBJECT
public:
    enum Section { MismatchSection, SlowestSection };
    static constexpr int kNodeRole = Qt::UserRole;

    explicit EnginePanel(ModelDocument* document, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return mTree; }
    QLabel* summary() const { return mSummary; }
    // The top-level item of `section`.
    QTreeWidgetItem* sectionItem(Section section) const;

signals:
    void nodeSelected(ql::NodeId node);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    // The Engine column as wide as its texts, the names what the times leave (at least half of the rest, at most
    // their own width), the reasons and times the rest: with the names at a fixed 260 pixels a docked panel cut
    // "INT8 → FP16" and the times to "INT8", "0.00".
    void fitColumns();
    void addMismatches(const EngineRun& run, const Graph& graph);
    void addSlowestLayers(const EngineRun& run);
    void itemActivated(QTreeWidgetItem* item);

    ModelDocument* mDocument;
    QLabel* mSummary;
    QTreeWidget* mTree;
};

// "digits.layers.json + profile: 11 layers, 0.0420 ms per inference, INT8 67.8% of the time, 4 differences from the
// plan; mapped 31 of 31 compute nodes and 10 of 10 layers".
QString engineSummaryText(const EngineRun& run);
// "The report is probably of another model: it maps ..." when too little of it maps (engine_coverage.h), else empty.
QString otherModelText(const EngineRun& run);

}  // namespace ql::ui
