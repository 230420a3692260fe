#!/usr/bin/python3
"""Writes the engine report trtexec would write for a Q/DQ model (QuantLens's `quantize` export), for tests.

    /usr/bin/python3 tests/tools/make_engine_report.py MODEL.onnx --layers L.json --profile P.json
        [--schema 10|8|11] [--fp16-layer NODE]... [--unfused-q NODE]... [--all-fp16]

It follows the documented format (docs/engine-reports.md), not a real build:
  - a layer per weighted node (Conv, Gemm, MatMul, ConvTranspose) with its epilogue fused, as TensorRT fuses them:
    the weight, its DequantizeLinear, the node, a residual Add fed by it and the pointwise ops after it, named
    "w_quantized + w_DequantizeLinear + /conv/Conv + PWN(/relu/Relu)"; a layer per other compute node (pooling);
    the QuantizeLinear of a graph input as a Reformat layer (Origin QDQ);
  - "Metadata": "[ONNX Layer: a]\\x1f[ONNX Layer: b]" on 10.x and 11.x; none on 8.x, where only the fused name
    says where a layer came from;
  - formats: "Thirty-two wide channel vectorized row major Int8 format" for INT8 tensors, "Channel major FP16
    format where channel % 8 == 0" for FP16 ones, "Row major linear FP32" for float graph outputs; Weights types;
    tactic names; 11.x: "I/O Tensors" objects and "Format" + "DataType" per tensor instead of "Format/Datatype";
  - --fp16-layer NODE plants a mismatch: the layer holding NODE runs FP16 (FP16 formats and weights, an FP16
    tactic) behind a "Reformatting CopyNode for Input Tensor 0 to ..." reformat;
  - --unfused-q NODE: the activation QuantizeLinear feeding NODE stays a Reformat layer of its own (FP16 -> Int8),
    and the layer before it writes FP16 ("Q/DQ not fused: extra reformat");
  - --all-fp16: every layer FP16 (the baseline of an FP16 build).
  - the profile: {"count": 1000} then per layer averageMs = 0.004 + MACs / 2e8 (INT8) or / 1e8 (FP16), reformats
    0.003 (deterministic).
"""
import argparse
import json

import onnx
from onnx import numpy_helper, shape_inference

WEIGHTED = {"Conv", "ConvTranspose", "Gemm", "MatMul"}
POINTWISE = {"Relu", "Clip", "LeakyRelu", "Sigmoid", "Tanh", "HardSwish", "Mul"}
NOT_COMPUTE = {"QuantizeLinear", "DequantizeLinear", "Constant", "Identity", "Shape", "Reshape", "Flatten",
               "Squeeze", "Unsqueeze", "Cast"}
INT8 = "Thirty-two wide channel vectorized row major Int8 format"
FP16 = "Channel major FP16 format where channel % 8 == 0"
FP32 = "Row major linear FP32"
INT8_TACTIC = ("sm80_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32_nchw_vect_c_32kcrs_vect_c_32_nchw_vect_c_32"
               "_tilesize128x128x64_stage4_warpsize2x2x1_g1_tensor16x8x32_t1r1s1")
FP16_TACTIC = "sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize64x64x32_stage5_warpsize2x2x1_g1"
DATA_TYPES = {INT8: "Int8", FP16: "Half", FP32: "Float"}
FORMATS_11 = {INT8: "Thirty-two wide channel vectorized row major Int8 format (kCHW32)",
              FP16: "Channel major FP16 format where channel % 8 == 0 (kHWC8)", FP32: "Row major linear FP32 format (kLINEAR)"}


