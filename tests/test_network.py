"""The detector network's call: the letterbox and the decoding of its output."""

from __future__ import annotations

import numpy as np
import pytest

from vision.network import decode, letterbox


def test_letterbox_keeps_aspect_and_centres():
    img = np.zeros((300, 600, 3), np.uint8)
    out, scale, (left, top) = letterbox(img, 640)
    assert out.shape == (640, 640, 3) and scale == pytest.approx(640 / 600) and left == 0 and top == 160
    assert (out[:160] == 114).all() and (out[160:480] == 0).all()


def test_each_anchor_decodes_to_its_best_class_and_a_box_back_through_the_letterbox():
    out = np.zeros((4 + 3, 3), np.float32)  # 3 classes, 3 anchors: cx, cy, w, h, then a score per class
    out[:4, 0], out[4:, 0] = [100, 200, 20, 40], [0.1, 0.8, 0.3]
    out[:4, 1], out[4:, 1] = [50, 50, 10, 10], [0.05, 0.1, 0.2]  # below the floor
    out[:4, 2], out[4:, 2] = [300, 260, 40, 20], [0.6, 0.0, 0.0]
    found = decode(out, scale=0.5, pad=(10, 20), floor=0.25)
    assert found.classes.tolist() == [1, 0] and found.scores == pytest.approx([0.8, 0.6])
    # (90, 180, 110, 220) in the letterbox, less the padding, at twice the size
    assert found.boxes == pytest.approx(np.array([[160, 320, 200, 400], [540, 460, 620, 500]]))
