"""Tile faces for synthetic photos, from every art source, so no one style dominates.

Sources: the three sets in ../shared/art (samoheen CC0 PNG, lietxia SVG, fluffystuff
CC0 SVG), Debian's kmahjongg tilesets (GPL-2+, rendered per element with
rsvg-convert), and faces drawn here in Taiwanese style with Noto CJK (red 萬 under
black numerals, 白 as a blue frame, 1s as a bird, flowers numbered 1-4).
Faces are RGBA, 3:4, cached under work/faces/<style>/<code>.png.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CLASSES

from .art import ART, samoheen

FACE_W, FACE_H = 120, 160
CACHE = Path(__file__).resolve().parents[1] / "work" / "faces"
KMAHJONGG = Path("/usr/share/kmahjongglib/tilesets")
CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
TILE_CODES = [c for c in CLASSES if c != "back"]

_LIETXIA = {**{f"{n}{s}": f"{n}{s}" for s in "mps" for n in range(1, 10)}, **{f"{n}z": f"{n}z" for n in range(1, 8)},
            "1f": "chun", "2f": "xia", "3f": "qiu", "4f": "dong", "5f": "mei", "6f": "lan", "7f": "ju", "8f": "zu"}
_FLUFFY = {**{f"{n}m": f"Man{n}" for n in range(1, 10)}, **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
           **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
           "1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "5z": "Haku", "6z": "Hatsu", "7z": "Chun"}
# kmahjongg element ids (libkmahjongg's fixed names), checked against default.svgz.
_KMAHJONGG = {**{f"{n}m": f"CHARACTER_{n}" for n in range(1, 10)}, **{f"{n}p": f"ROD_{n}" for n in range(1, 10)},
              **{f"{n}s": f"BAMBOO_{n}" for n in range(1, 10)},
              "1z": "WIND_3", "2z": "WIND_2", "3z": "WIND_4", "4z": "WIND_1", "5z": "DRAGON_1", "6z": "DRAGON_2", "7z": "DRAGON_3",
              **{f"{n}f": f"SEASON_{n}" for n in range(1, 5)}, **{f"{n + 4}f": f"FLOWER_{n}" for n in range(1, 5)}}


def _fit(img: np.ndarray) -> np.ndarray:
    """Any RGBA picture onto a FACE_W x FACE_H transparent canvas, centred, aspect kept."""
    if img.shape[2] == 3:
        img = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    h, w = img.shape[:2]
    s = min(FACE_W / w, FACE_H / h)
    img = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    out = np.zeros((FACE_H, FACE_W, 4), np.uint8)
    y, x = (FACE_H - img.shape[0]) // 2, (FACE_W - img.shape[1]) // 2
    out[y : y + img.shape[0], x : x + img.shape[1]] = img
    return out


def _svg(path: Path, element: str | None = None) -> np.ndarray:
    cmd = ["rsvg-convert", "-h", str(FACE_H * 2)] + ([f"--export-id={element}"] if element else []) + [str(path)]
    png = subprocess.run(cmd, check=True, capture_output=True).stdout
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)


def _samoheen(code: str) -> np.ndarray:
    return cv2.imread(str(samoheen(code)), cv2.IMREAD_UNCHANGED)


def _lietxia(code: str) -> np.ndarray:
    return _svg(ART / "lietxia-graphic" / f"{_LIETXIA[code]}.svg")


def _fluffy(variant: str):
    def load(code: str) -> np.ndarray | None:
        if code not in _FLUFFY:
            return None
        base = ART / "fluffystuff-riichi" / variant
        front = _fit(_svg(base / "Front.svg"))
        face = _fit(_svg(base / f"{_FLUFFY[code]}.svg"))
        alpha = face[:, :, 3:4] / 255.0
        front[:, :, :3] = (face[:, :, :3] * alpha + front[:, :, :3] * (1 - alpha)).astype(np.uint8)
        return front

    return load


def _kmahjongg(tileset: str):
    def load(code: str) -> np.ndarray:
        plain = CACHE / f"km-{tileset}.svg"
        if not plain.exists():
            plain.write_bytes(gzip.decompress((KMAHJONGG / f"{tileset}.svgz").read_bytes()))
        body = _fit(_svg(plain, "TILE_1"))
        face = _fit(_svg(plain, _KMAHJONGG[code]))
        alpha = face[:, :, 3:4] / 255.0
        body[:, :, :3] = (face[:, :, :3] * alpha + body[:, :, :3] * (1 - alpha)).astype(np.uint8)
        return body

    return load


def _taiwan(code: str) -> np.ndarray:
    """Taiwanese-style faces drawn with Noto CJK: what a home set in Taiwan looks like."""
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGBA", (FACE_W * 2, FACE_H * 2), (246, 244, 236, 255))
    d = ImageDraw.Draw(img)
    big, small = ImageFont.truetype(CJK_FONT, 150), ImageFont.truetype(CJK_FONT, 96)
    red, black, green, blue = (200, 20, 30), (25, 25, 30), (20, 120, 60), (30, 60, 160)
    n, suit = int(code[0]), code[1]
    W, H = FACE_W * 2, FACE_H * 2

    def text(s: str, font, y: float, fill) -> None:
        box = d.textbbox((0, 0), s, font=font)
        d.text(((W - (box[2] - box[0])) / 2 - box[0], y - box[1]), s, font=font, fill=fill)

    if suit == "m":
        text("一二三四五六七八九"[n - 1], small, 20, black)
        text("萬", big, 130, red)
    elif suit == "p":
        spots = {1: [(0.5, 0.5)], 2: [(0.5, 0.27), (0.5, 0.73)], 3: [(0.27, 0.22), (0.5, 0.5), (0.73, 0.78)],
                 4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)], 5: [(0.3, 0.25), (0.7, 0.25), (0.5, 0.5), (0.3, 0.75), (0.7, 0.75)],
                 6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.55), (0.7, 0.55), (0.3, 0.82), (0.7, 0.82)],
                 7: [(0.25, 0.15), (0.5, 0.25), (0.75, 0.35), (0.3, 0.6), (0.7, 0.6), (0.3, 0.84), (0.7, 0.84)],
                 8: [(0.3, y) for y in (0.15, 0.38, 0.62, 0.85)] + [(0.7, y) for y in (0.15, 0.38, 0.62, 0.85)],
                 9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.22, 0.5, 0.78)]}[n]
        r = 80 if n == 1 else (40 if n <= 4 else 30)
        for i, (x, y) in enumerate(spots):
            cx, cy = x * W, y * H
            colour = red if (n in (1, 5, 9) and i == len(spots) // 2) or (n == 7 and i >= 3) else (blue if i % 2 else green)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(6, r // 4))
            d.ellipse((cx - r / 3, cy - r / 3, cx + r / 3, cy + r / 3), fill=colour)
    elif suit == "s" and n == 1:
        d.ellipse((60, 80, 180, 200), fill=green)  # a bird: body, head, tail, beak
        d.ellipse((140, 50, 200, 110), fill=green)
        d.polygon([(60, 140), (20, 230), (90, 190)], fill=red)
        d.polygon([(198, 78), (228, 88), (198, 96)], fill=red)
        d.ellipse((168, 68, 180, 80), fill=black)
    elif suit == "s":
        layout = {2: [1, 1], 3: [1, 1, 1], 4: [2, 2], 5: [2, 1, 2], 6: [3, 3], 7: [1, 3, 3], 8: [4, 4], 9: [3, 3, 3]}[n]
        half = H / len(layout) * 0.38
        for row, k in enumerate(layout):
            y = H * (row + 0.5) / len(layout)
            for i in range(k):
                x = W * (i + 0.5) / k
                colour = red if n in (5, 7, 9) and (row, i) in ((1, 0), (0, 0)) else green
                d.rounded_rectangle((x - 13, y - half, x + 13, y + half), radius=10, fill=colour)
                d.line((x - 13, y, x + 13, y), fill=(246, 244, 236), width=4)
    elif suit == "z" and n == 5:
        d.rectangle((40, 50, W - 40, H - 50), outline=blue, width=14)
        d.rectangle((62, 72, W - 62, H - 72), outline=blue, width=5)
    elif suit == "z":
        text("東南西北 發中"[n - 1], big, 70, {6: green, 7: red}.get(n, blue if n == 4 else black))
    else:
        names = "春夏秋冬梅蘭菊竹"
        colour = red if n <= 4 else blue
        text(names[n - 1], big, 90, (40, 110, 50) if n > 4 else colour)
        d.text((16, 8), str((n - 1) % 4 + 1), font=small, fill=colour)
    return np.array(img)[:, :, [2, 1, 0, 3]]


STYLES = {
    "samoheen": _samoheen,
    "lietxia": _lietxia,
    "fluffy-regular": _fluffy("Regular"),
    "fluffy-black": _fluffy("Black"),
    "taiwan-drawn": _taiwan,
    "kmahjongg-jade": _kmahjongg("jade"),  # the other tilesets export faces off their tile bodies
}


def build(styles: list[str] | None = None) -> dict[str, dict[str, np.ndarray]]:
    """Render (once) and load every style's faces; a style lacks the codes it has no art for."""
    out: dict[str, dict[str, np.ndarray]] = {}
    for style in styles or list(STYLES):
        folder = CACHE / style
        if not folder.is_dir():
            if style.startswith("kmahjongg") and not KMAHJONGG.is_dir() or not shutil.which("rsvg-convert") and style != "samoheen" and style != "taiwan-drawn":
                continue
            tmp = CACHE / f".{style}.tmp"
            tmp.mkdir(parents=True, exist_ok=True)
            for code in TILE_CODES:
                img = STYLES[style](code)
                if img is not None:
                    cv2.imwrite(str(tmp / f"{code}.png"), _fit(img))
            tmp.rename(folder)
        faces = {p.stem: cv2.imread(str(p), cv2.IMREAD_UNCHANGED) for p in sorted(folder.glob("*.png"))}
        if faces:
            out[style] = faces
    return out
