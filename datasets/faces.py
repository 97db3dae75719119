"""Tile faces for synthetic photos, from every art source, so no one style dominates.

Sources: the three sets in ../shared/art (samoheen CC0 PNG, lietxia SVG, fluffystuff
CC0 SVG), Debian's kmahjongg tilesets (GPL-2+, rendered per element with
rsvg-convert), and faces drawn here with every CJK font family Debian ships, each in
five looks (`Look`: red 萬 under a black or blue numeral, plain, 伍 or formal 壹..玖,
白 framed or empty, 1s as a bird, flowers numbered 1-4 or 一-四, a corner index or none). `HELD_OUT` names the styles no network trains
on. Faces are RGBA, 3:4, cached under work/faces/<style>/<code>.png.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
from dataclasses import dataclass
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


def _kmahjongg_face(tileset: str):
    """A kmahjongg tileset whose faces are drawn apart from its tile body: the face alone,
    on the tile's paper, as the scene lays it on a body of its own."""

    def load(code: str) -> np.ndarray:
        plain = CACHE / f"km-{tileset}.svg"
        if not plain.exists():
            plain.write_bytes(gzip.decompress((KMAHJONGG / f"{tileset}.svgz").read_bytes()))
        face = _svg(plain, _KMAHJONGG[code])
        ys, xs = np.nonzero(face[:, :, 3])  # the element's box holds blank space besides the face
        face = face[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        h, w = face.shape[:2]
        pad = np.zeros((round(h * 1.15), round(max(w * 1.15, h * 1.15 * FACE_W / FACE_H)), 4), np.uint8)
        y, x = (pad.shape[0] - h) // 2, (pad.shape[1] - w) // 2
        pad[y : y + h, x : x + w] = face
        return pad

    return load


@dataclass(frozen=True)
class Look:
    """How one home set is painted: the colours and shapes real sets vary in, so a reader
    trained on many looks learns the characters and pips, not one factory's palette."""

    numeral: tuple = (25, 25, 30)  # the 一..九 above 萬
    wan: tuple = (200, 20, 30)  # 萬, red under the numeral in nearly every set
    winds: tuple = (25, 25, 30)  # 東南西 (北 in blue where `north` says so)
    north: tuple = (30, 60, 160)
    dots: tuple = ((20, 120, 60), (30, 60, 160), (200, 20, 30))  # outer, alternate, centre
    sticks: tuple = ((20, 120, 60), (200, 20, 30))
    white: str = "double"  # 白: "double" or "single" frame, or "empty"
    frame: tuple = (30, 60, 160)
    flowers: str = "big"  # "big" character, or "corner": a painted plant, the name and number in corners
    number: str = "arabic"  # the flower's 1-4, or "chinese" 一-四
    numerals: str = "plain"  # 萬's numeral: "plain" 一..九, "wu" (伍 for 5, as Hong Kong sets), or "formal" 壹..玖
    index: tuple | None = None  # a corner index's colour (1-9; E S W N for the winds, P F C for 白 發 中), or none
    paper: tuple = (246, 244, 236)
    jitter: float = 0.0  # how far each glyph strays from its place, a fraction of the face


def _drawn(font: str, look: Look = Look(), index: int = 0, seed: int = 0):
    """Faces drawn with a CJK font in a `look`, as a Taiwanese or Hong Kong home set is."""

    def draw(code: str) -> np.ndarray:
        from PIL import Image, ImageDraw, ImageFont

        rng = np.random.default_rng([seed, TILE_CODES.index(code)])
        W, H = FACE_W * 2, FACE_H * 2
        img = Image.new("RGBA", (W, H), (*look.paper, 255))
        d = ImageDraw.Draw(img)
        big, small = ImageFont.truetype(font, 150, index=index), ImageFont.truetype(font, 96, index=index)
        n, suit = int(code[0]), code[1]
        shift = lambda: rng.uniform(-1, 1) * look.jitter * W  # noqa: E731

        def text(s: str, f, y: float, fill, x: float | None = None) -> None:
            box = d.textbbox((0, 0), s, font=f)
            left = (W - (box[2] - box[0])) / 2 - box[0] if x is None else x - box[0]
            d.text((left + shift(), y - box[1] + shift()), s, font=f, fill=fill)

        if look.index and suit != "f":
            mark = str(n) if suit in "mps" else "ESWNPFC"[n - 1]
            d.text((14 + shift(), 6 + shift()), mark, font=ImageFont.truetype(font, 46, index=index), fill=look.index)
        if suit == "m":
            text(_NUMERALS[look.numerals][n - 1], small, 20, look.numeral)
            text("萬", big, 130, look.wan)
        elif suit == "p":
            _pips(d, n, W, H, look.dots)
        elif suit == "s" and n == 1:
            _bird(d, look.sticks)
        elif suit == "s":
            _sticks(d, n, W, H, look.sticks, look.paper)
        elif suit == "z" and n == 5:
            if look.white != "empty":
                d.rectangle((40, 50, W - 40, H - 50), outline=look.frame, width=14)
            if look.white == "double":
                d.rectangle((62, 72, W - 62, H - 72), outline=look.frame, width=5)
        elif suit == "z":
            text("東南西北 發中"[n - 1], big, 70, {6: (20, 120, 60), 7: (200, 20, 30)}.get(n, look.north if n == 4 else look.winds))
        else:
            name, colour = "春夏秋冬梅蘭菊竹"[n - 1], (200, 20, 30) if n <= 4 else (30, 60, 160)
            number = str((n - 1) % 4 + 1) if look.number == "arabic" else "一二三四"[(n - 1) % 4]
            if look.flowers == "big":
                text(name, big, 90, (40, 110, 50) if n > 4 else colour)
                d.text((16, 8), number, font=small, fill=colour)
            else:
                _plant(d, rng, W, H)
                text(name, ImageFont.truetype(font, 80, index=index), H - 100, colour, x=W - 95)
                text(number, ImageFont.truetype(font, 70, index=index), 8, colour, x=16)
        return np.array(img)[:, :, [2, 1, 0, 3]]

    return draw


_NUMERALS = {"plain": "一二三四五六七八九", "wu": "一二三四伍六七八九", "formal": "壹貳參肆伍陸柒捌玖"}
_SPOTS = {1: [(0.5, 0.5)], 2: [(0.5, 0.27), (0.5, 0.73)], 3: [(0.27, 0.22), (0.5, 0.5), (0.73, 0.78)],
          4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)], 5: [(0.3, 0.25), (0.7, 0.25), (0.5, 0.5), (0.3, 0.75), (0.7, 0.75)],
          6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.55), (0.7, 0.55), (0.3, 0.82), (0.7, 0.82)],
          7: [(0.25, 0.15), (0.5, 0.25), (0.75, 0.35), (0.3, 0.6), (0.7, 0.6), (0.3, 0.84), (0.7, 0.84)],
          8: [(0.3, y) for y in (0.15, 0.38, 0.62, 0.85)] + [(0.7, y) for y in (0.15, 0.38, 0.62, 0.85)],
          9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.22, 0.5, 0.78)]}
