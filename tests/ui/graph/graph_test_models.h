#pragma once
// Models the graph view tests (and the snapshot tool) build: a quantized Conv block, a chain, and a big graph
// with name scopes.
#include <memory>
#include <string>

#include "core/model/model.h"

namespace ql::test {

// x -> Q -> DQ -> Conv(w = DQ(int8 weights)) -> Relu -> y: five nodes, three of them Q/DQ.
std::unique_ptr<Model> quantizedConvModel();

// x -> Relu "node_0" -> ... -> Relu "node_{count-1}" -> y; tensors "t_0", "t_1", ...
std::unique_ptr<Model> chainModel(int count);

// `count` nodes named "/stage{s}/block{b}/unit{u}/{Op}" in a residual chain (every third node an Add of the two
// previous tensors), so that the graph collapses into scope blocks.
std::unique_ptr<Model> scopedModel(int count);

}  // namespace ql::test
