#!/usr/bin/python3
"""Trains the bundled sample model: a small CNN on the handwritten digits Debian's python3-sklearn ships.

The network has what INT8 deployment has to get right: Conv + BatchNorm, a depthwise conv, a residual Add,
global average pooling and a Linear head. It is what `make run` opens, so a first-time user sees real numbers.

    /usr/bin/python3 resources/samples/train_digits_cnn.py [OUT_DIR]

Writes (default: the folder of this script):
    digits_cnn.onnx         the trained model, input "image" [N,1,16,16] (pixels scaled to [0,1])
    digits_calib.npy        256 calibration samples [256,1,16,16] float32 (from the training split)
    digits_test.npy         450 held-out test samples [450,1,16,16] float32 (disjoint from training)
    digits_test_labels.npy  their labels [450] int64
Deterministic: fixed seeds, single thread.
"""
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.datasets import load_digits

SIZE = 16
TEST_COUNT = 450
CALIB_COUNT = 256


class DigitsCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        # Residual block: depthwise 3x3 + pointwise 1x1, added to its input.
        self.block = nn.Sequential(
            nn.Conv2d(16, 16, 3, padding=1, groups=16, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 16, 1, bias=False), nn.BatchNorm2d(16))
        self.down = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.mix = nn.Sequential(nn.Conv2d(32, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.head = nn.Linear(32, 10)

    def forward(self, x):
        x = self.stem(x)
        x = F.relu(x + self.block(x))
        x = self.mix(self.down(x))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.head(x)


def load_images():
    digits = load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0
    images = F.interpolate(images, size=(SIZE, SIZE), mode="bilinear", align_corners=False)
    return images.numpy().astype(np.float32), digits.target.astype(np.int64)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    torch.manual_seed(0)
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    images, labels = load_images()
    order = rng.permutation(len(images))
    test_idx, train_idx = order[:TEST_COUNT], order[TEST_COUNT:]
    calib_idx = rng.choice(train_idx, CALIB_COUNT, replace=False)

    x_train, y_train = torch.tensor(images[train_idx]), torch.tensor(labels[train_idx])
    model = DigitsCnn()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=40)
    for epoch in range(40):
        model.train()
        perm = torch.randperm(len(x_train))
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            xb = x_train[b]
            # Light augmentation: random shifts of one pixel.
            xb = torch.roll(xb, shifts=(int(torch.randint(-1, 2, ())), int(torch.randint(-1, 2, ()))), dims=(2, 3))
            loss = F.cross_entropy(model(xb), y_train[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()

    model.eval()
    with torch.no_grad():
        pred = model(torch.tensor(images[test_idx])).argmax(1).numpy()
    accuracy = float((pred == labels[test_idx]).mean())
    print(f"test accuracy: {accuracy * 100:.2f}% on {TEST_COUNT} held-out samples")

    path = os.path.join(out_dir, "digits_cnn.onnx")
    # PyTorch folds each BatchNorm into its Conv when exporting in eval mode, as it does for users' models.
    torch.onnx.export(model, torch.tensor(images[:1]), path, opset_version=13, input_names=["image"],
                      output_names=["logits"],
                      dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}})
    np.save(os.path.join(out_dir, "digits_calib.npy"), images[calib_idx])
    np.save(os.path.join(out_dir, "digits_test.npy"), images[test_idx])
    np.save(os.path.join(out_dir, "digits_test_labels.npy"), labels[test_idx])
    print("wrote", path)


if __name__ == "__main__":
    main()
