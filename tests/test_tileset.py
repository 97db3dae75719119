"""Tile-set profiles: learnt from a rendered sheet of an art style the readers never saw
(lietxia, held out when the profile's reading was tuned), they read rendered hands of
that style better than the general reader alone, and another set's profile reads
them no worse; the tiles of a photo are taken in reading order; learning refuses a
count that differs and stores nothing; a missing, corrupt or other readers' profile
is refused by name, on the command line too."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest
from conftest import ROOT
from render import SHEET, SHEET_SEED, render_sheet_photo
from render import SHEET_STYLE as HELD_OUT

import taiscore_cli
from vision import tileset
from vision.detector import Detector

HANDS = range(50_000, 50_008)


@pytest.fixture(scope="module")
def art() -> dict:
    from datasets.faces import build

    faces = build([HELD_OUT, "samoheen"])
    assert all(len(faces.get(s, {})) == 42 for s in (HELD_OUT, "samoheen")), "../shared/art and rsvg-convert are needed"
    return faces


@pytest.fixture(scope="module")
def learner() -> Detector:
    """At its reading thresholds, as the app's one detector: learning finds tiles at `LEARNING`'s whatever the detector's own."""
    return Detector()


@pytest.fixture(scope="module")
def profile(art, learner) -> tileset.Profile:
    from datasets.sheet import render_sheet

    return tileset.learn(learner, tileset.empty(HELD_OUT), [("sheet", render_sheet(art[HELD_OUT], SHEET_SEED), SHEET)])


def _read_right(detector: Detector, art: dict) -> int:
    """Tiles of the rendered hands read with their own code at IoU 0.5."""
    from datasets.scene import render
    from vision.classes import CLASSES
    from vision.detections import box_iou

    right = 0
    for seed in HANDS:
        photo = render({HELD_OUT: art[HELD_OUT]}, seed)
        tiles = detector.detect(photo.image)
        iou = box_iou(np.array([b[1:] for b in photo.boxes]), np.array([t.box for t in tiles]).reshape(-1, 4))
        right += sum(bool(tiles) and iou[i].max() >= 0.5 and tiles[int(iou[i].argmax())].code == CLASSES[b[0]] for i, b in enumerate(photo.boxes))
    return right


@pytest.mark.shared("art")
def test_a_sheet_teaches_every_kind_once_and_shows_each_kinds_examples(profile):
    assert profile.counts() == {k: 1 for k in tileset.kinds_of(SHEET)}
    assert profile.embeddings.shape[0] == 42 and np.linalg.norm(profile.embeddings, axis=1) == pytest.approx(np.ones(42), abs=1e-5)
    assert profile.moved.shape == (42, tileset.MOVES, profile.embeddings.shape[1])
    assert np.linalg.norm(profile.moved, axis=2) == pytest.approx(np.ones((42, tileset.MOVES)), abs=1e-5)
    assert profile.crops.shape == (42, 64, 64, 3)
    row = 64 + tileset.PICTURE_LABEL
    assert profile.picture(per_kind=1).shape == (5 * row, 9 * (64 + tileset.PICTURE_GAP), 3)  # the sheet's five rows, each kind's name above it
    picture = profile.picture(per_kind=2)  # each suit in lines of five kinds: about as wide as one example a kind
    assert picture.shape == (10 * row, 5 * (2 * 64 + tileset.PICTURE_GAP), 3)
    first_5z = profile.crops[profile.kinds.index("5z")]
    top, left = 6 * row + tileset.PICTURE_LABEL, 4 * (2 * 64 + tileset.PICTURE_GAP)  # 1z-5z: the seventh line
    assert np.array_equal(picture[top : top + 64, left : left + 64], first_5z)


@pytest.mark.shared("art")
def test_a_correction_adds_its_tile_and_its_undo_takes_it_away(profile, art, learner):
    from datasets.sheet import render_sheet

    img = render_sheet(art[HELD_OUT], SHEET_SEED)
    corrected = tileset.teach(profile, learner, img, np.array([[10.0, 10, 60, 80]]), ["5z"])
    assert corrected.counts()["5z"] == 2 and corrected.readings.shape == (43, 42) and corrected.readings[-1].sum() == pytest.approx(1.0, abs=1e-4)
    assert corrected.moved.shape == (43, tileset.MOVES, profile.embeddings.shape[1])
    undone = corrected.without_last()
    assert undone.counts() == profile.counts() and np.array_equal(undone.readings, profile.readings)
    assert np.array_equal(undone.moved, profile.moved)


@pytest.mark.shared("art")
def test_a_held_out_style_reads_better_with_its_profile_and_no_worse_with_another_sets(art, learner, profile):
    from datasets.sheet import render_sheet

    other = tileset.learn(learner, tileset.empty("samoheen"), [("sheet", render_sheet(art["samoheen"], SHEET_SEED), SHEET)])
    alone = _read_right(Detector(), art)
    assert _read_right(Detector(tileset=profile), art) > alone
    assert _read_right(Detector(tileset=other), art) >= alone


