#!/usr/bin/python3
"""Writes a synthetic ONNX model with N nodes in name scopes (/stageS/blockB/unitU/...), the shape of a big
exported network, for timing the window on big graphs: Conv -> Relu -> Add(skip) units on a 1x8x16x16 tensor
with seeded weights. With --flat the nodes have no scopes (Conv_0, Relu_1, ...): nothing to collapse them into.

    /usr/bin/python3 bench/tools/make_scoped_graph.py 5000 /tmp/scoped5000.onnx
    /usr/bin/python3 bench/tools/make_scoped_graph.py --flat 5000 /tmp/flat5000.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    args = sys.argv[1:]
    flat = "--flat" in args
    args = [a for a in args if a != "--flat"]
    if len(args) != 2:
        sys.exit(__doc__)
    count, out = int(args[0]), args[1]
    rng = np.random.default_rng(20261122)
    channels = 8
    nodes, inits = [], []
    current = "input"
    skip = current
    for i in range(count):
        scope = "" if flat else f"/stage{i // 1000}/block{i // 60 % 20}/unit{i // 3 % 20}/"
        name = f"t{i}"
        kind = i % 3
        if kind == 0:
            weight = f"{scope}conv_{i}.weight"
            inits.append(numpy_helper.from_array(
                (rng.standard_normal((channels, channels, 3, 3)) * 0.1).astype(np.float32), weight))
            nodes.append(helper.make_node("Conv", [current, weight], [name], name=f"{scope}Conv_{i}",
                                          pads=[1, 1, 1, 1]))
        elif kind == 1:
            nodes.append(helper.make_node("Relu", [current], [name], name=f"{scope}Relu_{i}"))
        else:
            nodes.append(helper.make_node("Add", [current, skip], [name], name=f"{scope}Add_{i}"))
            skip = name
        current = name
    graph = helper.make_graph(
        nodes, "scoped", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, channels, 16, 16])],
        [helper.make_tensor_value_info(current, TensorProto.FLOAT, [1, channels, 16, 16])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, out)
    print(f"{out}: {count} nodes")


if __name__ == "__main__":
    main()
