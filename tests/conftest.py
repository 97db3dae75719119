"""Shared helpers: hands are written as a player would, in the CLI's JSON form; a test
that reads ../shared says so with `@pytest.mark.shared("part")`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from scoring.hand import hand_from_json  # noqa: E402
from scoring.scorer import Score, score  # noqa: E402
from vision.faces import Cut  # noqa: E402

UNSEEN_CUT = Cut(1.43, 1.69, 0.0, 0.17)  # how models/unseen/taiscore-faces.onnx cuts: grown more down than across, about a lower centre


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


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "shared(*parts): the test reads these folders of ../shared (art, datasets/...)")


def pytest_runtest_setup(item) -> None:
    """A test marked `shared` whose folders are missing fails in CI (env CI=true), where
    ../shared must be, and is skipped, saying why, elsewhere: it never passes on nothing."""
    for mark in item.iter_markers("shared"):
        for part in mark.args:
            path = SHARED / part
            if not path.is_dir() or not any(path.iterdir()):
                message = f"{path} is missing or empty: this test reads ../shared beside the checkout"
                if os.environ.get("CI") == "true":
                    pytest.fail(message, pytrace=False)
                pytest.skip(message)


def labelled_golden_photos():
    """Each real golden photo with its labelled boxes (photo pixels) and their codes."""
    from vision.training.golden import real_photos

    yield from labelled_photos(real_photos())


def labelled_photos(names: list[str]):
    """Each named Hong Kong validation photo with its labelled boxes (photo pixels) and
    their codes."""
    import cv2
    import numpy as np

    from datasets.real import convert_line, corners
    from vision.classes import CLASSES
    from vision.training.golden import REAL

    for name in names:
        img = cv2.imread(str(REAL / name))
        h, w = img.shape[:2]
        source = (REAL.parent / "labels" / name).with_suffix(".txt")
        rows = [convert_line(line).split() for line in source.read_text().splitlines() if line.strip()]
        yield img, np.array([corners([float(v) for v in r[1:]]) for r in rows]) * [w, h, w, h], [CLASSES[int(r[0])] for r in rows]


def tile_photo(face, turn: int = 0, tilt: float = 0.0, size: tuple[int, int] = (60, 80)):
    """`face` (BGR or BGRA) as an ivory tile on green felt, turned `turn` quarter turns
    and tilted `tilt` degrees, and the upright box that holds it."""
    import cv2
    import numpy as np

    rgb = face[:, :, :3].astype(np.float32)
    alpha = face[:, :, 3:] / 255.0 if face.shape[2] == 4 else 1.0
    tile = cv2.resize((rgb * alpha + (1 - alpha) * 240).astype(np.uint8), size)
    tile = np.ascontiguousarray(np.rot90(cv2.copyMakeBorder(tile, 4, 4, 4, 4, cv2.BORDER_CONSTANT, value=(225, 235, 240)), turn))
    canvas = np.full((240, 240, 3), (40, 120, 40), np.uint8)
    h, w = tile.shape[:2]
    y, x = (240 - h) // 2, (240 - w) // 2
    canvas[y : y + h, x : x + w] = tile
    matrix = cv2.getRotationMatrix2D((120, 120), tilt, 1.0)
    corners = cv2.transform(np.array([[[x, y]], [[x + w, y]], [[x, y + h]], [[x + w, y + h]]], np.float32), matrix).reshape(-1, 2)
    return cv2.warpAffine(canvas, matrix, (240, 240), borderValue=(40, 120, 40)), np.array([[*corners.min(0), *corners.max(0)]])
