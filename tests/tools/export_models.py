#!/usr/bin/python3
"""Exports real architectures from torchvision to ONNX with random, seeded weights (no downloads).

Used by benchmarks and by the checks that compare QuantLens with ONNX Runtime / the ONNX Python package.
Run with Debian's interpreter (python3-torch, python3-torchvision):

    /usr/bin/python3 tests/tools/export_models.py OUT_DIR [name ...]

Names: resnet18 resnet50 mobilenet_v2 mobilenet_v3_small efficientnet_b0 shufflenet_v2 squeezenet
densenet121 deeplabv3 vit_tiny unet big_mlp. Without names, all are exported.
"""
import os
import sys

import torch
import torch.nn as nn
import torchvision

OPSET = 13


class UNet(nn.Module):
    """A small U-Net with ConvTranspose upsampling (the layer type whose weight axis trips TensorRT)."""

    def __init__(self, ch=16, classes=3):
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                                 nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

        self.enc1, self.enc2, self.enc3 = block(3, ch), block(ch, ch * 2), block(ch * 2, ch * 4)
        self.pool = nn.MaxPool2d(2)
        self.up2 = nn.ConvTranspose2d(ch * 4, ch * 2, 2, stride=2)
        self.dec2 = block(ch * 4, ch * 2)
        self.up1 = nn.ConvTranspose2d(ch * 2, ch, 2, stride=2)
        self.dec1 = block(ch * 2, ch)
        self.head = nn.Conv2d(ch, classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        e3 = self.enc3(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up2(e3), e2], 1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], 1))
        return self.head(d1)


def vit_tiny():
    vit = torchvision.models.VisionTransformer(image_size=224, patch_size=16, num_layers=4, num_heads=3,
                                               hidden_dim=192, mlp_dim=768, num_classes=1000)
    # torchvision zero-initialises the classification head, which makes every output exactly 0 and any
    # comparison with another runtime vacuous; give it seeded random weights like the other layers.
    nn.init.normal_(vit.heads.head.weight, std=0.05)
    nn.init.normal_(vit.heads.head.bias, std=0.05)
    return vit


class BigMlp(nn.Module):
    """About 120 MB of float weights: the 'model over 100 MB' of the loader checks."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(),
                                 nn.Linear(4096, 2048), nn.ReLU(), nn.Linear(2048, 1000))

    def forward(self, x):
        return self.net(x)


MODELS = {
    "resnet18": (lambda: torchvision.models.resnet18(), (1, 3, 224, 224)),
    "resnet50": (lambda: torchvision.models.resnet50(), (1, 3, 224, 224)),
    "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(), (1, 3, 224, 224)),
    "mobilenet_v3_small": (lambda: torchvision.models.mobilenet_v3_small(), (1, 3, 224, 224)),
    "efficientnet_b0": (lambda: torchvision.models.efficientnet_b0(), (1, 3, 224, 224)),
    "shufflenet_v2": (lambda: torchvision.models.shufflenet_v2_x1_0(), (1, 3, 224, 224)),
    "squeezenet": (lambda: torchvision.models.squeezenet1_1(), (1, 3, 224, 224)),
    "densenet121": (lambda: torchvision.models.densenet121(), (1, 3, 224, 224)),
    "deeplabv3": (lambda: torchvision.models.segmentation.deeplabv3_mobilenet_v3_large(
        weights=None, weights_backbone=None, aux_loss=False), (1, 3, 256, 256)),
    "vit_tiny": (vit_tiny, (1, 3, 224, 224)),
    "unet": (lambda: UNet(), (1, 3, 128, 128)),
    "big_mlp": (lambda: BigMlp(), (1, 1024)),
}


class OutOnly(nn.Module):
    """Segmentation models return a dict; export only its 'out' tensor."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        y = self.m(x)
        return y["out"] if isinstance(y, dict) else y


def export(name, out_dir):
    make, shape = MODELS[name]
    torch.manual_seed(0)
    model = OutOnly(make()).eval()
    # Random seeded BatchNorm statistics, so BN folding and calibration see non-trivial values.
    g = torch.Generator().manual_seed(1)
    for mod in model.modules():
        if isinstance(mod, nn.BatchNorm2d):
            mod.running_mean.copy_(torch.randn(mod.num_features, generator=g) * 0.1)
            mod.running_var.copy_(torch.rand(mod.num_features, generator=g) * 0.5 + 0.75)
    x = torch.randn(*shape, generator=g)
    path = os.path.join(out_dir, name + ".onnx")
    with torch.no_grad():
        torch.onnx.export(model, x, path, opset_version=OPSET, input_names=["input"], output_names=["output"],
                          do_constant_folding=True)
    print(path)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for name in sys.argv[2:] or MODELS:
        if name not in MODELS:
            sys.exit(f"unknown model '{name}'; known: {' '.join(MODELS)}")
        export(name, out_dir)


if __name__ == "__main__":
    main()
