#!/usr/bin/python3
"""Exports real architectures from torchvision to ONNX with random, seeded weights (no downloads).

Used by benchmarks and by the checks that compare QuantLens with ONNX Runtime / the ONNX Python package.
Run with Debian's interpreter (python3-torch, python3-torchvision):

    /usr/bin/python3 tests/tools/export_models.py OUT_DIR [name ...]

Names: resnet18 resnet50 mobilenet_v2 mobilenet_v3_small efficientnet_b0 shufflenet_v2 squeezenet
densenet121 deeplabv3 vit_tiny unet big_mlp yolov8_tiny bert_tiny. Without names, all are exported.

yolov8_tiny and bert_tiny are the detector and the encoder the lint tests read from tests/data/models/ (regenerate
them with `export_models.py tests/data/models yolov8_tiny bert_tiny`): small, random weights, but the graphs
exporters write for YOLOv8 (C2f, SPPF, decoupled head, DFL, one output Concat of pixel boxes and sigmoid scores) and
for BERT (token/position embeddings, an additive attention mask, MatMul attention with the scale on the scores,
erf GELU, LayerNormalization, residual Adds).
"""
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
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


class ConvBnSilu(nn.Module):
    def __init__(self, cin, cout, k=1, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.silu(self.bn(self.conv(x)))


class Bottleneck(nn.Module):
    def __init__(self, ch, shortcut=True):
        super().__init__()
        self.cv1, self.cv2, self.add = ConvBnSilu(ch, ch, 3), ConvBnSilu(ch, ch, 3), shortcut

    def forward(self, x):
        y = self.cv2(self.cv1(x))
        return x + y if self.add else y


class C2f(nn.Module):
    """YOLOv8's CSP block: split, n bottlenecks, concatenate every stage."""

    def __init__(self, cin, cout, n=1, shortcut=True):
        super().__init__()
        self.c = cout // 2
        self.cv1 = ConvBnSilu(cin, 2 * self.c)
        self.cv2 = ConvBnSilu((2 + n) * self.c, cout)
        self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).chunk(2, 1))
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


