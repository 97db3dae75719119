"""A photo stretched out of its proportions, told by its tiles and read squeezed back."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.config import DEFAULT
from vision.detections import Detections
from vision.image import load
from vision.reshape import a_few_in_shape, out_of_shape, reproportioned, smoothed_along, squeezed, surer


def _tiles(n: int, score: float, w: float = 30, h: float = 40) -> Detections:
    return Detections(np.tile([0, 0, w, h], (n, 1)).astype(float), np.full(n, score), np.zeros(n, int))


def test_tiles_say_when_a_photo_is_out_of_its_proportions():
    assert not out_of_shape(_tiles(5, 0.9), DEFAULT)
    assert not out_of_shape(_tiles(1, 0.6), DEFAULT)  # a lone tile, read surely and in shape
    assert out_of_shape(Detections.empty(), DEFAULT)  # no tile at all
    assert out_of_shape(_tiles(5, 0.4), DEFAULT)  # parts of stretched tiles pass, unsurely, for tiles
    assert out_of_shape(_tiles(5, 0.9, h=200), DEFAULT)  # 30 x 200: no tile is so long


def test_a_few_tiles_in_shape_from_the_finder_are_a_lone_tile_or_a_close_up():
    assert a_few_in_shape(_tiles(1, 0.6), DEFAULT)
    assert a_few_in_shape(_tiles(4, 0.6), DEFAULT)
    assert not a_few_in_shape(_tiles(5, 0.6), DEFAULT)  # a diagonal row stretched: near-square boxes of sheared tiles
    assert not a_few_in_shape(_tiles(1, 0.6, h=200), DEFAULT)  # a lone tile stretched
    assert not a_few_in_shape(Detections.empty(), DEFAULT)
    assert not a_few_in_shape(None, DEFAULT)  # no finder: none read the photo


def test_a_squeeze_divides_one_side():
    assert squeezed(1280, 320, 4, True) == (320, 320) and squeezed(1280, 320, 4, False) == (1280, 80)
    assert squeezed(10, 10, 16, True) == (1, 10)


def test_a_squeezed_reading_wins_only_with_enough_sure_tiles_and_more_confidence():
    assert surer(_tiles(3, 0.6), _tiles(2, 0.8), DEFAULT)
    assert not surer(_tiles(2, 0.99), Detections.empty(), DEFAULT)  # two sure tiles are not enough
    assert not surer(_tiles(3, 0.6), _tiles(3, 0.7), DEFAULT)


def test_the_squeeze_that_reads_best_wins_refined_by_a_quarter_step():
    asked = []

    def read(size: tuple[int, int]) -> Detections:
        asked.append(size)
        w, h = size
        return _tiles(5, 0.9 - abs(np.log2(w / 160)) / 10) if h == 640 else Detections.empty()  # best squeezed to 160 wide

    best = reproportioned(read, 640, 640, Detections.empty(), DEFAULT)
    assert len(asked) == 2 * len(DEFAULT.stretches) + 2 and asked[-2:] == [squeezed(640, 640, 4 / 2**0.25, True), squeezed(640, 640, 4 * 2**0.25, True)]
    assert best.scores[0] == 0.9
    assert reproportioned(lambda size: Detections.empty(), 640, 640, _tiles(1, 0.3), DEFAULT).scores.tolist() == [0.3]


@pytest.mark.shared("art")
def test_a_stretch_smooths_a_photo_along_the_side_it_stretched(tmp_path):
    from render import render_hand

    photo = load(render_hand(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "5z", "5z", "2p", "3p"], "4p", tmp_path / "hand.png"))
    h, w = photo.shape[:2]
    assert smoothed_along(photo, DEFAULT) == ()  # a row of tiles in its proportions: about as many edges either way
    assert smoothed_along(cv2.resize(photo, (4 * w, h)), DEFAULT) == (True,)
    assert smoothed_along(cv2.resize(photo, (w, 3 * h)), DEFAULT) == (False,)
    assert smoothed_along(np.full((480, 640, 3), 30, np.uint8), DEFAULT) == ()  # a flat photo, a black one: no side
    assert smoothed_along(cv2.resize(photo, (1, h)), DEFAULT) == ()  # one pixel wide: no neighbours along x


def test_only_the_side_a_photo_is_smoothed_along_is_squeezed():
    asked = []

    def read(size: tuple[int, int]) -> Detections:
        asked.append(size)
        return Detections.empty()

    reproportioned(read, 1280, 320, Detections.empty(), DEFAULT, (True,))
    assert asked == [squeezed(1280, 320, s, True) for s in DEFAULT.stretches]
