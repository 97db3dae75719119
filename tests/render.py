"""Render a clean photo of a known hand from the CC0 artwork (for browser and golden tests)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from datasets.art import samoheen

TILE_W, TILE_H = 60, 84


def tile_image(code: str) -> np.ndarray:
    face = cv2.imread(str(samoheen(code)), cv2.IMREAD_UNCHANGED)
    face = cv2.resize(face, (TILE_W - 8, TILE_H - 8), interpolation=cv2.INTER_AREA)
    tile = np.full((TILE_H, TILE_W, 3), (222, 240, 246), np.uint8)
    alpha = face[:, :, 3:4] / 255.0
    tile[4:-4, 4:-4] = (face[:, :, :3] * alpha + tile[4:-4, 4:-4] * (1 - alpha)).astype(np.uint8)
    cv2.rectangle(tile, (0, 0), (TILE_W - 1, TILE_H - 1), (120, 140, 150), 2)
    return tile


def render_hand(codes: list[str], winning: str, out: Path) -> Path:
    """The concealed row, then the winning tile set apart, on green felt."""
    width = 40 + (len(codes) + 1) * (TILE_W + 2) + 40 + 40
    img = np.full((TILE_H + 160, width, 3), (60, 110, 40), np.uint8)
    x = 40
    for c in codes:
        img[80 : 80 + TILE_H, x : x + TILE_W] = tile_image(c)
        x += TILE_W + 2
    x += 40
    img[80 : 80 + TILE_H, x : x + TILE_W] = tile_image(winning)
    cv2.imwrite(str(out), img)
    return out


SHEET = "123456789m123456789p123456789s1234567z12345678f"  # the standard sheet's TILES, written here, not read from vision.tileset
SHEET_STYLE = "lietxia"  # an art style the readers never saw (held out when the profile's reading was tuned)
SHEET_SEED = 2  # a sheet whose 42 tiles the shipped detector finds (of some it finds 40 or 41)


def render_sheet_photo(out: Path, flowers: bool = True) -> Path:
    """The standard sheet of 42 kinds (datasets/sheet.py) in `SHEET_STYLE`, as a player
    photographs it; without `flowers`, its first four rows, as a set of 136 tiles lays them."""
    from datasets.faces import build
    from datasets.sheet import ROWS, render_sheet

    faces = build([SHEET_STYLE]).get(SHEET_STYLE, {})
    assert len(faces) == 42, "../shared/art and rsvg-convert are needed"
    cv2.imwrite(str(out), render_sheet(faces, SHEET_SEED, rows=ROWS if flowers else ROWS[:4]))
    return out
