#pragma once
// What the engine ran, on the ONNX graph: per layer its precision and the reformats that feed it; per compute node
// the layer, precision, time and tactic; the differences from QuantLens's plan with the reason (and the lint rule
// that explains it, where one does); the slowest layers; INT8 coverage by time and by MACs.
//   - A layer's time belongs to its compute nodes in equal shares (TensorRT times layers, not nodes), so the node
//     times add up to the time of the layers that hold compute nodes.
//   - Mismatches: a compute node whose engine precision differs from the plan's effective precision ("INT8 planned,
//     FP16 ran: no INT8 tactic"), and each Q/DQ TensorRT left as a reformat between two layers ("Q/DQ not fused:
//     extra reformat"), reported on the node whose output it converts.
#include <optional>
#include <string>
#include <vector>

#include "core/engine/engine_mapping.h"
#include "core/engine/engine_report.h"
#include "core/engine/planned_precision.h"

namespace ql {

struct NodeRun {
    NodeId node = kNoId;
    std::vector<size_t> layers;  // engine layers holding the node
    EnginePrecision precision = EnginePrecision::Unknown;
    std::optional<double> timeMs;  // its share of its layers' time
    std::string tactic;
};

enum class MismatchKind { Precision, Reformat };

struct PrecisionMismatch {
    MismatchKind kind = MismatchKind::Precision;
    NodeId node = kNoId;
    size_t layer = 0;     // the engine layer (for Reformat: the reformat layer)
    std::string planned;  // "int8", "fp16", "fp32"
    std::string actual;   // engine precision name
    std::string reason;   // "INT8 planned, FP16 ran: no INT8 tactic"
    std::string rule;     // the lint rule that explains it, or empty
    bool plannedInt8NotRun() const { return kind == MismatchKind::Precision && planned == "int8" && actual != "int8"; }
};

struct Int8Coverage {
    std::optional<double> byTime;  // share of total engine time in INT8 layers; nullopt without a profile
    std::optional<double> byMacs;  // share of the model's compute MACs in nodes that ran INT8; nullopt without MODEL
    double int8TimeMs = 0.0;
    int64_t int8Macs = 0;
    int64_t totalMacs = 0;
};

struct EngineAnalysis {
    std::vector<EnginePrecision> layerPrecisions;  // per engine layer
    std::vector<std::vector<size_t>> reformatsOf;  // per engine layer: the reformat layers feeding it
    std::vector<NodeRun> nodes;                    // mapped compute nodes, graph order
    std::vector<PrecisionMismatch> mismatches;
    std::optional<double> totalTimeMs;
    double reformatTimeMs = 0.0;
    std::vector<size_t> topLayers;  // by time, slowest first, at most kTopLayers
    Int8Coverage coverage;
    bool hasPlannedInt8NotRun() const;
};

inline constexpr size_t kTopLayers = 10;

// `graph` and `planned` may be null (the engine alone; no plan): then no node is analysed.
EngineAnalysis analyzeEngine(const EngineReport& report, const EngineMapping& mapping, const Graph* graph,
                             const PlannedPrecisions* planned);

}  // namespace ql
