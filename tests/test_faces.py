"""The face reader: its crops, the training crops turned but never mirrored and taught
where the tile lies in them, the shipped ONNX file agreeing with the network it was
exported from (golden files made by `vision.training.faces --export`), the boxes it
places, and a bad model file refused as a face or a flower reader."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from conftest import ROOT, UNSEEN_CUT, labelled_golden_photos

from vision.detector import DEFAULT_MODEL, Detector
from vision.faces import DEFAULT_FACES, FACES, MARGIN, SAME_CUT, SIZE, Cut, FaceReader, crop, cut_of, own_boxes, uncrop
from vision.flowers import FlowerReader

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
        out = augmented(img, box, rng)[0].astype(float).mean(2)
        mirrored, k = max(views, key=lambda v: like(out, views[v]))
        assert not mirrored
        turns.add(k)
    assert turns == {0, 1, 2, 3}


@pytest.mark.parametrize("cut", [SAME_CUT, UNSEEN_CUT])
def test_a_training_crop_is_taught_the_box_where_the_tile_lies_in_it(cut):
    from vision.training.faces import augmented

    rng = np.random.default_rng(5)
    untilted = 0
    for _ in range(20):
        out, target, plain = augmented(_white_box_photo(), np.array([150.0, 100, 240, 220]), rng, cut=cut)
        ys, xs = np.nonzero(out.mean(2) > 128)
        assert (target * SIZE).clip(0, SIZE) == pytest.approx([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], abs=1.5)
        untilted += plain
    assert 0 < untilted < 20


def test_rendered_tiles_teach_the_box_only_where_no_real_photo_is_trained_on(tmp_path, monkeypatch):
    """The generator's box edges are not the detector's: a run that has the real photos
    teaches the box head from them alone, every crop teaching the face."""
    from vision.training import faces as training

    def folder(where, n):
        (where / "images").mkdir(parents=True)
        (where / "labels").mkdir()
        for i in range(n):
            cv2.imwrite(str(where / "images" / f"{where.name}{i}.png"), _white_box_photo())
            (where / "labels" / f"{where.name}{i}.txt").write_text("4 0.5 0.5 0.2 0.3\n")
        return where

    monkeypatch.setattr(training, "DEFAULT_DATA", tmp_path / "real" / "train")
    rendered, real = folder(tmp_path / "rendered", 3), folder(tmp_path / "real" / "valid", 2)
    mixed = training.load_tiles(rendered, real)
    assert [name.startswith("valid") for name in mixed.names] == mixed.real.tolist() == mixed.boxed().tolist()
    assert mixed.real.sum() == 2
    assert training.load_tiles(rendered).boxed().all()
    taught = np.concatenate([t for *_, t in training.batches(mixed, 64, np.random.default_rng(0))])
    assert len(taught) == 5 and 0 < taught.sum() <= 2


def test_a_tile_laid_askew_fills_the_upright_box_round_it_and_is_taught_that_box():
    from vision.training.faces import augmented

    rng = np.random.default_rng(6)
    askew = 0
    for _ in range(20):
        out, target, plain = augmented(_white_box_photo(), np.array([150.0, 100, 240, 220]), rng, turned=1.0)
        white = out.mean(2) > 128
        ys, xs = np.nonzero(white)
        assert (target * SIZE).clip(0, SIZE) == pytest.approx([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], abs=1.5)
        x1, y1, x2, y2 = (target * SIZE).round().astype(int).clip(0, SIZE)
        askew += white[y1:y2, x1:x2].mean() < 0.9  # the box's corners show the table
    assert askew >= 15


def test_a_box_at_the_crops_own_edges_is_the_box_given():
    given = np.array([[150.0, 100, 240, 220], [10, 20, 50, 80]])
    inset = (1 - 1 / MARGIN) / 2
    assert uncrop(np.tile([inset, inset, 1 - inset, 1 - inset], (2, 1)), given) == pytest.approx(given)
    assert uncrop(np.array([[0.0, 0, 1, 1]]), given[:1]) == pytest.approx(np.array([[141, 88, 249, 232]]))


def test_a_readers_cut_grows_its_box_across_and_down_about_a_moved_centre():
    cut = Cut(1.5, 2.0, 0.0, 0.25)
    out = crop(_white_box_photo(), (150, 100, 240, 220), cut=cut)
    ys, xs = np.nonzero(out.mean(2) > 128)
    assert xs.min() == pytest.approx(SIZE * (1 - 1 / 1.5) / 2, abs=1) and xs.max() + 1 == pytest.approx(SIZE * (1 + 1 / 1.5) / 2, abs=1)
    # the crop's centre lies a quarter of the box lower, so the box sits higher in it
    top = SIZE / 2 - (0.5 + 0.25) * SIZE / 2.0
    assert ys.min() == pytest.approx(top, abs=1) and ys.max() + 1 == pytest.approx(top + SIZE / 2.0, abs=1)
    given = np.array([[150.0, 100, 240, 220]])
    edges = [(1 - 1 / 1.5) / 2, top / SIZE, (1 + 1 / 1.5) / 2, top / SIZE + 0.5]
    assert uncrop(np.array([edges]), given, cut) == pytest.approx(given)


def test_a_readers_metadata_says_how_its_crops_are_cut_and_an_impossible_cut_is_refused():
    assert cut_of({}) == Cut(MARGIN, MARGIN, 0.0, 0.0)
    assert cut_of({"crop_margin": "1.43 1.69", "crop_shift": "0.00 0.17"}) == Cut(1.43, 1.69, 0.0, 0.17)
    with pytest.raises(ValueError, match="grown 1 to 3 times"):
        cut_of({"crop_margin": "0.5 1.2"})
    with pytest.raises(ValueError, match="moved at most half"):
        cut_of({"crop_shift": "0 0.8"})
    with pytest.raises(ValueError, match="each is two numbers"):
        cut_of({"crop_margin": "1.4"})
    with pytest.raises(ValueError, match="box_labels 'drawn'"):
        own_boxes({"box_labels": "drawn"})
    assert own_boxes({}) and not own_boxes({"box_labels": "rendered"})


def test_the_unseen_reader_cuts_as_its_rendered_boxes_taught_it_and_keeps_the_detectors_box():
    from vision.models import UNSEEN_FACES

    unseen = FaceReader(UNSEEN_FACES)
    assert unseen.cut == UNSEEN_CUT and unseen.cut.across > MARGIN and unseen.cut.down > unseen.cut.across and unseen.cut.lower > 0
    assert not unseen.own_boxes
    assert FaceReader(DEFAULT_FACES).cut == Cut() and FaceReader(DEFAULT_FACES).own_boxes
    given = np.array([[150.0, 100, 240, 220], [10, 20, 50, 80]])
    assert unseen.read(_white_box_photo(), given)[1] == pytest.approx(given)


@pytest.fixture(scope="module")
def reader() -> FaceReader:
    return FaceReader(DEFAULT_FACES)


def test_the_shipped_face_reader_agrees_with_the_network_it_was_exported_from(reader):
    from vision.faces import blob

    golden = json.loads(GOLDEN.read_text())
    strip = cv2.imread(str(GOLDEN.with_suffix(".png")))[:, :, ::-1]
    crops = np.stack(np.split(strip, strip.shape[1] // SIZE, axis=1))

    logits, boxes = reader.session.run(["logits", "box"], {reader.input: blob(crops)})
    assert [FACES[i] for i in logits.argmax(1)] == golden["faces"]
    assert logits == pytest.approx(np.array(golden["logits"]), abs=1e-3)
    assert boxes == pytest.approx(np.array(golden["boxes"]), abs=1e-4)


def test_the_face_reader_reads_every_box_given_and_none_for_none(reader):
    img = _white_box_photo()
    probs, boxes = reader.read(img, np.array([[150.0, 100, 240, 220], [10, 20, 50, 80]]))
    assert probs.shape == (2, len(FACES)) and probs.sum(1) == pytest.approx([1, 1], abs=1e-5)
    assert boxes.shape == (2, 4)
    probs, boxes = reader.read(img, np.zeros((0, 4)))
    assert probs.shape == (0, len(FACES)) and boxes.shape == (0, 4)


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_the_face_reader_puts_boxes_that_are_off_back_on_their_tiles(reader):
    from vision.detections import box_iou
    from vision.training.faces import jittered

    rng = np.random.default_rng(0)
    before, after = [], []
    for img, truth, _ in labelled_golden_photos():
        given = np.stack([jittered(b, rng, 0.03, 0.06) for b in truth])
        placed = reader.read(img, given)[1]
        before += np.diag(box_iou(given, truth)).tolist()
        after += np.diag(box_iou(placed, truth)).tolist()
    assert np.mean(after) > np.mean(before) + 0.01, (np.mean(before), np.mean(after))


@pytest.mark.parametrize(
    "reader, other, classes, what",
    [(FaceReader, DEFAULT_MODEL, "not the 42 tile faces", "face"), (FlowerReader, DEFAULT_FACES, "not the 8 flowers", "flower")],
)
def test_another_networks_file_or_a_corrupt_or_missing_file_is_refused_as_a_reader(tmp_path, reader, other, classes, what):
    with pytest.raises(ValueError, match=classes):
        reader(other)
    bad = tmp_path / f"{what}s.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a loadable ONNX model"):
        reader(bad)
    with pytest.raises(ValueError, match=f"no {what} model file"):
        reader(tmp_path / "missing.onnx")


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_the_face_reader_reads_the_golden_photos_at_least_as_well_as_the_detector():
    from vision.detections import box_iou

    right, labelled = {"detector": 0, "face reader": 0}, 0
    readers = {"detector": Detector(DEFAULT_MODEL, faces=None), "face reader": Detector(DEFAULT_MODEL)}
    for img, truth, codes in labelled_golden_photos():
        labelled += len(codes)
        for key, det in readers.items():
            tiles = det.detect(img)
            iou = box_iou(np.array([t.box for t in tiles]).reshape(-1, 4), truth)
            right[key] += sum(iou[i].max() >= 0.5 and t.code == codes[int(iou[i].argmax())] for i, t in enumerate(tiles))
    assert right["face reader"] >= right["detector"] and right["face reader"] >= 0.9 * labelled, (right, labelled)


def test_read_at_four_turns_is_the_mean_of_the_four_turned_crops(reader):
    from vision.faces import blob, softmax

    img = np.random.default_rng(1).integers(0, 255, (300, 300, 3), np.uint8)
    boxes = np.array([[40.0, 50, 130, 170], [150, 60, 260, 200]])
    crops = reader.crops(img, boxes)
    by_turn = [softmax(reader.session.run(["logits"], {reader.input: blob(np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2))))})[0]) for k in range(4)]
    probs, placed = reader.read(img, boxes, turns=4)
    assert probs == pytest.approx(np.mean(by_turn, axis=0), abs=1e-5)
    assert placed == pytest.approx(reader.read(img, boxes)[1])
    assert reader.read_embedded(img, boxes, 4)[2] == pytest.approx(reader.read_embedded(img, boxes, 1)[2], abs=1e-5)
    assert reader.read(img, boxes, turns=2)[0] == pytest.approx(np.mean(by_turn[::2], axis=0), abs=1e-5)  # a half turn, not a quarter


def test_a_crowded_photo_is_read_in_runs_as_one_and_impossible_turns_are_refused(reader, monkeypatch):
    import vision.faces

    img = np.random.default_rng(2).integers(0, 255, (300, 300, 3), np.uint8)
    boxes = np.array([[10.0 + 7 * i, 20, 60 + 7 * i, 90] for i in range(30)])
    whole = reader.read_embedded(img, boxes, 4)
    monkeypatch.setattr(vision.faces, "RUN", 16)  # 4 tiles at 4 turns a run
    for a, b in zip(whole, reader.read_embedded(img, boxes, 4)):
        assert a == pytest.approx(b, abs=1e-5)
    for turns in (0, 5):
        with pytest.raises(ValueError, match="1 to 4 turns"):
            reader.read(img, boxes, turns)
