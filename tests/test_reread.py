"""The detector's tiles read again by the face reader (and the flower reader), their
edges blended with the reader's."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import labelled_golden_photos

from vision.blend import blend
from vision.classes import BACK, INDEX
from vision.config import DEFAULT
from vision.detections import Detections, box_iou
from vision.faces import FACES
from vision.reread import among_flowers, reread, reread_characters

# The fake readers' tiles are black, and show no circle and no stick: the suits are not these tests' subject.
PLAIN = dataclasses.replace(DEFAULT, suit_odds=1.0, stick_odds=1.0)


def test_a_blend_lies_the_readers_share_of_the_way_from_the_detectors_box_to_the_readers():
    assert blend(np.array([[0.0, 0, 10, 10]]), np.array([[10.0, 10, 20, 30]]), 0.4) == pytest.approx(np.array([[4, 4, 14, 18]]))
    assert blend(np.array([[0.0, 0, 10, 10]]), np.array([[10.0, 10, 20, 30]]), 0.0) == pytest.approx(np.array([[0, 0, 10, 10]]))


class _Faces:
    """A face reader that reads every tile 9s at 0.6 (and 1m at 0.4) and its box 10 px right."""

    def read(self, img, boxes, turns=1):
        assert turns == DEFAULT.reader_turns  # the stage reads at the config's turns
        probs = np.zeros((len(boxes), len(FACES)))
        probs[:, INDEX["9s"]], probs[:, INDEX["1m"]] = 0.6, 0.4
        return probs, boxes + [10, 0, 10, 0]


def test_a_face_up_tile_takes_the_readers_face_and_a_face_down_one_keeps_its_reading():
    found = Detections(np.array([[0.0, 0, 50, 70], [100, 0, 150, 70]]), np.array([0.9, 0.8]), np.array([INDEX["1m"], BACK]))
    got = reread(np.zeros((100, 240, 3), np.uint8), found, _Faces(), None, PLAIN)
    # boxes move 0.4 of the reader's 10 px, clipped to the photo
    assert got.classes.tolist() == [INDEX["9s"], BACK] and got.scores == pytest.approx([0.54, 0.8])
    assert got.boxes == pytest.approx(np.array([[4, 0, 54, 70], [104, 0, 154, 70]]))


class _Puzzled:
    """A face reader that has never seen these faces: 9s at 0.3, 1m at 0.2, the rest alike."""

    def read(self, img, boxes, turns=1):
        probs = np.full((len(boxes), len(FACES)), 0.5 / (len(FACES) - 2))
        probs[:, INDEX["9s"]], probs[:, INDEX["1m"]] = 0.3, 0.2
        return probs, boxes


def test_every_tile_found_keeps_its_box_however_unsure_its_face():
    found = Detections(np.array([[0.0, 0, 50, 70], [100, 0, 150, 70]]), np.array([0.6, 0.3]), np.array([INDEX["1m"], INDEX["2m"]]))
    got = reread(np.zeros((100, 240, 3), np.uint8), found, _Puzzled(), None, PLAIN)
    # 0.6 x 0.3 and 0.3 x 0.3 are below the working confidence (0.25): both stay, read 9s at
    # 0.18 and 0.09, low-confidence doubts for the player to check
    assert got.classes.tolist() == [INDEX["9s"], INDEX["9s"]] and got.scores == pytest.approx([0.18, 0.09])


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_the_blended_boxes_lie_nearer_the_labelled_tiles_than_the_detectors_own():
    from vision.detector import Detector

    detector = Detector()
    near = {0.0: [], DEFAULT.reader_box_share: []}
    for img, truth, _ in labelled_golden_photos():
        for share in near:
            boxes = np.array([t.box for t in detector.detect(img, dataclasses.replace(DEFAULT, reader_box_share=share))]).reshape(-1, 4)
            iou = box_iou(truth, boxes).max(1)
            near[share] += iou[iou >= 0.5].tolist()
    means = {share: float(np.mean(v)) for share, v in near.items()}
    assert len(near[0.0]) >= 50 and means[DEFAULT.reader_box_share] > means[0.0] + 0.005, means


class _Characters:
    """A text recogniser that reads 6m's characters at 0.5 on every tile it is asked about."""

    def __init__(self):
        self.asked = []

    def read(self, img, boxes):
        self.asked.append(boxes.copy())
        evidence = np.zeros((len(boxes), len(FACES)))
        evidence[:, INDEX["6m"]] = 0.5
        return evidence

    def corners(self, img, boxes):
        return np.zeros((len(boxes), len(FACES))), np.zeros((len(boxes), len(FACES)))