@pytest.mark.shared("art")
def test_the_measurement_reads_each_photo_once_and_as_the_plain_detector_with_any_profile(art, learner, profile, monkeypatch):
    """`profiles --unseen-real-set` and `--hands` read each photo with a dozen profiles:
    what they print must be what a player's detector reads."""
    from datasets.scene import render
    from vision import reread
    from vision.finder import TileFinder
    from vision.network import TileNetwork
    from vision.training.profiles import remembering

    photos = [render({HELD_OUT: art[HELD_OUT]}, seed).image for seed in HANDS[:3]]
    alone, with_profile = ([learner.with_tileset(chosen).detect(img) for img in photos] for chosen in (None, profile))
    runs = []

    def spy(run, what):
        return lambda *a, **k: runs.append(what) or run(*a, **k)

    for owner, name, what in ((reread, "read", "readers"), (TileNetwork, "__call__", "detector"), (TileFinder, "__call__", "finder")):
        monkeypatch.setattr(owner, name, spy(getattr(owner, name), what))
    remembers = remembering()
    assert [remembers.detect(img) for img in photos] == alone
    assert set(runs) == {"readers", "detector", "finder"}  # the spies see every network
    runs.clear()
    assert [remembers.with_tileset(profile).detect(img) for img in photos] == with_profile
    assert not runs  # the photos are not read again: only the profile's part is done anew


@pytest.mark.shared("art")
def test_a_kind_the_profile_lacks_keeps_the_general_readers_probability(profile):
    keep = [i for i, k in enumerate(profile.kinds) if k != "5z"]
    lacking = tileset.Profile("x", tuple(profile.kinds[i] for i in keep), profile.embeddings[keep], profile.moved[keep], profile.readings[keep], profile.crops[keep], profile.readers)
    one = profile.kinds.index("1m")
    probs = profile.readings[[one]] * 0.5 / (1 - profile.readings[one, tileset.FACES.index("5z")])  # 1m's example as read, and half on 5z
    probs[0, tileset.FACES.index("5z")] = 0.5
    again = lacking.reread(probs, profile.embeddings[[one]], np.ones(1, bool))
    assert again[0, tileset.FACES.index("5z")] == pytest.approx(0.5) and again.sum() == pytest.approx(1.0)
    covered = [i for i, k in enumerate(tileset.FACES) if k != "5z"]
    assert tileset.FACES[covered[int(again[0, covered].argmax())]] == "1m"  # the set's own 1m, as the correction reads it


def test_a_player_correcting_as_they_read_teaches_each_misread_face_and_counts_the_photo_first(tmp_path, monkeypatch):
    """`profiles --unseen-real-set`'s rows "corrected as read": what a player does on the
    Check page, photo after photo."""
    from vision.classes import CLASSES
    from vision.detector import Tile
    from vision.training.profiles import corrected_as_read

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    shown = []
    for name in ("a", "b"):  # 100 x 100 photos, each of a 1m, a 2m and a tile face down
        shown.append((np.zeros((100, 100, 3), np.uint8), tmp_path / "images" / f"{name}.jpg"))
        labels = [(CLASSES.index("1m"), 0.15, 0.5), (CLASSES.index("2m"), 0.5, 0.5), (CLASSES.index("back"), 0.85, 0.5)]
        (tmp_path / "labels" / f"{name}.txt").write_text("".join(f"{c} {x} {y} 0.2 0.4\n" for c, x, y in labels))
    boxes = [(5.0, 30.0, 25.0, 70.0), (40.0, 30.0, 60.0, 70.0), (75.0, 30.0, 95.0, 70.0)]
    learnt = []

    class Reader:  # reads the 2m as a 3m until taught, the face down one as a 5z
        def with_tileset(self, profile):
            return self

        def detect(self, img):
            return [Tile(code, 0.9, box) for code, box in zip(("1m", "2m" if learnt else "3m", "5z"), boxes)]

    monkeypatch.setattr(tileset, "teach", lambda profile, reader, img, box, kinds: learnt.append((box.tolist(), kinds)) or profile)
    whole, later, corrections = corrected_as_read(Reader(), tileset.empty("mine"), shown)
    assert learnt == [([list(boxes[1])], ["2m"])] and corrections == 1
    assert whole.counts["photos"] == 2 and whole.counts["right"] == 1 + 2  # the first photo counted as read before its 2m was taught
    assert later.counts["photos"] == 1 and later.counts["right"] == 2


def test_the_readers_hash_follows_the_face_reader_file_as_it_changes(tmp_path):
    import hashlib
    import os

    reader = tmp_path / "faces.onnx"
    reader.write_bytes(b"one reader")
    assert tileset.readers_hash(reader) == hashlib.sha256(b"one reader").hexdigest()
    reader.write_bytes(b"another one")
    os.utime(reader, ns=(1, 1))  # however the clock stands, a new size or time is a new file
    assert tileset.readers_hash(reader) == hashlib.sha256(b"another one").hexdigest()