_STICKS = {2: [1, 1], 3: [1, 1, 1], 4: [2, 2], 5: [2, 1, 2], 6: [3, 3], 7: [1, 3, 3], 8: [4, 4], 9: [3, 3, 3]}


def _pips(d, n: int, W: int, H: int, colours: tuple) -> None:
    outer, alternate, centre = colours
    r = 80 if n == 1 else (40 if n <= 4 else 30)
    for i, (x, y) in enumerate(_SPOTS[n]):
        cx, cy = x * W, y * H
        colour = centre if (n in (1, 5, 9) and i == len(_SPOTS[n]) // 2) or (n == 7 and i >= 3) else (alternate if i % 2 else outer)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(6, r // 4))
        d.ellipse((cx - r / 3, cy - r / 3, cx + r / 3, cy + r / 3), fill=colour)


def _bird(d, colours: tuple) -> None:
    """1s as most sets paint it: a bird (body, head, tail, beak, eye)."""
    green, red = colours
    d.ellipse((60, 80, 180, 200), fill=green)
    d.ellipse((140, 50, 200, 110), fill=green)
    d.polygon([(60, 140), (20, 230), (90, 190)], fill=red)
    d.polygon([(198, 78), (228, 88), (198, 96)], fill=red)
    d.ellipse((168, 68, 180, 80), fill=(25, 25, 30))


def _sticks(d, n: int, W: int, H: int, colours: tuple, paper: tuple) -> None:
    green, red = colours
    layout = _STICKS[n]
    half = H / len(layout) * 0.38
    for row, k in enumerate(layout):
        y = H * (row + 0.5) / len(layout)
        for i in range(k):
            x = W * (i + 0.5) / k
            colour = red if n in (5, 7, 9) and (row, i) in ((1, 0), (0, 0)) else green
            d.rounded_rectangle((x - 13, y - half, x + 13, y + half), radius=10, fill=colour)
            d.line((x - 13, y, x + 13, y), fill=paper, width=4)


def _plant(d, rng: np.random.Generator, W: int, H: int) -> None:
    """A painted plant that says nothing of which flower it is: the reader must read the
    name and the number, as it must on a set whose paintings it never saw."""
    stem = (int(rng.integers(30, 90)), int(rng.integers(100, 160)), int(rng.integers(30, 80)))
    x = W * rng.uniform(0.35, 0.65)
    d.line((x, H * 0.85, x + rng.uniform(-30, 30), H * 0.25), fill=stem, width=int(rng.integers(5, 10)))
    for _ in range(int(rng.integers(3, 8))):
        cx, cy, r = W * rng.uniform(0.2, 0.8), H * rng.uniform(0.2, 0.7), rng.uniform(12, 34)
        petal = tuple(int(v) for v in rng.integers(60, 240, 3))
        d.ellipse((cx - r, cy - r * 0.7, cx + r, cy + r * 0.7), fill=petal)


_FONTS = Path("/usr/share/fonts")
_LOOKS = (
    Look(),
    Look(numeral=(30, 60, 160), winds=(30, 60, 160), north=(25, 25, 30), dots=((30, 60, 160), (20, 120, 60), (200, 20, 30)),
         white="single", frame=(25, 25, 30), flowers="corner", number="chinese", paper=(250, 250, 246), jitter=0.03),
    Look(dots=((200, 20, 30), (30, 60, 160), (20, 120, 60)), sticks=((30, 110, 150), (200, 20, 30)), white="empty",
         flowers="corner", paper=(238, 240, 228), jitter=0.05),
    Look(numeral=(30, 60, 160), winds=(30, 60, 160), north=(30, 60, 160), white="double", flowers="corner", numerals="wu",
         index=(200, 20, 30), paper=(250, 250, 247), jitter=0.03),
    Look(dots=((20, 120, 60), (200, 20, 30), (30, 60, 160)), sticks=((30, 60, 160), (20, 120, 60)), white="single", frame=(25, 25, 30),
         flowers="corner", number="chinese", numerals="formal", index=(30, 60, 160), paper=(244, 246, 240), jitter=0.04),
)
# Font families Debian ships (package in the comment), each drawn in every look.
DRAWN_FONTS = {
    "ukai": ("truetype/arphic/ukai.ttc", 2),  # fonts-arphic-ukai, AR PL UKai TW: Kai
    "uming": ("truetype/arphic/uming.ttc", 2),  # fonts-arphic-uming: Ming
    "tw-kai": ("truetype/cns11643/TW-Kai-98_1.ttf", 0),  # fonts-cns11643-kai
    "tw-sung": ("truetype/cns11643/TW-Sung-98_1.ttf", 0),  # fonts-cns11643-sung
    "cwming": ("truetype/cwtex/cwming.ttf", 0),  # fonts-cwtex-ming
    "cwheib": ("truetype/cwtex/cwheib.ttf", 0),  # fonts-cwtex-heib: bold Hei
    "cwyen": ("truetype/cwtex/cwyen.ttf", 0),  # fonts-cwtex-yen: round
    "cwfs": ("truetype/cwtex/cwfs.ttf", 0),  # fonts-cwtex-fs: FangSong
    "wenkai": ("truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf", 0),  # fonts-lxgw-wenkai
    "zenhei": ("truetype/wqy/wqy-zenhei.ttc", 0),  # fonts-wqy-zenhei
    "notosans": ("opentype/noto/NotoSansCJK-Bold.ttc", 0),  # fonts-noto-cjk
    "cwkai": ("truetype/cwtex/cwkai.ttf", 0),  # fonts-cwtex-kai: held out
}


STYLES = {
    "samoheen": _samoheen,
    "lietxia": _lietxia,
    "fluffy-regular": _fluffy("Regular"),
    "fluffy-black": _fluffy("Black"),
    "taiwan-drawn": _drawn(CJK_FONT),
    "kmahjongg-jade": _kmahjongg("jade"),
    "kmahjongg-default": _kmahjongg_face("default"),
    "kmahjongg-traditional": _kmahjongg_face("traditional"),
    **{f"drawn-{name}-{k}": _drawn(str(_FONTS / path), look, index, seed=k) for name, (path, index) in DRAWN_FONTS.items() for k, look in enumerate(_LOOKS)},
}
# Never trained on by any network: the unseen-art and unseen-scene rows of
# `make eval-generalisation` are rendered from these alone. A whole art source (lietxia),
# a whole kmahjongg tileset, a whole brush font (cwTeX Kai) and the Noto Serif drawing.
HELD_OUT = ("lietxia", "kmahjongg-jade", "taiwan-drawn", *(f"drawn-cwkai-{k}" for k in range(len(_LOOKS))))
TRAINED = tuple(s for s in STYLES if s not in HELD_OUT)


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
