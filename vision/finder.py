"""Where the tiles lie, whatever is printed on them: a one-class network trained on renders
of many art styles and on the Hong Kong photos (`models/taiscore-finder.onnx`). The
detector knows the one set it was trained on and misses most tiles of a set it never
saw; where it does not know the set, the finder's boxes take the place of its own, and
the readers name them (issue 21). Where it knows the set, the finder's tiles it missed
join its own only where they continue its rows or the finder is sure of them."""

from __future__ import annotations

import ast
from pathlib import Path

import cv2
import numpy as np

from .config import Thresholds
from .detections import Detections, box_iou
from .network import decode, raw
from .session import open_session

UNNAMED = -1  # the class of a tile only the finder found: the face reader names it


class TileFinder:
    """The finder's ONNX file, opened once; calling it gives one box per tile it finds in
    a BGR image, each of class `UNNAMED`: those scoring `Thresholds.finder_conf` or more,
    and fainter ones down to `finder_floor` where they continue a row of those
    (`with_faint_row_mates`). A tile at the end of a row in shadow, a face-down tile
    beside face-up ones, a pale face on a white table score less, and a row is where a
    player lays tiles."""

    def __init__(self, model: Path, threads: int):
        self.session = open_session(model, threads, "tile finder")
        names = ast.literal_eval(self.session.get_modelmeta().custom_metadata_map.get("names", "{}"))
        if len(names) != 1:
            raise ValueError(f"{model}: a tile finder has one class, a tile, not {len(names)}")
        self.size = int(self.session.get_inputs()[0].shape[2])

    def __call__(self, img: np.ndarray, config: Thresholds) -> Detections:
        found = decode(*raw(self.session, img, self.size), config.finder_floor)
        xywh = np.c_[found.boxes[:, :2], found.boxes[:, 2:] - found.boxes[:, :2]].tolist()
        keep = np.array(cv2.dnn.NMSBoxes(xywh, found.scores.tolist(), config.finder_floor, config.iou), dtype=int).reshape(-1)
        h, w = img.shape[:2]
        return with_faint_row_mates(Detections(found.boxes[keep], found.scores[keep], np.full(len(keep), UNNAMED)).clipped(w, h), config)


def with_faint_row_mates(tiles: Detections, config: Thresholds) -> Detections:
    """The finder's `tiles` scoring `finder_conf` or more, and those scoring less that
    continue their rows (`row_mates`)."""
    scored = tiles.scores >= config.finder_conf
    return Detections.concat([tiles[scored], row_mates(tiles[scored], tiles[~scored], config, config.finder_conf)])


def knows_the_set(found: Detections, config: Thresholds) -> bool:
    """Whether the detector knows the set in this photo: of the tiles it finds scoring
    `seen` or more, whatever the working confidence (`taiscore eval` reads down to
    0.001, where a photo shows hundreds of faint candidates), it scores `finder_known`
    or more a whole hand's worth (`finder_hand`), or `few_tiles` or more and a share
    `finder_share` of them. Then the finder's tiles do not take the place of its own: the
    tiles it alone would add are mostly walls, loose discards and edges, which the labels
    of the set the detector learnt never box and a hand's photo leaves out; only those
    continuing the detector's rows where it is sure of fewer than a hand (`row_mates`)
    and those the finder is sure of (`sure_tiles`) join them (`Detector.completed`)."""
    scores = found.scores[found.scores >= config.seen]
    sure = int((scores >= config.finder_known).sum())
    return sure >= config.finder_hand or len(scores) >= config.few_tiles and sure >= config.finder_share * len(scores)


def row_mates(rows: Detections, candidates: Detections, config: Thresholds, row_score: float) -> Detections:
    """The tiles of `candidates` that continue a row of the tiles in `rows` scoring
    `row_score` or more (the detector's sure tiles, `finder_known`, for the finder's
    tiles; the finder's own, `finder_conf`, for its fainter ones), overlapping none of
    `rows` (`finder_apart`): each as tall and as wide
    as a tile of the row (within `row_size` either way), level with it (their heights
    overlapping `row_level` of the shorter) and beside it (less than `row_gap` of the
    narrower's width between them, or over each other: the upright boxes of an askew row
    overlap, and a box that is the same tile overlaps it at `finder_apart` already), the
    row grown by each tile taken. Where the detector knows a set from a few sure tiles it
    may miss the rest of the hand beside them; the finder's boxes elsewhere (discards,
    walls) and its slivers (a tile's edge at the frame, the gap between two tiles) are
    not taken."""
    row = rows.boxes[rows.scores >= row_score]
    if not len(candidates) or not len(row):
        return Detections.empty()
    apart = _apart(candidates, rows, config)
    candidates, taken = candidates[apart], np.zeros(int(apart.sum()), bool)
    while True:
        beside = ~taken & _beside(candidates.boxes, row, config).any(1)
        if not beside.any():
            return candidates[taken]
        taken |= beside
        row = np.concatenate([row, candidates.boxes[beside]])


def sure_tiles(found: Detections, finder: Detections, config: Thresholds) -> Detections:
    """The finder's tiles it is sure of (`finder_sure`) overlapping none of the tiles
    `found` (`finder_apart`). Where the detector thinks it knows the set from a few tiles,
    it may miss a whole row of the hand (a set it does not know on a wood table); the
    finder, trained on the Hong Kong photos as well as renders, scores the discards and
    walls round a hand low there, as their labels leave them out, and the tiles of a
    missed row high (models/README.md, "The finder", session 35)."""
    return finder[_apart(finder, found, config) & (finder.scores >= config.finder_sure)]


def _apart(tiles: Detections, others: Detections, config: Thresholds) -> np.ndarray:
    """Which of `tiles` overlap none of `others` at IoU `finder_apart` or more."""
    if not len(tiles) or not len(others):
        return np.ones(len(tiles), bool)
    return box_iou(tiles.boxes, others.boxes).max(1) < config.finder_apart


def _beside(a: np.ndarray, b: np.ndarray, config: Thresholds) -> np.ndarray:
    """N x M: whether box a[i] continues a row holding box b[j] (`row_mates`)."""
    wa, ha, wb, hb = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1], b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    wide, tall = wa[:, None] / np.maximum(wb[None], 1e-9), ha[:, None] / np.maximum(hb[None], 1e-9)
    alike = (wide > config.row_size) & (wide < 1 / config.row_size) & (tall > config.row_size) & (tall < 1 / config.row_size)
    gap = np.maximum(a[:, None, 0] - b[None, :, 2], b[None, :, 0] - a[:, None, 2])
    level = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    return alike & (gap < config.row_gap * np.minimum(wa[:, None], wb[None])) & (level > config.row_level * np.minimum(ha[:, None], hb[None]))


def joined(found: Detections, finder: Detections | None, config: Thresholds) -> Detections:
    """The finder's tiles and each of the detector's tiles `found` that overlaps none of
    them at IoU `finder_apart` or more: in a set the detector does not know, where a
    tile lies is the finder's call (on held-out art it boxes each tile once, where the
    detector may box half a tile or two), the detector's fill in what it missed. No
    finder's tiles (None: the detector knows the set): `found` alone."""
    if finder is None:
        return found
    return Detections.concat([finder, found[_apart(found, finder, config)]])