def test_tiles_are_taken_rows_top_to_bottom_each_left_to_right():
    # two rows, the second a little tilted; given shuffled
    boxes = np.array([[0, 0, 10, 14], [12, 1, 22, 15], [24, 3, 34, 17], [0, 30, 10, 44], [12, 27, 22, 41]], float)
    order = [3, 0, 4, 2, 1]
    assert [order[i] for i in tileset.reading_order(boxes[order])] == [0, 1, 2, 3, 4]
    assert [[order[i] for i in row] for row in tileset.rows_of(boxes[order])] == [[0, 1, 2], [3, 4]]


def test_the_unseen_real_sets_examples_are_clear_tiles_as_a_player_lays_them():
    from vision.training.profiles import clear

    boxes = np.array(
        [
            [100, 100, 175, 200],  # upright, straight, whole, alone: an example
            [300, 100, 400, 200],  # as wide as tall: a tile askew
            [500, 100, 530, 140],  # too small to teach
            [0, 300, 75, 400],  # cut by the photo's edge
            [200, 300, 275, 400],  # another tile's box over it ...
            [260, 320, 335, 420],  # ... and it over that one
            [400, 300, 475, 400],  # touching its neighbour is clear
            [475, 300, 550, 400],
        ],
        float,
    )
    assert clear(boxes, 640, 480).tolist() == [True, False, False, False, False, False, True, True]


def test_the_unseen_real_sets_examples_come_from_photos_in_their_own_colour():
    from vision.training.profiles import natural

    photo = np.full((200, 300, 3), (40, 120, 40), np.uint8)  # green felt
    boxes = np.array([[20, 20, 95, 120], [120, 20, 195, 120]], float)
    for x1, y1, x2, y2 in boxes.astype(int):
        photo[y1:y2, x1:x2] = (225, 235, 240)  # ivory tiles
        photo[y1 + 30 : y1 + 70, x1 + 20 : x1 + 55] = (30, 30, 160)  # a red character
    magenta = cv2.addWeighted(photo, 0.6, np.full_like(photo, (200, 40, 200)), 0.4, 0)
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert natural(photo, boxes) and not natural(magenta, boxes) and not natural(grey, boxes)


def test_the_unseen_real_sets_photos_are_told_apart_by_the_set_their_names_say_they_show():
    from vision.training.profiles import set_of

    assert set_of("IMG_20231222_151210_jpg.rf.69451f.jpg") == "felt"
    assert [set_of(n) for n in ("hand_008_jpg.rf.9c6d.jpg", "character_family_002_jpg.rf.0a31.jpg", "discards_001_jpg.rf.028e.jpg")] == ["indexed"] * 3
    assert set_of("367510082_1446416116203876_4782610030311571409_n_jpg.rf.b947.jpg") is None  # gathered from the web
    assert set_of("IMG_2742_JPG.rf.1a2b.jpg") is None  # a set with no training photo


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_each_set_the_protocol_teaches_has_training_and_validation_photos():
    from datasets.real import SOURCE
    from vision.training.profiles import SETS, set_of

    for split, least in (("train", 60), ("valid", 20)):
        shown = [set_of(p.name) for p in (SOURCE / split / "images").iterdir()]
        assert all(shown.count(group) >= least for group in SETS), (split, {group: shown.count(group) for group in SETS})


def test_tile_notation_is_read_in_the_order_written_and_a_bad_one_refused():
    assert tileset.kinds_of("3m1m 7z8f") == ["3m", "1m", "7z", "8f"]
    for bad in ("", "9z", "0m", "12x", "1m?"):
        with pytest.raises(ValueError):
            tileset.kinds_of(bad)


@pytest.mark.shared("art")
def test_doubts_name_the_kinds_missing_and_an_example_nearer_another_kind(profile):
    one = [profile.kinds.index(k) for k in ("1m", "2m")]
    # a second "1m" that is really the 2m's embedding
    odd = tileset.Profile("x", ("1m", "2m", "1m"), profile.embeddings[one + [one[1]]], profile.moved[one + [one[1]]], profile.readings[one + [one[1]]], profile.crops[one + [one[1]]], profile.readers)
    doubts = odd.doubts()
    assert doubts[0].startswith("no example of 3m, 4m") and "8f" in doubts[0]
    assert doubts[1:] == ["example 2 of 1m looks more like 2m than like the other 1m"]
    assert profile.doubts() == []  # one example of each kind: nothing to compare it with


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = taiscore_cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("TAISCORE_TILESETS", str(tmp_path / "tilesets"))
    return tmp_path / "tilesets"


