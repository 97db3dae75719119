"""Shared helpers: hands are written as a player would, in the CLI's JSON form."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring.hand import hand_from_json  # noqa: E402
from scoring.scorer import Score, score  # noqa: E402


def play(concealed: str, win: str, **kw) -> Score:
    """Score a hand; a discard win from W to S in the East round unless told otherwise."""
    obj = {"concealed": concealed, "winning_tile": win, "seat": "S", "round": "E", **kw}
    if not obj.get("self_drawn") and "discarder" not in obj:
        obj["discarder"] = "W"
    return score(hand_from_json(obj))


def ids(s: Score) -> dict[str, int]:
    return {i.id: i.value for i in s.items}


@pytest.fixture
def root() -> Path:
    return ROOT


def labelled_golden_photos():
    """Each real golden photo with its labelled boxes (photo pixels) and their codes."""
    import numpy as np

    from datasets.real import convert_line, corners
    from vision.classes import CLASSES
    from vision.training.golden import REAL, photos

    for name, img in photos():
        if not name.startswith("real/"):
            continue
        h, w = img.shape[:2]
        source = (REAL.parent / "labels" / name.removeprefix("real/")).with_suffix(".txt")
        rows = [convert_line(line).split() for line in source.read_text().splitlines() if line.strip()]
        yield img, np.array([corners([float(v) for v in r[1:]]) for r in rows]) * [w, h, w, h], [CLASSES[int(r[0])] for r in rows]
