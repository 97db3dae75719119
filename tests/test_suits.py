"""Dots or bamboo by whether a tile shows circles, and whether it shows sticks (`vision/suits.py`)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from conftest import labelled_photos, tile_photo

from vision.characters import upright
from vision.classes import INDEX
from vision.config import DEFAULT
from vision.faces import FACES
from vision.suits import reread_suits, shows_circles, shows_sticks

FOURFOLD = dataclasses.replace(DEFAULT, suit_odds=4.0, stick_odds=1.0)  # a circle, or none, weighs four to one here; sticks nothing
STICKS = dataclasses.replace(DEFAULT, suit_odds=1.0, stick_odds=4.0)  # sticks weigh four to one here; circles nothing


def _shows(face: np.ndarray, turn: int, shows=shows_circles) -> bool:
    img, box = tile_photo(face, turn)
    return shows(upright(img, tuple(box[0])))


@pytest.mark.parametrize("style", [pytest.param("lietxia", marks=pytest.mark.shared("art")), "kmahjongg-jade", "taiwan-drawn", "drawn-cwkai-0"])
def test_dots_show_circles_and_bamboo_seldom_in_styles_never_trained_on(style):
    from datasets.faces import build

    faces = build([style])[style]
    dots = [_shows(faces[f"{n}p"], turn) for n in range(1, 10) for turn in range(4)]
    bamboo = [_shows(faces[f"{n}s"], turn) for n in range(1, 10) for turn in range(4)]
    assert np.mean(dots) >= 0.95 and np.mean(bamboo) <= 0.15, (np.mean(dots), np.mean(bamboo))


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_on_the_hong_kong_photos_a_circle_is_a_dots_tile():
    from vision.training.golden import REAL

    shown = {"p": [], "s": []}
    for img, boxes, codes in labelled_photos(sorted(p.name for p in REAL.iterdir())[::8]):
        for box, code in zip(boxes, codes):
            if code[1] in shown:
                shown[code[1]].append(shows_circles(upright(img, tuple(box))))
    assert min(len(v) for v in shown.values()) >= 100
    assert np.mean(shown["p"]) >= 0.3 and np.mean(shown["s"]) <= 0.05, {k: np.mean(v) for k, v in shown.items()}


@pytest.mark.parametrize("style", [pytest.param("lietxia", marks=pytest.mark.shared("art")), "kmahjongg-jade", "taiwan-drawn", "drawn-cwkai-0"])
def test_bamboo_shows_sticks_and_the_other_suits_seldom_in_styles_never_trained_on(style):
    from datasets.faces import build

    faces = build([style])[style]
    bamboo = [_shows(faces[f"{n}s"], turn, shows_sticks) for n in range(2, 10) for turn in range(4)]  # 1s is a bird
    others = [_shows(faces[f"{n}{suit}"], turn, shows_sticks) for suit in "mp" for n in range(1, 10) for turn in range(4)]
    assert np.mean(bamboo) >= 0.45 and np.mean(others) <= 0.3, (np.mean(bamboo), np.mean(others))


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_on_the_hong_kong_photos_sticks_are_a_bamboo_tile():
    from vision.training.golden import REAL

    shown = {"p": [], "s": [], "m": []}
    for img, boxes, codes in labelled_photos(sorted(p.name for p in REAL.iterdir())[::8]):
        for box, code in zip(boxes, codes):
            if code[1] in shown and code != "1s":
                shown[code[1]].append(shows_sticks(upright(img, tuple(box))))
    assert min(len(v) for v in shown.values()) >= 100
    assert np.mean(shown["s"]) >= 0.5 and max(np.mean(shown["p"]), np.mean(shown["m"])) <= 0.15, {k: np.mean(v) for k, v in shown.items()}


def _two_blank_tiles() -> np.ndarray:
    """Two blank ivory tiles on felt, at x 20-95 and 140-215, y 10-110."""
    img = np.full((120, 240, 3), (40, 120, 40), np.uint8)
    for x in (20, 140):
        img[10:110, x : x + 75] = 235
    return img


def _photo_of_circles() -> tuple[np.ndarray, np.ndarray]:
    """Two ivory tiles on felt: the first painted with four rings, the second blank."""
    img = _two_blank_tiles()
    for cx, cy in ((40, 35), (75, 35), (40, 85), (75, 85)):
        cv2.circle(img, (cx, cy), 13, (40, 40, 200), 4)
    return img, np.array([[20.0, 10, 95, 110], [140, 10, 215, 110]])


def _unsure(first: str, second: str) -> np.ndarray:
    """A reading of each tile: `first` at 0.4 and `second` at 0.3, the rest alike."""
    probs = np.full((1, len(FACES)), 0.3 / (len(FACES) - 2))
    probs[0, INDEX[first]], probs[0, INDEX[second]] = 0.4, 0.3
    return probs


def test_an_unsure_tile_showing_circles_leans_to_the_dots_and_one_showing_none_away_from_them():
    img, boxes = _photo_of_circles()
    probs = np.vstack([_unsure("9s", "9p"), _unsure("9p", "9s")])
    got = reread_suits(img, boxes, probs, np.array([True, True]), FOURFOLD)
    assert got.argmax(1).tolist() == [INDEX["9p"], INDEX["9s"]]
    # the ringed tile: 9p's odds 0.3 x 4 against 9s's 0.4 and the rest's 0.3 (a fifth of it on the other dots, x 4)
    assert got[0, INDEX["9p"]] == pytest.approx(1.2 / (1.2 + 0.4 + 0.3 * 32 / 40 + 0.3 * 8 / 40 * 4))
    # the blank tile: 9p's odds 0.4 / 4 against 9s's 0.3, the other dots' a quarter too
    assert got[1, INDEX["9s"]] == pytest.approx(0.3 / (0.3 + 0.1 + 0.3 * 32 / 40 + 0.3 * 8 / 40 / 4))


def test_a_tile_the_readers_are_sure_of_or_face_down_is_not_weighed():
    img, boxes = _photo_of_circles()
    sure = np.zeros((2, len(FACES)))
    sure[0, INDEX["9s"]] = 0.95
    sure[0, INDEX["9p"]] = 0.05
    sure[1] = _unsure("9p", "9s")
    got = reread_suits(img, boxes, sure, np.array([True, False]), DEFAULT)
    assert got == pytest.approx(sure)


def _photo_of_sticks() -> tuple[np.ndarray, np.ndarray]:
    """Two ivory tiles on felt: the first painted with four green sticks standing in a row, the second blank."""
    img = _two_blank_tiles()
    for cx in (32, 47, 62, 77):
        cv2.rectangle(img, (cx - 3, 25), (cx + 3, 95), (60, 140, 30), -1)
    return img, np.array([[20.0, 10, 95, 110], [140, 10, 215, 110]])


def test_four_painted_sticks_show_and_a_blank_tile_shows_none():
    img, boxes = _photo_of_sticks()
    assert [shows_sticks(upright(img, tuple(b))) for b in boxes] == [True, False]
    rings, ringed = _photo_of_circles()
    assert not shows_sticks(upright(rings, tuple(ringed[0])))


def test_an_unsure_tile_showing_sticks_leans_to_the_bamboo_and_one_showing_none_stays():
    img, boxes = _photo_of_sticks()
    probs = np.vstack([_unsure("4p", "4s"), _unsure("4p", "4s")])
    got = reread_suits(img, boxes, probs, np.array([True, True]), STICKS)
    assert got.argmax(1).tolist() == [INDEX["4s"], INDEX["4p"]]
    # the sticks: 4s's odds 0.3 x 4 against 4p's 0.4 and the rest's 0.3 (a fifth of it on the other bamboo, x 4)
    assert got[0, INDEX["4s"]] == pytest.approx(1.2 / (1.2 + 0.4 + 0.3 * 32 / 40 + 0.3 * 8 / 40 * 4))
    assert got[1] == pytest.approx(probs[1])


def test_sticks_on_a_tile_showing_circles_do_not_count(monkeypatch):
    import vision.suits

    img, boxes = _photo_of_sticks()
    monkeypatch.setattr(vision.suits, "shows_circles", lambda tile: True)
    probs = _unsure("4p", "4s")
    got = reread_suits(img, boxes[:1], probs, np.array([True]), STICKS)
    assert got == pytest.approx(probs)
