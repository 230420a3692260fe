#!/usr/bin/python3
"""Writes the UltraFace face detector (Ultra-Light-Fast-Generic-Face-Detector-1MB, "version-RFB-320", MIT) as an
ONNX model, for walking the window on it where the published file cannot be fetched (it is on no npm package):
the same architecture, input (`input`, 1x3x240x320) and outputs (`scores` 1x4420x2 after Softmax, `boxes` 1x4420x4
decoded against the priors, corner form) as the ONNX Model Zoo's version-RFB-320.onnx, with seeded random weights.
It says nothing about INT8 accuracy (untrained); it has the graph a user of that file sees: depthwise-separable
stages, a receptive-field block with dilated branches and a scaled shortcut, four SSD heads with Transpose/Reshape,
and the box decoding after them.

    /usr/bin/python3 bench/tools/ultraface_rfb320.py /tmp/ultraface_rfb320.onnx
"""
import sys

import torch
from torch import nn

WIDTH, HEIGHT = 320, 240
MIN_BOXES = [[10, 16, 24], [32, 48], [64, 96], [128, 192, 256]]
STRIDES = [8, 16, 32, 64]
CENTER_VARIANCE, SIZE_VARIANCE = 0.1, 0.2


def conv_bn_relu(cin, cout, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


def depthwise_separable(cin, cout, stride):
    """MobileNet's unit: a 3x3 depthwise conv and a 1x1 pointwise conv, each with BN and ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(),
        nn.Conv2d(cin, cout, 1, 1, 0, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


def basic_conv(cin, cout, kernel=1, padding=0, dilation=1, relu=True):
    layers = [nn.Conv2d(cin, cout, kernel, 1, padding, dilation, bias=False), nn.BatchNorm2d(cout)]
    return nn.Sequential(*(layers + [nn.ReLU()] if relu else layers))


class ReceptiveFieldBlock(nn.Module):
    """RFB: three branches of growing dilation (2, 3, 5), concatenated, projected, added to a 1x1 shortcut."""

    def __init__(self, channels, reduce=8):
        super().__init__()
        inter = channels // reduce
        self.branches = nn.ModuleList([
            nn.Sequential(basic_conv(channels, inter), basic_conv(inter, 2 * inter, 3, 1),
                          basic_conv(2 * inter, 2 * inter, 3, 2, 2, relu=False)),
            nn.Sequential(basic_conv(channels, inter), basic_conv(inter, 2 * inter, 3, 1),
                          basic_conv(2 * inter, 2 * inter, 3, 3, 3, relu=False)),
            nn.Sequential(basic_conv(channels, inter), basic_conv(inter, inter // 2 * 3, 3, 1),
                          basic_conv(inter // 2 * 3, 2 * inter, 3, 1),
                          basic_conv(2 * inter, 2 * inter, 3, 5, 5, relu=False)),
        ])
        self.linear = basic_conv(6 * inter, channels, relu=False)
        self.shortcut = basic_conv(channels, channels, relu=False)
        self.relu = nn.ReLU()

    def forward(self, x):
        merged = self.linear(torch.cat([b(x) for b in self.branches], 1))
        return self.relu(merged + self.shortcut(x))


def separable_head(cin, cout, stride=1):
    """A 3x3 depthwise conv, ReLU, a 1x1 conv: the SSD heads, and the extra stage's strided one."""
    return nn.Sequential(nn.Conv2d(cin, cin, 3, stride, 1, groups=cin), nn.ReLU(), nn.Conv2d(cin, cout, 1))


def priors():
    """SSD anchors in center form, clipped to [0, 1]: for each level, row by row, each min box."""
    out = []
    for stride, boxes in zip(STRIDES, MIN_BOXES):
        columns, rows = -(-WIDTH // stride), -(-HEIGHT // stride)
        for j in range(rows):
            for i in range(columns):
                for size in boxes:
                    out.append([(i + 0.5) * stride / WIDTH, (j + 0.5) * stride / HEIGHT, size / WIDTH,
                                size / HEIGHT])
    return torch.tensor(out).clamp(0.0, 1.0)


class UltraFace(nn.Module):
    def __init__(self):
        super().__init__()
        base = 16
        self.stages = nn.ModuleList([
            nn.Sequential(conv_bn_relu(3, base, 2), depthwise_separable(base, 2 * base, 1),
                          depthwise_separable(2 * base, 2 * base, 2), depthwise_separable(2 * base, 2 * base, 1),
                          depthwise_separable(2 * base, 4 * base, 2), depthwise_separable(4 * base, 4 * base, 1),
                          depthwise_separable(4 * base, 4 * base, 1), ReceptiveFieldBlock(4 * base)),
            nn.Sequential(depthwise_separable(4 * base, 8 * base, 2), depthwise_separable(8 * base, 8 * base, 1),
                          depthwise_separable(8 * base, 8 * base, 1)),
            nn.Sequential(depthwise_separable(8 * base, 16 * base, 2),
                          depthwise_separable(16 * base, 16 * base, 1)),
            nn.Sequential(nn.Conv2d(16 * base, 4 * base, 1), nn.ReLU(), separable_head(4 * base, 16 * base, 2),
                          nn.ReLU()),
        ])
        channels = [4 * base, 8 * base, 16 * base]
        anchors = [len(b) for b in MIN_BOXES]
        self.classify = nn.ModuleList([separable_head(c, a * 2) for c, a in zip(channels, anchors)] +
                                      [nn.Conv2d(16 * base, anchors[3] * 2, 3, 1, 1)])
        self.locate = nn.ModuleList([separable_head(c, a * 4) for c, a in zip(channels, anchors)] +
                                    [nn.Conv2d(16 * base, anchors[3] * 4, 3, 1, 1)])
        self.register_buffer("priors", priors())

    def forward(self, x):
        scores, boxes = [], []
        for stage, classify, locate in zip(self.stages, self.classify, self.locate):
            x = stage(x)
            scores.append(classify(x).permute(0, 2, 3, 1).reshape(1, -1, 2))
            boxes.append(locate(x).permute(0, 2, 3, 1).reshape(1, -1, 4))
        scores = torch.softmax(torch.cat(scores, 1), dim=2)
        offsets = torch.cat(boxes, 1)
        centers = offsets[..., :2] * CENTER_VARIANCE * self.priors[:, 2:] + self.priors[:, :2]
        sizes = torch.exp(offsets[..., 2:] * SIZE_VARIANCE) * self.priors[:, 2:]
        return scores, torch.cat([centers - sizes / 2, centers + sizes / 2], 2)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    torch.manual_seed(20261130)
    model = UltraFace().eval()
    torch.onnx.export(model, torch.zeros(1, 3, HEIGHT, WIDTH), sys.argv[1], opset_version=11,
                      input_names=["input"], output_names=["scores", "boxes"])


if __name__ == "__main__":
    main()
