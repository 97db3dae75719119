"""Reading each tile's face and edges from its own crop (牌面辨識), after the detector has found it.

The detector finds the tiles (class-agnostic AP50 0.99 on the real validation photos)
but reads their faces from features a few cells wide at its 480 px input (mAP50 0.90):
the seasons and flowers differ by a numeral, 7s from 6s by one stick. The face reader
sees every tile alone at `SIZE` px, upright or turned any quarter, and its reading
replaces the detector's class: P(tile here) from the detector times P(face | tile).
Seeing the tile larger than the detector did, it also says where the tile's edges lie
in the crop; the detector blends that box with its own (`blend.py`).
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .classes import BACK, CLASSES
from .models import DEFAULT_FACES
from .session import open_session

SIZE = 64  # the crop side: a median tile of the real photos is 75 px, the smallest 30
MARGIN = 1.2  # a tenth of the box more on every side: boxes are a few percent off either way
FACES = CLASSES[:BACK]  # the 42 faces; a face-down tile stays the detector's reading
RUN = 32  # crops in one run of the reader (8 tiles at four turns): peak memory as at one turn, no slower
MARGIN_KEY = "crop_margin"  # ONNX metadata, "across down": a reader trained on boxes drawn otherwise ...
SHIFT_KEY = "crop_shift"  # ... "right lower", in box widths and heights
RENDERED_BOXES_KEY = "box_labels"  # ONNX metadata, "rendered": its box head learnt the generator's boxes


@dataclass(frozen=True)
class Cut:
    """How a reader's crop is cut from a box: grown `across` and `down` times about the
    box's centre moved `right` box widths and `lower` box heights."""

    across: float = MARGIN
    down: float = MARGIN
    right: float = 0.0
    lower: float = 0.0

    def centre(self, x1: float, y1: float, x2: float, y2: float) -> tuple[float, float]:
        return (x1 + x2) / 2 + self.right * (x2 - x1), (y1 + y2) / 2 + self.lower * (y2 - y1)


SAME_CUT = Cut()  # a reader trained on boxes drawn as the detector draws them


def crop_matrix(box: tuple[float, float, float, float], size: int = SIZE, angle: float = 0.0, cut: Cut = SAME_CUT) -> np.ndarray:
    """The 2 x 3 affine map from photo pixels to the crop of `box` (as `cut` says: by
    default the box grown by `MARGIN`), scaled to `size` x `size` and turned `angle`
    degrees about its centre."""
    x1, y1, x2, y2 = box
    cx, cy = cut.centre(x1, y1, x2, y2)
    sx, sy = size / max((x2 - x1) * cut.across, 1.0), size / max((y2 - y1) * cut.down, 1.0)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return np.array([[sx * c, sx * s, size / 2 - sx * (c * cx + s * cy)], [-sy * s, sy * c, size / 2 - sy * (c * cy - s * cx)]], np.float32)


def crop(img: np.ndarray, box: tuple[float, float, float, float], size: int = SIZE, angle: float = 0.0, cut: Cut = SAME_CUT) -> np.ndarray:
    """One tile as the face reader sees it (`crop_matrix`; training tilts it, reading
    does not), RGB uint8."""
    matrix = crop_matrix(box, size, angle, cut)
    return cv2.warpAffine(img, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[:, :, ::-1]


def crops_of(img: np.ndarray, boxes: np.ndarray, size: int = SIZE, cut: Cut = SAME_CUT) -> np.ndarray:
    """Every one of `boxes` (x1, y1, x2, y2; at least one) as `crop` gives it, N x size x size x 3."""
    return np.stack([crop(img, tuple(b), size, cut=cut) for b in boxes])


def uncrop(boxes: np.ndarray, given: np.ndarray, cut: Cut = SAME_CUT) -> np.ndarray:
    """Boxes the reader gives in crop units (0-1 across the crop of each `given` box,
    unturned) back in photo pixels."""
    cx, cy = cut.centre(given[:, 0], given[:, 1], given[:, 2], given[:, 3])
    w, h = np.maximum((given[:, 2] - given[:, 0]) * cut.across, 1.0), np.maximum((given[:, 3] - given[:, 1]) * cut.down, 1.0)
    return np.column_stack([cx + (boxes[:, 0] - 0.5) * w, cy + (boxes[:, 1] - 0.5) * h, cx + (boxes[:, 2] - 0.5) * w, cy + (boxes[:, 3] - 0.5) * h])


def blob(crops: np.ndarray) -> np.ndarray:
    """N x size x size x 3 RGB uint8 -> the network's N x 3 x size x size float input."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def cut_of(meta: dict[str, str]) -> Cut:
    """The cut a reader's metadata declares (`crop_margin` "across down", `crop_shift`
    "right lower"), else `SAME_CUT`: a reader trained on boxes drawn otherwise than the
    detector draws them (the generator's held a tile's visible side below its face until
    session 20) sees a tile as it learnt it only through a crop grown and moved as much
    (`vision.training.margins` measures how much)."""
    try:
        across, down = (float(v) for v in meta.get(MARGIN_KEY, f"{MARGIN} {MARGIN}").split())
        right, lower = (float(v) for v in meta.get(SHIFT_KEY, "0 0").split())
    except ValueError:
        raise ValueError(f"{MARGIN_KEY} {meta.get(MARGIN_KEY)!r}, {SHIFT_KEY} {meta.get(SHIFT_KEY)!r}: each is two numbers") from None
    if not (1.0 <= across <= 3.0 and 1.0 <= down <= 3.0 and abs(right) <= 0.5 and abs(lower) <= 0.5):
        raise ValueError(f"crop_margin {across} {down}, crop_shift {right} {lower}: a crop is grown 1 to 3 times a box, moved at most half of it")
    return Cut(across, down, right, lower)


def own_boxes(meta: dict[str, str]) -> bool:
    """Whether a reader's box head learnt boxes drawn as the detector draws them (no
    `box_labels`), not the generator's (`box_labels` "rendered")."""
    labels = meta.get(RENDERED_BOXES_KEY)
    if labels not in (None, "rendered"):
        raise ValueError(f"{RENDERED_BOXES_KEY} {labels!r}: a reader's boxes are the detector's kind or 'rendered'")
    return labels is None


