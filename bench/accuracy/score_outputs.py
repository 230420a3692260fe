#!/usr/bin/python3
"""Scores simulated-INT8 outputs of the PaddleOCR models against their FP32 outputs.

  score_outputs.py score --model det|rec|cls --fp32 DIR --q DIR [--dict KEYS.txt] [--gt TEXT.json]
                         [--labels LABELS.npy] [--compare COMPARE.json] [--calib CALIB.json]
                         [--calib-log CALIBRATE.log] -o SCORE.json
  score_outputs.py table WORKDIR [--methods auto,entropy,...] [--models det,rec,cls]

DIRs hold the .npy files written by `quantlens-cli run --out DIR` (one per model output).

score, for every model: output SQNR in dB over all outputs (10 log10(sum fp32^2 / sum (fp32 - int8)^2)), and the
per-image SQNR (kept for the paired comparison in `table`);
  rec: share of the sequence positions whose argmax (CTC class) matches FP32's; whole-string agreement with FP32
       after CTC greedy decoding (collapse repeats, drop blank 0); with --gt, exact-match accuracy against the
       rendered strings (leading/trailing spaces ignored) of FP32 and of INT8;
  det: the output is the probability map; IoU of the map binarised at 0.3 against FP32's, over all pixels of all
       images;
  cls: top-1 agreement with FP32, and with --labels the accuracy of FP32 and INT8 against the true orientation.
It also records what `compare --json` said (the model output's SQNR and the worst layer), how many activation
tensors CALIB.json assigns to each method (activations.<name>.method), and the findings of the calibration
diagnosis in the calibrate log.

table prints the markdown tables of run_ocr.sh from WORKDIR/<model>/score_<method>.json.
"""
import argparse
import collections
import glob
import json
import os
import re
import sys

import numpy as np


def load_outputs(d):
    files = sorted(glob.glob(os.path.join(d, "*.npy")))
    if not files:
        sys.exit("no .npy outputs in %s" % d)
    return {os.path.basename(f)[:-4]: np.load(f).astype(np.float64) for f in files}


def sqnr_db(ref, q):
    noise = np.sum((ref - q) ** 2)
    sig = np.sum(ref ** 2)
    if noise == 0:
        return float("inf")
    return float(10 * np.log10(sig / noise))


def ctc_decode(ids):
    out, prev = [], -1
    for c in ids:
        if c != prev and c != 0:
            out.append(int(c))
        prev = c
    return out


def score(args):
    ref = load_outputs(args.fp32)
    q = load_outputs(args.q)
    assert ref.keys() == q.keys(), (ref.keys(), q.keys())
    names = sorted(ref)
    r_all = np.concatenate([ref[n].ravel() for n in names])
    q_all = np.concatenate([q[n].ravel() for n in names])
    res = {"model": args.model, "outputs": names, "sqnr_db": sqnr_db(r_all, q_all)}
    n_img = ref[names[0]].shape[0]
    res["samples"] = n_img
    res["sqnr_db_per_image"] = [sqnr_db(np.concatenate([ref[n][i].ravel() for n in names]),
                                        np.concatenate([q[n][i].ravel() for n in names])) for i in range(n_img)]
    out_r, out_q = ref[names[0]], q[names[0]]
    if args.model == "rec":
        a_r, a_q = out_r.argmax(-1), out_q.argmax(-1)  # [N, T]
        res["ctc_position_agreement"] = float((a_r == a_q).mean())
        s_r = [ctc_decode(x) for x in a_r]
        s_q = [ctc_decode(x) for x in a_q]
        res["string_agreement"] = float(np.mean([a == b for a, b in zip(s_r, s_q)]))
        if args.dict and args.gt:
            keys = open(args.dict, encoding="utf-8").read().split("\n") + [" "]
            gt = json.load(open(args.gt, encoding="utf-8"))
            txt = lambda ids: "".join(keys[c - 1] for c in ids).strip()
            res["fp32_text_accuracy"] = float(np.mean([txt(s) == g.strip() for s, g in zip(s_r, gt)]))
            res["int8_text_accuracy"] = float(np.mean([txt(s) == g.strip() for s, g in zip(s_q, gt)]))
            res["int8_texts_differing"] = [[txt(a), txt(b)] for a, b in zip(s_r, s_q) if a != b][:20]
    elif args.model == "det":
        res["prob_map_sqnr_db"] = sqnr_db(out_r, out_q)
        b_r, b_q = out_r > 0.3, out_q > 0.3
        union = np.logical_or(b_r, b_q).sum()
        res["iou_0.3"] = float(np.logical_and(b_r, b_q).sum() / union) if union else 1.0
        res["fp32_text_pixels_0.3"] = float(b_r.mean())
    elif args.model == "cls":
        t_r, t_q = out_r.argmax(-1), out_q.argmax(-1)
        res["top1_agreement"] = float((t_r == t_q).mean())
        if args.labels:
            lab = np.load(args.labels)
            res["fp32_accuracy"] = float((t_r == lab).mean())
            res["int8_accuracy"] = float((t_q == lab).mean())
    if args.compare:
        c = json.load(open(args.compare))
        layers = c.get("layers", [])
        outs = [l for l in layers if l.get("output") in names]
        res["compare"] = {
            "output_sqnr_db": outs[0]["sqnr_db"] if outs else None,
            "worst_layer": ({k: layers[0].get(k) for k in ("node", "op", "output", "sqnr_db")} if layers else None),
            "outputs": c.get("outputs"),
            "findings": collections.Counter(f["rule"] for f in c.get("calibration", {}).get("findings", [])),
        }
    if args.calib:
        cal = json.load(open(args.calib))
        res["calib_method"] = cal.get("method")
        res["tensor_methods"] = dict(collections.Counter(
            v.get("method", "?") for v in cal.get("activations", {}).values()))
    if args.calib_log:
        log = open(args.calib_log).read()
        res["diagnosis"] = dict(collections.Counter(re.findall(r"^\s*\[([a-z0-9-]+)\]", log, re.M)))
        m = re.search(r"calibration diagnosis: (.*)", log)
        res["diagnosis_line"] = m.group(1) if m else None
    with open(args.o, "w") as f:
        json.dump(res, f, indent=1)
    print("%s %s: output SQNR %.2f dB" % (args.model, os.path.basename(args.q), res["sqnr_db"]))


