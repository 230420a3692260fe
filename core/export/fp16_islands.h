#pragma once
// FP16 islands for strongly typed TensorRT (TensorRT 11.x "Migrating from TensorRT 10.x"; ModelOpt AutoCast,
// docs/source/guides/8_autocast.rst): the layers an export keeps in FP16 are written as float16 computation, so
// nothing is left for a builder flag to decide.
//   - each input of an island node that carries the node's float type (fp16_form.h) reads float16: a float16
//     copy of a constant initializer ("<name>_fp16"), the island producer's float16 output, or a Cast to
//     float16 of a float32 tensor ("<name>_fp16", one per tensor, placed before its first island reader);
//   - each float output of an island node is written as float16 under "<name>_fp16"; where something outside
//     the island reads it (an FP32 or INT8 layer, a QuantizeLinear, a graph output, an input slot that keeps
//     float32, an If/Loop/Scan body reading it by name) a Cast back to float writes the original name, so every
//     original tensor name keeps its float32 meaning and the Q/DQ nodes keep their float32 scales;
//   - the model's inputs and outputs keep their types unless `fp16Io`: then float32 graph inputs and outputs
//     become float16, with Casts at the boundary.
#include <onnx/onnx_pb.h>

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/common/status.h"
#include "core/export/proto_graph.h"
#include "core/model/fp16_form.h"
#include "core/model/graph.h"

namespace ql {

struct Fp16IslandStats {
    int nodes = 0;         // nodes computing in float16
    int casts = 0;         // Cast nodes written (both directions)
    int initializers = 0;  // float16 initializer copies
};

class Fp16IslandWriter {
public:
    // `island` per node of `prepared` (the graph whose proto `graph` is a copy of); the nodes must have an FP16
    // form. `names` reserves every value name of `graph`.
    Fp16IslandWriter(onnx::GraphProto& graph, const Graph& prepared, std::vector<bool> island, UniqueNames& names);

    // Rewrites `proto`, the copy of `node`, adding the Casts it needs before and after it. Call in graph order.
    Status visit(const Node& node, onnx::NodeProto& proto, std::vector<onnx::NodeProto>& before,
                 std::vector<onnx::NodeProto>& after);
    // Types of the new tensors (value_info); with `fp16Io` the graph's float inputs and outputs become float16.
    void finish(bool fp16Io, std::vector<onnx::NodeProto>& first, std::vector<onnx::NodeProto>& last);
    const Fp16IslandStats& stats() const { return mStats; }

private:
    Result<std::string> float16Input(const std::string& name, std::vector<onnx::NodeProto>& before);
    bool readAsFloat32(ValueId value);
    // The node's FP16 form (a schema lookup), computed once per island node: every output asks about its consumers.
    const Fp16Form& formOf(const Node& node);
    onnx::NodeProto cast(const std::string& input, const std::string& output, int to);
    void addValueInfo(const std::string& original, const std::string& name, int elemType);

    onnx::GraphProto& mGraph;
    const Graph& mPrepared;
    std::vector<bool> mIsland;
    UniqueNames& mNames;
    std::unordered_map<std::string, int> mInitializers;       // by name, in mGraph
    std::unordered_map<std::string, std::string> mFloat16;    // float32 name -> its float16 tensor
    std::unordered_map<std::string, onnx::TypeProto> mTypes;  // value_info and graph I/O types by name
    std::unordered_set<std::string> mReadByBodies;            // what If/Loop/Scan bodies read from this graph, by name
    std::vector<onnx::ValueInfoProto> mNewInfo;
    std::unordered_map<NodeId, Fp16Form> mForms;
    Fp16IslandStats mStats;
};

}  // namespace ql
