#!/usr/bin/python3
"""Trains a tiny vision transformer on the handwritten digits Debian's python3-sklearn ships.

The network has what INT8 deployment of transformers has to get right: LayerNormalization, MatMul between two
activations (Q K^T and attention x V), Softmax, GELU, residual Adds and a mean-pool. The 16x16 image (8x8 digits
upsampled as in resources/samples/train_digits_cnn.py, pixels in [0,1]) is cut into 16 patches of 4x4 outside the
graph; the model embeds each patch (d=32), adds a learned positional embedding, runs 2 pre-norm encoder blocks
(2-head self-attention written with explicit MatMul/Softmax, GELU MLP of width 64), a final LayerNorm, mean-pools
the tokens and classifies.

    /usr/bin/python3 tests/tools/train_tiny_transformer.py [OUT_DIR]

Writes (default: tests/data/tune/):
    transformer.onnx                the trained model, input "tokens" [N,16,16] float32 (token t = patch row t//4,
                                    column t%4; its 16 values are the patch's pixels in row-major order),
                                    output "logits" [N,10]; opset 17 (LayerNormalization is one op), batch dynamic
    transformer_calib.npy           128 calibration samples [128,16,16] float32 (from the training split)
    transformer_test.npy            400 held-out test samples [400,16,16] float32 (disjoint from training)
    transformer_test_labels.npy     their labels [400] int64
Deterministic: fixed seeds, single thread.
"""
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.datasets import load_digits

SIZE = 16
PATCH = 4
TOKENS = (SIZE // PATCH) ** 2
DIM = 32
HEADS = 2
MLP = 64
BLOCKS = 2
TEST_COUNT = 400  # with CALIB_COUNT, keeps each .npy under 400 KB
CALIB_COUNT = 128
EPOCHS = 120
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "tune")


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)

    def forward(self, x):
        head_dim = DIM // HEADS
        # Constant shapes with -1 for the batch: the export needs no Shape/Gather arithmetic.
        qkv = self.qkv(x).reshape(-1, TOKENS, 3, HEADS, head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        weights = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(head_dim)), dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(-1, TOKENS, DIM)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1, self.attn = nn.LayerNorm(DIM), Attention()
        self.norm2 = nn.LayerNorm(DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, MLP), nn.GELU(), nn.Linear(MLP, DIM))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class TinyTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(PATCH * PATCH, DIM)
        self.pos = nn.Parameter(torch.randn(1, TOKENS, DIM) * 0.02)
        self.blocks = nn.Sequential(*[Block() for _ in range(BLOCKS)])
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, 10)

    def forward(self, tokens):
        x = self.blocks(self.embed(tokens) + self.pos)
        return self.head(self.norm(x).mean(1))


def to_tokens(images):
    """[N,1,16,16] -> [N,16,16]: 4x4 patches in row-major order, each flattened row-major."""
    n = images.shape[0]
    grid = SIZE // PATCH
    patches = images.reshape(n, grid, PATCH, grid, PATCH).permute(0, 1, 3, 2, 4)
    return patches.reshape(n, TOKENS, PATCH * PATCH)


def load_images():
    digits = load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0
    images = F.interpolate(images, size=(SIZE, SIZE), mode="bilinear", align_corners=False)
    return images, digits.target.astype(np.int64)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    images, labels = load_images()
    tokens = to_tokens(images).numpy().astype(np.float32)
    order = rng.permutation(len(images))
    test_idx, train_idx = order[:TEST_COUNT], order[TEST_COUNT:]
    calib_idx = rng.choice(train_idx, CALIB_COUNT, replace=False)

    start = time.time()
    x_train, y_train = images[train_idx], torch.tensor(labels[train_idx])
    model = TinyTransformer()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.05)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=EPOCHS * math.ceil(len(x_train) / 64))
    for _ in range(EPOCHS):
        model.train()
        perm = torch.randperm(len(x_train))
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            # Light augmentation on the image, before patching: random shifts of one pixel.
            xb = torch.roll(x_train[b], shifts=(int(torch.randint(-1, 2, ())), int(torch.randint(-1, 2, ()))),
                            dims=(2, 3))
            loss = F.cross_entropy(model(to_tokens(xb)), y_train[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    model.eval()
    print(f"trained in {time.time() - start:.1f} s")

    x_test, y_test = tokens[test_idx], labels[test_idx]
    with torch.no_grad():
        pred = model(torch.tensor(x_test)).argmax(1).numpy()
    print(f"test accuracy: {float((pred == y_test).mean()) * 100:.2f}% on {TEST_COUNT} held-out samples")

    path = os.path.join(out_dir, "transformer.onnx")
    torch.onnx.export(model, torch.tensor(tokens[:1]), path, opset_version=17, input_names=["tokens"],
                      output_names=["logits"], dynamic_axes={"tokens": {0: "batch"}, "logits": {0: "batch"}})
    np.save(os.path.join(out_dir, "transformer_calib.npy"), tokens[calib_idx])
    np.save(os.path.join(out_dir, "transformer_test.npy"), x_test)
    np.save(os.path.join(out_dir, "transformer_test_labels.npy"), y_test)
    print("wrote", path)


if __name__ == "__main__":
    main()
