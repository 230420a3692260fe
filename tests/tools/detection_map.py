#!/usr/bin/python3
"""Scores a YOLO-style detector's decoded outputs: prints COCO-style mAP@0.5:0.95 in percent, as a metric command.

    /usr/bin/python3 tests/tools/detection_map.py OUTPUTS_DIR BOXES.npy [--output NAME] [--iou T]

OUTPUTS_DIR/NAME.npy (NAME defaults to "predictions") holds the model's output for images of BOXES: float32
[N, A, 4 + C], each anchor's box (cx, cy, w, h) in pixels followed by its C class scores (after sigmoid). Row i is
image i of BOXES, or, when OUTPUTS_DIR/sample_indices.npy exists (as `quantlens-cli tune --metric-command` writes it:
int64 [N], the image index of each row, since tune evaluates subsets), image sample_indices[i]; the ground truth of
the images not evaluated is left out.
BOXES.npy holds the ground truth: float32 [M, 6], one row per object: (image_index, class, x1, y1, x2, y2), pixels.

Per image and class, detections scoring at least CONF_THRESHOLD go through NMS (IoU NMS_IOU), and at most MAX_DET
per image are kept (highest scores). For each IoU threshold T, detections are matched COCO-style: in decreasing score
order, each takes the not yet matched ground-truth box of its image and class with the highest IoU, if that IoU is at
least T. A class's AP at T is the area under its all-point interpolated precision-recall curve (VOC 2010+); the mAP
is the mean over the thresholds 0.50, 0.55, ..., 0.95 (or over the one --iou T) of the mean over the classes that
have ground truth. The high thresholds make it reward precise boxes: a box off by 1 px on a 10 px object has an IoU
near 0.8, so localisation noise (INT8's among others) costs points that mAP@0.5 does not see.
Numpy only, so it runs where torch is not installed.

stdout: one number, the mAP in percent (e.g. 73.412). Exit status 2 with a message on stderr when a file is
missing or malformed or an argument is out of range.
"""
import argparse
import os
import sys

import numpy as np

CONF_THRESHOLD = 0.001
NMS_IOU = 0.6
MAX_DET = 100
COCO_THRESHOLDS = np.linspace(0.5, 0.95, 10)  # 0.50:0.05:0.95


def iou_matrix(a, b):
    """IoU of every box of a [n,4] with every box of b [m,4], boxes as (x1, y1, x2, y2)."""
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(rb - lt, 0.0, None), axis=2)
    area_a = np.prod(np.clip(a[:, 2:] - a[:, :2], 0.0, None), axis=1)
    area_b = np.prod(np.clip(b[:, 2:] - b[:, :2], 0.0, None), axis=1)
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1.0), 0.0)


def nms(boxes, scores, iou_threshold):
    """Indices of the boxes kept by greedy NMS, highest score first."""
    order = np.argsort(-scores, kind="stable")
    if order.size == 0:
        return order
    ious = iou_matrix(boxes[order], boxes[order])
    suppressed = np.zeros(order.size, dtype=bool)
    keep = []
    for i in range(order.size):
        if suppressed[i]:
            continue
        keep.append(order[i])
        suppressed |= ious[i] > iou_threshold
    return np.array(keep, dtype=np.int64)


def detect(predictions):
    """Per image: (boxes [k,4] x1y1x2y2, scores [k], classes [k]) after threshold, per-class NMS and MAX_DET."""
    results = []
    for pred in predictions.astype(np.float64):
        cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
        all_boxes, all_scores, all_classes = [], [], []
        # Every (anchor, class) pair above the threshold is a candidate, as in YOLO's multi-label evaluation.
        for c in range(pred.shape[1] - 4):
            scores = pred[:, 4 + c]
            candidates = np.nonzero(scores >= CONF_THRESHOLD)[0]
            kept = candidates[nms(boxes[candidates], scores[candidates], NMS_IOU)]
            all_boxes.append(boxes[kept])
            all_scores.append(scores[kept])
            all_classes.append(np.full(len(kept), c))
        boxes, scores, classes = np.concatenate(all_boxes), np.concatenate(all_scores), np.concatenate(all_classes)
        top = np.argsort(-scores, kind="stable")[:MAX_DET]
        results.append((boxes[top], scores[top], classes[top]))
    return results


def average_precision(recall, precision):
    """Area under the precision-recall curve with precision made monotone (all-point interpolation)."""
    r = np.concatenate([[0.0], recall, [1.0]])
    p = np.concatenate([[0.0], precision, [0.0]])
    p = np.maximum.accumulate(p[::-1])[::-1]
    steps = np.nonzero(r[1:] != r[:-1])[0]
    return float(np.sum((r[steps + 1] - r[steps]) * p[steps + 1]))


def match(ious, thresholds):
    """[len(thresholds), n] true-positive flags of n detections (rows of ious [n,m], by decreasing score) against
    m ground-truth boxes: each detection takes the unmatched box of highest IoU if that IoU reaches the threshold."""
    hits = np.zeros((len(thresholds), ious.shape[0]), dtype=bool)
    for t, threshold in enumerate(thresholds):
        free = np.ones(ious.shape[1], dtype=bool)
        for d in range(ious.shape[0]):
            candidates = np.where(free, ious[d], -1.0)
            j = int(np.argmax(candidates)) if candidates.size else -1
            if j >= 0 and candidates[j] >= threshold:
                free[j] = False
                hits[t, d] = True
    return hits


