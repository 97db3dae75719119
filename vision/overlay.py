"""Pictures a player taps to correct a reading: the photo with its boxes, the hand as
tile pictures, and the grid of every kind by suit (萬 筒 條 字 花).

Each picture comes with its tap targets, so a tap in the browser (in the picture's shown
size) finds the tile or kind under the thumb. The photo is cropped to the tiles and
labelled so that a label never covers another label or a tile and stays readable when a
phone shows the picture 360 px wide.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from statistics import median

import cv2
import numpy as np

from scoring.building import BACK, CONCEALED, FLOWERS, GROUPS, IGNORE, WINNING, meld_number

from .correction import Correction, Seen

ASSETS = Path(__file__).resolve().parents[1] / "assets" / "tiles"
WIDTH = 960  # px of every picture; the page scales it to the column
TEXT_SHARE = 1 / 28  # label height over picture width: 12 px on a 340 px phone column
COLOURS = {  # RGB, one per group, so the photo shows how it was read
    CONCEALED: (40, 160, 60), WINNING: (220, 0, 0), FLOWERS: (190, 0, 190), IGNORE: (120, 120, 120),
}
MELD_COLOURS = ((0, 110, 230), (230, 120, 0), (0, 150, 160), (140, 80, 20), (120, 60, 200))
DOUBT = (255, 210, 0)  # low confidence: a dashed box and a yellow label
SELECTED = (255, 255, 255)
PICKER_ROWS = (  # 萬 筒 條 字 花, a face-down tile after the honours
    tuple(f"{n}m" for n in range(1, 10)),
    tuple(f"{n}p" for n in range(1, 10)),
    tuple(f"{n}s" for n in range(1, 10)),
    (*(f"{n}z" for n in range(1, 8)), BACK),
    tuple(f"{n}f" for n in range(1, 9)),
)
PICKER_SUITS = ("萬 m", "筒 p", "條 s", "字 z", "花 f")
FONT = cv2.FONT_HERSHEY_SIMPLEX

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class View:
    """A picture and what a tap on each part of it means (a tile id or a tile kind)."""

    image: np.ndarray  # RGB
    targets: tuple[tuple[Rect, Hashable], ...]

    def at(self, x: float, y: float, shown_width: float) -> Hashable | None:
        """What lies under a tap at (x, y) in a picture shown `shown_width` px wide."""
        k = self.image.shape[1] / shown_width
        px, py = x * k, y * k
        inside = [(r, v) for r, v in self.targets if r[0] <= px <= r[2] and r[1] <= py <= r[3]]
        if inside:  # the smallest box: a tile drawn over a larger one wins
            return min(inside, key=lambda rv: (rv[0][2] - rv[0][0]) * (rv[0][3] - rv[0][1]))[1]
        return None


def colour(group: str) -> tuple[int, int, int]:
    n = meld_number(group)
    return COLOURS[group] if n is None else MELD_COLOURS[(n - 1) % len(MELD_COLOURS)]


def label(t: Seen) -> str:
    return f"{t.id} {t.code}" + ("?" if t.doubtful else "")


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_labels(boxes: list[Rect], sizes: list[tuple[float, float]]) -> list[Rect]:
    """A rectangle for each box's label, centred above or below it, stacked further out
    until it covers no other label and, where it can, no tile."""
    placed: list[Rect] = []
    for box, (w, h) in zip(boxes, sizes):
        cx, gap = (box[0] + box[2]) / 2, h * 0.25
        spots = []
        for k in range(40):
            up = box[1] - gap - k * (h + gap)
            down = box[3] + gap + k * (h + gap)
            spots += [(cx - w / 2, up - h, cx + w / 2, up), (cx - w / 2, down, cx + w / 2, down + h)]
        free = [s for s in spots if not any(_overlaps(s, p) for p in placed)]
        clear = [s for s in free if not any(_overlaps(s, b) for b in boxes)]
        placed.append((clear or free)[0])
    return placed


def _dashed(img: np.ndarray, r: tuple[int, int, int, int], rgb: tuple[int, int, int], thick: int) -> None:
    x1, y1, x2, y2 = r
    dash = 4 * thick
    for x in range(x1, x2, 2 * dash):
        cv2.line(img, (x, y1), (min(x + dash, x2), y1), rgb, thick)
        cv2.line(img, (x, y2), (min(x + dash, x2), y2), rgb, thick)
    for y in range(y1, y2, 2 * dash):
        cv2.line(img, (x1, y), (x1, min(y + dash, y2)), rgb, thick)
        cv2.line(img, (x2, y), (x2, min(y + dash, y2)), rgb, thick)


def crop(boxes: list[Rect], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The part of the photo that shows the tiles, with half a tile around them."""
    if not boxes:
        return 0, 0, shape[1], shape[0]
    m = 0.5 * median(max(b[2] - b[0], b[3] - b[1]) for b in boxes)
    x1, y1 = max(0, int(min(b[0] for b in boxes) - m)), max(0, int(min(b[1] for b in boxes) - m))
    x2, y2 = min(shape[1], int(max(b[2] for b in boxes) + m)), min(shape[0], int(max(b[3] for b in boxes) + m))
    return x1, y1, max(x2, x1 + 1), max(y2, y1 + 1)


