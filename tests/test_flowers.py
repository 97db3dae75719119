"""The flower reader: the shipped ONNX file agreeing with the network it was exported
from (golden files made by `vision.training.flowers --export`), a flower read the
same upside down and sideways, only the tiles that may be flowers read again and only
among the flowers, the golden photos' flowers read at least as well as the face reader
reads them (a bad flower model is refused in test_faces.py, beside the face reader's)."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from conftest import ROOT, labelled_golden_photos

from vision.faces import DEFAULT_FACES, FACES, FaceReader
from vision.flowers import DEFAULT_FLOWERS, FLOWER_FACES, FLOWERS, SIZE, FlowerReader

MAY_BE_A_FLOWER = 0.1  # the threshold the tests read at

GOLDEN = ROOT / "tests" / "golden" / "flowers.json"


@pytest.fixture(scope="module")
def reader() -> FlowerReader:
    return FlowerReader(DEFAULT_FLOWERS)


def _golden_flower():
    """A real photo and the box of a flower in it."""
    for img, boxes, codes in labelled_golden_photos():
        for box, code in zip(boxes, codes):
            if code in FLOWERS:
                return img, box, code
    raise AssertionError("no golden photo shows a flower: the flower tests would read nothing")


def test_the_shipped_flower_reader_agrees_with_the_network_it_was_exported_from(reader):
    from vision.faces import blob

    golden = json.loads(GOLDEN.read_text())
    strip = cv2.imread(str(GOLDEN.with_suffix(".png")))[:, :, ::-1]
    crops = np.stack(np.split(strip, strip.shape[1] // SIZE, axis=1))
    (logits,) = reader.session.run(["logits"], {reader.input: blob(crops)})
    assert [FLOWERS[i] for i in logits.argmax(1)] == golden["flowers"]
    assert logits == pytest.approx(np.array(golden["logits"]), abs=1e-3)


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_a_flower_reads_the_same_upside_down_and_sideways(reader):
    img, box, code = _golden_flower()
    x1, y1, x2, y2 = box
    h, w = img.shape[:2]
    upright = reader.read(img, box[None])
    upside_down = reader.read(np.ascontiguousarray(np.rot90(img, 2)), np.array([[w - x2, h - y2, w - x1, h - y1]]))
    sideways = reader.read(np.ascontiguousarray(np.rot90(img)), np.array([[y1, w - x2, y2, w - x1]]))  # (x, y) -> (y, w - x)
    assert FLOWERS[int(upright.argmax())] == FLOWERS[int(upside_down.argmax())] == FLOWERS[int(sideways.argmax())] == code


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_only_a_tile_that_may_be_a_flower_is_read_again_and_only_among_the_flowers(reader):
    img, box, code = _golden_flower()
    probs = np.full((2, len(FACES)), 0.0)
    probs[0, FLOWER_FACES] = 0.5 / len(FLOWERS)  # half a flower, unsure which
    probs[0, 0] = 0.5
    probs[1, FLOWER_FACES] = MAY_BE_A_FLOWER / 2 / len(FLOWERS)  # almost surely no flower
    probs[1, 0] = 1 - MAY_BE_A_FLOWER / 2
    again = reader.reread(img, np.stack([box, box]), probs, MAY_BE_A_FLOWER)
    assert again[:, FLOWER_FACES].sum(1) == pytest.approx(probs[:, FLOWER_FACES].sum(1))
    assert again[:, : FLOWER_FACES.start] == pytest.approx(probs[:, : FLOWER_FACES.start])
    assert FACES[FLOWER_FACES.start + int(again[0, FLOWER_FACES].argmax())] == code
    assert again[1] == pytest.approx(probs[1])


def test_two_readings_that_rule_out_each_others_flower_still_leave_the_tile_a_flower(reader, monkeypatch):
    probs = np.zeros((1, len(FACES)))
    probs[0, FLOWER_FACES.start] = 1.0  # the face reader: surely 1f
    monkeypatch.setattr(reader, "read", lambda img, boxes: np.eye(len(FLOWERS))[[1]])  # the flower reader: surely 2f
    again = reader.reread(np.zeros((8, 8, 3), np.uint8), np.array([[0, 0, 4, 4.0]]), probs, MAY_BE_A_FLOWER)
    assert np.isfinite(again).all() and again[0, FLOWER_FACES].sum() == pytest.approx(1.0)


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_the_flower_reader_reads_the_golden_photos_flowers_at_least_as_well_as_the_face_reader(reader):
    faces = FaceReader(DEFAULT_FACES)
    right = {"face reader": 0, "flower reader": 0}
    flowers = 0
    for img, boxes, codes in labelled_golden_photos():
        mask = np.array([c in FLOWERS for c in codes])
        if not mask.any():
            continue
        probs = faces.read(img, boxes[mask])[0]
        truth = [FACES.index(c) for c, m in zip(codes, mask) if m]
        flowers += len(truth)
        right["face reader"] += int((probs[:, FLOWER_FACES].argmax(1) + FLOWER_FACES.start == truth).sum())
        right["flower reader"] += int((reader.read(img, boxes[mask]).argmax(1) + FLOWER_FACES.start == truth).sum())
    assert flowers and right["flower reader"] >= right["face reader"] and right["flower reader"] >= 0.9 * flowers, (right, flowers)
