"""The detector pipeline: onnxruntime + OpenCV agree with ultralytics' own predictions
(golden file made by vision.training.golden), photos are checked before decoding."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from conftest import ROOT

from vision.detections import Detections
from vision.detector import DEFAULT_MODEL, Detector
from vision.image import ImageError, load

GOLDEN = ROOT / "tests" / "golden" / "detections.json"


@pytest.fixture(scope="module")
def detector():
    """The detector alone: ultralytics knows nothing of the face reader."""
    return Detector(DEFAULT_MODEL, faces=None)


def _iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


@pytest.mark.shared("art", "datasets/chinese-mahjong-detection")
def test_onnx_pipeline_agrees_with_ultralytics_on_the_golden_photos(detector):
    from vision.training.golden import photos

    golden = json.loads(GOLDEN.read_text())
    checked = 0
    for name, img in photos():
        theirs = golden[name]
        ours = detector.detect(img)
        for t in ours:
            # box voting moves a box by a pixel or two from where ultralytics leaves it
            match = [g for g in theirs if g["code"] == t.code and _iou(g["box"], t.box) > 0.9]
            assert match, f"{name}: {t.code} at {t.box} not in ultralytics' prediction"
            assert abs(match[0]["conf"] - t.conf) < 0.03
        for g in theirs:  # one box per physical tile: where ultralytics has two classes, we keep the surer
            if g["conf"] >= 0.5:
                same_tile = [t for t in ours if _iou(g["box"], t.box) > 0.7]  # the suppression's own threshold
                assert same_tile and max(t.conf for t in same_tile) >= g["conf"] - 0.03, f"{name}: missed {g}"
        checked += len(ours)
    assert checked > 0


def _counted(detector, monkeypatch, read=None) -> list:
    """The shape of each image the detector's network is run on from now on, reading as
    `read` does (the network itself by default)."""
    runs = []
    network = detector.network
    read = read or network

    class Counted:
        size = network.size

        def __call__(self, part, floor):
            runs.append(part.shape)
            return read(part, floor)

    monkeypatch.setattr(detector, "network", Counted())
    return runs


def _passes(detector, img, monkeypatch) -> int:
    """How many network runs reading `img` takes: one for the whole photo, one per window."""
    runs = _counted(detector, monkeypatch)
    detector.boxes(img)
    return len(runs)


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_windows_are_read_only_when_the_whole_photo_shows_its_tiles_small(detector, monkeypatch):
    from vision.training.golden import REAL, real_photos

    photo = load(REAL / real_photos()[0])
    assert photo.shape[:2] == (640, 640)
    # three of it side by side: its tiles of about 60 px shrink to 15 px at 480 px across
    assert _passes(detector, np.concatenate([photo] * 3, 1), monkeypatch) > 1
    # the photo enlarged to the same width: its tiles come out at their usual size
    assert _passes(detector, cv2.resize(photo, (1920, 1920)), monkeypatch) == 1


@pytest.mark.shared("datasets/chinese-mahjong-detection")
@pytest.mark.parametrize("size", [(1280, 320), (320, 1280)])
def test_a_photo_stretched_out_of_its_proportions_is_read_at_its_own(size):
    from vision.training.golden import REAL, real_photos

    reader = Detector()
    photo = load(REAL / real_photos()[1])
    truth = reader.detect(photo)
    scale = np.array([size[0] / 640, size[1] / 640] * 2)
    stretched = cv2.resize(photo, size)  # tiles 4 times too wide or too tall
    got = reader.detect(stretched)
    found = [t for t in truth if any(g.code == t.code and _iou(g.box, np.array(t.box) * scale) > 0.5 for g in got)]
    assert len(truth) >= 12 and len(found) >= len(truth) - 1


@pytest.mark.shared("art")
def test_a_photo_in_its_proportions_is_read_in_one_pass_however_unsure_the_detector_is(tmp_path, monkeypatch):
    from render import render_hand

    reader = Detector()
    photo = load(render_hand(["1m", "1m", "2p"], "3s", tmp_path / "few.png"))
    # a set the detector does not know, the finder not sure of a lone tile or a close-up either
    runs = _counted(reader, monkeypatch, lambda part, floor: Detections.empty())
    monkeypatch.setattr(reader, "finder", None)
    reader.detect(photo)
    assert len(runs) == 1
    reader.detect(cv2.resize(photo, (photo.shape[1], 2 * photo.shape[0])))  # stretched: squeezed along y alone
    assert len(runs) == 1 + 1 + len(reader.config.stretches)
    assert {shape[1] for shape in runs[2:]} == {photo.shape[1]}  # every squeeze as wide as the photo


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_a_stretched_photo_of_a_set_the_readers_do_not_know_is_put_back_in_shape_by_where_its_tiles_lie():
    from vision.models import UNSEEN_FACES
    from vision.training.golden import REAL, real_photos

    photo = load(REAL / real_photos()[1])
    truth = Detector().detect(photo)
    stretched = cv2.resize(photo, (1280, 320))
    # a face reader that never saw this set is sure of few of its faces: the squeeze that
    # finds the tiles surest wins all the same, and every tile keeps its box
    got = Detector(faces=UNSEEN_FACES, flowers=None).detect(stretched)
    scale = np.array([2, 0.5] * 2)
    found = [t for t in truth if any(_iou(g.box, np.array(t.box) * scale) > 0.5 for g in got)]
    assert len(truth) >= 12 and len(found) >= len(truth) - 1


def test_exif_orientation_is_applied(tmp_path):
    from PIL import Image

    img = Image.new("RGB", (60, 30), (255, 0, 0))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to view
    path = tmp_path / "turned.jpg"
    img.save(path, exif=exif.tobytes())
    assert load(path).shape[:2] == (60, 30)


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"", "empty"), (b"not an image at all", "not an image"), (b"\xff\xd8\xff\xe0" + b"\0" * 64, "not an image")],
)
def test_bad_photos_are_refused(tmp_path, data, message):
    path = tmp_path / "photo.jpg"
    path.write_bytes(data)
    with pytest.raises(ImageError, match=message):
        load(path)


def test_huge_photos_are_refused_before_decoding(tmp_path):
    path = tmp_path / "huge.png"
    cv2.imwrite(str(path), np.zeros((8000, 7000), np.uint8))
    with pytest.raises(ImageError, match="MP, above"):
        load(path)


@pytest.mark.shared("art")
def test_cli_detect_contract(tmp_path):
    import subprocess
    import sys

    from render import render_hand

    photo = render_hand("1m 2m 3m".split(), "4m", tmp_path / "hand.png")
    r = subprocess.run([sys.executable, "-m", "taiscore_cli", "detect", str(photo), "--json"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out[0]["image"] == str(photo) and out[0]["width"] == 40 + 4 * 62 + 80
    assert all({"code", "conf", "box"} == set(t) for t in out[0]["tiles"])
    bad = subprocess.run([sys.executable, "-m", "taiscore_cli", "detect", str(tmp_path / "none.jpg")], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "cannot read" in bad.stderr


@pytest.mark.shared("art")
def test_cli_reads_with_or_without_the_face_and_flower_readers_and_the_text_recogniser_and_refuses_a_bad_model(tmp_path):
    import subprocess
    import sys

    from render import render_hand

    photo = str(render_hand("1m 2m 3m".split(), "4m", tmp_path / "hand.png"))
    run = lambda *a: subprocess.run([sys.executable, "-m", "taiscore_cli", "detect", photo, "--json", *a], capture_output=True, text=True, cwd=ROOT)  # noqa: E731
    for readers in ([], ["--flowers", "none"], ["--characters", "none"], ["--faces", "none"]):
        r = run(*readers)
        assert r.returncode == 0 and json.loads(r.stdout)[0]["tiles"], r.stderr
    (tmp_path / "bad.onnx").write_bytes(b"not a model")
    for reader in ("--faces", "--flowers", "--characters"):
        bad = run(reader, str(tmp_path / "bad.onnx"))
        assert bad.returncode == 2 and bad.stdout == "" and "not a loadable ONNX model" in bad.stderr
