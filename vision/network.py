"""The detector network's call: a photo letterboxed to its input, its output decoded into
candidate tiles in the photo's pixels (before any suppression)."""

from __future__ import annotations

import ast
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASSES
from .detections import Detections
from .session import open_session


def letterbox(img: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Resize keeping aspect, pad to size x size with grey (as ultralytics trains)."""
    h, w = img.shape[:2]
    scale = min(size / h, size / w)
    nh, nw = round(h * scale), round(w * scale)
    resized = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)  # as ultralytics does
    top, left = (size - nh) // 2, (size - nw) // 2
    out = np.full((size, size, 3), 114, np.uint8)
    out[top : top + nh, left : left + nw] = resized
    return out, scale, (left, top)


def decode(out: np.ndarray, scale: float, pad: tuple[int, int], floor: float) -> Detections:
    """The network's output for one image ((4 + classes) x anchors: centre, size, then a
    score per class) as candidates scoring at least `floor`, each its best class, boxes
    taken back through the letterbox (`scale`, `pad` = (left, top))."""
    scores_all = out[4:]
    cls = scores_all.argmax(0)
    scores = scores_all[cls, np.arange(scores_all.shape[1])]
    keep = scores >= floor
    cx, cy, w, h = out[:4, keep]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
    left, top = pad
    return Detections((boxes - [left, top, left, top]) / scale, scores[keep], cls[keep])


def raw(session, img: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[int, int]]:
    """A YOLO network's raw output for one BGR image letterboxed to `size`, with the
    letterbox's scale and pad for `decode`."""
    padded, scale, pad = letterbox(img, size)
    blob = np.ascontiguousarray(padded[:, :, ::-1].transpose(2, 0, 1), dtype=np.float32)[None] / 255.0
    return session.run(None, {session.get_inputs()[0].name: blob})[0][0], scale, pad


class TileNetwork:
    """The detector's ONNX file, opened once; calling it reads one BGR image."""

    def __init__(self, model: Path, threads: int):
        self.session = open_session(model, threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        names = ast.literal_eval(meta.get("names", "{}"))
        if tuple(names[i] for i in sorted(names)) != CLASSES:
            raise ValueError(f"{model}: its classes are not the 43 taiscore classes")
        self.size = int(self.session.get_inputs()[0].shape[2])

    def __call__(self, img: np.ndarray, floor: float) -> Detections:
        """Candidates in `img` pixels scoring at least `floor`."""
        return decode(*raw(self.session, img, self.size), floor)