@pytest.mark.shared("art")
def test_learning_stores_a_set_and_adds_to_it_and_it_is_listed_shown_and_deleted(capsys, store, tmp_path):
    sheet = render_sheet_photo(tmp_path / "sheet.png")
    code, out, _ = _cli(capsys, "tileset", "learn", "home", f"{sheet}={SHEET}")
    assert code == 0 and json.loads(out)["kinds"] == 42 and (store / "home.npz").is_file()
    code, out, _ = _cli(capsys, "tileset", "learn", "home", f"{sheet}={SHEET}")
    assert code == 0 and json.loads(out)["examples"]["7z"] == 2
    assert _cli(capsys, "tileset", "list") == (0, "home\n", "")
    code, out, _ = _cli(capsys, "tileset", "show", "home")
    assert code == 0 and json.loads(out)["examples"]["1m"] == 2 and json.loads(out)["doubts"] == []
    assert _cli(capsys, "tileset", "delete", "home")[0] == 0 and not (store / "home.npz").exists()


@pytest.mark.shared("art")
def test_a_photo_whose_tile_count_differs_stores_nothing(capsys, store, tmp_path):
    sheet = render_sheet_photo(tmp_path / "sheet.png")
    code, out, err = _cli(capsys, "tileset", "learn", "home", f"{sheet}={SHEET}", f"{sheet}=1m2m")
    assert code == 2 and out == "" and err == f"taiscore: {sheet}: 42 tiles found, 2 named (rows found, top to bottom: 9 + 9 + 9 + 7 + 8)\n"
    assert not store.exists() or not list(store.iterdir())


def test_an_unknown_set_is_refused_by_every_photo_command(capsys, store, tmp_path):
    photo = ROOT / "tests" / "golden" / "faces.png"
    for command in (["detect", str(photo)], ["read", str(photo)], ["eval", str(tmp_path)], ["bench-detector", str(photo)]):
        code, out, err = _cli(capsys, *command, "--tileset", "nobody")
        assert code == 2 and out == "" and err.startswith("taiscore: no tile set 'nobody'") and err.count("\n") == 1, command
    assert _cli(capsys, "tileset", "show", "nobody")[0] == 2
    assert _cli(capsys, "tileset", "delete", "../x")[0] == 2


@pytest.mark.shared("art")
def test_a_corrupt_file_or_one_made_by_other_readers_is_refused_by_name(capsys, store, profile, tmp_path):
    profile.save(store)
    (store / "broken.npz").write_bytes(b"not a profile")
    with pytest.raises(tileset.ProfileError, match="'broken'.*corrupt"):
        tileset.load("broken")
    code, out, err = _cli(capsys, "read", str(ROOT / "tests" / "golden" / "faces.png"), "--tileset", "broken")
    assert code == 2 and out == "" and "'broken'" in err and "corrupt" in err
    other = tmp_path / "other-faces.onnx"
    other.write_bytes(tileset.DEFAULT_FACES.read_bytes() + b"\0")
    with pytest.raises(tileset.ProfileError, match=f"{HELD_OUT!r} was learnt by another version of the face reader"):
        tileset.load(HELD_OUT, other)
    with pytest.raises(tileset.ProfileError, match="another version"):
        Detector(faces=tileset.DEFAULT_FACES, tileset=tileset.Profile(HELD_OUT, profile.kinds, profile.embeddings, profile.moved, profile.readings, profile.crops, "0" * 64))
    loaded = tileset.load(HELD_OUT)
    assert loaded.counts() == profile.counts() and np.allclose(loaded.moved, profile.moved, atol=1e-6)
    assert np.allclose(loaded.correction.weights, profile.correction.weights, atol=1e-5)


def _stored(store, name: str, meta: dict, **arrays: np.ndarray) -> None:
    """A tile-set file of two examples, 1m and 2m, `arrays` replacing or (None) leaving out its own."""
    own = {"kinds": np.array(["1m", "2m"]), "embeddings": np.eye(2, 4, dtype=np.float32),
           "moved": np.repeat(np.eye(2, 4, dtype=np.float32)[:, None], tileset.MOVES, axis=1), "readings": np.full((2, 42), 1 / 42, np.float32),
           "crops": np.zeros((2, 4, 4, 3), np.uint8), "meta": np.array(json.dumps({"name": name, "readers": tileset.readers_hash(), **meta}))}
    store.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(store / f"{name}.npz", **{k: v for k, v in {**own, **arrays}.items() if v is not None})


def test_a_set_learnt_before_its_examples_were_kept_as_now_is_refused_with_what_to_do(store):
    _stored(store, "oldest", {"format": 1}, readings=None, moved=None)
    _stored(store, "older", {"format": 2}, moved=None)
    for name in ("oldest", "older"):
        with pytest.raises(tileset.ProfileError, match=rf"'{name}' was learnt by an older taiscore.*delete it \(taiscore tileset delete {name}\) and learn it again"):
            tileset.load(name)
    _stored(store, "fine", {"format": tileset.FORMAT})
    assert tileset.load("fine").counts() == {"1m": 1, "2m": 1}


