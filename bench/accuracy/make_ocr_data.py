#!/usr/bin/python3
"""Renders synthetic text images and writes them as PaddleOCR model inputs (.npy, NCHW float32).

Calibration and evaluation sets are disjoint (different seeds), and realistic rather than noise: lines of words,
numbers, dates and prices in several DejaVu fonts and sizes, dark on light and light on dark, with background
gradients, Gaussian noise, blur and JPEG-like softening, as a phone photo or a scan would give.

Preprocessing follows PaddleOCR (tools/infer, ppocr/data/imaug), which the published models were trained with:
  * images are BGR (cv2.imread order), HWC -> CHW;
  * det (DB, PP-OCRv4): x / 255, then (x - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225] per channel,
    side lengths multiples of 32 (fixed here: --det-h x --det-w);
  * rec (SVTR-LCNet, PP-OCRv4): resize to height 48 keeping the aspect ratio (width capped at --rec-w),
    (x / 255 - 0.5) / 0.5 in [-1, 1], right-padded with 0 to width --rec-w;
  * cls (mobile v2.0 angle classifier): as rec, at 48 x 192; half of the lines are rotated by 180 degrees
    (label 1), as the classifier is trained to tell.
(@gutenye/ocr-common's JS feeds x / 255 without mean/std, with its mean/std left commented out; this script uses
the training normalisation above.)

Writes into OUT (default /tmp/ocr_data):
  det_calib.npy det_eval.npy      [N, 3, det_h, det_w]
  rec_calib.npy rec_eval.npy      [N, 3, 48, rec_w]
  cls_calib.npy cls_eval.npy      [N, 3, 48, 192]
  rec_eval_text.json              ground-truth strings of the rec eval lines
  cls_eval_labels.npy             0 = upright, 1 = rotated 180 degrees
  samples/*.png                   a few rendered images, to look at
"""
import argparse
import json
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FONTS = [
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
    "DejaVuSansMono.ttf", "DejaVuSansCondensed.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSerif-Italic.ttf",
]

WORDS = """the of and to in is you that it he was for on are as with his they at be this have from or one had by
word but not what all were we when your can said there use an each which she do how their if will up other about
out many then them these so some her would make like him into time has look two more write go see number no way
could people my than first water been call who oil its now find long down day did get come made may part over new
sound take only little work know place year live me back give most very after thing our just name good sentence
man think say great where help through much before line right too mean old any same tell boy follow came want show
also around form three small set put end does another well large must big even such because turn here why ask went
men read need land different home us move try kind hand picture again change off play spell air away animal house
point page letter mother answer found study still learn should America world high every near add food between own
below country plant last school father keep tree never start city earth eye light thought head under story saw left
invoice total amount receipt customer order address phone email date price quantity discount payment account bank
street avenue road station hotel menu coffee tea bread milk cheese apple orange chicken rice soup salad tax cash card
Open Close Exit Enter Warning Notice Public Private Parking Entrance Monday Tuesday Friday Sunday January March June
October December Berlin Paris London Tokyo Beijing Shanghai Toronto Sydney Madrid Vienna Oslo Prague Seoul Delhi
""".split()


def random_token(rng):
    r = rng.random()
    if r < 0.70:
        w = rng.choice(WORDS)
        c = rng.random()
        if c < 0.15:
            w = w.upper()
        elif c < 0.35:
            w = w.capitalize()
        return w
    if r < 0.80:
        return str(rng.randint(0, 99999))
    if r < 0.87:
        return "%d.%02d" % (rng.randint(0, 999), rng.randint(0, 99))
    if r < 0.93:
        return "%04d-%02d-%02d" % (rng.randint(1990, 2030), rng.randint(1, 12), rng.randint(1, 28))
    if r < 0.97:
        return "%02d:%02d" % (rng.randint(0, 23), rng.randint(0, 59))
    return rng.choice(["$%d" % rng.randint(1, 999), "%d%%" % rng.randint(1, 100), "No.%d" % rng.randint(1, 99),
                       "(%s)" % rng.choice(WORDS), "%s," % rng.choice(WORDS), "%s." % rng.choice(WORDS)])


