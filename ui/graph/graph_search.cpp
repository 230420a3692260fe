#include "ui/graph/graph_search.h"

#include <algorithm>

namespace ql::ui {

namespace {

bool contains(const std::string& haystack, const QString& needle) {
    return QString::fromStdString(haystack).contains(needle, Qt::CaseInsensitive);
}

// The node that stands for a tensor: its producer, or the first consumer of a graph input, or else the first
// control-flow node whose bodies read it (an input only an If's branches read).
std::optional<NodeId> nodeOfValue(const GraphSnapshot& graph, ValueId id) {
    const SnapshotValue& value = graph.values[static_cast<size_t>(id)];
    if (value.producer != kNoId) return value.producer;
    if (!value.consumers.empty()) return value.consumers.front();
    if (!value.outerReaders.empty()) return value.outerReaders.front();
    return std::nullopt;
}

std::optional<NodeId> exactMatch(const GraphSnapshot& graph, const std::string& text) {
    if (auto node = graph.findNode(text)) return node;
    if (auto value = graph.findValue(text)) return nodeOfValue(graph, *value);
    return std::nullopt;
}

std::vector<NodeId> matches(const GraphSnapshot& graph, const QString& text) {
    std::vector<char> matched(graph.nodes.size(), 0);
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        matched[i] = nodeMatches(graph.nodes[i].name, graph.nodes[i].opType, text);
    }
    for (size_t v = 0; v < graph.values.size(); ++v) {
        if (!contains(graph.values[v].name, text)) continue;
        if (auto node = nodeOfValue(graph, static_cast<ValueId>(v))) matched[static_cast<size_t>(*node)] = 1;
    }
    std::vector<NodeId> result;
    for (size_t i = 0; i < matched.size(); ++i) {
        if (matched[i]) result.push_back(static_cast<NodeId>(i));
    }
    return result;
}

}  // namespace

bool nodeMatches(const std::string& name, const std::string& opType, const QString& text) {
    return contains(name, text) || QString::fromStdString(opType).compare(text, Qt::CaseInsensitive) == 0;
}

int GraphSearch::start(const GraphSnapshot& graph, const QString& text, std::vector<BodyMatch> bodyMatches) {
    mText = text;
    mMatches = text.isEmpty() ? std::vector<NodeId>{} : matches(graph, text);
    mBodyMatches = text.isEmpty() ? std::vector<BodyMatch>{} : std::move(bodyMatches);
    mCurrent = count() == 0 ? -1 : 0;
    if (const auto exact = exactMatch(graph, text.toStdString())) {
        const auto it = std::find(mMatches.begin(), mMatches.end(), *exact);
        if (it != mMatches.end()) mCurrent = static_cast<int>(it - mMatches.begin());
    }
    return count();
}

void GraphSearch::clear() {
    mText.clear();
    mMatches.clear();
    mBodyMatches.clear();
    mCurrent = -1;
}

std::optional<NodeId> GraphSearch::currentNode() const {
    if (mCurrent < 0 || static_cast<size_t>(mCurrent) >= mMatches.size()) return std::nullopt;
    return mMatches[static_cast<size_t>(mCurrent)];
}

const BodyMatch* GraphSearch::currentBodyMatch() const {
    if (mCurrent < 0 || static_cast<size_t>(mCurrent) < mMatches.size()) return nullptr;
    return &mBodyMatches[static_cast<size_t>(mCurrent) - mMatches.size()];
}

std::optional<NodeId> GraphSearch::next() {
    return step(1);
}

std::optional<NodeId> GraphSearch::previous() {
    return step(-1);
}

std::optional<NodeId> GraphSearch::step(int delta) {
    if (count() == 0) return std::nullopt;
    mCurrent = (mCurrent + delta + count()) % count();
    return currentNode();
}

}  // namespace ql::ui
