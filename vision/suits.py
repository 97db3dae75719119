"""Dots or bamboo (筒子或索子): whether a tile shows circles.

A face reader that never saw a set reads most of its dots and bamboo tiles' counts right
and their suit wrong (the Hong Kong 9s, 6s and 3s read as 9p and 3p: models/README.md).
Every set paints its dots as circles and its bamboo as sticks, whatever the art; OpenCV's
circle Hough transform finds the one and not the other on renders of every trained art
source, so a circle on a tile the readers are unsure of tells for the dots, and none
against them.
"""

from __future__ import annotations

import cv2
import numpy as np

from .characters import upright
from .config import Thresholds
from .faces import FACES

DOTS = np.array([c.endswith("p") for c in FACES])
# Circles of a dots tile: a radius at least 1/14 and at most 1/3 of the upright crop's
# width (its short side where it stands, its long side where it lies), their centres at
# least 1/6 of it apart; `VOTES`, the Hough accumulator's threshold at twice the
# crop's size, is the least of 20, 30 and 40 that finds a circle on no more than one
# bamboo tile in sixteen of the trained art sources' renders (models/README.md).
VOTES = 40


def shows_circles(tile: np.ndarray) -> bool:
    """Whether an upright crop (RGB, `characters.upright`) shows a circle a dot's size."""
    h, w = tile.shape[:2]
    grey = cv2.resize(cv2.cvtColor(tile, cv2.COLOR_RGB2GRAY), (2 * w, 2 * h))
    found = cv2.HoughCircles(
        cv2.GaussianBlur(grey, (5, 5), 1.5), cv2.HOUGH_GRADIENT, dp=1, minDist=2 * w / 6, param1=100, param2=VOTES, minRadius=int(2 * w / 14), maxRadius=int(2 * w / 3)
    )
    return found is not None


def reread_suits(img: np.ndarray, boxes: np.ndarray, probs: np.ndarray, face_up: np.ndarray, config: Thresholds) -> np.ndarray:
    """`probs` with each face-up tile the readers are unsure of (no face
    `character_unsure` or likelier, the text recogniser's reading counted) weighed by its
    circles: the dots' odds `suit_odds` times the rest's where it shows one, the rest's so
    many times theirs where it shows none. A tile without circles may be bamboo, a flower
    or a character alike: it only tells against the dots."""
    unsure = face_up & (probs.max(1) < config.character_unsure)
    if not unsure.any():
        return probs
    circles = np.array([shows_circles(upright(img, tuple(b))) for b in boxes[unsure]])
    weighed = probs[unsure] * np.where(DOTS, np.where(circles, config.suit_odds, 1 / config.suit_odds)[:, None], 1.0)
    out = probs.copy()
    out[unsure] = weighed / weighed.sum(1, keepdims=True)
    return out