def mean_average_precision(predictions, gt, thresholds=COCO_THRESHOLDS):
    """mAP in [0, 1] of predictions [N, A, 4 + C] against ground truth rows (image, class, x1, y1, x2, y2), averaged
    over the IoU thresholds (default 0.50:0.05:0.95, COCO's mAP@0.5:0.95)."""
    thresholds = np.atleast_1d(np.asarray(thresholds, dtype=np.float64))
    detections = detect(predictions)
    classes = predictions.shape[2] - 4
    aps = []  # [class][threshold]
    for c in range(classes):
        gt_c = gt[gt[:, 1] == c]
        if len(gt_c) == 0:
            continue
        scores_c, hits_c = [], []  # over all images
        for image, (boxes, scores, det_classes) in enumerate(detections):
            mine = det_classes == c
            boxes, scores = boxes[mine], scores[mine]
            order = np.argsort(-scores, kind="stable")
            boxes, scores = boxes[order], scores[order]
            truth = gt_c[gt_c[:, 0] == image][:, 2:6]
            scores_c.append(scores)
            hits_c.append(match(iou_matrix(boxes, truth), thresholds))
        scores_c, hits_c = np.concatenate(scores_c), np.concatenate(hits_c, axis=1)
        if scores_c.size == 0:
            aps.append(np.zeros(len(thresholds)))
            continue
        order = np.argsort(-scores_c, kind="stable")
        tp = np.cumsum(hits_c[:, order], axis=1)
        fp = np.cumsum(~hits_c[:, order], axis=1)
        aps.append([average_precision(tp[t] / len(gt_c), tp[t] / np.maximum(tp[t] + fp[t], 1))
                    for t in range(len(thresholds))])
    return float(np.mean(aps)) if aps else 0.0


def fail(message):
    print(f"detection_map: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    if not os.path.isfile(path):
        fail(f"missing file: {path}")
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        fail(f"cannot read {path}: {error}")


class Parser(argparse.ArgumentParser):
    def error(self, message):  # exit 2 with one clear line, like the other failures
        fail(message)


def select_evaluated(outputs_dir, gt, rows):
    """The ground truth of the images the output rows hold, renumbered by row: through sample_indices.npy when the
    folder has it, else rows 0..N-1 are images 0..N-1."""
    path = os.path.join(outputs_dir, "sample_indices.npy")
    if not os.path.isfile(path):
        return gt
    indices = load(path)
    if indices.ndim != 1 or len(indices) != rows or not np.issubdtype(indices.dtype, np.integer):
        fail(f"{path}: expected integer [{rows}] (one image index per output row), got {indices.dtype} "
             f"{list(indices.shape)}")
    row_of = {int(image): row for row, image in enumerate(indices)}
    kept = np.array([int(image) in row_of for image in gt[:, 0]], dtype=bool)
    gt = gt[kept].copy()
    gt[:, 0] = [row_of[int(image)] for image in gt[:, 0]]
    return gt


def main():
    parser = Parser(description="Prints COCO-style mAP@0.5:0.95 (percent) of decoded YOLO-style detections.")
    parser.add_argument("outputs_dir", help="folder holding NAME.npy, the model output for every image")
    parser.add_argument("boxes", help="ground truth, float32 [M,6] rows (image_index, class, x1, y1, x2, y2)")
    parser.add_argument("--output", default="predictions", help="name of the model output (default: predictions)")
    parser.add_argument("--iou", type=float, default=None,
                        help="one IoU threshold, e.g. 0.5 for mAP@0.5 (default: mean over 0.50:0.05:0.95)")
    args = parser.parse_args()
    if args.iou is not None and not 0.0 < args.iou <= 1.0:
        fail(f"--iou must be in (0, 1], got {args.iou}")

    pred_path = os.path.join(args.outputs_dir, args.output + ".npy")
    predictions = load(pred_path)
    gt = load(args.boxes)
    if predictions.ndim != 3 or predictions.shape[2] < 5 or not np.issubdtype(predictions.dtype, np.floating):
        fail(f"{pred_path}: expected float [N, A, 4 + classes], got {predictions.dtype} {list(predictions.shape)}")
    if not np.all(np.isfinite(predictions)):
        fail(f"{pred_path}: holds NaN or infinite values")
    if gt.ndim != 2 or gt.shape[1] != 6 or not np.issubdtype(gt.dtype, np.floating):
        fail(f"{args.boxes}: expected float [M, 6] rows (image_index, class, x1, y1, x2, y2), "
             f"got {gt.dtype} {list(gt.shape)}")
    if not np.all(np.isfinite(gt)):
        fail(f"{args.boxes}: holds NaN or infinite values")
    gt = gt.astype(np.float64)
    if len(gt) and np.any(gt[:, 0] != np.round(gt[:, 0])):
        fail(f"{args.boxes}: image indices must be integers")
    gt = select_evaluated(args.outputs_dir, gt, len(predictions))
    images, classes = gt[:, 0], gt[:, 1]
    if len(gt) and (images.min() < 0 or images.max() >= len(predictions) or np.any(images != np.round(images))):
        fail(f"{args.boxes}: image indices must be integers in [0, {len(predictions)}) (the outputs' batch)")
    if len(gt) and (classes.min() < 0 or classes.max() >= predictions.shape[2] - 4
                    or np.any(classes != np.round(classes))):
        fail(f"{args.boxes}: class ids must be integers in [0, {predictions.shape[2] - 4})")
    thresholds = COCO_THRESHOLDS if args.iou is None else [args.iou]
    print(f"{mean_average_precision(predictions, gt, thresholds) * 100:.3f}")


if __name__ == "__main__":
    main()
