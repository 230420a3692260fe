#!/usr/bin/env python3
"""Writes tests/data/bad_inputs/model_if_nested_150.onnx: an If whose then_branch holds an If ... 150 levels deep.

protobuf refuses messages nested past 100 levels, so the loader must say so instead of a bare "corrupt file".
Usage: make_nested_if_model.py OUT.onnx [DEPTH]
"""
import sys

from onnx import TensorProto, helper


def leaf(level):
    out = helper.make_tensor_value_info(f"o{level}", TensorProto.FLOAT, [1])
    return helper.make_graph([helper.make_node("Identity", ["x"], [f"o{level}"])], f"leaf{level}", [], [out])


def main():
    path = sys.argv[1]
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    graph = leaf(0)
    for level in range(1, depth + 1):
        node = helper.make_node("If", ["c"], [f"o{level}"], then_branch=graph, else_branch=leaf(level))
        out = helper.make_tensor_value_info(f"o{level}", TensorProto.FLOAT, [1])
        graph = helper.make_graph([node], f"level{level}", [], [out])
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1]),
              helper.make_tensor_value_info("c", TensorProto.BOOL, [])]
    top = helper.make_graph(list(graph.node), "nested_if", inputs, list(graph.output))
    model = helper.make_model(top, opset_imports=[helper.make_opsetid("", 17)])
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


if __name__ == "__main__":
    main()
