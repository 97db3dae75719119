"""Where the tiles lie, whatever is printed on them: a one-class network trained on renders
of many art styles alone, never on a real photo (`models/taiscore-finder.onnx`). The
detector knows the one set it was trained on and misses most tiles of a set it never
saw; where it does not know the set, the finder's boxes take the place of its own, and
the readers name them (issue 21)."""

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
    a BGR image, scoring at least `Thresholds.finder_conf`, each of class `UNNAMED`."""

    def __init__(self, model: Path, threads: int):
        self.session = open_session(model, threads, "tile finder")
        names = ast.literal_eval(self.session.get_modelmeta().custom_metadata_map.get("names", "{}"))
        if len(names) != 1:
            raise ValueError(f"{model}: a tile finder has one class, a tile, not {len(names)}")
        self.size = int(self.session.get_inputs()[0].shape[2])

    def __call__(self, img: np.ndarray, config: Thresholds) -> Detections:
        found = decode(*raw(self.session, img, self.size), config.finder_conf)
        xywh = np.c_[found.boxes[:, :2], found.boxes[:, 2:] - found.boxes[:, :2]].tolist()
        keep = np.array(cv2.dnn.NMSBoxes(xywh, found.scores.tolist(), config.finder_conf, config.iou), dtype=int).reshape(-1)
        h, w = img.shape[:2]
        return Detections(found.boxes[keep], found.scores[keep], np.full(len(keep), UNNAMED)).clipped(w, h)


def knows_the_set(found: Detections, config: Thresholds) -> bool:
    """Whether the detector knows the set in this photo: of the tiles it finds scoring
    `seen` or more, whatever the working confidence (`taiscore eval` reads down to
    0.001, where a photo shows hundreds of faint candidates), it scores `finder_known`
    or more a whole hand's worth (`finder_hand`), or `few_tiles` or more and a share
    `finder_share` of them. Then the finder is not asked: the tiles it alone would add
    are walls, loose discards and edges, which the labels of the set the detector learnt
    never box and a hand's photo leaves out."""
    scores = found.scores[found.scores >= config.seen]
    sure = int((scores >= config.finder_known).sum())
    return sure >= config.finder_hand or len(scores) >= config.few_tiles and sure >= config.finder_share * len(scores)


def joined(found: Detections, finder: Detections | None, config: Thresholds) -> Detections:
    """The finder's tiles and each of the detector's tiles `found` that overlaps none of
    them at IoU `finder_apart` or more: in a set the detector does not know, where a
    tile lies is the finder's call (on held-out art it boxes each tile once, where the
    detector may box half a tile or two), the detector's fill in what it missed. No
    finder's tiles (None: the detector knows the set, it was not asked): `found` alone."""
    if finder is None:
        return found
    if not len(finder) or not len(found):
        return Detections.concat([found, finder])
    return Detections.concat([finder, found[box_iou(found.boxes, finder.boxes).max(1) < config.finder_apart]])
