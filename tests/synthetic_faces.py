"""Faces drawn here, not from ../shared/art: each code a grey pattern of its own, with a red
mark top left, a blue one top right and a green one bottom left, so that a mirrored face
is told from a turned one (the marks' turn reverses)."""

from __future__ import annotations

import numpy as np

from vision.classes import CLASSES

RED, BLUE, GREEN = (0, 0, 255), (255, 0, 0), (0, 255, 0)  # BGR
MARKS = {"red": (0.2, 0.15), "blue": (0.8, 0.15), "green": (0.2, 0.85)}  # share of width, height


def marked_faces(seed: int = 0, w: int = 60, h: int = 80) -> dict[str, np.ndarray]:
    """A BGRA face per tile code, alike for a seed."""
    rng = np.random.default_rng(seed)
    out = {}
    for code in (c for c in CLASSES if c != "back"):
        face = np.zeros((h, w, 4), np.uint8)
        face[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4, :3] = rng.integers(60, 120, (h // 2, w // 2, 1))
        face[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4, 3] = 255
        for colour, (mx, my) in zip((RED, BLUE, GREEN), MARKS.values(), strict=True):
            x, y = int(mx * w), int(my * h)
            face[y - 6 : y + 6, x - 6 : x + 6] = (*colour, 255)
        out[code] = face
    return out
