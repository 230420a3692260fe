#!/usr/bin/python3
"""Trains a small digits CNN whose input distribution makes entropy calibration clip it.

The images are the sklearn digits (8x8 upsampled to 16x16, like resources/samples/train_digits_cnn.py) standardised
with the dataset's mean and std over all pixels: the input is signed, about 30 % of its values sit on one spike (the
background, near -0.96) and the bright strokes form a tail up to about 2.2. On |x| the spike dominates the histogram,
so the KL-divergence (entropy) search keeps a threshold near 1 and saturates every stroke pixel, while minmax, mse
and percentile keep the full range. The Conv + BN + ReLU stem reads the input directly, so the clipped input reaches
the network unchanged: the model the accuracy-targeted tuner has to fix by changing the input tensor's calibration.

    /usr/bin/python3 tests/tools/train_spiky_cnn.py [OUT_DIR]

Writes (default: tests/data/tune/):
    spiky_cnn.onnx          the trained model, input "image" [N,1,16,16] float32 (standardised pixels),
                            output "logits" [N,10]; opset 13, batch axis dynamic
    spiky_calib.npy         128 calibration samples [128,1,16,16] float32 (from the training split)
    spiky_test.npy          400 held-out test samples [400,1,16,16] float32 (disjoint from training)
    spiky_test_labels.npy   their labels [400] int64
Deterministic: fixed seeds, single thread.
"""
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.datasets import load_digits

SIZE = 16
TEST_COUNT = 400  # with CALIB_COUNT, keeps each .npy under 400 KB
CALIB_COUNT = 128
EPOCHS = 30
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "tune")


def conv_bn_relu(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU())


class SpikyCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(conv_bn_relu(1, 16), conv_bn_relu(16, 32, stride=2), conv_bn_relu(32, 32))
        self.head = nn.Linear(32, 10)

    def forward(self, x):
        x = F.adaptive_avg_pool2d(self.features(x), 1).flatten(1)
        return self.head(x)


def load_images():
    digits = load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0
    images = F.interpolate(images, size=(SIZE, SIZE), mode="bilinear", align_corners=False)
    # One mean and one std over all pixels (not per pixel): the background stays a single spike.
    images = (images - images.mean()) / images.std()
    return images.numpy().astype(np.float32), digits.target.astype(np.int64)


def accuracy(model, x, y):
    with torch.no_grad():
        return float((model(torch.tensor(x)).argmax(1).numpy() == y).mean())


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    images, labels = load_images()
    order = rng.permutation(len(images))
    test_idx, train_idx = order[:TEST_COUNT], order[TEST_COUNT:]
    calib_idx = rng.choice(train_idx, CALIB_COUNT, replace=False)

    start = time.time()
    x_train, y_train = torch.tensor(images[train_idx]), torch.tensor(labels[train_idx])
    model = SpikyCnn()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=EPOCHS)
    for _ in range(EPOCHS):
        model.train()
        perm = torch.randperm(len(x_train))
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            # Light augmentation: random shifts of one pixel (the rolled-in border is background too).
            xb = torch.roll(x_train[b], shifts=(int(torch.randint(-1, 2, ())), int(torch.randint(-1, 2, ()))),
                            dims=(2, 3))
            loss = F.cross_entropy(model(xb), y_train[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
    model.eval()
    print(f"trained in {time.time() - start:.1f} s")

    x_test, y_test = images[test_idx], labels[test_idx]
    print(f"test accuracy: {accuracy(model, x_test, y_test) * 100:.2f}% on {TEST_COUNT} held-out samples")
    # What an input clipped at |x| <= 1 (about where entropy calibration puts it) costs, in float.
    print(f"test accuracy with the input clipped to [-1, 1]: "
          f"{accuracy(model, np.clip(x_test, -1.0, 1.0), y_test) * 100:.2f}%")

    path = os.path.join(out_dir, "spiky_cnn.onnx")
    # PyTorch folds each BatchNorm into its Conv when exporting in eval mode.
    torch.onnx.export(model, torch.tensor(images[:1]), path, opset_version=13, input_names=["image"],
                      output_names=["logits"], dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}})
    np.save(os.path.join(out_dir, "spiky_calib.npy"), images[calib_idx])
    np.save(os.path.join(out_dir, "spiky_test.npy"), x_test)
    np.save(os.path.join(out_dir, "spiky_test_labels.npy"), y_test)
    print("wrote", path)


if __name__ == "__main__":
    main()
