#!/usr/bin/env python3
"""Reference amax values for QuantLens' histogram calibrators, written with numpy only.

Builds histograms of |x| for a few synthetic distributions (fixed seeds) and computes, for each:
  entropy_amax        QuantLens' entropy method (core/quant/histogram_amax.cpp documents the steps),
                      implemented here independently with numpy;
  mse_amax            the mse method (ModelOpt's _compute_amax_mse on bin centres);
  percentile_amax     the upper edge of the bin where the cumulative count reaches 99.99 %;
  pytorch_quantization_entropy_amax
                      pytorch-quantization's _compute_amax_entropy (NVIDIA/TensorRT
                      tools/pytorch-quantization/pytorch_quantization/calib/histogram.py), transcribed,
                      for comparison only: it spreads Q over bins where h (not P) is non-zero and does not
                      smooth, so every candidate whose last kept bin is empty gets an infinite KL. On long,
                      sparse tails it therefore keeps more (on these cases 0 to 470 of 2048 bins more).
The histogram counts and range go into the JSON so the C++ test feeds the exact same histograms.

Run: /usr/bin/python3 tests/tools/entropy_reference.py > tests/data/quant/entropy_reference.json
"""
import json
import sys

import numpy as np

BINS = 2048
START_BIN = 128
LEVELS = 128
EPS = 1e-4


def entropy_amax(counts, value_range, start_bin=START_BIN, levels=LEVELS):
    h = counts.astype(np.float64).copy()
    h[0] = h[1]
    width = value_range / len(h)
    last = int(np.nonzero(counts)[0][-1]) + 1  # candidates past the data clip nothing
    best_i, best_kl = last, np.inf
    for i in range(min(start_bin, last), last + 1):
        p = h[:i].copy()
        p[-1] += h[i:].sum()
        groups = (np.arange(i) * levels) // i
        group_sum = np.bincount(groups, weights=h[:i], minlength=levels)
        group_nonzero = np.bincount(groups, weights=(p > 0).astype(np.float64), minlength=levels)
        q = np.zeros(i)
        nz = p > 0
        q[nz] = group_sum[groups[nz]] / group_nonzero[groups[nz]]
        if p.sum() <= 0 or q.sum() <= 0:
            continue
        q = q / q.sum()
        q[(q == 0) & nz] = EPS
        q = q / q.sum()
        pn = p / p.sum()
        kl = float(np.sum(pn[nz] * np.log(pn[nz] / q[nz])))
        if kl <= best_kl:
            best_kl, best_i = kl, i
    return best_i * width


def mse_amax(counts, value_range, start_bin=START_BIN, levels=LEVELS):
    width = value_range / len(counts)
    centers = (np.arange(len(counts)) + 0.5) * width
    last = int(np.nonzero(counts)[0][-1])
    best, best_err = last, np.inf
    for i in range(min(start_bin, last), last + 1):
        scale = centers[i] / (levels - 1)
        q = np.minimum(np.round(centers / scale), levels - 1) * scale
        err = float(np.sum(counts * (q - centers) ** 2))
        if err < best_err:
            best_err, best = err, i
    return float(centers[best])


def percentile_amax(counts, value_range, percentile=99.99):
    cumulative = np.cumsum(counts)
    idx = int(np.searchsorted(cumulative, percentile / 100.0 * cumulative[-1]))
    return (idx + 1) * value_range / len(counts)


def pytorch_quantization_entropy_amax(counts, value_range, start_bin=START_BIN, levels=LEVELS):
    from collections import Counter
    from scipy.stats import entropy
    bins = counts.copy()
    bins[0] = bins[1]
    edges = np.linspace(0, value_range, len(bins) + 1)
    divergences = []
    for i in range(start_bin, len(bins) + 1):
        new_density_counts = np.zeros(levels, dtype=np.float64)
        space = np.linspace(0, i, num=levels + 1)
        digitized = np.digitize(range(i), space) - 1
        digitized[bins[:i] == 0] = -1
        for idx, d in enumerate(digitized):
            if d != -1:
                new_density_counts[d] += bins[idx]
        for key, val in Counter(digitized).items():
            if key != -1:
                new_density_counts[key] /= val
        new_density = np.zeros(i, dtype=np.float64)
        for idx, d in enumerate(digitized):
            if d != -1:
                new_density[idx] = new_density_counts[d]
        reference = np.array(bins[:i], dtype=np.float64)
        reference[-1] += np.sum(bins[i:])
        divergences.append(entropy(reference, new_density))
    divergences = np.array(divergences)
    last_argmin = len(divergences) - 1 - np.argmin(divergences[::-1])
    return float(edges[last_argmin + start_bin])


def cases():
    rng = np.random.default_rng(20261122)
    gauss = rng.standard_normal(200_000)
    yield "gaussian", gauss
    yield "gaussian_with_outliers", np.concatenate([gauss, rng.uniform(8.0, 30.0, 60)])
    yield "relu_gaussian", np.maximum(rng.standard_normal(200_000), 0.0)
    yield "uniform", rng.uniform(-1.0, 1.0, 200_000)
    yield "laplace", rng.laplace(0.0, 0.5, 200_000)


def main():
    out = {"bins": BINS, "start_bin": START_BIN, "levels": LEVELS, "cases": []}
    for name, x in cases():
        a = np.abs(x.astype(np.float32)).astype(np.float64)
        value_range = float(a.max())
        counts, _ = np.histogram(a, bins=BINS, range=(0.0, value_range))
        out["cases"].append({
            "name": name,
            "range": value_range,
            "counts": counts.astype(int).tolist(),
            "entropy_amax": entropy_amax(counts, value_range),
            "mse_amax": mse_amax(counts, value_range),
            "percentile_amax": percentile_amax(counts, value_range),
            "pytorch_quantization_entropy_amax": pytorch_quantization_entropy_amax(counts, value_range),
        })
    json.dump(out, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
