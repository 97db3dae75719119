"""Dots or bamboo (筒子或索子): whether a tile shows circles, and whether it shows sticks.

A face reader that never saw a set reads most of its dots and bamboo tiles' counts right
and their suit wrong (the Hong Kong 9s, 6s and 3s read as 9p and 3p: models/README.md).
Every set paints its dots as circles and its bamboo as sticks, whatever the art; OpenCV's
circle Hough transform finds the one and not the other on renders of every trained art
source, so a circle on a tile the readers are unsure of tells for the dots, and none
against them. Sticks are ink blobs long, narrow and solid, standing parallel: two or
more of them, more than there are round blobs, tell for the bamboo.
"""

from __future__ import annotations

import cv2
import numpy as np

from .characters import upright
from .config import Thresholds
from .faces import FACES

DOTS = np.array([c.endswith("p") for c in FACES])
BAMBOO = np.array([c.endswith("s") for c in FACES])
# Circles of a dots tile: a radius at least 1/14 and at most 1/3 of the upright crop's
# width (its short side where it stands, its long side where it lies), their centres at
# least 1/6 of it apart; `VOTES`, the Hough accumulator's threshold at twice the
# crop's size, is the least of 20, 30 and 40 that finds a circle on no more than one
# bamboo tile in sixteen of the trained art sources' renders (models/README.md).
VOTES = 40
# Sticks, on the face, the upright crop less a `STICK_EDGE` band round it (the tile's edge
# and its neighbours): ink is what lies `INK_DARK` grey levels under the paper (the
# `PAPER` percentile of the face's grey) or is coloured past `INK_COLOURED` saturation,
# less specks a pixel wide; a blob of it covering a share `BLOB_SIZE` of the face is a
# stick where its least enclosing rectangle is
# `STICK_LONG` times as long as wide and it fills `STICK_SOLID` of its convex hull (a
# character's strokes joined into one blob do not), round where it is at most
# `ROUND_LONG` long and `ROUND_SOLID` solid. A bamboo tile's sticks stand parallel: they
# count as many as lie within `STICK_PARALLEL` degrees of one of them. Chosen on renders
# of the trained styles: sticks on 88 % of their bamboo tiles, 10 % of their dots and
# 10-13 % of the others (models/README.md, "Dots or bamboo").
STICK_EDGE = 0.06
BLOB_SIZE = (1 / 200, 1 / 6)
INK_DARK, INK_COLOURED = 50, 90
PAPER = 80
STICK_LONG, STICK_SOLID = 2.2, 0.7
ROUND_LONG, ROUND_SOLID = 1.4, 0.8
STICK_PARALLEL = 10.0


def shows_circles(tile: np.ndarray) -> bool:
    """Whether an upright crop (RGB, `characters.upright`) shows a circle a dot's size."""
    h, w = tile.shape[:2]
    grey = cv2.resize(cv2.cvtColor(tile, cv2.COLOR_RGB2GRAY), (2 * w, 2 * h))
    found = cv2.HoughCircles(
        cv2.GaussianBlur(grey, (5, 5), 1.5), cv2.HOUGH_GRADIENT, dp=1, minDist=2 * w / 6, param1=100, param2=VOTES, minRadius=int(2 * w / 14), maxRadius=int(2 * w / 3)
    )
    return found is not None


def shows_sticks(tile: np.ndarray) -> bool:
    """Whether an upright crop (RGB, `characters.upright`) shows two or more parallel
    sticks, and more of them than round blobs."""
    h, w = tile.shape[:2]
    edge = int(STICK_EDGE * min(h, w))
    face = tile[edge : h - edge, edge : w - edge]
    grey = cv2.cvtColor(face, cv2.COLOR_RGB2GRAY).astype(np.int16)
    coloured = cv2.cvtColor(face, cv2.COLOR_RGB2HSV)[..., 1] > INK_COLOURED
    ink = ((grey < np.percentile(grey, PAPER) - INK_DARK) | coloured).astype(np.uint8)
    unspecked = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    blobs, _ = cv2.findContours(unspecked, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    angles, rounds = [], 0
    for blob in blobs:
        area = cv2.contourArea(blob)
        if not BLOB_SIZE[0] <= area / face[..., 0].size <= BLOB_SIZE[1]:
            continue
        _, (side, other), angle = cv2.minAreaRect(blob)
        long = max(side, other) / max(min(side, other), 1.0)
        solid = area / max(cv2.contourArea(cv2.convexHull(blob)), 1.0)
        if long >= STICK_LONG and solid >= STICK_SOLID:
            angles.append((angle + (90 if side < other else 0)) % 180)  # the direction of its long side
        else:
            rounds += long <= ROUND_LONG and solid >= ROUND_SOLID
    if not angles:
        return False
    apart = np.abs((np.subtract.outer(angles, angles) + 90) % 180 - 90)
    sticks = int((apart <= STICK_PARALLEL).sum(1).max())
    return sticks >= 2 and sticks > rounds


def reread_suits(img: np.ndarray, boxes: np.ndarray, probs: np.ndarray, face_up: np.ndarray, config: Thresholds) -> np.ndarray:
    """`probs` with each face-up tile the readers are unsure of (no face
    `reader_unsure` or likelier, the text recogniser's reading counted) weighed by its
    circles and sticks: the dots' odds `suit_odds` times the rest's where it shows a
    circle, the rest's so many times theirs where it shows none; the bamboo's odds
    `stick_odds` times where it shows sticks and no circle (a dots tile's pips can run
    together into a stick). A tile without circles may be bamboo, a flower or a
    character alike: it only tells against the dots; one without sticks may be a bird,
    or blurred, and tells nothing."""
    unsure = face_up & (probs.max(1) < config.reader_unsure)
    if not unsure.any():
        return probs
    tiles = [upright(img, tuple(b)) for b in boxes[unsure]]
    circles = np.array([shows_circles(t) for t in tiles])
    sticks = np.array([shows_sticks(t) for t in tiles])
    weighed = probs[unsure] * np.where(DOTS, np.where(circles, config.suit_odds, 1 / config.suit_odds)[:, None], 1.0)
    weighed *= np.where(BAMBOO, np.where(sticks & ~circles, config.stick_odds, 1.0)[:, None], 1.0)
    out = probs.copy()
    out[unsure] = weighed / weighed.sum(1, keepdims=True)
    return out
