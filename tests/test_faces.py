"""The face reader: its crops, the training crops turned but never mirrored, the shipped
ONNX file agreeing with the network it was exported from (golden files made by
`vision.training.faces --export`), and a bad model file refused."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import ROOT

from vision.detector import DEFAULT_MODEL, Detector
from vision.faces import DEFAULT_FACES, FACES, MARGIN, SIZE, FaceReader, crop

GOLDEN = ROOT / "tests" / "golden" / "faces.json"


def _white_box_photo() -> np.ndarray:
    img = np.full((400, 400, 3), 30, np.uint8)
    img[100:220, 150:240] = 255
    return img


def test_a_crop_is_the_box_grown_by_the_margin_and_warped_square():
    out = crop(_white_box_photo(), (150, 100, 240, 220))
    inset = SIZE * (1 - 1 / MARGIN) / 2
    ys, xs = np.nonzero(out.mean(2) > 128)
    assert out.shape == (SIZE, SIZE, 3)
    assert xs.min() == pytest.approx(inset, abs=1) and xs.max() + 1 == pytest.approx(SIZE - inset, abs=1)
    assert ys.min() == pytest.approx(inset, abs=1) and ys.max() + 1 == pytest.approx(SIZE - inset, abs=1)


def test_training_crops_turn_by_quarters_and_are_never_mirrored():
    from vision.training.faces import augmented

    img = np.full((400, 400, 3), 30, np.uint8)
    img[100:160, 150:195], img[100:160, 195:240], img[160:220, 195:240], img[160:220, 150:195] = 0, 85, 170, 255
    box = np.array([150.0, 100, 240, 220])
    plain = crop(img, tuple(box)).astype(float).mean(2)
    views = {(mirrored, k): np.rot90(np.fliplr(plain) if mirrored else plain, k) for mirrored in (False, True) for k in range(4)}
    like = lambda a, b: np.corrcoef(a.ravel(), b.ravel())[0, 1]  # noqa: E731
    turns = set()
    rng = np.random.default_rng(3)
    for _ in range(40):
        out = augmented(img, box, rng).astype(float).mean(2)
        mirrored, k = max(views, key=lambda v: like(out, views[v]))
        assert not mirrored
        turns.add(k)
    assert turns == {0, 1, 2, 3}


@pytest.fixture(scope="module")
def reader() -> FaceReader:
    return FaceReader(DEFAULT_FACES)


def test_the_shipped_face_reader_agrees_with_the_network_it_was_exported_from(reader):
    import cv2

    from vision.faces import blob

    golden = json.loads(GOLDEN.read_text())
    strip = cv2.imread(str(GOLDEN.with_suffix(".png")))[:, :, ::-1]
    crops = np.stack(np.split(strip, strip.shape[1] // SIZE, axis=1))

    logits = reader.session.run(None, {reader.input: blob(crops)})[0]
    assert [FACES[i] for i in logits.argmax(1)] == golden["faces"]
    assert logits == pytest.approx(np.array(golden["logits"]), abs=1e-3)


def test_the_face_reader_reads_every_box_given_and_none_for_none(reader):
    img = _white_box_photo()
    probs = reader.read(img, np.array([[150.0, 100, 240, 220], [10, 20, 50, 80]]))
    assert probs.shape == (2, len(FACES)) and probs.sum(1) == pytest.approx([1, 1], abs=1e-5)
    assert reader.read(img, np.zeros((0, 4))).shape == (0, len(FACES))


def test_a_detector_file_or_a_corrupt_file_is_refused_as_a_face_reader(tmp_path):
    with pytest.raises(ValueError, match="not the 42 tile faces"):
        FaceReader(DEFAULT_MODEL)
    bad = tmp_path / "faces.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a loadable ONNX model"):
        FaceReader(bad)
    with pytest.raises(ValueError, match="no face model file"):
        FaceReader(tmp_path / "missing.onnx")


def test_the_face_reader_reads_the_golden_photos_at_least_as_well_as_the_detector():
    from datasets.real import convert_line, corners
    from vision.classes import CLASSES
    from vision.detector import box_iou
    from vision.training.golden import REAL, photos

    right, labelled = {"detector": 0, "face reader": 0}, 0
    readers = {"detector": Detector(DEFAULT_MODEL, faces=None), "face reader": Detector(DEFAULT_MODEL)}
    for name, img in photos():
        if not name.startswith("real/"):
            continue
        h, w = img.shape[:2]
        source = (REAL.parent / "labels" / name.removeprefix("real/")).with_suffix(".txt")
        rows = [convert_line(line).split() for line in source.read_text().splitlines() if line.strip()]
        truth = np.array([corners([float(v) for v in r[1:]]) for r in rows]) * [w, h, w, h]
        codes = [CLASSES[int(r[0])] for r in rows]
        labelled += len(codes)
        for key, det in readers.items():
            tiles = det.detect(img)
            iou = box_iou(np.array([t.box for t in tiles]).reshape(-1, 4), truth)
            right[key] += sum(iou[i].max() >= 0.5 and t.code == codes[int(iou[i].argmax())] for i, t in enumerate(tiles))
    assert right["face reader"] >= right["detector"] and right["face reader"] >= 0.9 * labelled, (right, labelled)
