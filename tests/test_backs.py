"""Face down by a tile's back (`vision/backs.py`): one colour, no ink, unlike the photo's faces."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from conftest import labelled_golden_photos

from vision.backs import face_down
from vision.config import DEFAULT

IVORY, FELT = (225, 235, 240), (40, 120, 40)  # BGR
BLUE_BACK, GREY_BACK = (170, 90, 40), (190, 200, 200)
WHITE = {n: np.ones(n, bool) for n in range(10)}  # every tile read as 白 by the readers: the rule must tell faces by their ink


def _table(tiles: list[tuple[str, tuple]]) -> tuple[np.ndarray, np.ndarray]:
    """A row of 60 x 80 px tiles on felt, each ("ink", colour): an inked face, ("blank",
    colour): an empty one, ("back", colour): one colour; and their boxes."""
    img = np.full((140, 40 + 70 * len(tiles), 3), FELT, np.uint8)
    boxes = []
    for i, (kind, colour) in enumerate(tiles):
        x1, y1 = 20 + 70 * i, 30
        img[y1 : y1 + 80, x1 : x1 + 60] = colour
        if kind == "ink":
            cv2.putText(img, str(i + 1), (x1 + 12, y1 + 55), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (40, 40, 160), 4)
            cv2.line(img, (x1 + 10, y1 + 18), (x1 + 50, y1 + 18), (30, 30, 30), 4)
        boxes.append([x1, y1, x1 + 60, y1 + 80])
    return img, np.array(boxes, float)


def test_a_tile_showing_a_coloured_back_is_face_down_and_a_blank_white_in_shade_is_not():
    shade = tuple(int(0.7 * v) for v in IVORY)  # 白's empty face, darker: in a shadow, not another colour
    img, boxes = _table([("ink", IVORY), ("ink", IVORY), ("blank", shade), ("back", BLUE_BACK), ("ink", IVORY), ("blank", IVORY)])
    assert face_down(img, boxes, np.ones(6, bool), WHITE[6], DEFAULT).tolist() == [False, False, False, True, False, False]


def test_a_back_nearly_the_faces_colour_stays_a_face_for_the_player_to_check():
    img, boxes = _table([("ink", IVORY), ("ink", IVORY), ("back", GREY_BACK), ("back", BLUE_BACK)])
    assert face_down(img, boxes, np.ones(4, bool), WHITE[4], DEFAULT).tolist() == [False, False, False, True]


def test_more_blank_tiles_side_by_side_than_a_set_has_white_dragons_are_a_wall_of_backs():
    ivory_backs = [("blank", IVORY)] * 6  # backs the faces' own colour: each alone could be an empty 白
    img, boxes = _table([("ink", IVORY), ("ink", IVORY), *ivory_backs])
    assert face_down(img, boxes, np.ones(8, bool), WHITE[8], DEFAULT).tolist() == [False] * 2 + [True] * 6
    read_white = np.array([True, True] + [True, False] * 3)  # the readers name another face in three of them: no wall
    assert not face_down(img, boxes, np.ones(8, bool), read_white, DEFAULT).any()
    img, boxes = _table([("ink", IVORY), ("ink", IVORY), *ivory_backs[:4]])  # a kong of 白: four of them
    assert not face_down(img, boxes, np.ones(6, bool), WHITE[6], DEFAULT).any()
    img, boxes = _table([("blank", IVORY), ("ink", IVORY)] * 3)  # blanks with faces between them
    assert not face_down(img, boxes, np.ones(6, bool), WHITE[6], DEFAULT).any()


def test_a_sliver_of_a_tile_at_the_photos_edge_is_not_a_back():
    img, boxes = _table([("ink", IVORY), ("ink", IVORY), ("back", BLUE_BACK), ("back", BLUE_BACK)])
    boxes[3, 2] = boxes[3, 0] + 20  # a third of a tile's width: the photo's edge cut it
    assert face_down(img, boxes, np.ones(4, bool), WHITE[4], DEFAULT).tolist() == [False, False, True, False]


def test_with_fewer_faces_than_it_takes_to_know_their_colour_no_tile_is_called_face_down():
    img, boxes = _table([("ink", IVORY), ("back", BLUE_BACK), ("back", BLUE_BACK), ("back", BLUE_BACK)])
    assert not face_down(img, boxes, np.ones(4, bool), WHITE[4], DEFAULT).any()
    assert not face_down(img, boxes[:0], np.zeros(0, bool), WHITE[0], DEFAULT).any()


def test_the_detectors_own_backs_join_a_wall_and_a_white_pung_beside_a_coloured_kong_stays_white():
    img, boxes = _table([("ink", IVORY), ("ink", IVORY), *[("blank", IVORY)] * 6])
    detector_backs = np.array([True, True, False, False, True, True, True, True])  # it read two of the wall face down itself
    assert face_down(img, boxes, detector_backs, WHITE[8], DEFAULT).tolist() == [False] * 4 + [True] * 4
    img, boxes = _table([("ink", IVORY), ("ink", IVORY), *[("back", BLUE_BACK)] * 4, *[("blank", IVORY)] * 3])
    assert face_down(img, boxes, np.ones(9, bool), WHITE[9], DEFAULT).tolist() == [False] * 2 + [True] * 4 + [False] * 3


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_no_face_of_the_hong_kong_golden_photos_is_called_face_down():
    photos = list(labelled_golden_photos())
    assert photos and sum("5z" in codes for _, _, codes in photos) >= 1, "the golden photos show a blank 白"
    for img, boxes, _ in photos:
        assert not face_down(img, boxes, np.ones(len(boxes), bool), np.ones(len(boxes), bool), DEFAULT).any()


@pytest.mark.shared("art")
@pytest.mark.parametrize("seed", [50_003, 50_010])  # hands whose concealed kongs and walls lie face down, green and red backs
def test_a_rendered_hand_of_unseen_art_reads_its_backs_face_down_and_no_face_so(seed):
    from datasets.faces import build
    from datasets.scene import render
    from vision.classes import CLASSES
    from vision.detections import box_iou
    from vision.detector import Detector

    photo = render(build(["lietxia"]), seed)
    tiles = Detector().detect(photo.image)
    iou = box_iou(np.array([b[1:] for b in photo.boxes]), np.array([t.box for t in tiles]).reshape(-1, 4))
    read = [tiles[int(iou[i].argmax())].code if iou[i].max() >= 0.5 else None for i in range(len(photo.boxes))]
    truth = [CLASSES[b[0]] for b in photo.boxes]
    backs = [r for t, r in zip(truth, read) if t == "back"]
    assert len(backs) >= 5 and backs.count("back") == len(backs)
    assert not any(r == "back" for t, r in zip(truth, read) if t != "back")