def photo(img: np.ndarray, correction: Correction, selected: int | None = None) -> View:
    """The photo (BGR) cropped to the tiles, each box coloured by group and labelled `id kind`."""
    boxed = [t for t in correction.tiles if t.box is not None]
    x0, y0, x1, y1 = crop([t.box for t in boxed], img.shape)
    scale = WIDTH / (x1 - x0)
    out = cv2.resize(img[y0:y1, x0:x1], (WIDTH, max(1, round((y1 - y0) * scale))), interpolation=cv2.INTER_AREA)[:, :, ::-1]
    boxes = [((t.box[0] - x0) * scale, (t.box[1] - y0) * scale, (t.box[2] - x0) * scale, (t.box[3] - y0) * scale) for t in boxed]
    text_h = WIDTH * TEXT_SHARE
    font_scale = text_h / cv2.getTextSize("8", FONT, 1.0, 2)[0][1]
    thick = max(2, round(font_scale * 2))
    pad = text_h * 0.3
    sizes = [(cv2.getTextSize(label(t), FONT, font_scale, thick)[0][0] + 2 * pad, text_h + 2 * pad) for t in boxed]
    spots = place_labels(boxes, sizes)
    top = max([0.0] + [-s[1] for s in spots])  # labels above the picture: grow it
    bottom = max([0.0] + [s[3] - out.shape[0] for s in spots])
    out = cv2.copyMakeBorder(np.ascontiguousarray(out), int(top) + 1, int(bottom) + 1, 0, 0, cv2.BORDER_CONSTANT, value=(245, 245, 245))
    dy = int(top) + 1
    line = max(2, WIDTH // 400)
    for t, b, s in zip(boxed, boxes, spots):  # a leader from each label to its tile, under every label
        cx = round((b[0] + b[2]) / 2)
        above = s[3] <= b[1]
        cv2.line(out, (cx, round(s[3] if above else s[1]) + dy), (cx, round(b[1] if above else b[3]) + dy), colour(t.group), max(1, line // 2))
    targets = []
    for t, b, s in zip(boxed, boxes, spots):
        r = (round(b[0]), round(b[1]) + dy, round(b[2]), round(b[3]) + dy)
        rgb = colour(t.group)
        if t.id == selected:
            cv2.rectangle(out, (r[0] - 2 * line, r[1] - 2 * line), (r[2] + 2 * line, r[3] + 2 * line), SELECTED, 2 * line)
        (_dashed if t.doubtful else lambda im, rr, c, th: cv2.rectangle(im, rr[:2], rr[2:], c, th))(out, r, rgb, line)
        sr = (round(s[0]), round(s[1]) + dy, round(s[2]), round(s[3]) + dy)
        cv2.rectangle(out, sr[:2], sr[2:], DOUBT if t.doubtful else rgb, -1)
        ink = (0, 0, 0) if t.doubtful else (255, 255, 255)
        cv2.putText(out, label(t), (round(sr[0] + pad), round(sr[3] - pad)), FONT, font_scale, ink, thick, cv2.LINE_AA)
        targets += [(tuple(map(float, r)), t.id), (tuple(map(float, sr)), t.id)]
    return View(out, tuple(targets))


@cache
def picture(code: str) -> np.ndarray:
    """A tile's picture (RGB on white), from assets/tiles."""
    rgba = cv2.imread(str(ASSETS / f"{code}.png"), cv2.IMREAD_UNCHANGED)
    alpha = rgba[:, :, 3:4] / 255.0
    return (rgba[:, :, 2::-1] * alpha + 255 * (1 - alpha)).astype(np.uint8)


def _sheet(rows: list[tuple[str, list[tuple[Hashable, str, str]]]], columns: int, indent: int = 0) -> View:
    """Rows of tile pictures with a caption under each (tap value, kind, caption), each row
    after a title `indent` cells wide, written in its group's colour."""
    cell = WIDTH // (columns + indent)
    th, tw = picture("1m").shape[:2]
    h = round(cell * th / tw)
    caption = cell // 3
    out = np.full(((h + caption) * len(rows), WIDTH, 3), 255, np.uint8)
    font_scale = caption * 0.7 / cv2.getTextSize("8", FONT, 1.0, 2)[0][1]
    targets = []
    for r, (title, row) in enumerate(rows):
        y = r * (h + caption)
        if title:
            fit = (indent * cell - 8) / cv2.getTextSize(title, FONT, 1.0, 2)[0][0]
            cv2.putText(out, title, (4, y + h // 2), FONT, min(1.6 * font_scale, fit), colour(title), 2, cv2.LINE_AA)
        for c, (value, kind, text) in enumerate(row):
            x = (c + indent) * cell
            out[y : y + h, x + 2 : x + cell - 2] = cv2.resize(picture(kind), (cell - 4, h), interpolation=cv2.INTER_AREA)
            size = cv2.getTextSize(text, FONT, font_scale, 2)[0][0]
            cv2.putText(out, text, (x + (cell - size) // 2, y + h + round(caption * 0.8)), FONT, font_scale, (0, 0, 0), 2, cv2.LINE_AA)
            targets.append(((float(x), float(y), float(x + cell), float(y + h + caption)), value))
    return View(out, tuple(targets))


@cache
def picker() -> View:
    """Every kind by suit, one tap each: 萬, 筒, 條, 字 (and face down), 花."""
    return _sheet([("", [(k, k, k) for k in row]) for row in PICKER_ROWS], 9)


def hand(correction: Correction, selected: int | None = None, columns: int = 10) -> View:
    """The hand as tile pictures, a row per group, each tile with its id: a tile without
    a box (typed, or added by the player) is tapped here."""
    rows: list[tuple[str, list[tuple[Hashable, str, str]]]] = []
    order = [g for g in GROUPS if g != IGNORE] + sorted({t.group for t in correction.tiles} - set(GROUPS), key=meld_number) + [IGNORE]
    for g in order:
        tiles = [t for t in correction.tiles if t.group == g]
        cells = [(t.id, t.code, f"[{t.id}]" if t.id == selected else f"{t.id}") for t in tiles]
        rows += [(g if n == 0 else "", cells[n : n + columns]) for n in range(0, len(cells), columns)]
    return _sheet(rows, columns, indent=2) if rows else View(np.full((1, WIDTH, 3), 255, np.uint8), ())
