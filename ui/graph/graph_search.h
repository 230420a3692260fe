#pragma once
// The matches of a search in the graph view and the one shown ("3 of 12"): the nodes whose name contains the
// text, whose op type is the text, or that produce (or, for a graph input, first consume, or else first read
// inside their bodies) a tensor whose name contains it, ignoring case, in graph order. Next and previous wrap
// around. Matches inside the bodies of control-flow nodes (body_search.h) come after the graph's own.
//
//   GraphSearch search;
//   search.start(snapshot, "conv");  // shows the exact match first, else the first in graph order
//   std::optional<NodeId> node = search.next();
#include <QString>
#include <optional>
#include <vector>

#include "ui/graph/body_search.h"
#include "ui/graph/graph_snapshot.h"

namespace ql::ui {

// Whether a node named `name` of op type `opType` matches a search for `text`: its name contains the text, or its op
// type is the text, ignoring case. Searches in bodies (body_search.h) match by the same rule.
bool nodeMatches(const std::string& name, const std::string& opType, const QString& text);

class GraphSearch {
public:
    // Finds the matches of `text` and makes the exact match (a node or tensor named `text`), else the first, the
    // current one. Returns the number of matches.
    int start(const GraphSnapshot& graph, const QString& text, std::vector<BodyMatch> bodyMatches = {});
    void clear();
    const QString& text() const { return mText; }
    int count() const { return static_cast<int>(mMatches.size() + mBodyMatches.size()); }
    // 0-based; -1 without matches.
    int current() const { return mCurrent; }
    // The current match in the graph searched; nullopt when it is inside a body (currentBodyMatch) or there is none.
    std::optional<NodeId> currentNode() const;
    const BodyMatch* currentBodyMatch() const;
    std::optional<NodeId> next();
    std::optional<NodeId> previous();

private:
    std::optional<NodeId> step(int delta);

    QString mText;
    std::vector<NodeId> mMatches;
    std::vector<BodyMatch> mBodyMatches;
    int mCurrent = -1;
};

}  // namespace ql::ui
