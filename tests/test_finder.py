"""The finder: where the tiles of a set the detector never saw lie."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.config import DEFAULT
from vision.detections import Detections, box_iou
from vision.detector import Detector
from vision.finder import UNNAMED, TileFinder, joined, knows_the_set, row_mates, sure_tiles, with_faint_row_mates
from vision.models import DEFAULT_FINDER, DEFAULT_MODEL, HONG_KONG_KEY
from vision.reshape import out_of_shape


def _tiles(*boxes: tuple[float, float, float, float], score: float = 0.9, cls: int = 3) -> Detections:
    return Detections(np.array(boxes, float).reshape(-1, 4), np.full(len(boxes), score), np.full(len(boxes), cls))


ROW = [(0, 0, 30, 40), (32, 0, 62, 40), (64, 0, 94, 40)]


def test_a_detector_sure_of_three_tiles_or_more_knows_the_set():
    assert knows_the_set(_tiles(*ROW, score=0.9), DEFAULT)
    assert not knows_the_set(_tiles(*ROW[:2], score=0.9), DEFAULT)  # too few to say
    assert not knows_the_set(_tiles(*ROW, score=0.3), DEFAULT)  # it finds them, unsure of every face
    assert not knows_the_set(_tiles(score=0.9), DEFAULT)
    assert knows_the_set(_tiles(*ROW, score=0.3), replace(DEFAULT, finder_known=0.3))


def test_a_detector_unsure_of_one_tile_in_three_does_not_know_the_set():
    half_sure = Detections(np.array(ROW * 2, float), np.array([0.9, 0.9, 0.9, 0.9, 0.3, 0.3]), np.zeros(6, int))
    assert not knows_the_set(half_sure, DEFAULT)  # a set it half knows: the finder places its tiles
    assert knows_the_set(half_sure, replace(DEFAULT, finder_share=0.5))
    assert knows_the_set(Detections(np.array(ROW * 2, float), np.array([0.9] * 5 + [0.3]), np.zeros(6, int)), DEFAULT)


def test_a_detector_sure_of_a_whole_hand_knows_the_set_whatever_lies_unsure_around_it():
    hand_and_discards = Detections(np.array(ROW * 10, float), np.array([0.9] * 16 + [0.3] * 14), np.zeros(30, int))
    assert knows_the_set(hand_and_discards, DEFAULT)
    assert not knows_the_set(hand_and_discards[np.arange(1, 30)], DEFAULT)  # 15 sure of 29: a set it half knows


def test_faint_candidates_do_not_decide_whether_the_detector_knows_the_set():
    faint = Detections(np.array(ROW * 4, float), np.array([0.9] * 3 + [0.01] * 9), np.zeros(12, int))
    assert knows_the_set(faint, DEFAULT)  # as at the working confidence, where the nine are not read


def test_the_finders_tiles_take_the_place_of_the_detectors_and_it_fills_in():
    found = _tiles((2, 1, 31, 41), (200, 0, 230, 40), score=0.3)
    finder = _tiles(ROW[0], ROW[1], score=0.6, cls=UNNAMED)
    both = joined(found, finder, DEFAULT)
    assert both.boxes.tolist() == [list(ROW[0]), list(ROW[1]), [200, 0, 230, 40]]  # the detector's first box gives way
    assert both.classes.tolist() == [UNNAMED, UNNAMED, 3] and both.scores.tolist() == [0.6, 0.6, 0.3]
    assert joined(_tiles(score=0.3), finder, DEFAULT).boxes.tolist() == finder.boxes.tolist()
    assert joined(found, _tiles(cls=UNNAMED), DEFAULT).boxes.tolist() == found.boxes.tolist()


def test_the_detector_file_is_not_a_finder():
    with pytest.raises(ValueError, match="one class"):
        TileFinder(DEFAULT_MODEL, 1)


def test_the_shipped_finder_says_it_was_trained_on_the_hong_kong_photos():
    """Beside the renders: their labels taught it to score low the discards and walls
    they leave out (`finder.sure_tiles`); the model card says so."""
    import onnxruntime as ort

    meta = ort.InferenceSession(str(DEFAULT_FINDER), providers=["CPUExecutionProvider"]).get_modelmeta().custom_metadata_map
    assert meta[HONG_KONG_KEY] == "trained on"


@pytest.mark.shared("art")
def test_the_finder_gives_one_box_a_tile_unnamed(tmp_path):
    import cv2
    from render import TILE_H, TILE_W, render_hand

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "5z", "5z", "5z", "2m"]
    img = cv2.imread(str(render_hand(codes, "2m", tmp_path / "hand.png")))
    finder = TileFinder(DEFAULT_FINDER, 1)
    found = finder(img, DEFAULT)
    assert (found.classes == UNNAMED).all() and len(found) == 17
    x = [40 + i * (TILE_W + 2) for i in range(16)] + [40 + 16 * (TILE_W + 2) + 40]
    truth = np.array([(left, 80, left + TILE_W, 80 + TILE_H) for left in x], float)
    assert (box_iou(truth, found.boxes).max(1) >= 0.5).all()
    strict = finder(img, replace(DEFAULT, finder_conf=0.87))  # it scores 3 tiles so high, the row 0.75-0.87
    assert (strict.scores >= 0.87).sum() == 3 and len(strict) == 16  # the row kept, the tile set apart not
    assert (box_iou(truth[:16], strict.boxes).max(1) >= 0.5).all()


@pytest.mark.shared("art")
def test_a_set_the_detector_never_saw_is_found_with_the_finder():
    """A held-out art style: the detector alone finds a few of its tiles; with the finder
    nearly all, named by the face reader (rightly or not: that is the readers' part)."""
    from datasets.faces import build
    from datasets.scene import render

    style = "kmahjongg-jade"
    faces = build([style])
    assert len(faces.get(style, {})) == 42, "../shared/art and Debian's kmahjongg tilesets are needed"
    with_finder, alone = Detector(threads=1), Detector(threads=1, finder=None)
    shares = {}
    for name, detector in (("with", with_finder), ("alone", alone)):
        hit = total = 0
        for seed in range(3):
            photo = render({style: faces[style]}, 50_000 + seed, max_side=960)
            tiles = detector.detect(photo.image)
            truth = np.array([b[1:] for b in photo.boxes])
            boxes = np.array([t.box for t in tiles]).reshape(-1, 4)
            hit, total = hit + int((box_iou(truth, boxes).max(1) >= 0.5).sum() if len(boxes) else 0), total + len(truth)
        shares[name] = hit / total
    assert shares["alone"] < 0.5 and shares["with"] >= 0.9, shares


@pytest.mark.shared("art")
def test_a_lone_tile_of_a_set_the_detector_never_saw_is_read_in_one_pass(monkeypatch):
    """The detector is sure of no tile in it, which alone would mean a photo stretched out
    of its proportions and 18 squeezed readings; the finder's tile is in shape, so the
    photo is read once, the tile found."""
    from datasets.faces import build
    from datasets.scene import render_scene

    style = "kmahjongg-jade"
    faces = build([style])
    assert len(faces.get(style, {})) == 42, "../shared/art and Debian's kmahjongg tilesets are needed"
    photo = render_scene(faces, 50_000, "lone", max_side=960)
    detector = Detector(threads=1)
    assert out_of_shape(detector.named(photo.image, detector.boxes(photo.image), DEFAULT), DEFAULT)
    squeezed = []
    monkeypatch.setattr(Detector, "boxes_at", lambda self, *args: squeezed.append(args) or Detections.empty())
    tiles = detector.detect(photo.image)
    assert not squeezed
    assert len(tiles) == 1 and box_iou(np.array([photo.boxes[0][1:]], float), np.array([tiles[0].box]))[0, 0] >= 0.5


@pytest.mark.shared("art")
def test_a_hand_of_a_set_the_detector_never_saw_is_squeezed_only_where_tiles_lie_surer(monkeypatch):
    """No face read surely says the photo may be stretched; the squeezes are compared with
    where the finder and the detector place the tiles in the photo as it is, not with the
    detector's few unsure boxes alone: a squeeze that finds three tiles surely does not
    take the place of a whole hand the finder found."""
    from datasets.faces import build
    from datasets.scene import render

    style = "kmahjongg-jade"
    faces = build([style])
    assert len(faces.get(style, {})) == 42, "../shared/art and Debian's kmahjongg tilesets are needed"
    photo = render({style: faces[style]}, 50_000, max_side=960)
    detector = Detector(threads=1)
    assert out_of_shape(detector.named(photo.image, detector.boxes(photo.image), DEFAULT), DEFAULT)
    three = Detections(np.array([[0.0, 0, 30, 40], [40, 0, 70, 40], [80, 0, 110, 40]]), np.full(3, 0.95), np.zeros(3, int))
    monkeypatch.setattr(Detector, "boxes_at", lambda self, *args: three)
    truth, tiles = np.array([b[1:] for b in photo.boxes], float), detector.detect(photo.image)
    assert len(tiles) >= len(truth) - 1 and (box_iou(truth, np.array([t.box for t in tiles])).max(1) >= 0.5).mean() >= 0.9


def test_the_finders_tiles_continuing_a_row_of_the_detectors_sure_tiles_join_it_and_no_others():
    found = Detections(
        np.array([[0.0, 0, 30, 40], [32, 0, 62, 40], [64, 1, 94, 41], [300, 0, 330, 40], [0, 100, 30, 140]]),
        np.array([0.9, 0.9, 0.8, 0.3, 0.9]),
        np.zeros(5, int),
    )
    finder = Detections(
        np.array([
            [96.0, 0, 126, 40],  # beside the row's last sure tile
            [128, 2, 158, 42],  # beside that one: the row grows
            [0, 200, 30, 240],  # a discard, away from the row
            [-6, 0, -1, 40],  # a sliver at the row's end: far narrower than a tile
            [-40, 0, -10, 80],  # beside the row, as wide but twice as tall: not one of its tiles
            [150, 60, 180, 100],  # as large, its left edge by the grown row's end, but below it
            [266, 0, 296, 40],  # beside the detector's unsure tile only
            [1, 0, 31, 40],  # the detector's own tile
        ]),
        np.full(8, 0.8),
        np.full(8, UNNAMED),
    )
    mates = row_mates(found, finder, DEFAULT, DEFAULT.finder_known)
    assert mates.boxes.tolist() == [[96, 0, 126, 40], [128, 2, 158, 42]]
    assert len(row_mates(found, finder[np.zeros(8, bool)], DEFAULT, DEFAULT.finder_known)) == 0
    assert len(row_mates(found[np.array([False, False, False, True, False])], finder, DEFAULT, DEFAULT.finder_known)) == 0  # no sure tile, no row


def test_the_finders_faint_tiles_count_where_they_continue_its_rows():
    """A row's end in shadow, a face-down tile beside face-up ones: scored under
    `finder_conf`, kept beside the finder's surer tiles; a faint box alone is not."""
    found = Detections(
        np.array([
            [0.0, 0, 30, 40], [32, 0, 62, 40],  # a row it is sure enough of
            [64, 0, 94, 40], [96, 0, 126, 40],  # the row's end, faint
            [0, 200, 30, 240],  # faint, away from any row
            [2, 0, 31, 40],  # faint, over a tile of the row: the same tile
            [300, 300, 330, 340],  # a lone tile, sure
        ]),
        np.array([0.8, 0.6, 0.4, 0.36, 0.4, 0.45, 0.9]),
        np.full(7, UNNAMED),
    )
    kept = sorted(with_faint_row_mates(found, DEFAULT).boxes.tolist())
    assert kept == [[0, 0, 30, 40], [32, 0, 62, 40], [64, 0, 94, 40], [96, 0, 126, 40], [300, 300, 330, 340]]
    assert len(with_faint_row_mates(found, replace(DEFAULT, finder_conf=0.85))) == 1  # the lone sure tile has no row mate


def test_the_finders_sure_tiles_the_detector_missed_join_it_anywhere():
    """A row of the hand the detector missed, away from its own: the finder is sure of
    those tiles; a discard it scores lower, and the detector's own tiles, are not taken."""
    found = _tiles(*ROW, score=0.9)
    finder = Detections(
        np.array([[0.0, 100, 30, 140], [32, 100, 62, 140], [0, 200, 30, 240], [1, 0, 31, 40]]),
        np.array([0.85, 0.75, 0.7, 0.95]),
        np.full(4, UNNAMED),
    )
    assert sure_tiles(found, finder, DEFAULT).boxes.tolist() == [[0, 100, 30, 140], [32, 100, 62, 140]]
    assert sure_tiles(found, finder, replace(DEFAULT, finder_sure=0.9)).boxes.tolist() == []
    assert len(sure_tiles(Detections.empty(), finder, DEFAULT)) == 3
    assert len(sure_tiles(found, finder[np.zeros(4, bool)], DEFAULT)) == 0


def _completing(finder: Detections) -> tuple[Detector, list]:
    """A detector whose finder gives `finder` and counts its calls: `completed` needs no network."""
    asked: list = []
    detector = Detector.__new__(Detector)
    detector.finder = lambda img, config: asked.append(img) or finder
    return detector, asked


def test_where_the_detector_knows_the_set_it_asks_the_finder_for_the_tiles_it_missed():
    """Sure of a whole hand, it still asks: a row it missed elsewhere joins where the finder
    is sure of its tiles, a discard it is less sure of does not, and no row mate is taken
    beside a hand's worth of sure tiles."""
    hand = _tiles(*[(32.0 * i, 0, 32 * i + 30, 40) for i in range(16)], score=0.9)
    finder = Detections(
        np.array([[512.0, 0, 542, 40], [0, 100, 30, 140], [32, 100, 62, 140], [0, 300, 30, 340]]),
        np.array([0.7, 0.9, 0.8, 0.6]),  # beside the hand, unsure; a missed row, sure; a discard
        np.full(4, UNNAMED),
    )
    detector, asked = _completing(finder)
    done = detector.completed("photo", hand, DEFAULT)
    assert asked == ["photo"] and done.boxes[16:].tolist() == [[0, 100, 30, 140], [32, 100, 62, 140]]
    unsure_row = Detections.concat([hand[np.arange(5)], _tiles((200, 0, 230, 40), score=0.3)])  # 5 sure, one unsure: fewer than a hand
    assert detector.completed("photo", unsure_row, DEFAULT).boxes[6:].tolist() == [[0, 100, 30, 140], [32, 100, 62, 140]]
    detector, _ = _completing(Detections.concat([_tiles((128, 0, 158, 40), score=0.6, cls=UNNAMED), finder]))
    four_and_unsure = Detections.concat([hand[np.arange(4)], _tiles((400, 0, 430, 40), score=0.3)])
    assert detector.completed("photo", four_and_unsure, DEFAULT).boxes[5:].tolist() == [[128, 0, 158, 40], [0, 100, 30, 140], [32, 100, 62, 140]]
    four_sure = hand[np.arange(4)]  # sure of every tile it found, fewer than a hand: the finder's tile continuing its row joins
    assert detector.completed("photo", four_sure, DEFAULT).boxes[4:].tolist() == [[128, 0, 158, 40], [0, 100, 30, 140], [32, 100, 62, 140]]
    strict = replace(DEFAULT, finder_row=0.65)  # ... where the finder scores it `finder_row` or more: not the felt between two tiles
    assert detector.completed("photo", four_sure, strict).boxes[4:].tolist() == [[0, 100, 30, 140], [32, 100, 62, 140]]
    assert detector.completed("photo", four_and_unsure, strict).boxes[5:].tolist() == [[128, 0, 158, 40], [0, 100, 30, 140], [32, 100, 62, 140]]


def test_where_the_detector_does_not_know_the_set_completing_asks_no_finder():
    detector, asked = _completing(_tiles((0, 100, 30, 140), score=0.9, cls=UNNAMED))
    half_sure = Detections(np.array(ROW * 2, float), np.array([0.9, 0.9, 0.9, 0.3, 0.3, 0.3]), np.zeros(6, int))
    assert detector.completed("photo", half_sure, DEFAULT) is half_sure and not asked
    detector.finder = None
    assert detector.completed("photo", _tiles(*ROW), DEFAULT).boxes.tolist() == [list(b) for b in ROW]