@pytest.mark.parametrize(
    "readings",
    [None, np.full((3, 42), 1 / 42, np.float32), np.full((2, 41), 1 / 41, np.float32), np.full((2, 42), np.nan, np.float32),
     np.full((2, 42), 2.0, np.float32), np.float32(0.5)],
    ids=["missing", "too-many", "too-few-kinds", "not-a-number", "above-one", "a-number"],
)
def test_a_set_whose_examples_general_readings_do_not_fit_is_refused_as_corrupt(store, readings):
    _stored(store, "odd", {"format": tileset.FORMAT}, readings=readings)
    with pytest.raises(tileset.ProfileError, match="'odd'.*corrupt"):
        tileset.load("odd")


@pytest.mark.parametrize(
    "moved",
    [None, np.zeros((2, tileset.MOVES - 1, 4), np.float32), np.zeros((2, tileset.MOVES, 3), np.float32),
     np.full((2, tileset.MOVES, 4), np.inf, np.float32)],
    ids=["missing", "too-few-moves", "other-features", "not-a-number"],
)
def test_a_set_whose_moved_examples_do_not_fit_is_refused_as_corrupt(store, moved):
    _stored(store, "odd", {"format": tileset.FORMAT}, moved=moved)
    with pytest.raises(tileset.ProfileError, match="'odd'.*corrupt"):
        tileset.load("odd")


def test_an_example_is_learnt_from_again_with_its_box_moved_and_scaled_about_its_centre():
    moved = tileset.moved_boxes(np.array([[100.0, 200, 140, 260], [0, 0, 10, 10]]))
    assert moved.shape == (2 * tileset.MOVES, 4)
    first = moved[: tileset.MOVES]
    size, centre = first[:, 2:] - first[:, :2], (first[:, :2] + first[:, 2:]) / 2
    assert size == pytest.approx(np.array([40.0, 60]) * tileset.MOVED[:, 2:])
    assert centre == pytest.approx(np.array([120.0, 230]) + tileset.MOVED[:, :2] * [40, 60])
    assert np.abs(tileset.MOVED[:, :2]).max() <= tileset.MOVE and np.abs(tileset.MOVED[:, 2] - 1).max() <= tileset.RESIZE
    assert np.array_equal(tileset.moved_boxes(np.array([[0.0, 0, 10, 10]])), moved[tileset.MOVES :])


def test_a_tile_face_down_does_not_count_for_whether_a_photo_is_the_set():
    readings = np.array([_reading({"1m": 0.1, "2m": 0.8, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.8, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.1, "3m": 0.8})])
    profile = _three_kinds(readings)
    backs = np.array([_unit_towards(5, 0.0)] * 2)  # two backs, like no example
    tiles = np.concatenate([np.eye(8)[[0]], backs])
    probs = np.concatenate([readings[[0]], np.full((2, 42), 1 / 42)])
    assert np.array_equal(profile.reread(probs, tiles, np.ones(3, bool)), probs)  # the backs' median: not the set
    read = profile.reread(probs, tiles, np.array([True, False, False]))
    assert tileset.FACES[int(read[0].argmax())] == "1m"
    assert np.array_equal(profile.reread(probs, tiles, np.zeros(3, bool)), probs)


@pytest.mark.shared("art")
def test_the_active_set_is_kept_beside_the_sets_and_a_missing_or_corrupt_choice_means_none(store, profile):
    assert tileset.active() is None and tileset.active_profile() is None  # no folder yet
    profile.save(store)
    tileset.choose(HELD_OUT)
    assert tileset.active() == HELD_OUT and tileset.active_profile().counts() == profile.counts()
    for corrupt in ("{not json", '["lietxia"]', '{"active": 3}', '{"active": "gone"}', "\udcff"):
        (store / tileset.ACTIVE).write_text(corrupt, errors="surrogateescape")
        assert tileset.active() is None and tileset.active_profile() is None, corrupt
    with pytest.raises(tileset.ProfileError, match="no tile set 'gone'"):
        tileset.choose("gone")
    tileset.choose(HELD_OUT)
    tileset.delete(HELD_OUT)
    assert tileset.active() is None
    profile.save(store)
    assert tileset.active() is None  # a set learnt again under the deleted one's name is not chosen by itself
    tileset.choose(None)
    assert tileset.active() is None and tileset.names() == [HELD_OUT]


@pytest.mark.shared("art")
def test_a_correction_teaches_the_stored_set_and_its_undo_takes_away_exactly_that_example(store, profile, art, learner):
    from datasets.sheet import render_sheet

    profile.save(store)
    reader, img, box = learner, render_sheet(art[HELD_OUT], SHEET_SEED), (10.0, 10.0, 60.0, 80.0)
    first = tileset.correct(HELD_OUT, reader, img, box, "5z", tile=3)
    assert first == tileset.Taught(HELD_OUT, "5z", 3, 43) and tileset.load(HELD_OUT).counts()["5z"] == 2
    again = tileset.correct(HELD_OUT, reader, img, box, "6z", tile=3, last=first)  # the same tile, another word: it replaces the first
    assert tileset.load(HELD_OUT).kinds == profile.kinds + ("6z",)
    other = tileset.correct(HELD_OUT, reader, img, box, "7z", tile=4, last=again)
    assert tileset.load(HELD_OUT).kinds == profile.kinds + ("6z", "7z")
    assert tileset.undo(other) and tileset.load(HELD_OUT).kinds == profile.kinds + ("6z",)
    assert not tileset.undo(other)  # once
    assert tileset.undo(again) and tileset.load(HELD_OUT).kinds == profile.kinds
    early = tileset.correct(HELD_OUT, reader, img, box, "1m", tile=5)
    tileset.correct(HELD_OUT, reader, img, box, "2m", tile=6, last=early)
    assert not tileset.undo(early) and tileset.load(HELD_OUT).kinds == profile.kinds + ("1m", "2m")  # no longer the last: kept
    with pytest.raises(tileset.ProfileError, match="back is none"):
        tileset.correct(HELD_OUT, reader, img, box, "back", tile=7)  # a face-down tile: no face to learn
    assert tileset.load(HELD_OUT).kinds == profile.kinds + ("1m", "2m")
    tileset.delete(HELD_OUT)
    assert not tileset.undo(early)


