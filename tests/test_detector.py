"""The detector pipeline: onnxruntime + OpenCV agree with ultralytics' own predictions
(golden file made by vision.training.golden), photos are checked before decoding."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from conftest import ROOT

from vision.detector import DEFAULT_MODEL, READER_BOX_SHARE, VOTE_FLOOR, Detector, _out_of_shape, letterbox, vote
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


def test_a_kept_box_moves_to_the_score_weighted_mean_of_the_boxes_on_its_tile():
    kept = np.array([[0.0, 0.0, 100, 100]])
    candidates = np.array([[0.0, 0.0, 100, 100], [4.0, 4.0, 104, 104], [60.0, 0, 160, 100], [-8.0, -8, 92, 92]])
    scores = np.array([0.9, 0.3, 0.9, VOTE_FLOOR / 2])  # the third covers another tile, the fourth scores too low
    assert vote(kept, candidates, scores) == pytest.approx(np.array([[1.0, 1.0, 101, 101]]))


def test_a_box_no_candidate_votes_for_stays_where_it_is():
    kept = np.array([[0.0, 0.0, 100, 100]])
    assert (vote(kept, kept, np.array([VOTE_FLOOR / 2])) == kept).all()


def test_each_final_box_blends_the_detectors_box_and_the_face_readers(detector):
    from vision.training.golden import photos

    reader = Detector(DEFAULT_MODEL)
    name, img = next((n, i) for n, i in photos() if n.startswith("real/"))
    h, w = img.shape[:2]
    boxes, _, _ = detector.boxes(img)
    seen = reader.faces.read(img, boxes)[1]
    blended = ((1 - READER_BOX_SHARE) * boxes + READER_BOX_SHARE * seen).clip(0, [w, h, w, h])
    tiles = reader.detect(img)
    assert tiles and np.abs(seen - boxes).max() > 1, "the reader moves some box"
    for t in tiles:
        assert np.abs(blended - t.box).max(1).min() < 1e-3, f"{name}: {t.code} at {t.box} is no blend"


def test_letterbox_keeps_aspect_and_centres():
    img = np.zeros((300, 600, 3), np.uint8)
    out, scale, (left, top) = letterbox(img, 640)
    assert out.shape == (640, 640, 3) and scale == pytest.approx(640 / 600) and left == 0 and top == 160


def test_very_wide_photos_are_read_in_windows(detector):
    wins = detector._windows(4000, 800)
    assert len(wins) > 1 and wins[0] == (0, 0, 4000, 800)
    assert detector._windows(640, 480) == [(0, 0, 640, 480)]


def test_windows_are_as_small_as_bring_the_tiles_up_to_their_trained_size(detector):
    # 122 px tiles in a 12 MP photo come out at 15 px of 480: windows of 1952 px double that
    whole, *wins = detector._windows(4000, 3000, tile=122)
    assert whole == (0, 0, 4000, 3000) and {max(x2 - x1, y2 - y1) for x1, y1, x2, y2 in wins} == {1952}
    assert wins[0][:2] == (0, 0) and wins[-1][2:] == (4000, 3000)  # they cover the photo
    # a strip of 200 px tiles shows them at 42 px of 480 as it is
    assert detector._windows(181, 2258, tile=200) == [(0, 0, 181, 2258)]


def test_a_box_an_inner_edge_of_its_window_cuts_is_dropped(detector):
    window = (1000, 0, 2000, 800)  # in a 4000 x 800 photo: its left and right edges are inner
    boxes = np.array([[0.5, 300, 80, 400], [920, 300, 999.5, 400], [300, 0, 380, 100], [300, 300, 380, 400]])
    assert detector._uncut(boxes, window, 4000, 800).tolist() == [False, False, True, True]


def _passes(detector, img, monkeypatch) -> int:
    """How many network runs reading `img` takes: one for the whole photo, one per window."""
    runs = []
    raw = detector._raw
    monkeypatch.setattr(detector, "_raw", lambda part: runs.append(part.shape) or raw(part))
    detector.boxes(img)
    return len(runs)


def test_windows_are_read_only_when_the_whole_photo_shows_its_tiles_small(detector, monkeypatch):
    from vision.training.golden import REAL, REAL_PHOTOS

    photo = load(REAL / REAL_PHOTOS[0])
    assert photo.shape[:2] == (640, 640)
    # three of it side by side: its tiles of about 60 px shrink to 15 px at 480 px across
    assert _passes(detector, np.concatenate([photo] * 3, 1), monkeypatch) > 1
    # the photo enlarged to the same width: its tiles come out at their usual size
    assert _passes(detector, cv2.resize(photo, (1920, 1920)), monkeypatch) == 1


def test_tiles_say_when_a_photo_is_out_of_its_proportions():
    tile, sure, unsure = np.array([[0, 0, 30.0, 40]]), np.full(5, 0.9), np.full(5, 0.4)
    assert not _out_of_shape(np.repeat(tile, 5, 0), sure)
    assert _out_of_shape(np.repeat(tile, 2, 0), sure[:2])  # too few to read anything from
    assert _out_of_shape(np.repeat(tile, 5, 0), unsure)  # parts of stretched tiles pass, unsurely, for tiles
    assert _out_of_shape(np.repeat(tile * [1, 1, 1, 5], 5, 0), sure)  # 30 x 200: no tile is so long


@pytest.mark.parametrize("size", [(1280, 320), (320, 1280)])
def test_a_photo_stretched_out_of_its_proportions_is_read_at_its_own(size):
    from vision.training.golden import REAL, REAL_PHOTOS

    reader = Detector()
    photo = load(REAL / REAL_PHOTOS[1])
    truth = reader.detect(photo)
    scale = np.array([size[0] / 640, size[1] / 640] * 2)
    stretched = cv2.resize(photo, size)  # tiles 4 times too wide or too tall
    got = reader.detect(stretched)
    found = [t for t in truth if any(g.code == t.code and _iou(g.box, np.array(t.box) * scale) > 0.5 for g in got)]
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


def test_cli_reads_with_or_without_the_face_and_flower_readers_and_refuses_a_bad_model(tmp_path):
    import subprocess
    import sys

    from render import render_hand

    photo = str(render_hand("1m 2m 3m".split(), "4m", tmp_path / "hand.png"))
    run = lambda *a: subprocess.run([sys.executable, "-m", "taiscore_cli", "detect", photo, "--json", *a], capture_output=True, text=True, cwd=ROOT)  # noqa: E731
    for readers in ([], ["--flowers", "none"], ["--faces", "none"]):
        r = run(*readers)
        assert r.returncode == 0 and json.loads(r.stdout)[0]["tiles"], r.stderr
    (tmp_path / "bad.onnx").write_bytes(b"not a model")
    for reader in ("--faces", "--flowers"):
        bad = run(reader, str(tmp_path / "bad.onnx"))
        assert bad.returncode == 2 and bad.stdout == "" and "not a loadable ONNX model" in bad.stderr
