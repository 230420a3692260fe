#!/usr/bin/python3
"""Cross-checks `quantlens-cli inspect --json` against the ONNX Python package on real models.

    /usr/bin/python3 tests/tools/check_inspect.py [--cli build/app/quantlens-cli] MODEL...

For each model: node count, op counts, initializer count, parameter count and bytes (INT64 apart), inputs and
outputs. Prints one line per model and exits 1 if any disagrees.
"""
import argparse
import collections
import json
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def reference(path):
    model = onnx.load(path, load_external_data=False)
    g = model.graph
    init_names = {t.name for t in g.initializer}
    count = nbytes = count64 = 0
    for t in g.initializer:
        n = int(np.prod(t.dims)) if len(t.dims) else 1
        size = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.data_type].itemsize
        if t.data_type == onnx.TensorProto.INT64:
            count64 += n
        else:
            count += n
            nbytes += n * size
    return {
        "nodes": len(g.node),
        "op_counts": dict(collections.Counter(n.op_type if not n.domain or n.domain == "ai.onnx"
                                              else n.domain + "." + n.op_type for n in g.node)),
        "initializers": len(g.initializer),
        "count": count,
        "bytes": nbytes,
        "int64_count": count64,
        "inputs": [i.name for i in g.input if i.name not in init_names],
        "outputs": [o.name for o in g.output],
    }


def ours(cli, path):
    out = subprocess.run([cli, "inspect", path, "--json"], check=True, capture_output=True, text=True).stdout
    j = json.loads(out)
    return {
        "nodes": j["nodes"],
        "op_counts": j["op_counts"],
        "initializers": j["initializers"],
        "count": j["parameters"]["count"],
        "bytes": j["parameters"]["bytes"],
        "int64_count": j["parameters"]["int64_count"],
        "inputs": [i["name"] for i in j["inputs"]],
        "outputs": [o["name"] for o in j["outputs"]],
    }, j["macs"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="build/app/quantlens-cli")
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    failed = False
    for path in args.models:
        ref = reference(path)
        got, macs = ours(args.cli, path)
        diffs = [k for k in ref if ref[k] != got[k]]
        status = "OK  " if not diffs else "DIFF"
        failed = failed or bool(diffs)
        print(f"{status} {path}: {got['nodes']} nodes, {got['count']:,} parameters ({got['bytes']:,} bytes), "
              f"{macs:,} MACs" + (f"; differs in {diffs}: ours {[got[k] for k in diffs]} vs "
                                  f"onnx {[ref[k] for k in diffs]}" if diffs else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
