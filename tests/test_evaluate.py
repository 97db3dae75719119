"""The evaluation arithmetic: matching and average precision."""

from __future__ import annotations

import numpy as np

from vision.evaluate import IOUS, average_precision, match, same_hand


def test_the_surer_prediction_claims_the_tile():
    gt = np.array([[3, 0, 0, 10, 10]], float)
    boxes = np.array([[0, 0, 10, 10], [0, 0, 10, 11]], float)
    correct = match(boxes, np.array([3, 3]), gt, np.array([0.4, 0.9]))
    assert not correct[0, :9].any() and correct[1, 0]  # the duplicate at 0.4 is a false positive (below IoU 0.95)


def test_matching_needs_the_right_class_and_is_stricter_at_higher_iou():
    gt = np.array([[1, 0, 0, 10, 10]], float)
    shifted = np.array([[2, 0, 12, 10]], float)  # IoU 0.667
    c = match(shifted, np.array([1]), gt, np.array([0.9]))
    assert c[0, IOUS <= 0.65].all() and not c[0, IOUS > 0.7].any()
    assert not match(shifted, np.array([2]), gt, np.array([0.9])).any()


def test_average_precision_of_a_perfect_and_a_useless_detector():
    assert average_precision(np.array([0.5, 1.0]), np.array([1.0, 1.0])) > 0.99
    assert average_precision(np.array([0.0, 0.0]), np.array([0.0, 0.0])) == 0.0


def test_same_hand_ignores_order():
    a = {"concealed": "123m55p", "melds": ["pon 111z", "chi 234s"], "flowers": "1f", "winning_tile": "5p"}
    b = {"concealed": "55p321m", "melds": ["chi 234s", "pon 111z"], "flowers": "1f", "winning_tile": "5p"}
    assert same_hand(a, b) and not same_hand(a, {**b, "winning_tile": "1m"})


def test_model_card_per_class_table_is_rewritten_in_place():
    from vision.training.card import HEADING, rewrite

    card = f"# Card\n\nintro\n\n{HEADING}\n\n| old | table |\n\n## Licences\n\ncredits\n"
    report = {"per_class": {"1m": {"instances": 3, "AP50": 0.5, "AP50-95": 0.25}}}
    out = rewrite(card, report)
    assert "| 1m | 3 | 0.500 | 0.250 |" in out and "old" not in out
    assert out.startswith("# Card\n\nintro") and out.endswith("## Licences\n\ncredits\n")
