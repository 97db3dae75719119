"""Reading the characters printed on a tile (字牌 and 萬子) with a general Chinese text
recogniser (文字辨識).

The face reader learnt its faces from one real set and renders; on a set it never saw it
reads the 萬 numerals and 發 worst. Those faces are plain Chinese characters, and PP-OCRv4's
text recogniser (`models/ppocr-rec.onnx`, PaddleOCR, Apache-2.0), trained on a great many
photos of real text, reads them in fonts and brushes no tile renderer draws. It is not
asked to read freely, only how likely each face's own characters are: a numeral over 萬,
a wind or dragon, a season's or flower's name, read at each quarter turn of the tile with
its slant taken out. A season or flower whose name is painted small is read at its top
corners too, for that name and its numeral.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASSES
from .faces import FACES
from .models import DEFAULT_CHARACTERS
from .session import open_session

HEIGHT = 48  # the recogniser reads lines 48 px high
TILE = 2 * HEIGHT  # an upright tile's long side in its crop, that of a line of two characters
RUN = 96  # lines in one run of the recogniser
WAN = ("萬", "万")
# The characters each face carries, any of them: everyday numerals, the formal ones a set
# may print (伍 is common; 貳 and 陸 are not in the recogniser's alphabet), simplified forms.
NUMERALS = {
    "1m": ("一", "壹"),
    "2m": ("二",),
    "3m": ("三", "參"),
    "4m": ("四", "肆"),
    "5m": ("五", "伍"),
    "6m": ("六",),
    "7m": ("七", "柒"),
    "8m": ("八", "捌"),
    "9m": ("九", "玖"),
}
HONOURS = {"1z": ("東", "东"), "2z": ("南",), "3z": ("西",), "4z": ("北",), "6z": ("發", "发"), "7z": ("中",)}
# A season or flower whose name is its face's big character, as on many Taiwanese sets (a
# name painted small in a corner, as on the Hong Kong set, is read at the corners alone).
FLOWERS = {"1f": ("春",), "2f": ("夏",), "3f": ("秋",), "4f": ("冬",), "5f": ("梅",), "6f": ("蘭", "兰"), "7f": ("菊",), "8f": ("竹",)}
# Many sets, the Hong Kong one among them, paint a season's or flower's numeral in one top
# corner and its name in the other, small beside the painting that seasons share.
CORNER_NUMERALS = {f"{n}f": (str((n - 1) % 4 + 1), "一二三四"[(n - 1) % 4]) for n in range(1, 9)}
# A corner, as shares of an upright tile's height and width: on the Hong Kong training
# flowers, of 0.25-0.35 down and 0.35-0.5 in, it reads the most numerals right (models/README.md).
CORNER_DOWN, CORNER_IN = 0.3, 0.4


def slant(grey: np.ndarray) -> float:
    """The turn, -45 to 45 degrees counter-clockwise as OpenCV turns an image, that sets a
    tile square to the photo's axes: from the direction its edges and strokes mostly run,
    modulo a quarter turn, weighted by their contrast."""
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    angle = np.degrees(np.arctan2(gy, gx)) % 90
    hist, _ = np.histogram(angle, bins=45, range=(0, 90), weights=np.hypot(gx, gy))
    smooth = np.convolve(np.r_[hist[-2:], hist, hist[:2]], [1, 2, 3, 2, 1], "valid")
    peak = (smooth.argmax() + 0.5) * 2
    return peak if peak < 45 else peak - 90


def upright(img: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The tile in `box` (BGR photo) turned by its slant back to the photo's axes, cut to
    the tile itself (the box of a tile turned by t holds w cos t + h sin t across), its long
    side `TILE` px, RGB uint8."""
    x1, y1, x2, y2 = box
    cx, cy, across, down = (x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, 1.0), max(y2 - y1, 1.0)
    part = img[int(max(cy - 0.6 * down, 0)) : int(cy + 0.6 * down) + 1, int(max(cx - 0.6 * across, 0)) : int(cx + 0.6 * across) + 1]
    turn = slant(cv2.cvtColor(part, cv2.COLOR_BGR2GRAY)) if part.size else 0.0
    t = math.radians(abs(turn))
    w, h = across, down
    if math.cos(2 * t) > 0.35:  # near 45 degrees the tile's sides cannot be told from its box's
        w = (across * math.cos(t) - down * math.sin(t)) / math.cos(2 * t)
        h = (down * math.cos(t) - across * math.sin(t)) / math.cos(2 * t)
    if w < 0.3 * across or h < 0.3 * down:
        w, h = across, down
    scale = TILE / max(w, h)
    out_w, out_h = max(int(round(w * scale)), 8), max(int(round(h * scale)), 8)
    matrix = cv2.getRotationMatrix2D((cx, cy), turn, scale)
    matrix[:, 2] += (out_w / 2 - cx, out_h / 2 - cy)
    return cv2.warpAffine(img, matrix, (out_w, out_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[:, :, ::-1]


def lines(tile: np.ndarray) -> list[np.ndarray]:
    """What the recogniser reads of one upright crop: the crop at each quarter turn, one
    line 48 px high each, 3 x 48 x W in [-1, 1]. A turn standing the tile up shows a wind
    or dragon as it is written; the turn after it lays the tile's top to the left, its
    numeral and 萬 a line of two characters on their sides, as the recogniser reads a
    column of text (PaddleOCR turns a tall text box so before reading it)."""
    return [_line(np.ascontiguousarray(np.rot90(tile, k))) for k in range(4)]


def corner_lines(tile: np.ndarray) -> list[np.ndarray]:
    """The top corners of one upright crop at each quarter turn, one character each, as
    `lines` reads them: a corner upright at one of the turns holds its numeral or name as
    it is written, whichever way the tile lies."""
    out = []
    for k in range(4):
        turned = np.ascontiguousarray(np.rot90(tile, k))
        h, w = turned.shape[:2]
        down, across = max(round(CORNER_DOWN * h), 1), max(round(CORNER_IN * w), 1)
        out += [_line(turned[:down, :across]), _line(turned[:down, w - across :])]
    return out


def _line(part: np.ndarray) -> np.ndarray:
    h, w = part.shape[:2]
    width = max(int(math.ceil(HEIGHT * w / max(h, 1))), 8)
    resized = cv2.resize(part, (width, HEIGHT), interpolation=cv2.INTER_AREA if h > HEIGHT else cv2.INTER_LINEAR)
    return (resized.astype(np.float32) / 127.5 - 1.0).transpose(2, 0, 1)


def ctc(probs: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """P(a line reads exactly the characters of each of `labels`): CTC's sum over every
    path of steps that, repeats merged and blanks dropped, spells them. `probs` is L lines
    x T steps x alphabet (blank first), `labels` K x S alphabet indices, no two
    neighbours alike; the result L x K."""
    steps, (kinds, size) = probs.shape[1], labels.shape
    blank, chars = probs[:, :, :1].astype(np.float64), probs[:, :, labels].astype(np.float64)  # L x T x 1, L x T x K x S
    state = np.zeros((len(probs), kinds, 2 * size + 1))  # even states a blank, odd ones a character
    state[:, :, 0], state[:, :, 1] = blank[:, 0], chars[:, 0, :, 0]
    for t in range(1, steps):
        last = state.copy()
        state[:, :, 0] = last[:, :, 0] * blank[:, t]
        for s in range(1, 2 * size + 1):
            reach = last[:, :, s] + last[:, :, s - 1] + (last[:, :, s - 2] if s % 2 and s > 1 else 0)
            state[:, :, s] = reach * (chars[:, t, :, s // 2] if s % 2 else blank[:, t])
    return state[:, :, -1] + state[:, :, -2]


class CharacterReader:
    """Loads the recogniser once; `read` gives, for each box, how likely its face carries
    the characters of each of the 23 faces written in characters (N x 42, 0 on the rest),
    `corners` how likely its corners carry each flower's numeral and name."""

    def __init__(self, model: Path = DEFAULT_CHARACTERS, threads: int = 2):
        self.session = open_session(model, threads, "text recogniser")
        alphabet = self.session.get_modelmeta().custom_metadata_map.get("character", "").split("\n")
        where = {c: i + 1 for i, c in enumerate(alphabet)}  # 0 is CTC's blank
        marks = (WAN, *NUMERALS.values(), *HONOURS.values(), *FLOWERS.values(), *CORNER_NUMERALS.values())
        if missing := sorted({c for chars in marks for c in chars} - where.keys()):
            raise ValueError(f"{model}: its alphabet lacks {' '.join(missing)}")
        two = [(code, (n, w)) for code, chars in NUMERALS.items() for n in chars for w in WAN]
        one = [(code, (c,)) for code, chars in (HONOURS | FLOWERS).items() for c in chars]
        self.codes = np.array([code for code, _ in two + one])  # each way a face may be written, in `read`'s columns
        self.two, self.one = (np.array([[where[c] for c in chars] for _, chars in spelt]) for spelt in (two, one))
        numbered = [(code, c) for code, chars in CORNER_NUMERALS.items() for c in chars]
        named = [(code, c) for code, chars in FLOWERS.items() for c in chars]
        self.corner_codes = np.array([code for code, _ in numbered + named])  # ... in `corners`' columns
        self.named = np.arange(len(self.corner_codes)) >= len(numbered)
        self.marks = np.array([[where[c]] for _, c in numbered + named])
        self.input = self.session.get_inputs()[0].name

    def read(self, img: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """N x 42: for each box (x1, y1, x2, y2 in `img` pixels) and each face written in
        characters, P(the tile reads exactly its characters) at its likeliest quarter turn
        and way of writing them."""
        read = self._likeliest([lines(upright(img, tuple(b))) for b in boxes], (self.two, self.one))
        evidence = np.zeros((len(boxes), len(FACES)))
        for code in (*NUMERALS, *HONOURS, *FLOWERS):
            evidence[:, CLASSES.index(code)] = read[:, self.codes == code].max(1)
        return evidence

    def corners(self, img: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Two N x 42, 0 but on the flowers: for each box and each season or flower, P(a
        top corner of the tile reads exactly its numeral), at the likeliest corner and
        turn; and the same for its name."""
        read = self._likeliest([corner_lines(upright(img, tuple(b))) for b in boxes], (self.marks,))
        numerals, names = np.zeros((len(boxes), len(FACES))), np.zeros((len(boxes), len(FACES)))
        for code in FLOWERS:
            numerals[:, CLASSES.index(code)] = read[:, (self.corner_codes == code) & ~self.named].max(1)
            names[:, CLASSES.index(code)] = read[:, (self.corner_codes == code) & self.named].max(1)
        return numerals, names

    def _likeliest(self, views: list[list[np.ndarray]], labels: tuple[np.ndarray, ...]) -> np.ndarray:
        """For each box's lines (`views`, as many for each box), P(a line spells exactly
        each row of `labels`, side by side) at the box's likeliest line: N x spellings."""
        width = sum(len(spelt) for spelt in labels)
        if not views:
            return np.zeros((0, width))
        flat = [line for box in views for line in box]
        order = sorted(range(len(flat)), key=lambda j: flat[j].shape[2])  # lines alike in width share a run's padding
        read = np.zeros((len(flat), width))
        for start in range(0, len(order), RUN):
            part = order[start : start + RUN]
            read[part] = self._run([flat[j] for j in part], labels)
        return read.reshape(len(views), -1, width).max(1)

    def _run(self, views: list[np.ndarray], labels: tuple[np.ndarray, ...]) -> np.ndarray:
        """P(the line spells exactly it) for each row of `labels`, each line padded as
        the recogniser was trained, with zeros to the right, to a run's widest and at least
        square."""
        batch = np.zeros((len(views), 3, HEIGHT, max(HEIGHT, max(v.shape[2] for v in views))), np.float32)
        for i, v in enumerate(views):
            batch[i, :, :, : v.shape[2]] = v
        probs = self.session.run(None, {self.input: batch})[0]
        return np.column_stack([ctc(probs, spelt) for spelt in labels])
