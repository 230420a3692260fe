#!/usr/bin/python3
"""Copies an ONNX model adding intermediate tensors as graph outputs, to bisect a mismatch with compare_ort.mjs.

    /usr/bin/python3 bench/tools/expose_outputs.py MODEL OUT.onnx [--every N] [TENSOR ...]

Without tensor names, exposes the first output of every N-th node (default 1). compare_ort.mjs then reports
the worst output; run it with --per-output to see each one in graph order and find the first that diverges.
"""
import argparse

import onnx


def activations(graph):
    """Nodes that depend on a graph input (not constant subgraphs such as Identity of a weight), in order."""
    live = {i.name for i in graph.input} - {i.name for i in graph.initializer}
    nodes = []
    for node in graph.node:
        if any(name in live for name in node.input):
            live.update(node.output)
            nodes.append(node)
    return nodes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("out")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("tensors", nargs="*")
    args = parser.parse_args()
    model = onnx.load(args.model)
    graph = model.graph
    names = args.tensors or [n.output[0] for n in activations(graph)[::args.every]]
    existing = {o.name for o in graph.output}
    # Types come from shape inference so ONNX Runtime accepts the new outputs.
    inferred = {v.name: v for v in onnx.shape_inference.infer_shapes(model).graph.value_info}
    for name in names:
        if name in existing:
            continue
        if name not in inferred:
            print(f"skipping {name}: no inferred type")
            continue
        graph.output.append(inferred[name])
    onnx.save(model, args.out)
    print(f"{args.out}: {len(graph.output)} outputs")


if __name__ == "__main__":
    main()