class Graph:
    def __init__(self, model):
        self.model = shape_inference.infer_shapes(model)
        g = self.model.graph
        self.nodes = list(g.node)
        self.producer = {o: n for n in self.nodes for o in n.output}
        self.consumers = {}
        for n in self.nodes:
            for i in n.input:
                self.consumers.setdefault(i, []).append(n)
        self.initializers = {i.name: i for i in g.initializer}
        self.outputs = {o.name for o in g.output}
        self.inputs = {i.name for i in g.input}
        self.shapes = {}
        for v in list(g.value_info) + list(g.input) + list(g.output):
            self.shapes[v.name] = [d.dim_value if d.HasField("dim_value") else -1 for d in v.type.tensor_type.shape.dim]

    def only_consumer(self, tensor):
        """The one node reading `tensor`, looking through a Q/DQ pair on the way (TensorRT fuses those)."""
        c = self.consumers.get(tensor, [])
        nxt = c[0] if len(c) == 1 and tensor not in self.outputs else None
        if nxt is not None and nxt.op_type in ("QuantizeLinear", "DequantizeLinear"):
            return self.only_consumer(nxt.output[0])
        return nxt

    def source(self, tensor):
        """The tensor before any DequantizeLinear / QuantizeLinear."""
        node = self.producer.get(tensor)
        while node is not None and node.op_type in ("DequantizeLinear", "QuantizeLinear"):
            tensor = node.input[0]
            node = self.producer.get(tensor)
        return tensor

    def macs(self, node):
        if node.op_type not in WEIGHTED:
            return 0
        w = self.initializers.get(self.source(node.input[1]))
        out = self.shapes.get(node.output[0], [])
        if w is None or not out:
            return 0
        weights = 1
        for d in w.dims:
            weights *= d
        spatial = 1
        for d in out[2:]:
            spatial *= max(d, 1)
        return weights * spatial


def weight_parts(graph, node):
    """The weight initializer and its DequantizeLinear, as TensorRT names them in a fused layer."""
    dq = graph.producer.get(node.input[1])
    if dq is None or dq.op_type != "DequantizeLinear":
        return [node.input[1]], []
    return [dq.input[0], dq.name], [dq.name]


def fused_tail(graph, node):
    """The residual Add and pointwise ops TensorRT fuses after a weighted node."""
    tail, tensor = [], node.output[0]
    while True:
        nxt = graph.only_consumer(tensor)
        if nxt is None:
            return tail, tensor
        if nxt.op_type == "Add" and not any(t.op_type == "Add" for t in tail):
            tail.append(nxt)
        elif nxt.op_type in POINTWISE:
            tail.append(nxt)
        else:
            return tail, tensor
        tensor = nxt.output[0]


def tensor(name, dims, fmt, schema):
    t = {"Name": name, "Location": "Device", "Dimensions": dims}
    if schema == "11":
        t["Format"] = FORMATS_11[fmt]
        t["DataType"] = DATA_TYPES[fmt]
    else:
        t["Format/Datatype"] = fmt
    return t


def make_layers(graph, args):
    layers, done = [], set()
    fp16_nodes, unfused = set(args.fp16_layer), set(args.unfused_q)
    for node in graph.nodes:
        if node.name in done or node.op_type in NOT_COMPUTE:
            continue
        if node.op_type in WEIGHTED:
            names, dqs = weight_parts(graph, node)
            tail, out = fused_tail(graph, node)
            members = [node] + tail
            parts = names + [node.name] + [t.name for t in tail if t.op_type == "Add"]
            pointwise = [t.name for t in tail if t.op_type != "Add"]
            if pointwise:
                parts.append("PWN(" + ", ".join(pointwise) + ")")
            name = " + ".join(parts)
            onnx_nodes = dqs + [m.name for m in members]
            kind, weights = "CaskConvolution", True
        else:
            members, out, name, onnx_nodes = [node], node.output[0], node.name, [node.name]
            kind, weights = ("CaskPooling" if "Pool" in node.op_type else "PointWise"), False
        done.update(m.name for m in members)
        layers.append({"members": members, "name": name, "onnx": onnx_nodes, "type": kind, "weights": weights,
                       "input": graph.source(node.input[0]), "output": out,
                       "fp16": args.all_fp16 or any(m.name in fp16_nodes for m in members),
                       "unfused_q": node.name in unfused})
    return layers


def layer_json(graph, layer, args, int8_input, out_format, io_format):
    members = layer["members"]
    fp16 = layer["fp16"]
    in_fmt = FP16 if fp16 else (INT8 if int8_input else io_format)
    inputs = [tensor(layer["input"], graph.shapes.get(layer["input"], []), in_fmt, args.schema)]
    entry = {"Name": layer["name"], "LayerType": layer["type"], "Inputs": inputs,
             "Outputs": [tensor(layer["output"], graph.shapes.get(layer["output"], []), out_format, args.schema)]}
    if layer["weights"]:
        w = graph.initializers.get(graph.source(members[0].input[1]))
        count = 1
        for d in (w.dims if w is not None else []):
            count *= d
        entry["Weights"] = {"Type": "Half" if fp16 else "Int8", "Count": count}
        entry["Bias"] = {"Type": "Half" if fp16 else "Float", "Count": graph.shapes.get(layer["output"], [0, 0])[1]}
        entry["TacticName"] = FP16_TACTIC if fp16 else INT8_TACTIC
    if args.schema != "8":
        entry["Metadata"] = "\x1f".join("[ONNX Layer: %s]" % n for n in layer["onnx"])
    return entry