def random_line(rng, max_chars):
    words = []
    while True:
        t = random_token(rng)
        if len(" ".join(words + [t])) > max_chars:
            break
        words.append(t)
        if len(words) >= 2 and rng.random() < 0.25:
            break
    if not words:
        words = [random_token(rng)[:max_chars]]
    return " ".join(words)


def colors(rng):
    """(background, foreground) RGB with contrast; dark on light or light on dark."""
    light = tuple(rng.randint(170, 255) for _ in range(3))
    dark = tuple(rng.randint(0, 90) for _ in range(3))
    if rng.random() < 0.3:  # tinted backgrounds / coloured ink
        k = rng.randrange(3)
        light = tuple(min(255, v + (40 if i == k else -20)) if v > 20 else v for i, v in enumerate(light))
        dark = tuple(min(255, v + (90 if i == k else 0)) for i, v in enumerate(dark))
    return (dark, light) if rng.random() < 0.3 else (light, dark)


def background(rng, w, h, bg):
    """Background colour with a gentle linear gradient (uneven lighting)."""
    a = np.empty((h, w, 3), np.float32)
    a[:] = bg
    gx, gy = rng.uniform(-40, 40), rng.uniform(-40, 40)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a += (gx * (xx / w - 0.5) + gy * (yy / h - 0.5))[..., None]
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def degrade(rng, nprng, img):
    """Blur, noise, downscale/upscale (soft focus / compression), as a photo or scan gives."""
    if rng.random() < 0.5:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.3)))
    if rng.random() < 0.3:
        w, h = img.size
        f = rng.uniform(0.5, 0.8)
        img = img.resize((max(8, int(w * f)), max(8, int(h * f))), Image.BILINEAR).resize((w, h), Image.BILINEAR)
    a = np.asarray(img).astype(np.float32)
    sigma = rng.uniform(0, 12)
    a += nprng.normal(0, sigma, a.shape).astype(np.float32)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def font(rng, size):
    return ImageFont.truetype(os.path.join(FONT_DIR, rng.choice(FONTS)), size)


def render_line(rng, nprng, max_chars=24):
    """One cropped text line, as the detector would hand it to the recognizer. Returns (RGB image, text)."""
    text = random_line(rng, max_chars)
    f = font(rng, rng.randint(18, 44))
    bg, fg = colors(rng)
    x0, y0, x1, y1 = f.getbbox(text)
    padx, pady = rng.randint(2, 12), rng.randint(2, 10)
    w, h = x1 - x0 + 2 * padx, y1 - y0 + 2 * pady
    img = background(rng, w, h, bg)
    ImageDraw.Draw(img).text((padx - x0, pady - y0), text, font=f, fill=fg)
    if rng.random() < 0.3:  # slight rotation of the crop
        img = img.rotate(rng.uniform(-2.5, 2.5), resample=Image.BILINEAR, expand=False, fillcolor=bg)
    return degrade(rng, nprng, img), text


