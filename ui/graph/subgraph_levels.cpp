#include "ui/graph/subgraph_levels.h"

#include <optional>
#include <unordered_map>

#include "core/model/body_path.h"
#include "ui/graph/graph_scene.h"

namespace ql::ui {

namespace {

// The node of `graph` at `inner` ("Conv_1"), or the control-flow node holding it ("Loop_1/body/Conv_1").
std::optional<NodeId> nodeHolding(const GraphSnapshot& graph, const std::string& inner) {
    if (auto node = graph.findNode(inner)) return node;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        for (const SnapshotSubgraph& body : graph.nodes[i].subgraphs) {
            if (inner.starts_with(bodyPathStep(graph.nodes[i].name, body.attribute))) return static_cast<NodeId>(i);
        }
    }
    return std::nullopt;
}

}  // namespace

BodyPath SubgraphLevels::bodyPath() const {
    BodyPath path;
    for (const Level& level : mLevels) path.push_back({level.ownerName, level.attribute});
    return path;
}

SubgraphLevels::~SubgraphLevels() {
    closeAbove(0);
}

Status SubgraphLevels::open(const Graph& outer, NodeId owner, const std::string& attribute, const GraphScene& style,
                            QObject* parent, const QTransform& returnTransform) {
    const Node& node = outer.node(owner);
    auto built = buildSubgraphModel(outer, node, attribute);
    if (!built) return built.status();
    Level level;
    level.body = std::make_shared<const SubgraphModel>(std::move(built).value());
    level.owner = owner;
    level.ownerName = node.name;
    level.attribute = attribute;
    level.path = (mLevels.empty() ? std::string() : mLevels.back().path) + bodyPathPrefix({{node.name, attribute}});
    level.returnTransform = returnTransform;
    level.scene = new GraphScene(parent);
    level.scene->setShowQdq(style.showQdq());
    level.scene->setShowConstants(style.showConstants());
    level.scene->setShowTensorShapes(style.showTensorShapes());
    level.scene->setGraph(level.body->graph);
    mLevels.push_back(std::move(level));
    applyBadges(mLevels.back());
    return Status::ok();
}

void SubgraphLevels::closeAbove(int depth) {
    while (this->depth() > std::max(depth, 0)) {
        GraphScene* scene = mLevels.back().scene;
        QObject::disconnect(scene, nullptr, scene->parent(), nullptr);  // its teardown is not the user's doing
        delete scene;
        mLevels.pop_back();
    }
}

QVector<SubgraphBreadcrumb::Crumb> SubgraphLevels::crumbs(const QString& mainName) const {
    QVector<SubgraphBreadcrumb::Crumb> crumbs{{mainName, 0}};
    for (int depth = 1; depth <= this->depth(); ++depth) {
        crumbs.append({QString::fromStdString(level(depth).ownerName), depth - 1});
        crumbs.append({QString::fromStdString(level(depth).attribute), depth});
    }
    return crumbs;
}

void SubgraphLevels::setBadge(const std::string& path, Severity severity, const QString& text) {
    if (!mBadges.try_emplace(path, Badge{severity, text}).second) return;
    for (const Level& level : mLevels) {
        if (path.starts_with(level.path)) applyBadges(level);
    }
}

void SubgraphLevels::clearBadges() {
    mBadges.clear();
    for (const Level& level : mLevels) level.scene->clearNodeBadges();
}

// A box shows the most severe of the findings at or inside it, as on the main graph.
void SubgraphLevels::applyBadges(const Level& level) const {
    std::unordered_map<NodeId, const Badge*> shown;
    for (auto it = mBadges.lower_bound(level.path); it != mBadges.end() && it->first.starts_with(level.path); ++it) {
        const auto node = nodeHolding(level.scene->snapshot(), it->first.substr(level.path.size()));
        if (!node) continue;
        const Badge*& badge = shown[*node];
        if (!badge || it->second.severity < badge->severity) badge = &it->second;
    }
    std::vector<GraphScene::NodeBadge> badges;
    badges.reserve(shown.size());
    for (const auto& [node, badge] : shown) badges.push_back({node, badge->severity, badge->text});
    level.scene->setNodeBadges(badges);
}

}  // namespace ql::ui
