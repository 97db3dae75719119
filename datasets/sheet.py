"""A synthetic photo of the standard sheet a player photographs to teach the reader
their set (`taiscore tileset learn`): the 42 kinds in five rows (萬, 筒, 條, the
honours, the flowers), on a table, seen a little askew; or of any rows of tiles, one
tile alone too.

`python -m datasets.sheet --singles DIR` writes a one-tile photo of each of the 42
kinds and prints their `PHOTO=TILES` arguments: what learning 42 photos is timed on
(README)."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.tileset import SHEET

from .scene import THICK, TILE_H, TILE_W, Placed, lit, table_top, tile_picture

__all__ = ["ROWS", "SHEET", "render_sheet", "write_singles"]
ROWS = ("123456789m", "123456789p", "123456789s", "1234567z", "12345678f")
# A style the readers never saw, at a seed and a size where the shipped detector finds each
# tile alone: at others it misses or splits 0-16 of the 42.
SINGLES_STYLE, SINGLES_SEED, SINGLES_PX = "lietxia", 3, 128


def render_sheet(faces: dict[str, np.ndarray], seed: int, tile_px: int = 64, rows: tuple[str, ...] = ROWS) -> np.ndarray:
    """The sheet of one style's `faces`, each tile about `tile_px` wide, BGR: the tiles
    in `rows` (each one suit's digits, e.g. `123m`), the photo turned up to 4 degrees
    and its corners pulled up to 4 % apart."""
    rng = np.random.default_rng(seed)
    gap, line = 0.12 * tile_px, (TILE_H + THICK + 0.5) * tile_px
    margin = 1.5 * tile_px
    columns = max(len(row) - 1 for row in rows)
    w, h = round(2 * margin + columns * (TILE_W * tile_px + gap)), round(2 * margin + len(rows) * line)
    photo = table_top(h, w, rng)
    front, back = (236, 244, 248), tuple(int(v) for v in rng.integers(30, 200, 3))
    for r, row in enumerate(rows):
        for i, digit in enumerate(row[:-1]):
            img, alpha, _ = tile_picture(Placed(digit + row[-1], 0, 0), faces, tile_px, front, back)
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


def write_singles(faces: dict[str, np.ndarray], out: Path, seed: int = SINGLES_SEED, tile_px: int = SINGLES_PX) -> list[str]:
    """A one-tile photo of each kind of the sheet written to `out` (JPEG, as a phone
    gives it): the `PHOTO=TILES` argument of each, in the sheet's order."""
    out.mkdir(parents=True, exist_ok=True)
    pairs = []
    for row in ROWS:
        for digit in row[:-1]:
            kind = digit + row[-1]
            path = out / f"{kind}.jpg"
            cv2.imwrite(str(path), render_sheet(faces, seed, tile_px, rows=(kind,)), [cv2.IMWRITE_JPEG_QUALITY, 90])
            pairs.append(f"{path}={kind}")
    return pairs


def main() -> None:
    from .faces import build

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--singles", type=Path, required=True, metavar="DIR", help="where to write the 42 one-tile photos")
    p.add_argument("--style", default=SINGLES_STYLE)
    args = p.parse_args()
    faces = build([args.style]).get(args.style, {})
    if len(faces) != 42:
        raise SystemExit(f"style {args.style!r} has {len(faces)} of the 42 faces: ../shared/art and rsvg-convert are needed")
    print(" ".join(write_singles(faces, args.singles)))


if __name__ == "__main__":
    main()
