"""The one type detections travel in between the stages, and the IoU every stage uses."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detections import Detections, box_iou


def _three() -> Detections:
    return Detections(np.array([[0.0, 0, 10, 10], [20, 0, 30, 10], [-5, -5, 5, 50]]), np.array([0.9, 0.2, 0.5]), np.array([1, 2, 3]))


def test_iou_of_the_same_box_half_overlapping_and_apart():
    a = np.array([[0.0, 0, 10, 10]])
    b = np.array([[0.0, 0, 10, 10], [5, 0, 15, 10], [20, 20, 30, 30]])
    assert box_iou(a, b) == pytest.approx(np.array([[1.0, 1 / 3, 0.0]]))


def test_a_mask_or_an_index_picks_boxes_scores_and_classes_together():
    d = _three()
    picked = d[d.scores >= 0.5]
    assert picked.boxes.tolist() == [[0, 0, 10, 10], [-5, -5, 5, 50]] and picked.scores.tolist() == [0.9, 0.5] and picked.classes.tolist() == [1, 3]
    assert d[np.array([2, 0])].classes.tolist() == [3, 1]
    assert d.at_least(0.5).classes.tolist() == [1, 3] and len(d.at_least(0.95)) == 0


def test_concatenation_keeps_the_order_of_the_parts():
    d = _three()
    both = Detections.concat([d[np.array([1])], Detections.empty(), d[np.array([0])]])
    assert both.classes.tolist() == [2, 1] and both.boxes.shape == (2, 4)
    assert Detections.concat([Detections.empty()] * 2).boxes.shape == (0, 4)


def test_boxes_shift_scale_and_clip_while_scores_and_classes_stay():
    d = _three()
    assert d.shifted(100, 10).boxes[0].tolist() == [100, 10, 110, 20]
    assert d.scaled(2, 0.5).boxes[1].tolist() == [40, 0, 60, 5]
    assert d.clipped(25, 20).boxes.tolist() == [[0, 0, 10, 10], [20, 0, 25, 10], [0, 0, 5, 20]]
    assert d.scaled(2, 2).scores is d.scores and d.shifted(1, 1).classes is d.classes


def test_three_arrays_of_different_lengths_are_refused():
    with pytest.raises(ValueError, match="2 boxes, 1 scores and 1 classes"):
        Detections(np.zeros((2, 4)), np.zeros(1), np.zeros(1, int))
