#!/usr/bin/python3
"""Does QuantLens's own export pass QuantLens's own lint? For every published model of bench/lint_findings.py (and
the trained ones of tests/data/tune): calibrate on seeded random inputs, export with `quantize` for TensorRT 8.6, 10
and 11, and `lint` each export for the version it was written for. An error on an export is a build QuantLens
predicts will fail on a file it wrote itself; the table counts errors and warnings by rule. One truth too: every
layer's precision as `lint MODEL --calib` shows it (the window's and the summary's) against `lint` of the file written,
and the rules the file's lint gives (errors, warnings) that the plan's does not: a trap the window would not show.
A model with If/Loop/Scan bodies is checked a second time with its bodies planned too (each by the default
placement), rows marked "+ bodies": their layers are listed under their path ("If_0/then_branch/...").
--random-plans N adds N seeded random plans per model (each layer `lint` lists INT8, FP16 or FP32 at random), rows
marked "+ random K".

    /usr/bin/python3 bench/export_lint_check.py [--cli build/app/quantlens-cli] [--work /tmp/ql-export-lint]
        [--only WORD...] [--random-plans N]   (about 20 minutes for all on 2 cores, more with random plans)

Random inputs make the ranges meaningless for accuracy, not for what is written: Q/DQ placement, FP16 islands and
fallbacks depend on the graph, the plan and the target. Models with non-float inputs get them from FIXED (Silero VAD's
sample rate) or are skipped.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lint_findings  # noqa: E402  (the models and their shapes)

TARGETS = ("8.6", "10", "11")
SAMPLES = 8
# Inputs that are not data: the values a user would give them.
FIXED = {"sr": np.array(16000, dtype=np.int64)}
# One sample's shape where the model leaves it open or its batch is not the first axis (Silero's state is
# [2, batch, 128]: a sample is [2, 128], as the data files the window and the CLI read have it).
SAMPLE_SHAPES = {
    "Silero VAD v5": {"input": [512], "state": [2, 128]},
    "Silero VAD legacy": {"input": [512], "h": [2, 64], "c": [2, 64]},
}
DTYPES = {"FLOAT": np.float32, "INT64": np.int64, "FLOAT16": np.float16}


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def dims(shape, name, fixed_shapes):
    """'[1,3,?,?]' with the dims of lint_findings.SHAPES ('x=1x3x640x640') where given, else 1 for an open dim."""
    for item in (fixed_shapes or "").split(","):
        if item.startswith(name + "="):
            return [int(d) for d in item.split("=", 1)[1].split("x")]
    return [int(d) if re.fullmatch(r"\d+", d) else 1 for d in shape.strip("[]").split(",") if d]


def write_inputs(cli, model, folder, shapes, samples_shapes):
    code, out, err = run([cli, "inspect", model, "--json"])
    if code != 0:
        return None, err.strip()
    args = []
    rng = np.random.default_rng(20261129)
    for i, spec in enumerate(json.loads(out)["inputs"]):
        name = spec["name"]
        path = os.path.join(folder, f"input{i}.npy")
        if name in FIXED:
            np.save(path, np.stack([FIXED[name]] * SAMPLES))
        elif spec["dtype"] in ("FLOAT", "FLOAT16"):
            sample = samples_shapes.get(name) or dims(spec["shape"], name, shapes)[1:]
            np.save(path, rng.standard_normal([SAMPLES] + sample).astype(DTYPES[spec["dtype"]]))
        else:
            return None, f"input {name} is {spec['dtype']}: no data for it"
        args.append(f"{name}={path}")
    return args, None


def bodies_plan(model, folder):
    """A plan with every top-level If/Loop/Scan body planned by the default placement, or None without bodies."""
    import onnx  # Debian's python3-onnx
    bodies = {}
    for node in onnx.load(model, load_external_data=False).graph.node:
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH:
                bodies.setdefault(node.name, {})[attribute.name] = {"nodes": {}}
    if not bodies:
        return None
    path = os.path.join(folder, "bodies.plan.json")
    with open(path, "w") as f:
        json.dump({"format": "quantlens-plan", "version": 1, "nodes": {}, "bodies": bodies}, f)
    return path


def random_plan(cli, model, calib, folder, seed):
    """Every layer `lint` lists (the default plan's) INT8, FP16 or FP32 at random, seeded."""
    _, out, _ = run([cli, "lint", model, "--calib", calib, "--json"])
    rng = np.random.default_rng(seed)
    nodes = {layer["layer"]: str(rng.choice(["int8", "fp16", "fp32"])) for layer in json.loads(out)["layers"]}
    path = os.path.join(folder, f"random{seed}.plan.json")
    with open(path, "w") as f:
        json.dump({"format": "quantlens-plan", "version": 1, "nodes": nodes}, f)
    return path


def check(cli, name, model, work, random_plans=0):
    folder = os.path.join(work, re.sub(r"[^\w]+", "_", name))
    os.makedirs(folder, exist_ok=True)
    data, why = write_inputs(cli, model, folder, lint_findings.SHAPES.get(name), SAMPLE_SHAPES.get(name, {}))
    if data is None:
        return {"skipped": why}
    calib = os.path.join(folder, "calib.json")
    code, _, err = run([cli, "calibrate", model, "--data", *data, "-o", calib])
    if code != 0:
        return {"skipped": "calibrate: " + err.strip().splitlines()[-1]}
    rows = {}
    plans = [("", [])]
    bodies = bodies_plan(model, folder)
    if bodies:
        plans.append((" + bodies", ["--plan", bodies]))
    for seed in range(1, random_plans + 1):
        plans.append((f" + random {seed}", ["--plan", random_plan(cli, model, calib, folder, seed)]))
    for label, plan in plans:
        for trt in TARGETS:
            rows[trt + label] = check_target(cli, model, folder, calib, trt, plan, label)
    return rows


def check_target(cli, model, folder, calib, trt, plan, label):
    exported = os.path.join(folder, f"q{trt}{label.strip(' +').replace(' ', '')}.onnx")
    code, _, err = run([cli, "quantize", model, "--calib", calib, *plan, "--trt", trt, "-o", exported])
    if code != 0:
        return {"export failed": err.strip().splitlines()[-1] if err.strip() else f"exit {code}"}
    code, out, err = run([cli, "lint", exported, "--trt", trt, "--json"])
    if not out.strip():
        return {"lint failed": err.strip()}
    linted = json.loads(out)
    counts = collections.Counter()
    for f in linted["findings"]:
        if f["severity"] in ("error", "warning"):
            counts[(f["severity"], f["rule"])] += 1
    differ, file_only = against_the_plan(cli, model, calib, trt, plan, linted)
    counts[("layers", "differ")] = differ
    counts[("findings", "file only")] = file_only
    return counts


def rules_of(linted):
    """The rules that give an error or a warning, with their severity."""
    return {(f["severity"], f["rule"]) for f in linted["findings"] if f["severity"] in ("error", "warning")}


def against_the_plan(cli, model, calib, trt, plan, written):
    """One truth: the layers `lint MODEL --calib` says run in each precision, against `lint` of the file the export
    wrote (by layer name). A layer the file lacks was folded by the export (a BatchNormalization into its
    convolution, a node computed from constants into an initializer) and is not compared. Returns the differing
    layers, and the errors and warnings the file's lint gives that the plan's does not: a trap the window (which
    lints the plan) would not show before the export. The plan may say more (its calibration's findings)."""
    code, out, err = run([cli, "lint", model, "--calib", calib, *plan, "--trt", trt, "--json"])
    if not out.strip():
        return [f"lint of the model failed: {err.strip()}"], []
    planned = json.loads(out)
    in_file = {layer["layer"]: layer["precision"] for layer in written["layers"]}
    differ = [f"{layer['layer']} ({layer['precision']} planned, {in_file[layer['layer']]} in the file)"
              for layer in planned["layers"]
              if layer["layer"] in in_file and in_file[layer["layer"]] != layer["precision"]]
    return differ, sorted(rules_of(written) - rules_of(planned))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(lint_findings.ROOT, "build/app/quantlens-cli"))
    ap.add_argument("--work", default="/tmp/ql-export-lint")
    ap.add_argument("--only", nargs="*", default=[], help="models whose name contains one of these words")
    ap.add_argument("--random-plans", type=int, default=0, help="seeded random plans per model, besides the default")
    args = ap.parse_args()
    errors = disagreements = traps = 0
    print(f"{'model':34} {'TensorRT':16} errors and warnings on QuantLens's own export")
    for name, model in lint_findings.models().items():
        if args.only and not any(word.lower() in name.lower() for word in args.only):
            continue
        result = check(args.cli, name, model, args.work, args.random_plans)
        if "skipped" in result:
            print(f"{name:34} {'-':16} skipped: {result['skipped']}")
            continue
        for trt, counts in result.items():
            if not isinstance(counts, collections.Counter):
                print(f"{name:34} {trt:16} {counts}")
                errors += 1
                continue
            differ = counts.pop(("layers", "differ"))
            file_only = counts.pop(("findings", "file only"))
            # A random plan may ask for what TensorRT cannot build (an FP16 grouped convolution on 11): lint says so
            # on the plan too, so its errors are not the export's; its layers must still agree.
            if "random" not in trt:
                errors += sum(n for (severity, _), n in counts.items() if severity == "error")
            disagreements += len(differ)
            traps += len(file_only)
            text = ", ".join(f"{severity} {rule} x{n}" for (severity, rule), n in sorted(counts.items())) or "clean"
            if differ:
                text += f"; {len(differ)} layers differ from the plan, first: {differ[0]}"
            if file_only:
                text += "; not in the plan's lint: " + ", ".join(f"{sev} {rule}" for sev, rule in file_only)
            print(f"{name:34} {trt:16} {text}", flush=True)
    print(f"errors on QuantLens's own exports: {errors}; layers whose precision in the file differs from the plan "
          f"`lint` showed: {disagreements}; rules the file's lint gives and the plan's does not: {traps}")
    return 1 if errors or disagreements or traps else 0


if __name__ == "__main__":
    sys.exit(main())