def test_the_app_names_a_kind_by_its_code_and_its_chinese_name():
    assert [tileset.kind_label(k) for k in ("4z", "3m", "9p", "1s", "8f")] == ["4z 北", "3m 三萬", "9p 九筒", "1s 一條", "8f 竹"]


@pytest.mark.shared("art")
def test_a_detector_reads_with_a_set_on_the_networks_it_loaded(profile):
    base = Detector()
    reading = base.with_tileset(profile)
    assert reading.network is base.network and reading.faces is base.faces and reading.tileset is profile and base.tileset is None
    assert reading.with_tileset(None).tileset is None
    with pytest.raises(tileset.ProfileError, match="another version"):
        base.with_tileset(tileset.Profile(HELD_OUT, profile.kinds, profile.embeddings, profile.moved, profile.readings, profile.crops, "0" * 64))


@pytest.mark.shared("art")
def test_a_photo_of_each_kind_alone_teaches_every_kind_in_the_order_given(art, learner, tmp_path):
    from datasets.sheet import write_singles

    pairs = [p.rsplit("=", 1) for p in write_singles(art[HELD_OUT], tmp_path)]
    photos = [(path, cv2.imread(path), kind) for path, kind in reversed(pairs)]
    learnt = tileset.learn(learner, tileset.empty("singles"), photos)
    assert learnt.kinds == tuple(kind for _, kind in reversed(pairs)) and learnt.counts() == {k: 1 for k in tileset.kinds_of(SHEET)}


@pytest.mark.shared("art")
def test_the_detector_bench_says_what_a_tile_set_adds_to_a_photo(capsys, store, profile):
    import re

    profile.save(store)
    photo = str(ROOT / "tests" / "golden" / "faces.png")
    code, out, _ = _cli(capsys, "bench-detector", photo, "--runs", "1", "--tileset", HELD_OUT)
    assert code == 0 and re.search(rf"; tile set '{HELD_OUT}' adds a median -?\d+\.\d ms a photo \(42 examples; ", out)
    assert "tile set" not in _cli(capsys, "bench-detector", photo, "--runs", "1")[1]


@pytest.mark.shared("art")
def test_a_sheets_tiles_are_found_as_many_as_named_in_its_five_rows(art, learner):
    """The detector's placement (the finder's first only where it does not know the set) gave
    40, 40, 41 and 41 tiles on these sheets of a style it never saw."""
    from datasets.sheet import render_sheet
    from vision.tileset import rows_of, tiles_in

    for seed in (1, 3, 4, 6):
        boxes = tiles_in(learner, render_sheet(art[HELD_OUT], seed), len(tileset.kinds_of(SHEET)))
        assert [len(row) for row in rows_of(boxes)] == [9, 9, 9, 7, 8], seed


def test_where_the_finders_count_is_not_the_named_one_the_detectors_own_placement_may_be_taken():
    """A hand the detector knows, with a wall beside it that the finder boxes too; a set it
    does not know is placed by the finder whatever the count; without a finder, by the detector."""
    from vision.detections import Detections
    from vision.tileset import tiles_in

    hand = np.array([[0, 0, 30, 40], [32, 0, 62, 40], [64, 0, 94, 40]], float)
    wall = np.array([[0, 100, 30, 140]], float)

    class Learner:
        def __init__(self, score: float = 0.9, finder: bool = True):
            self.score = score
            self.finder = self._finder if finder else None

        def boxes(self, img, config):
            return Detections(hand, np.full(3, self.score), np.zeros(3, int))

        def _finder(self, img, config):
            return Detections(np.concatenate([hand, wall]), np.full(4, 0.9), np.zeros(4, int))

        def placed(self, img, located, config, reading=None):
            return located

    img = np.zeros((200, 100, 3), np.uint8)
    assert tiles_in(Learner(), img, 3).tolist() == hand.tolist()
    assert len(tiles_in(Learner(), img, 4)) == 4  # the finder's, wall and all: what the player named
    assert len(tiles_in(Learner(), img, 6)) == 4  # neither: the nearer, for the refusal to count
    assert len(tiles_in(Learner(), img, 1)) == 3
    assert len(tiles_in(Learner(score=0.3), img, 3)) == 4  # a set it does not know: the finder's count stands, to be refused
    assert tiles_in(Learner(finder=False), img, 4).tolist() == hand.tolist()


