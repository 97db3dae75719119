"""A photo stretched out of its proportions (an export or an app that makes every image
square) shows its tiles many times too tall or too wide, and the detector finds none:
such a photo, smoothed along one side as a stretch leaves it, is read again squeezed
back into shape along that side."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from .config import Thresholds
from .detections import Detections

Size = tuple[int, int]  # w, h


def out_of_shape(found: Detections, config: Thresholds) -> bool:
    """Whether the tiles a photo shows say it is out of its proportions: none of them read
    surely (a tile stretched many times over can pass, unsurely, for a few square ones
    inside it; every one of the 34 stretched validation strips but one shows no sure tile),
    or most of those it shows far longer than any tile is wide. A few tiles read surely
    and in shape are a lone tile or a close-up, read in one pass (so are a few found in
    shape by the finder: `a_few_in_shape`)."""
    if not (found.scores >= config.sure).any():
        return True
    seen = found.at_least(config.seen).boxes
    w, h = seen[:, 2] - seen[:, 0], seen[:, 3] - seen[:, 1]
    return float(np.median(np.maximum(w, h) / np.maximum(np.minimum(w, h), 1e-9))) > config.long_tile


def a_few_in_shape(found: Detections | None, config: Thresholds) -> bool:
    """Whether `found` (the finder's tiles) is a lone tile or a close-up: one to `close_up`
    tiles, in shape. Such a photo is read in one pass however unsure the detector is of a
    set it does not know. Many tiles in shape do not say so: a diagonal row stretched
    shears each tile, whose upright box stays near square."""
    return found is not None and 0 < len(found) <= config.close_up and not out_of_shape(found, config)


def smoothed_along(img: np.ndarray, config: Thresholds) -> tuple[bool, ...]:
    """The side a BGR photo may have been stretched along: (True,) along x, (False,)
    along y, () neither. A stretch spreads each pixel over several, so brightness
    changes from one pixel to the next `smoothed` times less along it than across it; a
    photo in its proportions, however few tiles it shows surely, changes about as much
    either way, and a flat one not at all."""
    if min(img.shape[:2]) < 2:
        return ()
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    along_x, along_y = cv2.mean(cv2.absdiff(grey[:, 1:], grey[:, :-1]))[0], cv2.mean(cv2.absdiff(grey[1:], grey[:-1]))[0]
    if along_y > config.smoothed * along_x:
        return (True,)
    if along_x > config.smoothed * along_y:
        return (False,)
    return ()


def squeezed(w: int, h: int, stretch: float, along_x: bool) -> Size:
    """The size of a w x h photo squeezed `stretch` times along x or y."""
    return (max(1, round(w / stretch)), h) if along_x else (w, max(1, round(h / stretch)))


def surer(candidate: Detections, than: Detections, config: Thresholds) -> bool:
    """Whether a squeezed reading beats `than`: more confidence that tiles lie where it
    sees them, and at least `few_tiles` of them found `sure`ly (of 18 readings of a
    photo the detector reads poorly, one may see a few tiles at low confidence, which is
    no reason to read it out of shape)."""
    scores, other = candidate.scores, than.scores
    return (scores >= config.sure).sum() >= config.few_tiles and scores[scores >= config.seen].sum() > other[other >= config.seen].sum()


def reproportioned(read: Callable[[Size], Detections], w: int, h: int, reading: Detections, config: Thresholds,
                   sides: tuple[bool, ...] = (True, False)) -> Detections:
    """The detector's best reading of a w x h photo squeezed back into shape (`read` finds
    the tiles in it resized to a size, boxes in the photo's own pixels): squeezed by each
    of `stretches` along each of `sides` (along x: True; `smoothed_along` says which), then
    by a quarter step either side of the best. The reading with the most confidence in
    the tiles it finds wins (`surer`), the photo's own (`reading`: where the detector,
    and the finder where it was asked, place the tiles) included. The readers'
    confidence would keep a set they do not know from ever winning (models/README.md)."""
    best, how = reading, None
    for stretch, along_x in [(s, x) for s in config.stretches for x in sides]:
        candidate = read(squeezed(w, h, stretch, along_x))
        if surer(candidate, best, config):
            best, how = candidate, (stretch, along_x)
    if how is not None:
        stretch, along_x = how
        for finer in (stretch / 2**0.25, stretch * 2**0.25):
            candidate = read(squeezed(w, h, finer, along_x))
            if surer(candidate, best, config):
                best = candidate
    return best
