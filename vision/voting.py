"""From the network's candidates to one box per physical tile: suppression keeps the
surest box of each tile, and box voting places it where its neighbours agree."""

from __future__ import annotations

import cv2
import numpy as np

from .config import Thresholds
from .detections import Detections, area, box_iou, intersection


def vote(kept: np.ndarray, boxes: np.ndarray, scores: np.ndarray, config: Thresholds) -> np.ndarray:
    """Each kept box moved to the score-weighted mean of the candidates that cover the same
    tile (box voting): NMS keeps one anchor's guess, and the neighbours' guesses average
    out some of its error. A kept box no candidate votes for stays where it is."""
    voters = scores >= config.vote_floor
    boxes, scores = boxes[voters], scores[voters]
    weights = (box_iou(kept, boxes) >= config.vote_iou) * scores
    total = weights.sum(1, keepdims=True)
    return np.where(total > 0, weights @ boxes / np.maximum(total, 1e-9), kept)


def one_per_tile(candidates: Detections, config: Thresholds) -> Detections:
    """The candidates at the working confidence, one per physical tile, each placed by
    `vote`: of two boxes of one class on one tile the surer stays (`iou`), and of two boxes
    of different classes covering the same tile too (`same_tile_iou`: class-aware NMS
    alone keeps both), and a part of a tile boxed alone goes (`whole_tiles`)."""
    if not len(candidates):
        return candidates
    boxes, scores = candidates.boxes, candidates.scores
    xywh = np.column_stack([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]]).tolist()
    keep = np.array(cv2.dnn.NMSBoxesBatched(xywh, scores.tolist(), candidates.classes.tolist(), config.conf, config.iou), dtype=int).reshape(-1)
    across = cv2.dnn.NMSBoxes([xywh[i] for i in keep], scores[keep].tolist(), 0.0, config.same_tile_iou)
    kept = candidates[keep[np.array(across, dtype=int).reshape(-1)]]
    return whole_tiles(kept.with_boxes(vote(kept.boxes, boxes, scores, config)), config)


def whole_tiles(found: Detections, config: Thresholds) -> Detections:
    """`found`, surest first, less each box lying `part_of_tile` or more inside a surer
    one (whether that one stays or not): the detector may box one column of a tile of two
    (4s, 6s, 8p, 9s) as a tile of its own, a box NMS keeps, its overlap with the whole
    tile being about half."""
    found = found[np.argsort(-found.scores, kind="stable")]
    inside = intersection(found.boxes, found.boxes) / np.maximum(area(found.boxes), 1e-9)[:, None]
    return found[~np.tril(inside >= config.part_of_tile, -1).any(1)]
