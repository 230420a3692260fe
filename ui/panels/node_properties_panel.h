#pragma once
// The node properties dock: for the node shown, its name, op and domain, every attribute, inputs and outputs with
// their names, types and inferred shapes, a summary of its constant inputs (shape, type, count, min/max/mean/std
// and a histogram of the selected one), its requested and effective precision with the reason, and its TensorRT
// findings with their fixes. Values are selectable and copyable (Ctrl+C, context menu). Weight statistics are
// computed off the GUI thread, so a big embedding table does not freeze the window.
#include <QFutureWatcher>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/model/graph.h"
#include "ui/panels/node_details.h"

class QCustomPlot;
class QTreeWidget;
class QTreeWidgetItem;
class QLabel;

namespace ql::ui {

class ModelDocument;

class NodePropertiesPanel : public QWidget {
    Q_OBJECT
public:
    explicit NodePropertiesPanel(ModelDocument* document, QWidget* parent = nullptr);
    ~NodePropertiesPanel() override;

    void showNode(NodeId node);
    NodeId node() const { return mNode; }
    QTreeWidget* tree() const { return mTree; }
    QCustomPlot* histogramPlot() const { return mPlot; }
    // The weight summaries of the node shown, once computed.
    const std::vector<WeightSummary>& weights() const { return mWeights; }
    bool weightsReady() const { return mWeightsReady; }
    // The text of the selected items, "name: value" per line.
    QString selectedText() const;

signals:
    void weightsSummarized();

protected:
    void changeEvent(QEvent* event) override;

private:
    void clear();
    void rebuild();
    QTreeWidgetItem* section(const QString& title);
    void addNodeSection(const Graph& graph, const Node& node);
    void addPrecisionSection(const Node& node);
    void addAttributeSection(const Node& node);
    void addValueSection(const Graph& graph, const Node& node, bool inputs);
    void addWeightSection();
    void addFindingSection(const Node& node);
    void addEngineSection(const Node& node);
    void weightsFinished();
    void showHistogram(int weightIndex);
    void itemSelected(QTreeWidgetItem* item);

    ModelDocument* mDocument;
    QTreeWidget* mTree;
    QWidget* mPlotBox;  // the histogram's title and plot
    QLabel* mPlotTitle;
    QCustomPlot* mPlot;
    NodeId mNode = kNoId;
    std::vector<WeightSummary> mWeights;
    bool mWeightsReady = false;
    int mShownWeight = -1;
    QFutureWatcher<std::vector<WeightSummary>> mWeightWatcher;
    NodeId mWeightNode = kNoId;  // the node mWeightWatcher is summarizing
};

}  // namespace ql::ui
