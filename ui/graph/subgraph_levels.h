#pragma once
// The subgraph bodies the graph view has open, outermost first: each with its model (shared: the node properties
// panel keeps the one it shows alive), a scene of its own laid out in the background, the control-flow node it was
// entered from, and the view of the level above to go back to. The main graph's scene stays as it was, so going back
// needs no new layout and keeps its precisions, badges and engine marks.
//
// Also the lint badges of nodes inside bodies, by path ("If_3/then_branch/Conv_1", as lint names them), put on the
// boxes of the open bodies: on the node at the path, or on the control-flow node holding it when it is deeper.
#include <QObject>
#include <QTransform>
#include <QVector>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/lint/finding.h"
#include "core/model/subgraph_model.h"
#include "ui/body_graphs.h"
#include "ui/graph/subgraph_breadcrumb.h"

namespace ql::ui {

class GraphScene;

class SubgraphLevels {
public:
    struct Level {
        std::shared_ptr<const SubgraphModel> body;
        GraphScene* scene = nullptr;  // owned
        NodeId owner = kNoId;         // the control-flow node, in the graph of the level above
        std::string ownerName;
        std::string attribute;
        std::string path;  // "If_0/then_branch/"; nested "If_0/then_branch/Loop_1/body/"
        QTransform returnTransform;
    };

    SubgraphLevels() = default;
    ~SubgraphLevels();
    SubgraphLevels(const SubgraphLevels&) = delete;
    SubgraphLevels& operator=(const SubgraphLevels&) = delete;

    // 0 on the main graph; n when n bodies are open.
    int depth() const { return static_cast<int>(mLevels.size()); }
    // The level `depth` (1 to depth()).
    const Level& level(int depth) const { return mLevels.at(static_cast<size_t>(depth - 1)); }
    const Level& top() const { return mLevels.back(); }
    // The steps from the main graph to the top level's body (empty on the main graph).
    BodyPath bodyPath() const;

    // Opens body `attribute` of `owner`, a node of `outer` (the graph of the level shown), in a new scene (a child of
    // `parent`) that takes `style`'s visibility settings and lays out in the background. Fails with the builder's
    // message ("Node (If_0) Op (If): in then_branch: ...").
    Status open(const Graph& outer, NodeId owner, const std::string& attribute, const GraphScene& style,
                QObject* parent, const QTransform& returnTransform);
    // Closes the levels deeper than `depth`, deleting their scenes: none of them may be on screen.
    void closeAbove(int depth);

    // "model › If_0 › then_branch": the main graph, then per level the node entered and its attribute.
    QVector<SubgraphBreadcrumb::Crumb> crumbs(const QString& mainName) const;

    // The first badge set for a path stays (findings come most severe first).
    void setBadge(const std::string& path, Severity severity, const QString& text);
    void clearBadges();

private:
    struct Badge {
        Severity severity;
        QString text;
    };
    void applyBadges(const Level& level) const;

    std::vector<Level> mLevels;
    std::map<std::string, Badge> mBadges;
};

}  // namespace ql::ui