class _SureOfOne:
    """A face reader sure the first tile is 2p (0.95); of the second, 9s 0.3 and 1m 0.2."""

    def read(self, img, boxes, turns=1):
        probs = np.full((len(boxes), len(FACES)), 0.5 / (len(FACES) - 2))
        probs[:, INDEX["9s"]], probs[:, INDEX["1m"]] = 0.3, 0.2
        probs[0] = 0.05 / (len(FACES) - 1)
        probs[0, INDEX["2p"]] = 0.95
        return probs, boxes


def test_a_tile_the_readers_are_unsure_of_takes_the_face_whose_characters_the_recogniser_reads():
    found = Detections(np.array([[0.0, 0, 50, 70], [100, 0, 150, 70], [160, 0, 210, 70]]), np.array([0.9, 0.8, 0.7]), np.array([INDEX["2p"], INDEX["1m"], BACK]))
    characters = _Characters()
    got = reread(np.zeros((100, 240, 3), np.uint8), found, _SureOfOne(), None, PLAIN, characters=characters)
    # asked only about the unsure face-up tile: 6m's odds (0.5 / 40) times 1 + 400 x 0.5 outweigh 9s at 0.3
    assert len(characters.asked) == 1 and characters.asked[0].tolist() == [[100.0, 0, 150, 70]]
    assert got.classes.tolist() == [INDEX["2p"], INDEX["6m"], BACK]
    assert got.scores[0] == pytest.approx(0.9 * 0.95) and got.scores[1] == pytest.approx(0.8 * 2.5125 / 3.5)


def test_where_the_recogniser_reads_nothing_the_readers_reading_stands():
    class _Blank(_Characters):
        def read(self, img, boxes):
            return np.zeros((len(boxes), len(FACES)))

    found = Detections(np.array([[100.0, 0, 150, 70]]), np.array([0.8]), np.array([INDEX["1m"]]))
    got = reread(np.zeros((100, 240, 3), np.uint8), found, _Puzzled(), None, PLAIN, characters=_Blank())
    assert got.classes.tolist() == [INDEX["9s"]] and got.scores == pytest.approx([0.24])


def _flowery(share: float) -> np.ndarray:
    """A reading of one tile: 2m at 1 - `share`, the rest spread evenly over the flowers."""
    probs = np.zeros((1, len(FACES)))
    probs[0, INDEX["2m"]], probs[0, INDEX["1f"] : INDEX["8f"] + 1] = 1 - share, share / 8
    return probs


def _corners(numeral: str | None, name: str | None) -> tuple[np.ndarray, np.ndarray]:
    numerals, names = np.zeros((1, len(FACES))), np.zeros((1, len(FACES)))
    if numeral:
        numerals[0, [INDEX[f"{numeral}f"], INDEX[f"{int(numeral) + 4}f"]]] = 0.9
    if name:
        names[0, INDEX[name]] = 0.8
    return numerals, names


def test_a_flowers_numeral_and_name_read_in_its_corners_choose_among_the_flowers():
    got = among_flowers(_flowery(0.4), *_corners("3", "3f"), 400.0, 0.0)
    assert got[0, INDEX["2m"]] == pytest.approx(0.6) and got[0, INDEX["1f"] : INDEX["8f"] + 1].sum() == pytest.approx(0.4)
    # 3f's odds 361 x 321 times the others', 7f's 361 times
    assert got[0, INDEX["3f"]] == pytest.approx(0.4 * 361 * 321 / (361 * 321 + 361 + 6))


def test_a_flowers_name_in_a_corner_tells_that_the_tile_is_a_flower_and_a_numeral_does_not():
    named = among_flowers(_flowery(0.4), *_corners(None, "3f"), 400.0, 20.0)
    # the flowers' odds 0.4 / 0.6 times 1 + 20 x 0.8
    assert named[0, INDEX["1f"] : INDEX["8f"] + 1].sum() == pytest.approx(0.4 * 17 / (0.4 * 17 + 0.6))
    assert named[0, INDEX["2m"]] == pytest.approx(0.6 / (0.4 * 17 + 0.6)) and named.sum() == pytest.approx(1.0)
    numeral = among_flowers(_flowery(0.4), *_corners("3", None), 400.0, 20.0)
    assert numeral[0, INDEX["2m"]] == pytest.approx(0.6)


