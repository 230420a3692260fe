#pragma once
// The node properties dock: for the node shown, its name, op and domain, every attribute, inputs and outputs with
// their names, types and inferred shapes, a summary of its constant inputs (shape, type, count, min/max/mean/std
// and a histogram of the selected one), its requested and effective precision with the reason, and its TensorRT
// findings with their fixes. Values are selectable and copyable (Ctrl+C, context menu). Weight statistics are
// computed off the GUI thread, so a big embedding table does not freeze the window. A node inside a subgraph body
// (showBodyNode: from the graph's open body or the precision table's body row) shows the same, named by its path
// ("If_0/then_branch/Conv_1"), its precision from the body's plan, without engine rows (an engine report is mapped
// onto the main graph).
#include <QFutureWatcher>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/model/graph.h"
#include "core/model/subgraph_model.h"
#include "ui/body_graphs.h"
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

    // A node of the document's main graph.
    void showNode(NodeId node);
    // Node `node` of `body`, the body at `path` from the main graph; kept alive while shown.
    void showBodyNode(std::shared_ptr<const SubgraphModel> body, NodeId node, const BodyPath& path);
    NodeId node() const { return mNode; }
    // The body of the node shown; null for a node of the main graph.
    const SubgraphModel* body() const { return mBody.get(); }
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
    // Shows `node` of `graph`; `owner` keeps the graph alive while its weights are summarized.
    void startNode(NodeId node, const Graph& graph, std::shared_ptr<const void> owner);
    const Graph* shownGraph() const;
    void rebuild();
    QTreeWidgetItem* section(const QString& title);
    void addNodeSection(const Graph& graph, const Node& node);
    void addPrecisionSection(const Node& node);
    QString updatingNote() const;
    void addBodyPrecisionSection(const Node& node);
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
    std::shared_ptr<const SubgraphModel> mBody;  // the body mNode is in; null: the main graph
    BodyPath mBodyPath;
    QString mBodyPrefix;  // "If_0/then_branch/"
    std::vector<WeightSummary> mWeights;
    bool mWeightsReady = false;
    int mShownWeight = -1;
    QFutureWatcher<std::vector<WeightSummary>> mWeightWatcher;
    NodeId mWeightNode = kNoId;  // the node mWeightWatcher is summarizing, in mWeightGraph
    const Graph* mWeightGraph = nullptr;
};

}  // namespace ql::ui
