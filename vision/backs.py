"""Face down (蓋牌): a tile showing its back, one colour and no ink, unlike the photo's faces.

A concealed kong (暗槓) is laid out with its tiles face down, and a photo of the table
shows the walls so. No face reader knows a back (there is none among the 42 faces), and
the detector learnt its `back` class from the Hong Kong set, whose photos hold none: it
reads no rendered back as one (models/README.md, "Face down"), and the readers then name
the blank as 白. A back is one colour, the set's, which is not the ivory or white of its
faces; a face, even 白's empty one, is that of every other face in the photo. So a tile
the readers would name whose middle shows no ink and whose colour lies far from the
ground of the photo's inked faces is face down. A back nearly the faces' own colour
looks like an empty 白; but a set has four 白, so more unmarked tiles read as 白 than
that side by side in a row are a wall of backs. Elsewhere such a back stays a face, for the player
to check.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import Thresholds
from .faces import Cut, crops_of
from .tileset import rows_of

SIZE = 32  # px: the middle of a tile, cut square; a colour and a share of ink need no more
MIDDLE = Cut(0.7, 0.7)  # the box's middle 70 % each way: clear of its edge, its neighbours and the table
INK = 30  # a pixel this far (Lab units, any channel) from its tile's ground is ink
COPIES = 4  # of each tile in a set


def grounds(img: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each tile's ground colour, the median Lab (OpenCV's 8-bit scale) of the brighter
    half of its middle, and the share of its middle that is ink."""
    crops = crops_of(img, boxes, SIZE, MIDDLE)  # RGB, N x SIZE x SIZE: converted as one image
    lab = cv2.cvtColor(crops.reshape(-1, SIZE, 3), cv2.COLOR_RGB2LAB).reshape(len(boxes), -1, 3).astype(np.float32)
    brighter = np.argsort(lab[:, :, 0], axis=1)[:, lab.shape[1] // 2 :]
    ground = np.median(np.take_along_axis(lab, brighter[:, :, None], axis=1), axis=1)
    ink = (np.abs(lab - ground[:, None]).max(2) > INK).mean(1)
    return ground, ink


def face_down(img: np.ndarray, boxes: np.ndarray, face_up: np.ndarray, read_white: np.ndarray, config: Thresholds) -> np.ndarray:
    """Which of the tiles at `boxes` (x1, y1, x2, y2 in the BGR `img`) that the detector
    read face up (`face_up`) show their back. A blank one, less than `back_ink` of its
    middle inked, is a back where its ground lies `back_colour` or more from the median
    ground of the photo's faces (the tiles inked `face_ink` or more, at least
    `faces_for_colour` of them), lightness weighed `back_lightness` beside the two colour
    axes (a face in shade is darker, not of another colour), and its short side is
    `back_side` of the faces' or more. One inked less than `face_ink` that the readers
    read as 白 (`read_white`), or that the detector read face down, is a back where it
    stands in a wall of one colour (`in_walls`): a 白 pung beside a coloured kong stays 白."""
    if not face_up.any():
        return np.zeros(len(boxes), bool)
    ground, ink = grounds(img, boxes)
    blank, faces = ink < config.back_ink, (ink >= config.face_ink) & face_up
    coloured = np.zeros(len(boxes), bool)
    if faces.sum() >= config.faces_for_colour:
        distance = _apart(ground, np.median(ground[faces], axis=0), config)
        side = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        whole = side >= config.back_side * np.median(side[faces])  # a sliver at the photo's edge is part of a tile, or the table
        coloured = blank & (distance >= config.back_colour) & whole
    unmarked_white = ~face_up | ((ink < config.face_ink) & read_white)
    return face_up & (coloured | in_walls(boxes, ground, unmarked_white, config))


def _apart(ground: np.ndarray, other: np.ndarray, config: Thresholds) -> np.ndarray:
    """How far each ground colour lies from `other` (Lab), lightness weighed `back_lightness`."""
    d = ground - other
    return np.sqrt((config.back_lightness * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def in_walls(boxes: np.ndarray, ground: np.ndarray, white: np.ndarray, config: Thresholds) -> np.ndarray:
    """Which `white` tiles (each an unmarked tile read as 白, or one read face down) stand
    in a run of more than `COPIES` of them side by side in a row (`tileset.rows_of`; each
    less than `wall_gap` of its width from the last, its `ground` colour less than
    `back_colour` from it): a set has four 白, so such a run is a wall or a row of backs.
    A back of the faces' own colour shows so only there."""
    out = np.zeros(len(boxes), bool)
    for row in rows_of(boxes):
        run: list[int] = []
        for i in [*row, None]:
            if i is not None and white[i] and run and _beside(boxes, ground, run[-1], i, config):
                run.append(i)
                continue
            if len(run) > COPIES:
                out[run] = True
            run = [i] if i is not None and white[i] else []
    return out


def _beside(boxes: np.ndarray, ground: np.ndarray, last: int, i: int, config: Thresholds) -> bool:
    """Whether tile `i` continues a run of tiles whose last is `last`: close beside it, of its colour."""
    near = boxes[i, 0] - boxes[last, 2] < config.wall_gap * (boxes[last, 2] - boxes[last, 0])
    return bool(near and _apart(ground[i], ground[last], config) < config.back_colour)
