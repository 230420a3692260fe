#pragma once
// Undoes FP16 islands: a model whose float16 computation is bounded by Casts (a strongly typed export,
// fp16_islands.h; ModelOpt AutoCast; a model edited by hand) becomes the float32 model it was made from, and the
// nodes that computed in float16 are named, so a plan can keep them FP16. The rule:
//   - every float16 tensor becomes float32: initializers are converted, value_info and graph I/O retyped, and a
//     node writing one gets its float16 `to` / `dtype` attribute (Cast from int64, EyeLike, ...) or `value` tensor
//     (Constant, ConstantOfShape) made float; except float16 graph inputs and outputs that are the model's own
//     interface (below);
//   - a Cast between float32 and float16 whose two ends are then float32 is a no-op and goes: its input and output
//     become one tensor, named (first that applies) by a graph input or output among them, by the float32 one
//     whose producer stays (the tensor an entry Cast read; an island node writes the name its Cast back to FLOAT
//     restored), by another float32 one, else by the float16 one with a "_fp16" suffix dropped when that name is
//     free (so "r_fp16", written and read inside an island, is "r" again);
//   - a float16 initializer "<name>_fp16" whose float32 original "<name>" is still there (same shape, values equal
//     to the original rounded to half) is dropped and its readers read the original: the weights come back exact;
//   - graph I/O: when some node computes in float16, some graph input or output is float16 and none is float32
//     (--fp16-io, AutoCast without keep_io_types), they are all float32 again. Otherwise a float16 input read only
//     by Casts, or a float16 output written by a Cast and read only by Casts, is the model's interface: it stays,
//     with its Casts (an FP32 model ending in a Cast to FLOAT16). Float16 I/O that other nodes touch directly is
//     part of an island and becomes float32;
//   - Casts from or to other types (int64 -> float, float -> int32) stay.
// Left alone: the inside of control-flow subgraphs (islands never cover If/Loop/Scan: fp16_form.h; only their
// references to renamed outer tensors change). A Cast pair that rounds through float16 on purpose looks like an
// empty island and goes too.
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/model/graph.h"

namespace onnx {
class GraphProto;
}

namespace ql {

// True when some node other than Cast and Constant computes in float16 and some Cast bounds it by the rule above.
bool hasFloat16Islands(const Graph& graph);

struct Float16Removal {
    // The first float16 output of each node (Cast and Constant aside) that computed in float16, under its final
    // name, in graph order: the node that writes it is the island node (node names may be made up from positions).
    std::vector<std::string> islandOutputs;
    bool float16Io = false;  // the graph's float inputs and outputs were float16 and are float32 again
};

// Rewrites `proto`, a self-contained copy of the model that `graph` was loaded from; an error naming the tensor
// when a float16 tensor cannot be read.
Result<Float16Removal> removeFloat16Islands(onnx::GraphProto& proto, const Graph& graph);

}  // namespace ql