class Sppf(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.cv1, self.cv2 = ConvBnSilu(cin, cin // 2), ConvBnSilu(cin * 2, cout)
        self.pool = nn.MaxPool2d(5, 1, 2)

    def forward(self, x):
        x = self.cv1(x)
        y1 = self.pool(x)
        y2 = self.pool(y1)
        return self.cv2(torch.cat((x, y1, y2, self.pool(y2)), 1))


class YoloV8Tiny(nn.Module):
    """YOLOv8n's graph at half its width or less, 16 classes: backbone, PAN neck, decoupled anchor-free head, DFL and the box
    decode, exported as Ultralytics exports it: output [1, 4 + classes, anchors], boxes (cx, cy, w, h) in pixels
    then class probabilities."""

    REG_MAX = 16

    def __init__(self, size=320, classes=16, w=(16, 32, 32, 64, 64)):
        super().__init__()
        self.nc = classes
        self.stem = nn.Sequential(ConvBnSilu(3, w[0], 3, 2), ConvBnSilu(w[0], w[1], 3, 2), C2f(w[1], w[1]))
        self.p3 = nn.Sequential(ConvBnSilu(w[1], w[2], 3, 2), C2f(w[2], w[2]))
        self.p4 = nn.Sequential(ConvBnSilu(w[2], w[3], 3, 2), C2f(w[3], w[3]))
        self.p5 = nn.Sequential(ConvBnSilu(w[3], w[4], 3, 2), C2f(w[4], w[4]), Sppf(w[4], w[4]))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.n4 = C2f(w[4] + w[3], w[3], shortcut=False)
        self.n3 = C2f(w[3] + w[2], w[2], shortcut=False)
        self.d3, self.m4 = ConvBnSilu(w[2], w[2], 3, 2), C2f(w[2] + w[3], w[3], shortcut=False)
        self.d4, self.m5 = ConvBnSilu(w[3], w[3], 3, 2), C2f(w[3] + w[4], w[4], shortcut=False)
        chans = (w[2], w[3], w[4])
        c2, c3 = max(16, chans[0] // 4, self.REG_MAX * 4), max(chans[0], min(classes, 100))
        self.box = nn.ModuleList(nn.Sequential(ConvBnSilu(c, c2, 3), ConvBnSilu(c2, c2, 3),
                                               nn.Conv2d(c2, 4 * self.REG_MAX, 1)) for c in chans)
        self.cls = nn.ModuleList(nn.Sequential(ConvBnSilu(c, c3, 3), ConvBnSilu(c3, c3, 3), nn.Conv2d(c3, classes, 1))
                                 for c in chans)
        self.dfl = nn.Conv2d(self.REG_MAX, 1, 1, bias=False).requires_grad_(False)
        self.dfl.weight.data[:] = torch.arange(self.REG_MAX, dtype=torch.float).view(1, self.REG_MAX, 1, 1)
        points, strides = [], []
        for s in (8, 16, 32):
            n = size // s
            y, x = torch.meshgrid(torch.arange(n) + 0.5, torch.arange(n) + 0.5, indexing="ij")
            points.append(torch.stack((x, y), -1).view(-1, 2))
            strides.append(torch.full((n * n, 1), float(s)))
        self.register_buffer("anchors", torch.cat(points).transpose(0, 1).unsqueeze(0))
        self.register_buffer("strides", torch.cat(strides).transpose(0, 1).unsqueeze(0))

    def forward(self, x):
        p3 = self.p3(self.stem(x))
        p4 = self.p4(p3)
        p5 = self.p5(p4)
        n4 = self.n4(torch.cat((self.up(p5), p4), 1))
        n3 = self.n3(torch.cat((self.up(n4), p3), 1))
        m4 = self.m4(torch.cat((self.d3(n3), n4), 1))
        m5 = self.m5(torch.cat((self.d4(m4), p5), 1))
        feats = [torch.cat((b(f), c(f)), 1) for f, b, c in zip((n3, m4, m5), self.box, self.cls)]
        b = x.shape[0]
        cat = torch.cat([f.view(b, 4 * self.REG_MAX + self.nc, -1) for f in feats], 2)
        box, cls = cat.split((4 * self.REG_MAX, self.nc), 1)
        a = box.shape[2]
        dist = self.dfl(box.view(b, 4, self.REG_MAX, a).transpose(2, 1).softmax(1)).view(b, 4, a)
        lt, rb = dist.chunk(2, 1)
        x1y1, x2y2 = self.anchors - lt, self.anchors + rb
        dbox = torch.cat(((x1y1 + x2y2) / 2, x2y2 - x1y1), 1) * self.strides
        return torch.cat((dbox, cls.sigmoid()), 1)


class BertTiny(nn.Module):
    """A BERT encoder as Hugging Face exports it, small: token + position + segment embeddings, LayerNorm, encoder
    layers of MatMul self-attention (scores scaled after Q K^T, an additive mask from the 0/1 attention mask),
    erf GELU feed-forward, post-norm residuals, then the pooler (tanh) and a classifier."""

    def __init__(self, vocab=512, seq=128, hidden=64, heads=2, ffn=256, layers=2, classes=2):
        super().__init__()
        self.heads, self.head = heads, hidden // heads
        self.tok, self.pos, self.seg = nn.Embedding(vocab, hidden), nn.Embedding(seq, hidden), nn.Embedding(2, hidden)
        self.ln = nn.LayerNorm(hidden)
        self.layers = nn.ModuleList(nn.ModuleDict(dict(
            q=nn.Linear(hidden, hidden), k=nn.Linear(hidden, hidden), v=nn.Linear(hidden, hidden),
            o=nn.Linear(hidden, hidden), ln1=nn.LayerNorm(hidden), up=nn.Linear(hidden, ffn),
            down=nn.Linear(ffn, hidden), ln2=nn.LayerNorm(hidden))) for _ in range(layers))
        self.pool, self.out = nn.Linear(hidden, hidden), nn.Linear(hidden, classes)
        self.register_buffer("positions", torch.arange(seq).unsqueeze(0))

    def heads_of(self, x):
        return x.view(x.shape[0], -1, self.heads, self.head).transpose(1, 2)

    def forward(self, ids, mask):
        x = self.ln(self.tok(ids) + self.pos(self.positions) + self.seg(torch.zeros_like(ids)))
        additive = (1.0 - mask[:, None, None, :].float()) * -10000.0
        for layer in self.layers:
            q, k, v = (self.heads_of(layer[n](x)) for n in "qkv")
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head) + additive
            context = torch.matmul(scores.softmax(-1), v).transpose(1, 2).reshape(x.shape)
            x = layer["ln1"](x + layer["o"](context))
            x = layer["ln2"](x + layer["down"](F.gelu(layer["up"](x))))
        return self.out(torch.tanh(self.pool(x[:, 0])))


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
    "yolov8_tiny": (lambda: YoloV8Tiny(), (1, 3, 320, 320)),
    "bert_tiny": (lambda: BertTiny(), None),
}
# Models whose export differs from the image models': opset, input names.
OPSETS = {"bert_tiny": 17}


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
    if shape is None:  # the encoder: token ids and a 0/1 attention mask (the last quarter is padding)
        ids = torch.randint(0, 512, (1, 128), generator=g)
        mask = torch.ones(1, 128, dtype=torch.int64)
        mask[:, 96:] = 0
        inputs, names = (ids, mask), ["input_ids", "attention_mask"]
    else:
        inputs, names = (torch.randn(*shape, generator=g),), ["input"]
    path = os.path.join(out_dir, name + ".onnx")
    with torch.no_grad():
        torch.onnx.export(model.m if shape is None else model, inputs, path, opset_version=OPSETS.get(name, OPSET),
                          input_names=names, output_names=["output"], do_constant_folding=True)
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
