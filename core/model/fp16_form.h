#pragma once
// What changes when a node computes in FP16 in a strongly typed model (TensorRT 10.x --stronglyTyped, 11.x): the
// inputs and outputs of the node's float type become float16; other inputs keep their types (Resize's `scales` is
// float32 by definition, BatchNormalization's mean/var from opset 15 have their own type). Read from the ONNX
// operator schema: the type variable of the node's float outputs, which must allow tensor(float16), and the
// inputs declared with that same variable.
#include <string>
#include <vector>

#include "core/model/graph.h"

namespace ql {

struct Fp16Form {
    std::vector<bool> inputs;   // per input slot: becomes float16
    std::vector<bool> outputs;  // per output slot: becomes float16
    // Why the node cannot compute in FP16 (empty when it can), e.g. "QuantizeLinear keeps float32 scales".
    std::string blocker;
    bool possible() const { return blocker.empty(); }
};

// FP16 or BF16 anywhere (a value or an initializer): the model states its own reduced float precision (BF16 counts
// too: it is not FP32).
bool carriesReducedFloat(const Graph& graph);
// True when the node writes a float32 tensor (what an FP16 island would change).
bool computesFloat(const Graph& graph, const Node& node);
// A floating-point type, or one shape inference left unknown (it may well be float).
bool isFloatOrUnknown(DataType dtype);
// Q/DQ, casts and constants keep the types they are written with: no precision conversion applies to them.
bool keepsWrittenTypes(const Node& node);
// The node has a precision to choose: it writes a floating-point tensor (or one of unknown type) and does not keep
// its written types. Constants, Q/DQ and shape or index nodes have none (the precision table hides them).
bool hasPrecisionChoice(const Graph& graph, const Node& node);
// The FP16 form of a float32 node. Nodes that compute no float32 tensor, control flow (AutoCast "can corrupt
// certain If node subgraphs": Model-Optimizer docs/source/guides/8_autocast.rst), Q/DQ, Cast and constants have none.
Fp16Form fp16Form(const Graph& graph, const Node& node);

}  // namespace ql
