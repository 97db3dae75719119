"""A synthetic photo of the standard sheet a player photographs to teach the reader
their set (`taiscore tileset learn`): the 42 kinds in five rows (萬, 筒, 條, the
honours, the flowers), on a table, seen a little askew."""

from __future__ import annotations

import cv2
import numpy as np

from .scene import THICK, TILE_H, TILE_W, Placed, lit, table_top, tile_picture

SHEET = "123456789m123456789p123456789s1234567z12345678f"
ROWS = ("123456789m", "123456789p", "123456789s", "1234567z", "12345678f")


def render_sheet(faces: dict[str, np.ndarray], seed: int, tile_px: int = 64) -> np.ndarray:
    """The sheet of one style's `faces`, each tile about `tile_px` wide, BGR: the tiles
    in `ROWS`, the photo turned up to 4 degrees and its corners pulled up to 4 % apart."""
    rng = np.random.default_rng(seed)
    gap, line = 0.12 * tile_px, (TILE_H + THICK + 0.5) * tile_px
    margin = 1.5 * tile_px
    w, h = round(2 * margin + 9 * (TILE_W * tile_px + gap)), round(2 * margin + len(ROWS) * line)
    photo = table_top(h, w, rng)
    front, back = (236, 244, 248), tuple(int(v) for v in rng.integers(30, 200, 3))
    for r, row in enumerate(ROWS):
        for i, digit in enumerate(row[:-1]):
            img, alpha = tile_picture(Placed(digit + row[-1], 0, 0), faces, tile_px, front, back)
            x, y = round(margin + i * (TILE_W * tile_px + gap)), round(margin + r * line)
            region = photo[y : y + img.shape[0], x : x + img.shape[1]]
            region[alpha > 0] = img[alpha > 0]
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    pulled = corners + rng.uniform(-0.04, 0.04, (4, 2)).astype(np.float32) * [w, h]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-4, 4), 1.0)
    pulled = cv2.transform(pulled[None], turn)[0]
    warp = cv2.getPerspectiveTransform(corners, pulled.astype(np.float32))
    photo = cv2.warpPerspective(photo, warp, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return lit(photo, rng)
