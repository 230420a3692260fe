#!/usr/bin/env python3
"""Writes docs/lint-rules.md from the RuleInfo of every rule in core/lint/rules/ (run after changing a rule):

    core/lint/gen_lint_docs.py > docs/lint-rules.md
"""
import ast
import pathlib
import re

RULES = pathlib.Path(__file__).resolve().parent / "rules"
VERSIONS = {
    "kAllTrtVersions": "8.6, 10.x, 11.x",
    "kTrt86Only": "8.6 (and earlier)",
    "kTrt10Only": "10.x",
    "kTrt11Only": "11.x",
    "kTrt86And10": "8.6, 10.x (removed in 11)",
    "kTrt10AndLater": "10.x, 11.x",
}


def literals(text):
    """Concatenates the C++ string literals in `text`."""
    return "".join(ast.literal_eval(s) for s in re.findall(r'"(?:[^"\\]|\\.)*"', text))


def parse(path):
    src = path.read_text(encoding="utf-8")
    m = re.search(r"constexpr RuleInfo kInfo\{(.*?)\};", src, re.S)
    if not m:
        return None
    body = m.group(1)
    rule_id = re.match(r'\s*"([^"]+)"', body).group(1)
    severity = re.search(r"Severity::(\w+)", body).group(1).lower()
    versions = re.search(r"(" + "|".join(VERSIONS) + r")", body).group(1)
    rest = body[body.index(versions) + len(versions):]
    # explanation, then source: split the literal run at the first comma between literals
    parts = re.split(r'"\s*,\s*\n?\s*"', rest.strip().strip(","), maxsplit=1)
    explanation = literals(parts[0] + '"')
    source = literals('"' + parts[1])
    return rule_id, severity, VERSIONS[versions], explanation, source


def main():
    rules = sorted(r for r in (parse(p) for p in RULES.glob("*.cpp")) if r)
    print("# QuantLens TensorRT INT8 lint rules")
    print()
    print("Generated from `core/lint/rules/*.cpp` by `core/lint/gen_lint_docs.py`. Run them with")
    print("`quantlens-cli lint MODEL [--plan PLAN.json] [--trt 8.6|10|11] [--json] [--fail-on error|warning]`.")
    print()
    print("The `calib-*` rules check a calibration instead of the graph: `lint MODEL --calib CALIB.json` runs them")
    print("(with the other rules), and `calibrate` and `compare` print their findings after their own output. They")
    print("read the histograms the calibration kept (no new pass over the data) for every tensor the plan's INT8")
    print("layers quantize: for the amax in use and for each method's amax, the share of values beyond amax")
    print("(clipped) and the *expected SQNR*: 10 log10 of the mean x^2 over the expected mean quantization error,")
    print("where a value within range costs step^2/12 (or x^2 when it rounds to zero) and a value beyond costs")
    print("(|x| - amax)^2. Their findings name the tensor (`\"tensor\"` in the JSON) and the first layer that")
    print("quantizes it. `lint --calib --json` adds `\"calibration\": {\"tensors\": [...]}`: per tensor the layer, the")
    print("method in use, amax, observed min/max, samples, clipped share, expected SQNR, and the same per method;")
    print("where the calibration kept the largest |x| per channel, `\"channels\"`: their axis and count, the largest")
    print("over the median channel range (`ratio`), the outlier channels, and the SQNR the median channel loses to")
    print("the one per-tensor scale (see `calib-outlier-channels`).")
    print()
    print("The latency rules (`trt-int8-island-slower`, `trt-fp16-island-reformats`, `trt-int8-no-gain`) need a")
    print("GPU: `lint MODEL --gpu NAME` (a row of the GPU table, `predict --help` lists them) or `--gpu-profile FILE`")
    print("(a profile `fit-gpu` fitted to your engine reports), or a project given as `--calib` that keeps one;")
    print("`--shapes NAME=DIMS,...` fixes dynamic input dims. They predict the engine the plan builds as `predict`")
    print("does (docs/performance-model.md), time it on that GPU, and compare with what-if plans (an island moved to")
    print("FP16 or INT8, realized again as the export would). Without a GPU they stay silent, and the text output")
    print("says once that they need one; `lint --json` gains `\"gpu\"`: the GPU and its estimate note, or null.")
    print("Their times are estimates and each finding says so, with the share of the plan's predicted time.")
    print()
    print("Severities: **error** = the TensorRT build fails, or the engine builds and loses a tensor outright (every")
    print("value rounds to one INT8 code); **warning** = the layer falls back to FP16/FP32, gets an extra conversion,")
    print("runs slower or keeps few codes; **info** = advice. The severity below is the most severe finding a rule")
    print("gives; some rules give a lower one depending on the case and on `--trt`.")
    print()
    print("Versions: TensorRT 11.x removed only the implicit path (calibrators, builder precision flags, per-layer")
    print("precision constraints); its explicit Q/DQ semantics are 10.x's. So every rule that checks Q/DQ placement,")
    print("the plan or a calibration applies to 11.x as to 10.x; `trt-int64-initializer` stays 8.6-only (INT64 is")
    print("native from 9.0); `trt-unsupported-op` uses the 10.x operator table for 11.x. `trt-precision-flags`")
    print("checks what each version's builder still accepts.")
    print()
    print("Control flow: the bodies of If, Loop and Scan nodes are linted too, each as a graph of its own (values of")
    print("the outer scope as its inputs), with its plan when the plan has one (docs/plan-schema.md, `bodies`), else as")
    print("float unless it carries Q/DQ nodes of its own; the INT8 counts include the weighted layers of planned bodies.")
    print("A body's findings are reported on the control-flow node, with")
    print("the path inside it as the node name (`If_3/then_branch/Conv_1`) and at the start of the message.")
    print()
    print("Rules that follow producer chains (residual Add, BatchNormalization fusion, Concat scales, requantize,")
    print("fusion splits) see through Q/DQ: a QuantizeLinear -> DequantizeLinear pair is the quantization of the")
    print("edge it sits on, whichever tool wrote it (pytorch-quantization, Model Optimizer, ONNX Runtime, QuantLens).")
    print()
    print("| Rule | Max severity | TensorRT |")
    print("|---|---|---|")
    for rule_id, severity, versions, _, _ in rules:
        print(f"| [`{rule_id}`](#{rule_id}) | {severity} | {versions} |")
    for rule_id, severity, versions, explanation, source in rules:
        print()
        print(f"## {rule_id}")
        print()
        print(f"*Severity:* {severity}. *TensorRT:* {versions}.")
        print()
        print(explanation)
        print()
        print(f"*Source:* {source}")


if __name__ == "__main__":
    main()