def _unit_towards(axis: int, cosine: float, dims: int = 8) -> np.ndarray:
    """A unit vector whose cosine similarity to the `axis`-th unit vector is `cosine`."""
    v = np.zeros(dims)
    v[axis], v[-1] = cosine, np.sqrt(1 - cosine**2)
    return v


def _three_kinds(readings: np.ndarray) -> tileset.Profile:
    """A profile of 1m, 2m and 3m, one example each, their embeddings the first three axes."""
    unmoved = np.repeat(np.eye(8)[:3, None], tileset.MOVES, axis=1)  # each example's boxes moved read as it was
    return tileset.Profile("three", ("1m", "2m", "3m"), np.eye(8)[:3], unmoved, readings, np.zeros((3, 1, 1, 3), np.uint8), "0" * 64)


def _reading(probs: dict[str, float]) -> np.ndarray:
    out = np.zeros(42)
    for kind, p in probs.items():
        out[tileset.FACES.index(kind)] = p
    return out


def test_a_profile_learns_what_the_general_reader_gets_wrong_about_its_set():
    """This set's 1m the general reader reads as 2m; its 2m and 3m it reads right."""
    readings = np.array([_reading({"1m": 0.1, "2m": 0.8, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.8, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.1, "3m": 0.8})])
    profile = _three_kinds(readings)
    tiles = np.eye(8)[[0, 1, 2]]  # a photo of the set's 1m, 2m and 3m, read as its examples were
    read = profile.reread(readings, tiles, np.ones(3, bool))
    assert [tileset.FACES[i] for i in read.argmax(1)] == ["1m", "2m", "3m"]
    assert read.sum(1) == pytest.approx(np.ones(3))


def test_another_sets_photo_keeps_its_general_reading_and_a_photo_is_judged_by_its_median_tile():
    readings = np.array([_reading({"1m": 0.1, "2m": 0.8, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.8, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.1, "3m": 0.8})])
    profile = _three_kinds(readings)
    unlike = np.array([_unit_towards(0, tileset.LIKE_NONE - 0.05)] * 3)  # another set's 1m: nearer the 1m example than any other, yet not this set
    assert np.array_equal(profile.reread(readings, unlike, np.ones(3, bool)), readings)
    half = (tileset.LIKE_NONE + tileset.LIKE_FULL) / 2
    assert profile.likeness(profile.nearest(np.array([_unit_towards(0, half)] * 3))) == pytest.approx(0.5)
    alike, other = _unit_towards(0, 1.0), _unit_towards(1, 0.0)
    assert profile.likeness(profile.nearest(np.array([alike, alike, other]))) == 1.0
    assert profile.likeness(profile.nearest(np.array([alike, other, other]))) == 0.0


def test_a_set_without_flowers_reads_a_tile_like_its_examples_as_one_of_its_kinds_never_a_flower():
    """The felt set's 1s, which the general reader takes for a flower: its profile, told the
    set has none, reads it as the kind of its set it is most like."""
    readings = np.array([_reading({"1m": 0.8, "2m": 0.1, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.8, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.1, "3m": 0.8})])
    flowered, flowerless = _three_kinds(readings), _three_kinds(readings).with_flowers(False)
    probs = np.array([_reading({"1m": 0.06, "2m": 0.02, "3m": 0.02, "1f": 0.9}), readings[1], readings[2]])
    tiles = np.eye(8)[[0, 1, 2]]  # the photo's 1m is its example's look
    assert tileset.FACES[int(flowered.reread(probs, tiles, np.ones(3, bool))[0].argmax())] == "1f"
    read = flowerless.reread(probs, tiles, np.ones(3, bool))
    assert [tileset.FACES[i] for i in read.argmax(1)] == ["1m", "2m", "3m"]
    assert read.sum(1) == pytest.approx(np.ones(3)) and read[0, tileset.FACES.index("1f")] == pytest.approx(0)


def test_a_set_without_flowers_leaves_a_flower_unlike_its_examples_and_another_sets_photo_alone():
    """A flower of a look-alike set that has them is like none of this set's examples."""
    readings = np.array([_reading({"1m": 0.8, "2m": 0.1, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.8, "3m": 0.1}), _reading({"1m": 0.1, "2m": 0.1, "3m": 0.8})])
    flowerless = _three_kinds(readings).with_flowers(False)
    flower = _reading({"1m": 0.06, "2m": 0.02, "3m": 0.02, "1f": 0.9})
    probs = np.array([flower, readings[1], readings[2]])
    unlike = np.array([_unit_towards(0, tileset.TILE_NONE - 0.05), np.eye(8)[1], np.eye(8)[2]])
    assert tileset.FACES[int(flowerless.reread(probs, unlike, np.ones(3, bool))[0].argmax())] == "1f"
    half = np.array([_unit_towards(0, (tileset.TILE_NONE + tileset.TILE_FULL) / 2), np.eye(8)[1], np.eye(8)[2]])
    assert flowerless.without_flowers(probs, flowerless.nearest(half), 1.0)[0, tileset.FACES.index("1f")] == pytest.approx(0.45 / 0.55)
    other_set = np.array([_unit_towards(0, tileset.LIKE_NONE - 0.05)] * 3)
    assert np.array_equal(flowerless.reread(probs, other_set, np.ones(3, bool)), probs)
    only_flowers = np.array([_reading({"1f": 1.0})])
    assert np.array_equal(flowerless.without_flowers(only_flowers, flowerless.nearest(np.eye(8)[[0]]), 1.0), only_flowers)