def render_page(rng, nprng, w, h):
    """A page / sign / receipt-like image with several text lines at random places."""
    bg, fg = colors(rng)
    img = background(rng, w, h, bg)
    d = ImageDraw.Draw(img)
    y = rng.randint(4, 30)
    while y < h - 16:
        size = rng.randint(14, 42)
        f = font(rng, size)
        x = rng.randint(4, max(5, w // 3))
        text = random_line(rng, max(4, int((w - x) / (0.62 * size))))
        x0, y0, x1, y1 = f.getbbox(text)
        if x + x1 - x0 > w - 2 or y + y1 - y0 > h - 2:
            y += size
            continue
        col = fg if rng.random() < 0.85 else tuple(rng.randint(0, 255) for _ in range(3))
        d.text((x - x0, y - y0), text, font=f, fill=col)
        if rng.random() < 0.1:  # a rule line / box edge, as on forms
            d.line([(4, y + y1 - y0 + 4), (w - 4, y + y1 - y0 + 4)], fill=fg, width=1)
        y += int((y1 - y0) * rng.uniform(1.3, 2.6))
    return degrade(rng, nprng, img)


def to_bgr_chw(img):
    a = np.asarray(img.convert("RGB")).astype(np.float32)[..., ::-1]  # RGB -> BGR, as cv2.imread
    return a


def det_input(img):
    a = to_bgr_chw(img) / 255.0
    mean = np.array([0.485, 0.456, 0.406], np.float32)
    std = np.array([0.229, 0.224, 0.225], np.float32)
    return ((a - mean) / std).transpose(2, 0, 1).astype(np.float32)


def rec_input(img, w_max, h=48):
    """PaddleOCR resize_norm_img: height h, width ceil(h * ratio) capped at w_max, [-1, 1], right-pad 0."""
    ratio = img.width / float(img.height)
    rw = min(w_max, int(np.ceil(h * ratio)))
    r = img.convert("RGB").resize((rw, h), Image.BILINEAR)
    a = to_bgr_chw(r) / 255.0
    a = ((a - 0.5) / 0.5).transpose(2, 0, 1)
    out = np.zeros((3, h, w_max), np.float32)
    out[:, :, :rw] = a
    return out


def make(kind, n, seed, args):
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    xs, texts, labels, imgs = [], [], [], []
    for _ in range(n):
        if kind == "det":
            img = render_page(rng, nprng, args.det_w, args.det_h)
            xs.append(det_input(img))
        elif kind == "rec":
            # about 10 px per char at height 48 fits the 320 width; longer lines are squeezed, as PaddleOCR does
            img, text = render_line(rng, nprng, max_chars=rng.randint(4, 22))
            xs.append(rec_input(img, args.rec_w))
            texts.append(text)
        else:
            img, text = render_line(rng, nprng, max_chars=rng.randint(4, 16))
            flip = rng.random() < 0.5
            if flip:
                img = img.rotate(180)
            xs.append(rec_input(img, 192))
            labels.append(int(flip))
        imgs.append(img)
    return np.stack(xs), texts, labels, imgs


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="/tmp/ocr_data")
    p.add_argument("--calib", type=int, default=64, help="calibration images per model")
    p.add_argument("--eval", type=int, default=64, help="evaluation images per model")
    p.add_argument("--det-h", type=int, default=320)
    p.add_argument("--det-w", type=int, default=480)
    p.add_argument("--rec-w", type=int, default=320)
    p.add_argument("--seed", type=int, default=2026)
    args = p.parse_args()
    assert args.det_h % 32 == 0 and args.det_w % 32 == 0, "detector sides must be multiples of 32"
    os.makedirs(os.path.join(args.out, "samples"), exist_ok=True)
    for ki, kind in enumerate(["det", "rec", "cls"]):
        for si, (split, n) in enumerate([("calib", args.calib), ("eval", args.eval)]):
            x, texts, labels, imgs = make(kind, n, args.seed * 100 + ki * 10 + si, args)
            np.save(os.path.join(args.out, "%s_%s.npy" % (kind, split)), x)
            for i in range(min(4, n)):
                imgs[i].save(os.path.join(args.out, "samples", "%s_%s_%d.png" % (kind, split, i)))
            if split == "eval" and kind == "rec":
                with open(os.path.join(args.out, "rec_eval_text.json"), "w") as f:
                    json.dump(texts, f, ensure_ascii=False, indent=0)
            if split == "eval" and kind == "cls":
                np.save(os.path.join(args.out, "cls_eval_labels.npy"), np.array(labels, np.int64))
            print("%s_%s.npy %s range [%.2f, %.2f]" % (kind, split, x.shape, x.min(), x.max()))


if __name__ == "__main__":
    main()
