#pragma once
// The precision table's rows: every node of the main graph in graph order, each If/Loop/Scan node followed by the
// layers of its bodies that have a precision to choose (hasPrecisionChoice on the body's graph), a nested body's
// layers after its own control-flow node. A body row shows where the layer is ("route ▸ then_branch ▸ t1"), its op,
// its requested and effective precision and reason from the document's plan of that body (FP32 while the body has
// none) and its MACs; its requested precision is editable like a main node's. The analysis, tune, engine and
// prediction columns stay empty for body rows: those are measured for the main graph only. The two analysis columns
// show the analysis' body layers (AnalysisReport::bodyLayers), greyed when stale as the main rows' are.
#include <QColor>
#include <QIcon>
#include <QString>
#include <QVariant>
#include <vector>

#include "core/model/graph.h"
#include "ui/body_graphs.h"

namespace ql::ui {

class ModelDocument;

struct TableRow {
    NodeId node = kNoId;              // in the main graph; a body row's: the main graph's control-flow node around it
    const BodyGraph* body = nullptr;  // a body row's body (owned by the document's bodyGraphs())
    NodeId bodyNode = kNoId;          // a body row's node, in body->body.graph
};

std::vector<TableRow> precisionTableRows(const Graph& graph, const std::vector<BodyGraph>& bodies);

// A body row's cell for the table's columns and roles (PrecisionTableModel::Column, Role). `swatches`: the icon of
// each Precision.
// A body row's analysis: the worst SQNR (dB) of its outputs, isolated and accumulated (NaN: not measured).
struct BodyRowAnalysis {
    double sensitivity;
    double sqnr;
    bool stale = false;  // the analysis measured another plan
};

QVariant bodyRowData(const ModelDocument& document, const TableRow& row, int column, int role,
                     const QIcon (&swatches)[3], const BodyRowAnalysis& analysis);

// Shared with the main rows: the Op cell ("com.microsoft.Gelu" for another domain), the MACs cell ("≈ 1,024" when an
// open dimension was counted as 1), the SQNR cells, and the translucent amber behind the cells of a node that falls
// back (readable on light and dark palettes).
QString opText(const Node& node);
QString macsText(const LayerCost& cost);
// "23.4 dB", "exact" when the outputs are identical, empty when there is no number.
QString decibelText(double db);
// The tooltip of an analysis cell while the analysis describes another plan.
QString staleAnalysisToolTip();
QColor fallbackBackground();

}  // namespace ql::ui
