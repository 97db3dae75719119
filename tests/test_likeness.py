"""The likeness network's training data and measure (`vision/training/likeness.py`): each
style's each face a class of its own, measured by a style's first example of each face."""

from __future__ import annotations

import numpy as np
from conftest import UNSEEN_CUT

from vision.classes import BACK
from vision.faces import FACES, SIZE
from vision.training.likeness import CROPS_PER_TILE, _photo_crops, nearest_right


def test_a_rendered_photos_face_up_tiles_are_cut_as_either_reader_cuts_them_each_its_styles_class():
    from datasets.faces import build
    from datasets.scene import render

    style = "drawn-cwkai-0"
    crops, labels, photos = _photo_crops((7, style, "hand", 3, UNSEEN_CUT))
    shown = [c for c, *_ in render(build([style]), 7, max_side=960).boxes if c != BACK]
    assert crops.shape == (CROPS_PER_TILE * len(shown), SIZE, SIZE, 3) and crops.dtype == np.uint8
    assert labels.tolist() == [3 * len(FACES) + c for c in shown for _ in range(CROPS_PER_TILE)]
    assert set(photos.tolist()) == {7}


def test_each_face_is_read_by_its_styles_nearest_first_example_in_another_photo():
    # style 0: faces 0 and 1, each shown first in photo 10; style 1: face 0 shown in photo 20
    labels = np.array([0, 1, 0, 1, 0, 42, 42])
    photos = np.array([10, 10, 11, 11, 10, 20, 21])
    vectors = np.array([[1, 0], [0, 1], [1, 0], [1, 0], [0, 1], [0, 1], [0, 1]], float)
    # photo 11's face 0 is near face 0's example, its face 1 is not; photo 10's second face 0
    # shares its example's photo and is not read; style 1's photo 21 reads its own example
    assert nearest_right(lambda seen: vectors[seen], np.arange(7), labels, photos) == 2 / 3
