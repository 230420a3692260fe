#!/usr/bin/python3
"""Trains a tiny YOLOv8-style detector on cluttered synthetic shapes, with its output decoded in the graph.

Images are grey 1x48x48: a background level (0.25 to 0.75) with a linear gradient (up to +-0.15 across the image),
0 to 4 clutter strokes (1 to 2 px wide lines, 6 to 30 px long, brighter or darker than the background), then 2 to 6
objects of 3 classes (0 filled circle, 1 filled square, 2 triangle pointing up), 5 to 16 px, brighter or darker than
the background by 0.08 to 0.4, and Gaussian noise of a per-image sigma (0.02 to 0.10). Objects may overlap: a new
one may cover up to a quarter of the smaller of it and any earlier one (it is drawn on top); each box is the one
enclosing the object's whole shape, covered part included.
The evaluation is detection_map.py's COCO-style mAP@0.5:0.95, so the boxes must be right to a pixel or so on
objects of 5 to 16 px: small, low-contrast, noisy and partly covered objects keep the float model well below 100,
and the error INT8 adds to the box regression shows in the score.
The network is what INT8 deployment of YOLOv8 has to get right: Conv + BatchNorm + SiLU (exported as Sigmoid and
Mul), nearest Resize and Concat in a top-down neck, three anchor-free heads (stride 4, 8 and 16) and YOLOv8's
decoding exported with the model: each anchor predicts, for each of the box's four sides, a distribution over
REG_MAX = 16 distance bins (0 to 15 strides), and the distance is its expectation, computed as YOLOv8 exports it
(Softmax over the bins, then the "DFL" Conv 16 -> 1 whose fixed weights are 0, 1, ..., 15). The single output
mixes pixels (boxes, up to tens of pixels) and probabilities (scores in [0, 1]) in one tensor, as YOLOv8 exports do.
What INT8 does to it, as on real YOLOv8 models: the DFL Conv is a Conv, so the default placement makes it INT8; its
input, the softmax probabilities, is quantized with one scale for all bins (steps of about 1/127) and its weights 0..15
per channel (1 becomes 0.945), which moves every box side by a fraction of a stride; the other Convs add their
own noise. mAP@0.5 hardly moves, mAP@0.5:0.95 loses a few points. Entropy calibration, on the probabilities'
histogram (a spike near 0, the few confident bins near 1), clips the high probabilities and loses far more.
Training assigns an object to the anchors of every scale whose point lies inside its box and within one stride of
its centre (the stride-4 cell holding the centre when no anchor qualifies; an anchor in two boxes takes the smaller)
and uses BCE for the classes, GIoU and YOLOv8's distribution focal loss for the boxes. Training images are
flipped left-right at random (every shape is symmetric that way).

    /usr/bin/python3 tests/tools/train_tiny_detector.py [OUT_DIR]

Writes (default: tests/data/tune/):
    detector.onnx               the trained model, input "image" [N,1,48,48] float32 (pixels in [0,1]),
                                output "predictions" [N,189,7]: 12x12 anchors of stride 4, 6x6 of stride 8, then 3x3
                                of stride 16 (row-major), each (cx, cy, w, h) in pixels then the 3 class scores;
                                opset 13, batch dynamic
    detector_calib.npy          32 calibration images [32,1,48,48] float32
    detector_tune.npy           48 tuning images [48,1,48,48] float32
    detector_tune_boxes.npy     their objects, float32 [M,6] rows (image_index, class, x1, y1, x2, y2) in pixels,
                                the box enclosing the object's pixels (x2, y2 exclusive)
    detector_holdout.npy        48 other images [48,1,48,48] float32
    detector_holdout_boxes.npy  their objects, same format
Each set has its own seeded generator, the training images another one; none of these images is trained on.
The mAPs printed are detection_map.py's, on PyTorch's outputs.
Deterministic: fixed seeds, single thread.
"""
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from detection_map import mean_average_precision