def reformat(name, src, dst, dims, src_fmt, dst_fmt, origin, schema):
    return {"Name": name, "LayerType": "Reformat", "Inputs": [tensor(src, dims, src_fmt, schema)],
            "Outputs": [tensor(dst, dims, dst_fmt, schema)], "ParameterType": "Reformat", "Origin": origin,
            "TacticValue": "0x00000000000003e8"}


def build(graph, args):
    plan = make_layers(graph, args)
    out_layers, times = [], []
    io_format = FP16 if args.all_fp16 else FP32
    for k, layer in enumerate(plan):
        first = layer["members"][0]
        q = graph.producer.get(graph.producer[first.input[0]].input[0]) if first.input[0] in graph.producer and \
            graph.producer[first.input[0]].op_type == "DequantizeLinear" else None
        int8_input = q is not None and not args.all_fp16
        if q is not None and q.input[0] in graph.inputs and not args.all_fp16:
            dims = graph.shapes.get(q.input[0], [])
            out_layers.append(reformat(q.name, q.input[0], q.output[0], dims, FP32, INT8, "QDQ", args.schema))
            times.append(0.003)
            layer["input"] = q.output[0]
        elif layer["unfused_q"] and q is not None:
            dims = graph.shapes.get(q.input[0], [])
            out_layers.append(reformat(q.name, q.input[0], q.output[0], dims, FP16, INT8, "QDQ", args.schema))
            times.append(0.003)
            layer["input"] = q.output[0]
        if layer["fp16"] and not args.all_fp16:
            name = "Reformatting CopyNode for Input Tensor 0 to " + layer["name"]
            src = layer["input"]
            layer["input"] = "Reformatted Input Tensor 0 to " + layer["name"]
            out_layers.append(reformat(name, src, layer["input"], graph.shapes.get(src, []), INT8, FP16, "REFORMAT",
                                       args.schema))
            times.append(0.003)
        nxt = plan[k + 1] if k + 1 < len(plan) else None
        if layer["output"] in graph.outputs:
            out_format = io_format
        elif args.all_fp16 or layer["fp16"] or (nxt is not None and nxt["unfused_q"]):
            out_format = FP16
        else:
            out_format = INT8
        out_layers.append(layer_json(graph, layer, args, int8_input, out_format, io_format))
        rate = 1e8 if layer["fp16"] else 2e8  # INT8 kernels twice as fast
        times.append(round(0.004 + sum(graph.macs(m) for m in layer["members"]) / rate, 6))
    return out_layers, times


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--layers", required=True)
    p.add_argument("--profile")
    p.add_argument("--schema", choices=["8", "10", "11"], default="10")
    p.add_argument("--fp16-layer", action="append", default=[])
    p.add_argument("--unfused-q", action="append", default=[])
    p.add_argument("--all-fp16", action="store_true")
    args = p.parse_args()
    graph = Graph(onnx.load(args.model))
    layers, times = build(graph, args)
    report = {"Layers": layers}
    names = [i.name for i in graph.model.graph.input if i.name not in graph.initializers]
    outs = [o.name for o in graph.model.graph.output]
    if args.schema == "11":
        report["I/O Tensors"] = [{"Name": n, "IOMode": mode, "DataType": "Half" if args.all_fp16 else "Float",
                                  "Dimensions": graph.shapes.get(n, []), "Location": "Device",
                                  "IsShapeInferenceIO": False}
                                 for n, mode in [(n, "Input") for n in names] + [(n, "Output") for n in outs]]
    else:
        report["Bindings"] = names + outs
    with open(args.layers, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    if args.profile:
        total = sum(times)
        profile = [{"count": 1000}] + [
            {"name": l["Name"], "timeMs": round(t * 1000, 4), "averageMs": t, "medianMs": t,
             "percentage": round(100 * t / total, 4)} for l, t in zip(layers, times)]
        with open(args.profile, "w") as f:
            json.dump(profile, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
