"""Reading a very large or very wide photo of small tiles in overlapping windows, so that
its tiles reach the network at a size it was trained on."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .config import Thresholds
from .detections import Detections, area

Window = tuple[int, int, int, int]  # x1, y1, x2, y2 in photo pixels
STEP = 0.75  # windows overlap by a quarter of their side: a tile one window's edge cuts, the next sees whole


def tile_side(seen: np.ndarray) -> float | None:
    """The median side (square root of the area) of the tiles a photo shows clearly
    (`seen`, boxes in photo pixels); None where it shows none."""
    if not len(seen):
        return None
    return float(np.median(np.sqrt(area(seen))))


def windows(w: int, h: int, size: int, config: Thresholds, tile: float | None = None) -> list[Window]:
    """The whole photo, plus overlapping windows when it is very wide or very large and
    its tiles come out smaller than `small_tile` at the network's input (`size` px;
    `tile`: their side in photo pixels, None if unknown). Each window is as small as
    brings them up to that size and no smaller: windows over large tiles enlarge them
    past anything trained on, and parts of tiles (one circle of a 2p) pass for tiles.
    Where the whole photo shows no tile, each is half its long side."""
    wins = [(0, 0, w, h)]
    long_, short = max(w, h), min(w, h)
    if long_ <= config.large_photo * size and long_ <= config.wide_photo * short:
        return wins
    if tile is None:
        side = max(size, min(short, long_ // 2))
    elif tile * size / long_ >= config.small_tile:
        return wins
    else:
        side = max(size, round(size * tile / config.small_tile))
    step = int(side * STEP)
    xs = list(range(0, max(w - side, 0) + 1, step)) + [max(w - side, 0)]
    ys = list(range(0, max(h - side, 0) + 1, step)) + [max(h - side, 0)]
    wins += sorted({(x, y, min(x + side, w), min(y + side, h)) for x in xs for y in ys})
    return wins


def uncut(boxes: np.ndarray, window: Window, w: int, h: int, size: int) -> np.ndarray:
    """Which of a window's boxes (in its own pixels) stop short of its inner edges (those
    that are not the photo's): a box reaching one is a tile the edge cuts, and the window
    beside it, overlapping by a quarter of its side, sees that tile whole."""
    x1, y1, x2, y2 = window
    margin = max(x2 - x1, y2 - y1) / size  # one pixel of the network's input
    return ~(
        ((boxes[:, 0] < margin) & (x1 > 0))
        | ((boxes[:, 1] < margin) & (y1 > 0))
        | ((boxes[:, 2] > x2 - x1 - margin) & (x2 < w))
        | ((boxes[:, 3] > y2 - y1 - margin) & (y2 < h))
    )


def in_windows(read: Callable[[np.ndarray], Detections], img: np.ndarray, whole: Detections, size: int, config: Thresholds) -> list[Detections]:
    """What `read` finds in each window `windows` lays over `img` beyond the whole photo
    (whose reading `whole` says how large its tiles are: read at `seen`, not at the working
    threshold, which `taiscore eval` lowers), the tiles an inner edge cuts left out,
    boxes in the photo's pixels."""
    h, w = img.shape[:2]
    parts = []
    for window in windows(w, h, size, config, tile_side(whole.at_least(config.seen).boxes))[1:]:
        x1, y1, x2, y2 = window
        part = read(img[y1:y2, x1:x2])
        parts.append(part[uncut(part.boxes, window, w, h, size)].shifted(x1, y1))
    return parts