def test_a_set_told_it_has_no_flowers_refuses_a_flower_and_is_kept_so(store):
    readings = np.full((3, 42), 1 / 42)
    flowerless = replace(_three_kinds(readings), readers=tileset.readers_hash()).with_flowers(False)
    assert flowerless.faces == tileset.FACES[:34] and flowerless.summary()["flowers"] is False
    assert flowerless.doubts() == ["no example of " + ", ".join(tileset.FACES[3:34])]
    row = 1 + tileset.PICTURE_LABEL  # its crops are 1 px: the picture is rows of a label and a crop
    assert flowerless.picture(1).shape[0] == 4 * row and _three_kinds(readings).picture(1).shape[0] == 5 * row  # no empty 花 row
    with pytest.raises(tileset.ProfileError, match="'three' was told it has no flowers, so 1f is none of its tiles: to teach one, tell it"):
        flowerless.check_kinds(["1m", "1f"])
    with pytest.raises(tileset.ProfileError, match="learns faces: back is none"):
        flowerless.check_kinds(["back"])
    flowerless.save(store)
    with pytest.raises(tileset.ProfileError, match="no flowers, so 2f is none"):  # a correction on the Check page
        tileset.correct("three", None, np.zeros((8, 8, 3), np.uint8), (0, 0, 4, 4), "2f", 0, where=store)
    assert tileset.load("three", where=store).kinds == ("1m", "2m", "3m")  # nothing stored
    shown = replace(_three_kinds(readings), kinds=("1m", "2m", "5f"))
    with pytest.raises(tileset.ProfileError, match=r"'three' was shown flowers \(5f\), so it cannot be told it has none: undo .* delete the set"):
        shown.with_flowers(False)
    assert tileset.tell_flowers("three", True, where=store).flowers and tileset.load("three", where=store).flowers
    assert not tileset.tell_flowers("three", False, where=store).flowers and not tileset.load("three", where=store).flowers


def test_a_set_stored_before_it_could_be_told_has_flowers_and_a_wrong_word_is_corrupt(store):
    _stored(store, "old", {"format": tileset.FORMAT})
    assert tileset.load("old", where=store).flowers
    _stored(store, "odd", {"format": tileset.FORMAT, "flowers": "no"})
    with pytest.raises(tileset.ProfileError, match="'odd'.*corrupt"):
        tileset.load("odd", where=store)
    _stored(store, "mixed", {"format": tileset.FORMAT, "flowers": False}, kinds=np.array(["1m", "1f"]))
    with pytest.raises(tileset.ProfileError, match="'mixed'.*corrupt"):
        tileset.load("mixed", where=store)


def test_the_command_line_tells_a_set_it_has_no_flowers_and_refuses_then_a_flower(capsys, store, tmp_path):
    code, out, err = _cli(capsys, "tileset", "learn", "home")
    assert code == 2 and out == "" and err.startswith("taiscore: tileset learn home: name at least one PHOTO=TILES") and err.count("\n") == 1
    code, out, _ = _cli(capsys, "tileset", "learn", "home", "--no-flowers")
    assert code == 0 and json.loads(out)["flowers"] is False and json.loads(out)["kinds"] == 0
    photo = ROOT / "tests" / "golden" / "faces.png"
    code, out, err = _cli(capsys, "tileset", "learn", "home", f"{photo}=1m2f")
    assert code == 2 and out == "" and err.startswith("taiscore: tile set 'home' was told it has no flowers, so 2f is none of its tiles") and err.count("\n") == 1
    assert tileset.load("home").kinds == () and not tileset.load("home").flowers  # nothing stored
    code, out, _ = _cli(capsys, "tileset", "learn", "home", "--flowers")
    assert code == 0 and json.loads(out)["flowers"] is True
    _stored(store, "shown", {"format": tileset.FORMAT}, kinds=np.array(["1m", "1f"]))
    before = (store / "shown.npz").read_bytes()
    code, out, err = _cli(capsys, "tileset", "learn", "shown", "--no-flowers")
    assert code == 2 and out == "" and err.startswith("taiscore: tile set 'shown' was shown flowers (1f)") and err.count("\n") == 1
    assert (store / "shown.npz").read_bytes() == before
