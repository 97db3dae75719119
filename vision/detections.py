"""One type for the tiles a stage has found: boxes, scores and classes that stay together
through masking, concatenation and scaling, instead of three arrays passed side by side."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def area(boxes: np.ndarray) -> np.ndarray:
    """The area of each box (x1, y1, x2, y2)."""
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def intersection(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The area every box in `a` shares with every box in `b` (x1, y1, x2, y2)."""
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    return np.clip(rb - lt, 0, None).prod(2)


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in `a` with every box in `b` (x1, y1, x2, y2)."""
    inter = intersection(a, b)
    return inter / (area(a)[:, None] + area(b)[None, :] - inter + 1e-9)


@dataclass(frozen=True, eq=False)
class Detections:
    """N tiles: `boxes` (N x 4, x1 y1 x2 y2 in the pixels of the image they were read
    from), `scores` (N) and `classes` (N, indices into `CLASSES`)."""

    boxes: np.ndarray
    scores: np.ndarray
    classes: np.ndarray

    def __post_init__(self) -> None:
        if not len(self.boxes) == len(self.scores) == len(self.classes):
            raise ValueError(f"{len(self.boxes)} boxes, {len(self.scores)} scores and {len(self.classes)} classes")

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4)), np.zeros(0, np.float32), np.zeros(0, int))

    @classmethod
    def concat(cls, parts: list[Detections]) -> Detections:
        """All of `parts`' tiles, in order (boxes in one frame: shift them first)."""
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("boxes", "scores", "classes")))

    def __len__(self) -> int:
        return len(self.scores)

    def __getitem__(self, which: np.ndarray) -> Detections:
        """The tiles a boolean mask or an index array picks."""
        return Detections(self.boxes[which], self.scores[which], self.classes[which])

    def with_boxes(self, boxes: np.ndarray) -> Detections:
        return Detections(boxes, self.scores, self.classes)

    def shifted(self, dx: float, dy: float) -> Detections:
        """Boxes read in a window whose corner lies at (dx, dy), in the whole photo's pixels."""
        return self.with_boxes(self.boxes + [dx, dy, dx, dy])

    def scaled(self, sx: float, sy: float) -> Detections:
        """Boxes read in a copy resized by (1/sx, 1/sy), in the original's pixels."""
        return self.with_boxes(self.boxes * [sx, sy, sx, sy])

    def clipped(self, w: int, h: int) -> Detections:
        """Boxes kept inside a w x h photo."""
        return self.with_boxes(self.boxes.clip(0, [w, h, w, h]))

    def at_least(self, score: float) -> Detections:
        return self[self.scores >= score]