def test_a_numeral_alone_leaves_season_and_flower_to_the_readers():
    probs = _flowery(0.8)
    probs[0, INDEX["7f"]] += 0.05
    probs[0, INDEX["2m"]] -= 0.05
    got = among_flowers(probs, *_corners("3", None), 400.0, 20.0)
    assert got[0].argmax() == INDEX["7f"] and got[0, INDEX["3f"]] / got[0, INDEX["7f"]] == pytest.approx(0.1 / 0.15)


def test_where_no_corner_reads_anything_the_flowers_stand_as_read():
    probs = _flowery(0.4)
    assert among_flowers(probs, *_corners(None, None), 400.0, 20.0) == pytest.approx(probs)


class _Seasons(_Characters):
    """Reads no face's characters whole; at every corner asked about, 3 and 秋."""

    def read(self, img, boxes):
        return np.zeros((len(boxes), len(FACES)))

    def corners(self, img, boxes):
        self.asked.append(boxes.copy())
        numerals, names = _corners("3", "3f")
        return numerals.repeat(len(boxes), 0), names.repeat(len(boxes), 0)


def test_the_corners_spread_an_unsure_tiles_share_on_the_flowers_to_the_one_they_read():
    got = reread_characters(np.zeros((100, 240, 3), np.uint8), np.array([[0.0, 0, 50, 70]]), _flowery(0.4), np.array([True]), _Seasons(), DEFAULT)
    # the flowers' odds times 1 + 5 x 0.8 (秋 is a flower's name); 3f's among them 1 + 50 x 0.9 and
    # 1 + 50 x 0.8 times the others', 7f's 46 times
    flower = 0.4 * 5 / (0.4 * 5 + 0.6)
    assert got[0, INDEX["3f"]] == pytest.approx(flower * 46 * 41 / (46 * 41 + 46 + 6)) and got[0, INDEX["2m"]] == pytest.approx(1 - flower)


def test_a_tile_the_readers_took_for_a_flower_is_read_at_its_corners_though_its_characters_read_otherwise():
    class _TwoMan(_Seasons):
        """Reads 二萬 on every face, and 3 and 秋 at every corner."""

        def read(self, img, boxes):
            out = np.zeros((len(boxes), len(FACES)))
            out[:, INDEX["2m"]] = 1.0
            return out

    characters = _TwoMan()
    got = reread_characters(np.zeros((100, 240, 3), np.uint8), np.array([[0.0, 0, 50, 70]]), _flowery(0.2), np.array([True]), characters, DEFAULT)
    assert len(characters.asked) == 1  # a flower's numeral 二 reads as the 2m's: its corners may still name it
    read = 0.2 / (0.2 + 0.8 * 401)  # the flowers' share once 二萬's odds are 1 + 400 times theirs
    named = 1 + DEFAULT.name_odds * 0.8  # 秋 read at 0.8
    assert got[0, INDEX["1f"] : INDEX["8f"] + 1].sum() == pytest.approx(read * named / (1 + read * (named - 1)))


def test_a_reading_all_on_the_flowers_stays_a_reading_when_a_name_is_read():
    probs = np.zeros((1, len(FACES)), np.float32)
    probs[0, INDEX["1f"] : INDEX["8f"] + 1] = np.float32(1 / 8) + np.float32(1e-7)  # rounding: the flowers' share a hair above 1
    got = among_flowers(probs, *_corners("3", "3f"), 50.0, 5.0)
    assert (got >= 0).all() and got.sum() == pytest.approx(1.0, abs=1e-5) and got[0].argmax() == INDEX["3f"]


def test_an_unsure_tile_that_may_be_a_flower_is_read_at_its_corners_and_its_name_there_makes_it_one():
    class _Flowers:
        """Reads the first tile 2m for sure, the second a flower of some kind (2m at 0.6)."""

        def read(self, img, boxes, turns=1):
            return np.vstack([_flowery(0.0), _flowery(0.4)]), boxes

    found = Detections(np.array([[0.0, 0, 50, 70], [100, 0, 150, 70]]), np.array([0.9, 0.8]), np.array([INDEX["2m"], INDEX["2m"]]))
    characters = _Seasons()
    got = reread(np.zeros((100, 240, 3), np.uint8), found, _Flowers(), None, PLAIN, characters=characters)
    assert len(characters.asked) == 1 and characters.asked[0].tolist() == [[100.0, 0, 150, 70]]
    flower = 0.4 * 5 / (0.4 * 5 + 0.6)
    assert got.classes.tolist() == [INDEX["2m"], INDEX["3f"]] and got.scores[1] == pytest.approx(0.8 * flower * 46 * 41 / (46 * 41 + 46 + 6))