def fmt_pct(x):
    return "%.1f%%" % (100 * x)


def table(args):
    methods = args.methods.split(",")
    models = args.models.split(",")
    titles = {"det": "det (PP-OCRv4 det)", "rec": "rec (PP-OCRv4 rec)", "cls": "cls (mobile v2.0 cls)"}
    print("| model | method | output SQNR dB | per image vs entropy: better / worse, median / worst ΔdB "
          "| task metric vs FP32 | compare: output SQNR dB / worst layer dB |")
    print("|---|---|---|---|---|---|")
    diag_rows = []
    for m in models:
        sc = {}
        for meth in methods:
            p = os.path.join(args.work, m, "score_%s.json" % meth.replace(":", "_"))
            if os.path.exists(p):
                sc[meth] = json.load(open(p))
        ent = sc.get("entropy")
        for meth, s in sc.items():
            if m == "rec":
                task = "CTC positions %s, strings %s (GT exact: FP32 %s, INT8 %s)" % (
                    fmt_pct(s["ctc_position_agreement"]), fmt_pct(s["string_agreement"]),
                    fmt_pct(s.get("fp32_text_accuracy", float("nan"))), fmt_pct(s.get("int8_text_accuracy", float("nan"))))
            elif m == "det":
                task = "IoU@0.3 %.4f" % s["iou_0.3"]
            else:
                task = "top-1 agreement %s (accuracy: FP32 %s, INT8 %s)" % (
                    fmt_pct(s["top1_agreement"]), fmt_pct(s.get("fp32_accuracy", float("nan"))),
                    fmt_pct(s.get("int8_accuracy", float("nan"))))
            if ent is not None and meth != "entropy":
                d = np.array(s["sqnr_db_per_image"]) - np.array(ent["sqnr_db_per_image"])
                paired = "%d / %d, %+.2f / %+.2f" % ((d > 0).sum(), (d < 0).sum(), float(np.median(d)), float(d.min()))
            else:
                paired = "(reference)" if meth == "entropy" else ""
            c = s.get("compare") or {}
            cmp_s = "%.2f / %.2f" % (c["output_sqnr_db"], c["worst_layer"]["sqnr_db"]) if c.get("worst_layer") else ""
            name = "**%s**" % meth if meth in ("auto", "entropy") else meth
            print("| %s | %s | %.2f | %s | %s | %s |" % (titles.get(m, m), name, s["sqnr_db"], paired, task, cmp_s))
        if "entropy" in sc or "auto" in sc:
            diag_rows.append((m, sc.get("entropy", {}).get("diagnosis"), sc.get("entropy", {}).get("diagnosis_line"),
                              sc.get("auto", {}).get("tensor_methods"), sc.get("auto", {}).get("diagnosis_line")))
    print()
    print("| model | entropy: calibration diagnosis | auto: activation tensors per method (CALIB.json) "
          "| auto: diagnosis |")
    print("|---|---|---|---|")
    for m, dg, dl, tm, al in diag_rows:
        dg_s = ", ".join("%s ×%d" % (k, v) for k, v in sorted((dg or {}).items())) or (dl or "")
        tm_s = ", ".join("%s %d" % (k, v) for k, v in sorted((tm or {}).items(), key=lambda kv: -kv[1]))
        print("| %s | %s | %s | %s |" % (titles.get(m, m), dg_s, tm_s, al or ""))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("score")
    s.add_argument("--model", choices=["det", "rec", "cls"], required=True)
    s.add_argument("--fp32", required=True)
    s.add_argument("--q", required=True)
    s.add_argument("--dict")
    s.add_argument("--gt")
    s.add_argument("--labels")
    s.add_argument("--compare")
    s.add_argument("--calib")
    s.add_argument("--calib-log")
    s.add_argument("-o", required=True)
    t = sub.add_parser("table")
    t.add_argument("work")
    t.add_argument("--methods", default="auto,entropy,minmax,mse,percentile")
    t.add_argument("--models", default="det,rec,cls")
    args = p.parse_args()
    score(args) if args.cmd == "score" else table(args)


if __name__ == "__main__":
    main()
