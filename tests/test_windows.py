"""Windows over a very large or very wide photo of small tiles (the network's input is
480 px, as shipped)."""

from __future__ import annotations

import numpy as np

from vision.config import DEFAULT
from vision.detections import Detections
from vision.windows import in_windows, tile_side, uncut, windows

SIZE = 480


def test_very_wide_photos_are_read_in_windows():
    wins = windows(4000, 800, SIZE, DEFAULT)
    assert len(wins) > 1 and wins[0] == (0, 0, 4000, 800)
    assert windows(640, 480, SIZE, DEFAULT) == [(0, 0, 640, 480)]


def test_windows_are_as_small_as_bring_the_tiles_up_to_their_trained_size():
    # 122 px tiles in a 12 MP photo come out at 15 px of 480: windows of 1952 px double that
    whole, *wins = windows(4000, 3000, SIZE, DEFAULT, tile=122)
    assert whole == (0, 0, 4000, 3000) and {max(x2 - x1, y2 - y1) for x1, y1, x2, y2 in wins} == {1952}
    assert wins[0][:2] == (0, 0) and wins[-1][2:] == (4000, 3000)  # they cover the photo
    # a strip of 200 px tiles shows them at 42 px of 480 as it is
    assert windows(181, 2258, SIZE, DEFAULT, tile=200) == [(0, 0, 181, 2258)]


def test_a_box_an_inner_edge_of_its_window_cuts_is_dropped():
    window = (1000, 0, 2000, 800)  # in a 4000 x 800 photo: its left and right edges are inner
    boxes = np.array([[0.5, 300, 80, 400], [920, 300, 999.5, 400], [300, 0, 380, 100], [300, 300, 380, 400]])
    assert uncut(boxes, window, 4000, 800, SIZE).tolist() == [False, False, True, True]


def test_the_tile_side_is_the_median_square_root_of_the_areas():
    assert tile_side(np.array([[0.0, 0, 10, 40], [0, 0, 30, 30], [0, 0, 90, 40]])) == 30
    assert tile_side(np.zeros((0, 4))) is None


def test_each_windows_tiles_come_back_in_the_photos_pixels_and_the_whole_photo_is_not_read_again():
    img = np.zeros((800, 4000, 3), np.uint8)
    seen = []

    def read(part: np.ndarray) -> Detections:
        seen.append(part.shape[:2])
        return Detections(np.array([[100.0, 100, 150, 170], [0, 100, 50, 170]]), np.array([0.9, 0.9]), np.array([1, 2]))

    whole = Detections(np.array([[0.0, 0, 20, 28]]), np.array([0.9]), np.array([1]))  # tiles of 24 px: 3 px at 480 across 4000
    parts = in_windows(read, img, whole, SIZE, DEFAULT)
    wins = windows(4000, 800, SIZE, DEFAULT, tile=float(np.sqrt(20 * 28)))[1:]
    assert len(parts) == len(wins) == len(seen) and (800, 4000) not in seen
    for (x1, y1, _, _), part in zip(wins, parts):
        # the box at the window's left edge is cut unless that edge is the photo's own
        assert part.boxes[0].tolist() == [x1 + 100, y1 + 100, x1 + 150, y1 + 170] and len(part) == (2 if x1 == 0 else 1)