class FaceReader:
    """Loads the face model once; `read` gives P(face) over `FACES` and the tile's own
    box for each box it is given, cut as its metadata says (`cut_of`). A reader whose
    box head learnt the generator's boxes (`box_labels` "rendered") gives the detector's
    box back instead: the generator's edges are not the detector's."""

    def __init__(self, model: Path = DEFAULT_FACES, threads: int = 2):
        self.session = open_session(model, threads, "face model")
        meta = self.session.get_modelmeta().custom_metadata_map
        if tuple(ast.literal_eval(meta.get("faces", "()"))) != FACES:
            raise ValueError(f"{model}: its classes are not the 42 tile faces")
        outputs = [o.name for o in self.session.get_outputs()]
        if outputs[:2] != ["logits", "box"]:
            raise ValueError(f"{model}: a face reader gives logits and a box for each crop")
        self.embeds = "embedding" in outputs  # what a tile-set profile compares (vision/tileset.py)
        self.size = int(self.session.get_inputs()[0].shape[2])
        self.input = self.session.get_inputs()[0].name
        self.cut = cut_of(meta)
        self.own_boxes = own_boxes(meta)

    def crops(self, img: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Every one of `boxes` as this reader sees it (`crops_of` at its size and cut)."""
        return crops_of(img, boxes, self.size, self.cut)

    def read(self, img: np.ndarray, boxes: np.ndarray, turns: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """N x 42 probabilities over the faces and the N tiles' boxes as the reader sees
        them, one row per box given (x1, y1, x2, y2 in `img` pixels). With `turns` > 1 the
        probabilities are the mean over each crop turned by that many even steps of a
        full turn, 1 to 4 (a tile lies any way round); the box and the embedding are the
        unturned crop's."""
        return self._read(img, boxes, embedding=False, turns=turns)[:2]

    def read_embedded(self, img: np.ndarray, boxes: np.ndarray, turns: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """`read`, and each tile's embedding (N x features) from the same run, None where
        the file gives none."""
        return self._read(img, boxes, embedding=self.embeds, turns=turns)

    def _read(self, img: np.ndarray, boxes: np.ndarray, embedding: bool, turns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The file's outputs asked for by name: it gives an `embedding` too, computed
        only where asked for. Each run takes the turns of up to `RUN` // `turns` tiles,
        so a photo of many tiles stays within its memory."""
        if not 1 <= turns <= 4:
            raise ValueError(f"a tile is read at 1 to 4 turns, not {turns}")
        if not len(boxes):
            return np.zeros((0, len(FACES)), np.float32), np.zeros((0, 4)), None
        seen, step = self.crops(img, boxes), max(RUN // turns, 1)
        names = ["logits", "box", "embedding"] if embedding else ["logits", "box"]
        probs, edges, embedded = [], [], []
        for i in range(0, len(seen), step):
            part = seen[i : i + step]
            views = np.concatenate([np.rot90(part, k * 4 // turns, axes=(1, 2)) for k in range(turns)]) if turns > 1 else part
            out = self.session.run(names, {self.input: blob(views)})
            probs.append(softmax(out[0]).reshape(turns, len(part), len(FACES)).mean(0))
            edges.append(out[1][: len(part)])  # the unturned crops come first
            if embedding:
                embedded.append(out[2][: len(part)])
        placed = uncrop(np.concatenate(edges), boxes, self.cut) if self.own_boxes else np.array(boxes, np.float64)
        return np.concatenate(probs), placed, np.concatenate(embedded) if embedding else None
