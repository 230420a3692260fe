#!/usr/bin/env python3
"""Writes docs/lint-rules.md from the RuleInfo of every rule in core/lint/rules/ (run after changing a rule):

    core/lint/gen_lint_docs.py > docs/lint-rules.md
"""
import ast
import pathlib
import re

RULES = pathlib.Path(__file__).resolve().parent / "rules"
VERSIONS = {"kAllTrtVersions": "8.6, 10.x", "kTrt86Only": "8.6 (and earlier)", "kTrt10Only": "10.x"}


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
    versions = re.search(r"(kAllTrtVersions|kTrt86Only|kTrt10Only)", body).group(1)
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
    print("`quantlens-cli lint MODEL [--plan PLAN.json] [--trt 8.6|10] [--json] [--fail-on error|warning]`.")
    print()
    print("Severities: **error** = the TensorRT build fails; **warning** = the layer falls back to FP16/FP32, gets an")
    print("extra conversion or runs slower; **info** = advice. The severity below is the most severe finding a rule")
    print("gives; some rules give a lower one depending on the case and on `--trt`.")
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