SIZE = 48
CLASSES = 3
STRIDES = (4, 8, 16)
REG_MAX = 16  # YOLOv8's bins: each side's distance is a distribution over 0..15 strides
ANCHORS = sum((SIZE // s) ** 2 for s in STRIDES)
TRAIN_IMAGES = 12000
EPOCHS = 10
BATCH = 32
# A 48x48 float image is 9.2 KB: 48 images make a .npy of 442 KB. 32 calibration images is the fewest QuantLens'
# calibration diagnosis accepts without a calib-few-samples finding.
CALIB_COUNT, TUNE_COUNT, HOLDOUT_COUNT = 32, 48, 48
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "tune")

_YS, _XS = np.mgrid[0:SIZE, 0:SIZE] + 0.5  # pixel centres


def draw_stroke(image, rng, background):
    """A straight line 1 to 2 px wide, 6 to 30 px long, brighter or darker than the background."""
    x0, y0 = rng.uniform(0, SIZE, 2)
    angle, length, width = rng.uniform(0, np.pi), rng.uniform(6, 30), rng.uniform(1.0, 2.0)
    dx, dy = np.cos(angle), np.sin(angle)
    t = np.clip((_XS - x0) * dx + (_YS - y0) * dy, 0.0, length)  # position along the segment
    distance = np.hypot(_XS - x0 - t * dx, _YS - y0 - t * dy)
    image[distance <= width / 2] = background + rng.choice((-1.0, 1.0)) * rng.uniform(0.08, 0.35)


def draw_image(rng):
    """One image and its boxes [k,6] (0, class, x1, y1, x2, y2)."""
    background = rng.uniform(0.25, 0.75)
    gx, gy = rng.uniform(-0.15, 0.15, 2)
    image = background + gx * (_XS / SIZE - 0.5) + gy * (_YS / SIZE - 0.5)
    for _ in range(rng.integers(0, 5)):
        draw_stroke(image, rng, background)
    boxes = []
    for _ in range(rng.integers(2, 7)):
        for _attempt in range(50):
            cls, size = int(rng.integers(CLASSES)), int(rng.integers(5, 17))
            x1, y1 = int(rng.integers(0, SIZE - size + 1)), int(rng.integers(0, SIZE - size + 1))
            # Overlap allowed: at most a quarter of the smaller object's square, so every object stays visible.
            if all(max(0, min(x1 + size, b[4]) - max(x1, b[2])) * max(0, min(y1 + size, b[5]) - max(y1, b[3]))
                   <= 0.25 * min(size, b[4] - b[2]) ** 2 for b in boxes):
                break
        else:
            continue
        u, v = (_XS - x1) / size, (_YS - y1) / size  # coordinates inside the object's square, in [0, 1)
        inside = (u >= 0) & (u < 1) & (v >= 0) & (v < 1)
        if cls == 0:
            mask = (u - 0.5) ** 2 + (v - 0.5) ** 2 <= 0.25
        elif cls == 1:
            mask = inside
        else:
            mask = inside & (np.abs(u - 0.5) * 2 <= v)  # apex at the top centre, base at the bottom
        local = background + gx * ((x1 + size / 2) / SIZE - 0.5) + gy * ((y1 + size / 2) / SIZE - 0.5)
        # Brighter or darker than the background, sometimes by little: low contrast is what makes it hard.
        image[mask] = local + rng.choice((-1.0, 1.0)) * rng.uniform(0.08, 0.4)
        py, px = np.nonzero(mask)
        # The box of the object's pixels (an even-sized triangle's apex row is empty: 1 px lower than its square).
        boxes.append((0.0, cls, px.min(), py.min(), px.max() + 1, py.max() + 1))
    image = np.clip(image + rng.normal(0.0, rng.uniform(0.02, 0.10), image.shape), 0.0, 1.0)
    return image.astype(np.float32), np.array(boxes, dtype=np.float32).reshape(-1, 6)


def draw_set(rng, count):
    """count images [count,1,SIZE,SIZE] and their boxes [M,6] with the image index in column 0."""
    images, boxes = [], []
    for i in range(count):
        image, b = draw_image(rng)
        b[:, 0] = i
        images.append(image)
        boxes.append(b)
    return np.stack(images)[:, None], np.concatenate(boxes)


def conv(cin, cout, k=3, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, bias=False), nn.BatchNorm2d(cout),
                         nn.SiLU())


