#!/usr/bin/python3
"""Writes a QuantLens plan (docs/plan-schema.md) that keeps the last K weighted layers of a model in FP16 and
leaves every other node to the default placement: how the strongly typed export check gets FP16 islands next to
INT8 layers (the head of a network is what NVIDIA's and Ultralytics' recipes keep in float).

    /usr/bin/python3 bench/tools/fp16_plan.py MODEL.onnx PLAN.json [K=2]
"""
import json
import sys

import onnx

WEIGHTED = {"Conv", "ConvTranspose", "Gemm", "MatMul"}


def main():
    model, out = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    graph = onnx.load(model, load_external_data=False).graph
    weighted = [n.name for n in graph.node if n.op_type in WEIGHTED and n.name]
    if len(weighted) < count:
        sys.exit(f"{model}: {len(weighted)} named weighted layers, {count} wanted")
    plan = {"format": "quantlens-plan", "version": 1, "nodes": {name: "fp16" for name in weighted[-count:]}}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(plan, f, indent=2)
    print(f"{out}: FP16 {', '.join(weighted[-count:])}")


if __name__ == "__main__":
    main()