def anchor_points():
    """[A,2] anchor centres (x, y) in pixels and [A] their strides, in the order of the output."""
    points, strides = [], []
    for s in STRIDES:
        n = SIZE // s
        y, x = torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij")
        points.append(torch.stack([x.flatten(), y.flatten()], 1).float() * s + s / 2)
        strides.append(torch.full((n * n,), float(s)))
    return torch.cat(points), torch.cat(strides)


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(conv(1, 12, stride=2), conv(12, 16, stride=2), conv(16, 16))  # 12x12, stride 4
        self.p3 = nn.Sequential(conv(16, 32, stride=2), conv(32, 32))  # 6x6, stride 8
        self.p4 = nn.Sequential(conv(32, 40, stride=2), conv(40, 40, k=1))  # 3x3, stride 16
        self.neck3 = nn.Sequential(conv(40 + 32, 32, k=1), conv(32, 32))
        self.neck2 = nn.Sequential(conv(32 + 16, 24, k=1), conv(24, 24))
        self.heads = nn.ModuleList((conv(24, 24), conv(32, 24), conv(40, 24, k=1)))
        self.outs = nn.ModuleList(nn.Conv2d(24, 4 * REG_MAX + CLASSES, 1) for _ in STRIDES)
        for out in self.outs:
            nn.init.constant_(out.bias[4 * REG_MAX:], -4.0)  # rare positives: start every score near 0.02
        # YOLOv8's DFL: the expectation of each side's distribution over 0..REG_MAX-1, a fixed 1x1 Conv.
        self.dfl = nn.Conv2d(REG_MAX, 1, 1, bias=False).requires_grad_(False)
        self.dfl.weight.data[:] = torch.arange(REG_MAX, dtype=torch.float32).view(1, REG_MAX, 1, 1)
        points, strides = anchor_points()
        # Constants of the exported graph: each anchor's centre and stride, shaped to broadcast over [N,A,2].
        self.register_buffer("points", points[None])
        self.register_buffer("strides", strides[None, :, None])

    def raw(self, x):
        """[N,A,4*REG_MAX+3] per anchor: 4 distributions of REG_MAX distance logits then 3 class logits."""
        p2 = self.stem(x)
        p3 = self.p3(p2)
        p4 = self.p4(p3)
        n3 = self.neck3(torch.cat([F.interpolate(p4, scale_factor=2.0, mode="nearest"), p3], 1))
        n2 = self.neck2(torch.cat([F.interpolate(n3, scale_factor=2.0, mode="nearest"), p2], 1))
        outs = [out(head(f)) for out, head, f in zip(self.outs, self.heads, (n2, n3, p4))]
        # Constant shapes with -1 for the batch: the export needs no Shape/Gather arithmetic.
        flat = [o.reshape(-1, 4 * REG_MAX + CLASSES, (SIZE // s) ** 2) for o, s in zip(outs, STRIDES)]
        return torch.cat(flat, 2).transpose(1, 2)

    def distances(self, raw):
        """[N,A,4] distances to the left, top, right and bottom sides, in strides (YOLOv8's DFL)."""
        logits = raw[..., :4 * REG_MAX].transpose(1, 2).reshape(-1, 4, REG_MAX, ANCHORS)
        return self.dfl(logits.transpose(1, 2).softmax(1)).reshape(-1, 4, ANCHORS).transpose(1, 2)

    def decode_boxes(self, raw):
        """[N,A,4] (x1, y1, x2, y2) in pixels."""
        distances = self.distances(raw) * self.strides
        return torch.cat([self.points - distances[..., :2], self.points + distances[..., 2:]], 2)

    def forward(self, x):
        raw = self.raw(x)
        boxes = self.decode_boxes(raw)
        centre, size = (boxes[..., :2] + boxes[..., 2:]) * 0.5, boxes[..., 2:] - boxes[..., :2]
        return torch.cat([centre, size, torch.sigmoid(raw[..., 4 * REG_MAX:])], 2)


def assign(boxes, count, points, strides):
    """[count,A] row of boxes (rows (image, class, x1, y1, x2, y2), numpy) each anchor predicts, -1: background."""
    image, x1, y1, x2, y2 = (boxes[:, i, None] for i in (0, 2, 3, 4, 5))
    px, py, s = points[None, :, 0], points[None, :, 1], strides[None]
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    chosen = (px > x1) & (px < x2) & (py > y1) & (py < y2) & (np.abs(px - cx) < s) & (np.abs(py - cy) < s)
    # No anchor qualifies: the stride-4 cell holding the centre.
    half = STRIDES[0] / 2
    fallback = (np.abs(px - cx) <= half) & (np.abs(py - cy) <= half) & (s == STRIDES[0])
    chosen |= fallback & ~chosen.any(1, keepdims=True)
    rows, anchors = np.nonzero(chosen)
    images = boxes[rows, 0].astype(np.int64)
    area = ((x2 - x1) * (y2 - y1))[rows, 0]
    # An anchor inside two boxes predicts the smaller one: sort by area descending, the last write wins.
    order = np.argsort(-area, kind="stable")
    target = np.full((count, len(points)), -1, dtype=np.int64)
    for r, a, i in zip(rows[order], anchors[order], images[order]):
        target[i, a] = r
    return target


def giou(a, b):
    lt, rb = torch.max(a[:, :2], b[:, :2]), torch.min(a[:, 2:], b[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(1)
    union = (a[:, 2:] - a[:, :2]).prod(1) + (b[:, 2:] - b[:, :2]).prod(1) - inter
    hull = (torch.max(a[:, 2:], b[:, 2:]) - torch.min(a[:, :2], b[:, :2])).prod(1)
    iou = inter / union
    return iou - (hull - union) / hull


def loss_fn(model, images, target_boxes, target_classes, positive):
    """target_boxes [N,A,4] x1y1x2y2, target_classes [N,A] (-1 background), positive [N,A] bool."""
    raw = model.raw(images)
    cls_target = torch.zeros_like(raw[..., 4 * REG_MAX:])
    cls_target[positive] = F.one_hot(target_classes[positive], CLASSES).float()
    count = max(int(positive.sum()), 1)
    cls_loss = F.binary_cross_entropy_with_logits(raw[..., 4 * REG_MAX:], cls_target, reduction="sum") / count
    pred = model.decode_boxes(raw)[positive]
    gt = target_boxes[positive]
    stride = model.strides.expand(len(images), -1, -1)[positive]
    points = model.points.expand(len(images), -1, -1)[positive]
    # DFL loss (YOLOv8): cross-entropy to the two bins around each true distance, weighted by closeness.
    target = torch.cat([points - gt[:, :2], gt[:, 2:] - points], 1) / stride
    target = target.clamp(0, REG_MAX - 1.01)
    low = target.long()
    weight_high = target - low
    logits = raw[positive][:, :4 * REG_MAX].reshape(-1, REG_MAX)
    low, weight_high = low.reshape(-1), weight_high.reshape(-1)
    dfl = (F.cross_entropy(logits, low, reduction="none") * (1 - weight_high)
           + F.cross_entropy(logits, low + 1, reduction="none") * weight_high)
    box_loss = (1 - giou(pred, gt)).sum() / count + dfl.sum() / (4 * count)
    return cls_loss + 2.0 * box_loss


def predict(model, images):
    with torch.no_grad():
        return model(torch.tensor(images)).numpy()


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    # Separate streams: changing the amount of training data leaves the evaluation images as they are.
    train_rng, calib_rng, tune_rng, holdout_rng = (np.random.default_rng(seed) for seed in (1, 2, 3, 4))
    calib, _ = draw_set(calib_rng, CALIB_COUNT)
    tune, tune_boxes = draw_set(tune_rng, TUNE_COUNT)
    holdout, holdout_boxes = draw_set(holdout_rng, HOLDOUT_COUNT)

    start = time.time()
    train, train_boxes = draw_set(train_rng, TRAIN_IMAGES)
    model = TinyDetector()
    points, strides = model.points[0].numpy(), model.strides[0, :, 0].numpy()
    # The assignment depends on the boxes only: computed once for the image and for its mirror image.
    targets = []
    for flip in (False, True):
        b = train_boxes.copy()
        if flip:
            b[:, [2, 4]] = SIZE - train_boxes[:, [4, 2]]
        row = assign(b, TRAIN_IMAGES, points, strides)
        positive = row >= 0
        boxes = np.zeros(row.shape + (4,), dtype=np.float32)
        boxes[positive] = b[row[positive], 2:]
        classes = np.where(positive, b[np.maximum(row, 0), 1].astype(np.int64), -1)
        targets.append((torch.tensor(boxes), torch.tensor(classes), torch.tensor(positive)))
    x_train = torch.tensor(train)
    print(f"{TRAIN_IMAGES} training images, {len(train_boxes)} objects drawn and assigned "
          f"({time.time() - start:.0f} s)")
    steps = EPOCHS * (TRAIN_IMAGES // BATCH)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    for epoch in range(EPOCHS):
        model.train()
        perm = torch.randperm(TRAIN_IMAGES)
        for i in range(0, TRAIN_IMAGES - BATCH + 1, BATCH):
            b = perm[i:i + BATCH]
            flip = bool(torch.randint(2, ()))  # one coin per batch: the whole batch mirrored or not
            x = x_train[b].flip(3) if flip else x_train[b]
            loss = loss_fn(model, x, *(t[b] for t in targets[flip]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        print(f"epoch {epoch + 1}: last batch loss {loss.item():.3f}, tune mAP@0.5:0.95 "
              f"{mean_average_precision(predict(model, tune), tune_boxes) * 100:.2f}% ({time.time() - start:.0f} s)")
    print(f"trained in {time.time() - start:.1f} s")
    for name, images, boxes in (("tune", tune, tune_boxes), ("holdout", holdout, holdout_boxes)):
        pred = predict(model, images)
        print(f"{name} mAP@0.5:0.95 {mean_average_precision(pred, boxes) * 100:.3f}%, "
              f"mAP@0.5 {mean_average_precision(pred, boxes, [0.5]) * 100:.3f}% ({len(boxes)} objects)")

    path = os.path.join(out_dir, "detector.onnx")
    torch.onnx.export(model, torch.tensor(holdout[:1]), path, opset_version=13, input_names=["image"],
                      output_names=["predictions"],
                      dynamic_axes={"image": {0: "batch"}, "predictions": {0: "batch"}})
    np.save(os.path.join(out_dir, "detector_calib.npy"), calib)
    np.save(os.path.join(out_dir, "detector_tune.npy"), tune)
    np.save(os.path.join(out_dir, "detector_tune_boxes.npy"), tune_boxes)
    np.save(os.path.join(out_dir, "detector_holdout.npy"), holdout)
    np.save(os.path.join(out_dir, "detector_holdout_boxes.npy"), holdout_boxes)
    print("wrote", path)


if __name__ == "__main__":
    main()
