"""The synthetic photo generator and the real-photo converter."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from render import tile_image
from synthetic_faces import MARKS, marked_faces

from datasets import mirrored, real, views
from datasets.faces import DRAWN_FONTS, HELD_OUT, STYLES, TRAINED, build
from datasets.generate import across_for, crops_sheet, exported, generate, parse_mix, scene_for, write
from datasets.scene import SCENES, TABLES, THICK, TILE_W, Photo, layout, render, render_scene, table_top
from scoring.random_hands import random_hand
from scoring.tiles import code, parse_flowers, parse_tiles
from vision.classes import CLASSES, INDEX


@pytest.fixture(scope="module")
def faces():
    return build()


@pytest.mark.shared("art")
def test_every_art_source_gives_faces(faces):
    assert {"samoheen", "lietxia", "taiwan-drawn", "fluffy-regular", "kmahjongg-jade"} <= set(faces)
    assert all(len(f) == 42 for s, f in faces.items() if not s.startswith("fluffy"))


@pytest.mark.shared("art")
def test_faces_are_drawn_with_every_font_and_look(faces):
    drawn = [s for s in faces if s.startswith("drawn-")]
    assert {s.split("-", 1)[1].rsplit("-", 1)[0] for s in drawn} == set(DRAWN_FONTS)
    assert len(drawn) == 5 * len(DRAWN_FONTS) and all(len(faces[s]) == 42 for s in drawn)
    looks = [faces[f"drawn-ukai-{k}"]["5z"] for k in range(3)]
    assert not np.array_equal(looks[0], looks[1]) and not np.array_equal(looks[1], looks[2])  # 白 framed twice, once empty


@pytest.mark.shared("art")
def test_some_looks_mark_each_tile_in_its_corner(faces):
    """Many Hong Kong and export sets print an index (3, E, C ...) in the top-left corner."""

    def inked(face: np.ndarray) -> int:
        corner = face[4:24, 4:20, :3].astype(int)
        return int((corner.max(2) - corner.min(2) > 80).sum())  # coloured ink on the near-grey paper

    for kind in ("2s", "1z", "7z"):
        assert inked(faces["drawn-ukai-3"][kind]) > 5 and inked(faces["drawn-ukai-4"][kind]) > 5
        assert inked(faces["drawn-ukai-0"][kind]) == 0


def test_held_out_styles_are_whole_sources_and_never_trained_on():
    assert set(HELD_OUT) <= set(STYLES) and set(HELD_OUT).isdisjoint(TRAINED) and set(HELD_OUT) | set(TRAINED) == set(STYLES)
    assert {"lietxia", "kmahjongg-jade"} <= set(HELD_OUT)
    assert {s for s in STYLES if s.startswith("drawn-cwkai-")} <= set(HELD_OUT)  # every look of the held-out font


@pytest.mark.shared("art")
def test_the_generator_draws_only_trained_styles(tmp_path, monkeypatch):
    import datasets.generate as gen

    asked = []
    monkeypatch.setattr(gen, "build", lambda styles=None: asked.append(styles) or build(["samoheen"]))
    monkeypatch.setattr(gen, "_FACES", None)
    for sub in ("images", "labels", "hands"):
        (tmp_path / sub).mkdir()
    gen._one((0, 0, tmp_path, 320, {"hand": 1.0}, 0.0, 0.0))
    assert asked == [list(TRAINED)]


def test_an_exported_photo_is_square_and_its_boxes_follow():
    """As Roboflow exported the Hong Kong photos: a wide row reads as tall, thin tiles."""
    image = np.zeros((360, 640, 3), np.uint8)
    image[90:180, 64:128] = 255  # one tile's face
    photo = Photo(image, [(3, 64.0, 90.0, 128.0, 180.0)], {"tiles": ["4m"]})
    kinds = set()
    for seed in range(20):
        out = exported(photo, random.Random(seed))
        assert out.image.shape == (640, 640, 3) and out.hand == {"tiles": ["4m"]}
        (c, x1, y1, x2, y2), = out.boxes
        ys, xs = np.nonzero(out.image[:, :, 0] > 127)
        assert c == 3 and (x1, y1, x2, y2) == pytest.approx((xs.min(), ys.min(), xs.max() + 1, ys.max() + 1), abs=2)
        squared = (x1, y1, x2, y2) == pytest.approx((64, 160, 128, 320), abs=0.01)
        kinds.add("square" if squared else "strip")
        if not squared:
            assert max((x2 - x1) / (y2 - y1), (y2 - y1) / (x2 - x1)) > 2.5  # a strip's tile, far out of shape
    assert kinds == {"square", "strip"}


@pytest.mark.shared("art")
@pytest.mark.parametrize("seed", [3, 11, 27])
def test_boxes_are_tight_around_the_rendered_faces(faces, seed):
    """As the real photos are labelled: the box is the face, the thickness below it left out."""
    photo = render(faces, seed, max_side=960, clean=True)
    grey = np.all(photo.image == 128, axis=2)
    assert photo.boxes
    for _, x1, y1, x2, y2 in photo.boxes:
        x1, y1, x2, y2 = int(x1), int(y1), int(x2), int(y2)
        inside = ~grey[y1:y2, x1:x2]
        assert inside.mean() > 0.8  # the box is the tile's face
        assert inside[0].any() and inside[-1].any() and inside[:, 0].any() and inside[:, -1].any()  # tight
        if y1 > 1:  # nothing of it above the box (one pixel of edge blending aside)
            assert grey[y1 - 2, x1:x2].mean() > 0.5
        thickness = round(THICK / TILE_W * (y2 - y1) * 1.3) + 2  # a face (turned: lying sideways) is a tile's width tall or more
        if y2 + thickness < grey.shape[0]:  # right below it the tile's thickness, then the table
            assert not grey[y2 + 1, x1:x2].all()
            assert grey[y2 + 1 : y2 + thickness, x1:x2].mean(axis=1).max() > 0.5


def _row_angle(boxes) -> float:
    """The direction, in degrees from across the photo (0-180), the boxes' centres spread along most."""
    centres = np.array([((x1 + x2) / 2, (y1 + y2) / 2) for _, x1, y1, x2, y2 in boxes])
    _, _, axes = np.linalg.svd(centres - centres.mean(0))
    return float(np.degrees(np.arctan2(axes[0][1], axes[0][0])) % 180)


@pytest.mark.shared("art")
@pytest.mark.parametrize("turn", [30, 60, 90])
def test_a_turned_hand_lies_across_the_photo_whole_with_its_boxes(faces, turn):
    """As the Hong Kong photos' rows lie: diagonal or along the photo, every tile still in it."""
    flat, turned = render(faces, 4, max_side=960, clean=True), render(faces, 4, max_side=960, clean=True, turn=turn)
    assert len(turned.boxes) == len(flat.boxes)
    assert abs((_row_angle(turned.boxes) - _row_angle(flat.boxes) - turn + 90) % 180 - 90) < 5
    h, w = turned.image.shape[:2]
    for _, x1, y1, x2, y2 in turned.boxes:
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
        assert (turned.image[int(y1) : int(y2), int(x1) : int(x2)] != 128).any(axis=2).mean() > 0.4  # a face, not the table


@pytest.mark.shared("art")
def test_a_hand_seen_closer_runs_off_the_photo_in_larger_tiles(faces):
    whole, close = render(faces, 4, max_side=960, turn=40), render(faces, 4, max_side=960, turn=40, zoom=2.5)
    assert len(close.boxes) < len(whole.boxes)
    assert np.median([y2 - y1 for *_, y1, _, y2 in close.boxes]) > 2 * np.median([y2 - y1 for *_, y1, _, y2 in whole.boxes])


def test_a_share_of_hands_lie_across_and_none_when_the_share_is_nought():
    assert {across_for(0.0, 5, i) for i in range(200)} == {(0.0, 1.0)}
    drawn = [across_for(0.6, 5, i) for i in range(400)]
    turned = [(t, z) for t, z in drawn if t]
    assert 0.5 < len(turned) / len(drawn) < 0.7 and all(-90 <= t <= 90 for t, _ in turned)
    assert 0.35 < sum(z > 1 for _, z in turned) / len(turned) < 0.65 and all(1 <= z <= 2.5 for _, z in turned)
    assert drawn == [across_for(0.6, 5, i) for i in range(400)]


@pytest.mark.shared("art")
def test_a_seed_reproduces_the_same_photo(faces):
    a, b = render(faces, 5, max_side=640), render(faces, 5, max_side=640)
    assert np.array_equal(a.image, b.image) and a.boxes == b.boxes and a.hand == b.hand
    assert not np.array_equal(a.image, render(faces, 6, max_side=640).image)


def test_every_class_appears_in_the_layouts():
    seen: Counter = Counter()
    for seed in range(400):
        rng = random.Random(seed)
        seen.update(p.code for p in layout(random_hand(rng), rng))
    assert set(seen) == set(CLASSES)


@pytest.mark.shared("art")
def test_generated_dataset_is_yolo_and_the_same_with_any_number_of_workers(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    mix = parse_mix("hand=1,seated=1,tiles=1")
    generate(6, seed=9, out=one, max_side=480, workers=1, mix=mix)
    generate(6, seed=9, out=two, max_side=480, workers=2, mix=mix)
    assert {scene_for(mix, 9, i) for i in range(6)} == {"hand", "seated", "tiles"}
    for f in sorted((one / "labels").iterdir()):
        assert f.read_text() == (two / "labels" / f.name).read_text()
        rows = [line.split() for line in f.read_text().splitlines() if line]
        assert all(0 <= int(r[0]) < len(CLASSES) and all(0 <= float(v) <= 1 for v in r[1:]) for r in rows)
    assert (one / "contact_sheet.png").stat().st_size > 0 and (one / "crops_sheet.png").stat().st_size > 0 and (one / "hands").is_dir()


def test_real_photos_are_remapped_to_our_classes(tmp_path):
    assert real.our_code("sc1") == "1m" and real.our_code("hdw") == "5z" and real.our_code("bf1") == "5f"
    assert sorted(set(real.REMAP)) == list(range(42))
    assert real.convert_line("0 0.1 0.2 0.3 0.4") == f"{INDEX['1f']} 0.100000 0.200000 0.300000 0.400000"
    assert real.convert_line("1 0.1 0.1 0.3 0.1 0.3 0.4").startswith(f"{INDEX['1m']} 0.200000 0.250000 0.200000 0.300000")


def test_photos_holding_a_flower_are_repeated_with_their_labels(tmp_path):
    for split in ("train/images", "train/labels"):
        (tmp_path / split).mkdir(parents=True)
    for stem, label in (("a", f"{INDEX['5f']} 0.5 0.5 0.1 0.1\n"), ("b", f"{INDEX['5m']} 0.5 0.5 0.1 0.1\n")):
        (tmp_path / "train/images" / f"{stem}.jpg").write_bytes(b"jpg")
        (tmp_path / "train/labels" / f"{stem}.txt").write_text(label)
    folders = real.flower_copies(tmp_path, 2)
    assert [f.parent.name for f in folders] == ["train-flowers-1", "train-flowers-2"]
    for f in folders:
        assert [p.name for p in f.iterdir()] == ["a.jpg"]
        assert (f.parent / "labels" / "a.txt").read_text() == f"{INDEX['5f']} 0.5 0.5 0.1 0.1\n"
    (tmp_path / "train/images/a.jpg").unlink()
    assert [list(f.iterdir()) for f in real.flower_copies(tmp_path, 2)] == [[], []]
    assert real.flower_copies(tmp_path, 0) == []


def _photo_of(codes: list[str]) -> tuple[np.ndarray, str]:
    """Tiles side by side on white, two rows, with their box labels (class = position in `codes`)."""
    cols, (th, tw) = (len(codes) + 1) // 2, tile_image(codes[0]).shape[:2]
    photo = np.full((2 * (th + 20), cols * (tw + 20), 3), 255, np.uint8)
    h, w = photo.shape[:2]
    lines = []
    for i, kind in enumerate(codes):
        y, x = 10 + (i // cols) * (th + 20), 10 + (i % cols) * (tw + 20)
        photo[y : y + th, x : x + tw] = tile_image(kind)
        lines.append(f"{i} {(x + tw / 2) / w:.6f} {(y + th / 2) / h:.6f} {tw / w:.6f} {th / h:.6f}")
    return photo, "\n".join(lines) + "\n"


def _write(split: Path, name: str, photo: np.ndarray, label: str) -> Path:
    (split / "images").mkdir(parents=True, exist_ok=True)
    (split / "labels").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(split / "images" / name), photo)
    (split / "labels" / (Path(name).stem + ".txt")).write_text(label)
    return split / "images" / name


def _upside_down(label: str) -> str:
    """A label as it reads once its photo is flipped top to bottom (a mirror): (x, y) -> (x, 1 - y)."""
    rows = [line.split() for line in label.splitlines()]
    return "".join(f"{c} {x} {1 - float(y):.6f} {w} {h}\n" for c, x, y, w, h in rows)


@pytest.mark.shared("art")
def test_a_mirrored_photo_is_told_from_a_turned_one(tmp_path):
    photo, label = _photo_of(["1m", "2m", "3m", "4m", "1z", "2z", "3z", "4z"])
    _write(tmp_path / "valid", "reference.jpg", photo, label)
    judge = mirrored.Judge(mirrored.references(tmp_path / "valid"))
    turned, flipped = cv2.rotate(photo, cv2.ROTATE_180), cv2.flip(photo, 0)  # a half turn, and a mirror
    # A half turn maps a box centre (x, y) to (1 - x, 1 - y); a vertical flip to (x, 1 - y).
    half_turn = "".join(real.turn_line(line) + "\n" for line in label.splitlines())
    upside = _upside_down(label)
    as_turned = judge.verdict(_write(tmp_path / "train", "turned.jpg", turned, half_turn), half_turn)
    as_flipped = judge.verdict(_write(tmp_path / "train", "flipped.jpg", flipped, upside), upside)
    assert as_turned.word == "upright" and as_flipped.word == "mirrored"
    listing = tmp_path / "mirrored.tsv"
    mirrored.write_list([mirrored.Row(v, "same", v.word) for v in (as_turned, as_flipped)], listing)
    assert mirrored.read_list(listing) == {"flipped.jpg"}


@pytest.mark.shared("art")
def test_copies_of_one_photo_are_told_apart_by_chirality(tmp_path):
    photo, _ = _photo_of(["1m", "2m", "3m", "4m", "1z", "2z", "3z", "4z"])
    copies = [photo, cv2.rotate(photo, cv2.ROTATE_90_CLOCKWISE), cv2.flip(photo, 0), cv2.flip(photo, -1)]
    paths = []
    for i, copy in enumerate(copies):
        paths.append(tmp_path / f"copy{i}.jpg")
        cv2.imwrite(str(paths[-1]), copy)
    assert mirrored.Siblings().relations(paths) == ["same", "same", "mirror", "same"]


def _v(as_is: int, flipped: int) -> mirrored.Verdict:
    return mirrored.Verdict("p.jpg", as_is, flipped)


def test_one_clear_copy_settles_its_siblings():
    verdicts = [_v(10, 10), _v(10, 60), _v(12, 11)]  # unsure, mirrored, unsure
    assert mirrored.settle(verdicts, ["same", "mirror", "same"]) == ["upright", "mirrored", "upright"]
    assert mirrored.settle(verdicts, ["same", "mirror", "unknown"]) == ["upright", "mirrored", "unsure"]


def test_unsure_copies_pool_their_tile_matches():
    verdicts = [_v(20, 10), _v(10, 20), _v(20, 10)]  # each leaning upright-ish, none clear alone
    assert [v.word for v in verdicts] == ["unsure"] * 3
    assert mirrored.settle(verdicts, ["same", "mirror", "same"]) == ["upright", "mirrored", "upright"]
    assert mirrored.settle(verdicts, ["same", "same", "same"]) == ["unsure"] * 3


def test_copies_whose_clear_verdicts_disagree_are_not_settled():
    verdicts = [_v(60, 10), _v(60, 10), _v(10, 10)]
    assert mirrored.settle(verdicts, ["same", "mirror", "same"]) == ["upright", "upright", "unsure"]


@pytest.mark.shared("art")
def test_a_reference_known_to_be_mirrored_is_read_flipped_back(tmp_path):
    photo, label = _photo_of(["1m", "2m", "3m", "4m", "1z", "2z", "3z", "4z"])
    rows = [line.split() for line in label.splitlines()]
    upside = _upside_down(label)
    reference = _write(tmp_path / "train", "settled.jpg", cv2.flip(photo, 0), upside)
    judge = mirrored.Judge([(reference, upside, True)], mirrored.SECOND_PER_CLASS, seed=0)
    turned = cv2.rotate(photo, cv2.ROTATE_90_CLOCKWISE)
    sideways = "".join(f"{c} {1 - float(y):.6f} {x} {h} {w}\n" for c, x, y, w, h in rows)
    assert judge.verdict(_write(tmp_path / "train", "turned.jpg", turned, sideways), sideways).word == "upright"


def test_the_second_round_rejudges_only_source_photos_left_unsure(tmp_path):
    first = [
        mirrored.Row(_v(60, 10), "same", "upright"),
        mirrored.Row(_v(10, 60), "mirror", "mirrored"),
        mirrored.Row(_v(10, 11), "same", "unsure"),
        mirrored.Row(_v(12, 10), "mirror", "unsure"),
    ]
    names = ["a_jpg.rf.1.jpg", "a_jpg.rf.2.jpg", "b_jpg.rf.1.jpg", "b_jpg.rf.2.jpg"]
    first = [replace(r, verdict=replace(r.verdict, photo=n)) for r, n in zip(first, names)]
    again = {n: mirrored.Verdict(n, *matches) for n, matches in zip(names[2:], [(10, 50), (15, 12)])}
    rows = mirrored.second_round(first, [(tmp_path / n, "") for n in names], tmp_path / "valid", again)
    assert rows[:2] == first[:2]
    assert [r.second for r in rows[2:]] == list(again.values())
    assert [r.settled for r in rows] == ["upright", "mirrored", "mirrored", "upright"]
    listing = tmp_path / "mirrored.tsv"
    mirrored.write_list(rows, listing)
    assert mirrored.read_rows(listing) == rows


def test_mirrored_training_photos_are_flipped_back_with_their_labels(tmp_path):
    source, out = tmp_path / "source", tmp_path / "out"
    photo = np.zeros((40, 80, 3), np.uint8)
    photo[:, :20] = 255  # white on the left only
    for split in ("train", "valid"):
        _write(source / split, "a.jpg", photo, "1 0.125 0.5 0.25 1\n")
    real.build(out, source, mirrored=frozenset({"a.jpg"}))
    back = cv2.imread(str(out / "train/images/a.jpg"))
    assert back[:, -20:].mean() > 200 and back[:, :60].mean() < 50
    assert (out / "train/labels/a.txt").read_text() == f"{INDEX['1m']} 0.875000 0.500000 0.250000 1.000000\n"
    assert (out / "valid/images/a.jpg").is_symlink()
    assert (out / "valid/labels/a.txt").read_text() == f"{INDEX['1m']} 0.125000 0.500000 0.250000 1.000000\n"
    real.build(out, source)
    assert (out / "train/images/a.jpg").is_symlink()
    assert (out / "train/labels/a.txt").read_text() == f"{INDEX['1m']} 0.125000 0.500000 0.250000 1.000000\n"


def test_relabelled_photos_take_the_listed_codes_in_label_order(tmp_path):
    source, out = tmp_path / "source", tmp_path / "out"
    _write(source / "valid", "a.jpg", np.zeros((8, 8, 3), np.uint8), "2 0.2 0.5 0.1 0.5\n2 0.6 0.5 0.1 0.5\n")
    (source / "train/images").mkdir(parents=True)
    real.build(out, source, relabelled={"a.jpg": ("9m", "7z")})
    assert (out / "valid/labels/a.txt").read_text() == (
        f"{INDEX['9m']} 0.200000 0.500000 0.100000 0.500000\n{INDEX['7z']} 0.600000 0.500000 0.100000 0.500000\n"
    )
    with pytest.raises(ValueError, match="a.jpg: 1 codes in the relabelled list for 2 labelled tiles"):
        real.build(out, source, relabelled={"a.jpg": ("9m",)})


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_the_relabelled_list_reads_every_tile_of_photos_labelled_one_class_and_mends_single_tiles():
    fixed = real.relabelled()
    assert len(fixed) == 9
    one_class = 0
    for name, codes in fixed.items():
        label = (real.SOURCE / "valid" / "labels" / (Path(name).stem + ".txt")).read_text().splitlines()
        assert len(codes) == len(label) and set(codes) <= set(CLASSES)
        assert max(Counter(codes).values()) <= 4
        if len({line.split()[0] for line in label}) == 1:
            one_class += 1
        else:  # one tile whose label names another kind than its face shows
            source = [CLASSES[int(real.convert_line(line).split()[0])] for line in label]
            assert sum(a != b for a, b in zip(source, codes)) == 1
    assert one_class == 7
    assert not fixed.keys() & {img.name for img, _, _ in mirrored.references(real.SOURCE / "valid")}


def test_turned_copies_turn_photo_and_boxes_together(tmp_path):
    photo = np.zeros((40, 80, 3), np.uint8)
    photo[:10, :20] = 255  # white in the top-left corner only
    _write(tmp_path / "train", "a.jpg", photo, "1 0.125 0.125 0.25 0.25\n")
    images = real.turned_copies(tmp_path)
    turned = cv2.imread(str(images / "a.jpg"))
    assert turned[-10:, -20:].mean() > 200 and turned[:30].mean() < 50
    assert (images.parent / "labels/a.txt").read_text() == "1 0.875000 0.875000 0.25 0.25\n"


def test_a_stretched_band_takes_the_boxes_inside_it_and_drops_those_cut_away():
    photo = np.zeros((100, 100, 3), np.uint8)
    photo[45:55] = 255  # a white row in the band
    inside, outside, half_cut, mostly_in = "1 0.5 0.5 0.2 0.1", "2 0.5 0.2 0.2 0.1", "3 0.3 0.6 0.2 0.1", "4 0.7 0.585 0.2 0.1"
    stretched, moved = real.stretch(photo, [inside, outside, half_cut, mostly_in], "y", 0.4, 0.2)
    assert stretched.shape == photo.shape and stretched[30:70].mean() > 200 and stretched[:20].mean() < 50
    assert moved == ["1 0.500000 0.500000 0.200000 0.500000", "4 0.700000 0.837500 0.200000 0.325000"]  # 65 % of tile 4 is left
    squeezed, moved = real.stretch(photo, [inside], "y", 0.4, 0.2, squeeze=4)
    assert squeezed[30:70, :25].mean() > 200 and (squeezed[:, 25:] == 114).all()
    assert moved == ["1 0.125000 0.500000 0.050000 0.500000"]
    assert real.stretch_line("1 0.5 0.5 0.1 0.2", "x", 0.45, 0.1) == "1 0.500000 0.500000 1.000000 0.200000"


@pytest.mark.shared("art")
def test_stretched_copies_make_one_strip_per_source_photo_with_taller_or_wider_tiles(tmp_path):
    photo, label = _photo_of(["1m", "2m", "3m", "4m"])
    for name in ("a.rf.1.jpg", "a.rf.2.jpg", "b.rf.1.jpg"):
        _write(tmp_path / "train", name, photo, label)
    images = real.stretched_copies(tmp_path)
    assert sorted(p.name for p in images.iterdir()) == ["a.rf.1.jpg", "b.rf.1.jpg"]
    before = {int(line.split()[0]): line.split()[3:] for line in label.splitlines()}
    for lab in (images.parent / "labels").iterdir():
        rows = [line.split() for line in lab.read_text().splitlines()]
        assert rows and all(0 <= float(v) <= 1 for r in rows for v in r[1:])
        for c, _, _, w, h in rows:
            bw, bh = (float(v) for v in before[int(c)])
            assert max(float(w) / bw, float(h) / bh) / min(float(w) / bw, float(h) / bh) >= 3 * 0.6  # out of shape


def test_validation_photos_are_split_into_natural_and_stretched_by_their_tiles_shape(tmp_path):
    natural, strip = "1 0.3 0.5 0.1 0.13\n2 0.5 0.5 0.13 0.1\n3 0.7 0.5 0.1 0.13\n", "1 0.3 0.5 0.05 0.9\n2 0.6 0.5 0.05 0.9\n"
    assert not real.out_of_shape(natural.splitlines()) and real.out_of_shape(strip.splitlines())
    assert real.out_of_shape(["1 0.5 0.3 0.9 0.05"]) and not real.out_of_shape([])
    for name, label in (("a.jpg", natural), ("b.jpg", strip)):
        _write(tmp_path / "valid", name, np.zeros((8, 8, 3), np.uint8), label)
    folders = real.by_shape(tmp_path / "valid")
    assert [p.name for p in (folders["natural"] / "images").iterdir()] == ["a.jpg"]
    assert (folders["stretched"] / "labels" / "b.txt").read_text() == strip
    again = real.by_shape(tmp_path / "valid")
    assert [len(list((f / "images").iterdir())) for f in again.values()] == [1, 1]  # rebuilt, not added to


def test_strips_are_given_their_proportions_back_and_natural_photos_left_as_they_are(tmp_path):
    natural, strip = "1 0.3 0.5 0.1 0.13\n", "1 0.5 0.2 0.9 0.075\n2 0.5 0.3 0.9 0.075\n"  # tiles 12 times as wide as tall
    _write(tmp_path / "valid", "a.jpg", np.zeros((640, 640, 3), np.uint8), natural)
    _write(tmp_path / "valid", "b.jpg", np.zeros((640, 640, 3), np.uint8), strip)
    images = real.restored(tmp_path / "valid")
    assert (images / "a.jpg").is_symlink() and not (images / "b.jpg").is_symlink()
    h, w = cv2.imread(str(images / "b.jpg")).shape[:2]
    assert (0.075 * h) / (0.9 * w) == pytest.approx(real.UPRIGHT, rel=0.05) and w * h == pytest.approx(640 * 640, rel=0.02)
    assert (images.parent / "labels" / "b.txt").read_text() == strip
    assert sorted(p.name for p in real.restored(tmp_path / "valid").iterdir()) == ["a.jpg", "b.jpg"]


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_the_real_validation_photos_hold_34_stretched_strips():
    labels = [[c for line in p.read_text().splitlines() if (c := real.convert_line(line))] for p in (real.SOURCE / "valid" / "labels").iterdir()]
    assert sum(real.out_of_shape(lines) for lines in labels) == 34


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_the_committed_list_names_real_training_photos():
    found = mirrored.read_list()
    assert 150 < len(found) < 700
    assert found <= {p.name for p in (real.SOURCE / "train" / "images").iterdir()}


@pytest.mark.shared("art")
@pytest.mark.parametrize("scene", SCENES)
def test_scenes_the_hands_never_show_are_labelled_tile_by_tile(faces, scene):
    heights = []
    for seed in range(6):
        photo = render_scene(faces, seed, scene, table=TABLES[seed % len(TABLES)], max_side=640)
        h = photo.image.shape[0]
        n = len(photo.boxes)
        assert {"lone": n == 1, "close-up": 1 <= n <= 4, "standing": 8 <= n <= 17}[scene], (seed, n)
        assert all(0 <= x1 < x2 <= photo.image.shape[1] and 0 <= y1 < y2 <= h for _, x1, y1, x2, y2 in photo.boxes)
        heights += [(y2 - y1) / h for _, _, y1, _, y2 in photo.boxes]
        assert sorted(INDEX[c] for c in photo.hand["tiles"]) == sorted(c for c, *_ in photo.boxes)
    if scene != "standing":  # a tile is 10-70 % of the photo's height (the tilt shrinks it a little)
        assert 0.05 < min(heights) and max(heights) < 0.75


def test_a_white_and_a_glass_table_are_white_and_dark():
    rng = np.random.default_rng(0)
    assert table_top(60, 80, rng, "white").mean() > 200 and table_top(60, 80, rng, "glass").min() < 90


def test_an_unknown_scene_is_refused():
    with pytest.raises(ValueError, match="no scene 'crowd'"):
        render_scene({}, 0, "crowd")


MARKED = {"marked": marked_faces()}


def _grey(photo) -> np.ndarray:
    return np.all(photo.image == 128, axis=2)


@pytest.mark.parametrize(("view", "seed"), [("seated", s) for s in range(4)] + [("tiles", s) for s in range(6)])
def test_boxes_hold_every_face_the_camera_sees_and_no_side(view, seed):
    photo = getattr(views, view)(MARKED, seed, max_side=640, clean=True)
    tile, face = ~_grey(photo), photo.masks > 0
    covered, areas = np.zeros_like(tile), []
    assert photo.boxes
    for _, x1, y1, x2, y2 in photo.boxes:
        x1, y1, x2, y2 = int(x1), int(y1), int(x2), int(y2)
        inside = face[y1:y2, x1:x2]
        assert inside.mean() > 0.15  # a turned face seen from low is a thin slanted band
        assert inside[0].any() and inside[-1].any() and inside[:, 0].any() and inside[:, -1].any()  # tight
        covered[y1:y2, x1:x2] = True
        areas.append(inside.sum())
    assert (face & ~covered).sum() < 0.2 * min(areas)  # no face left without a box but one nearly hidden
    assert (tile & ~covered).sum() > 0.05 * tile.sum()  # the sides and edges the camera sees are in no box


def test_a_lying_tile_seen_from_the_side_is_boxed_by_its_face_alone():
    """As the real photos are labelled: the face, not the edge the camera also sees."""
    at, axes = views.look_at((0.0, 0.0, 0.0), 10.0, np.radians(35), 0.0, 0.0)
    cam = views.Camera(at, axes, 500.0, (200.0, 150.0))
    look = views.Look((236, 244, 248), (40, 130, 60), 0.6, np.array([0.0, 0.0, 1.0]), 0.7)
    photo = np.full((300, 400, 3), 128, np.uint8)
    tile = views.lying("5m", 0.0, 0.0)
    boxes, _, _ = views.draw([tile], MARKED["marked"], cam, photo, look)
    face = cam.project(tile.corners()[tuple(np.array(views.SIDES[0][0]).T)])[0]
    (_, x1, y1, x2, y2), = boxes
    assert np.allclose((x1, y1, x2, y2), (*face.min(0), *face.max(0)), atol=1.5)
    ys = np.nonzero(~np.all(photo == 128, axis=2))[0]
    assert ys.max() + 1 > y2 + 5  # the edge toward the camera shows below the face, outside the box


@pytest.mark.parametrize("seed", range(5))
def test_a_seated_photo_labels_each_of_the_winners_tiles_once(seed):
    photo = views.seated(MARKED, seed, max_side=800, clean=True)
    hand = photo.hand
    tiles = [code(k) for k in parse_tiles(hand["concealed"])] + [f"{f}f" for f in parse_flowers(hand["flowers"])]
    tiles += [code(k) for m in hand["melds"] for k in parse_tiles(m.split()[1])]
    labelled = Counter(CLASSES[c] for c, *_ in photo.boxes)
    assert sum(labelled.values()) == len(tiles)
    assert not labelled - Counter(tiles) - Counter({"back": labelled["back"]})  # face-down tiles only in kongs
    assert labelled["back"] <= 4 * sum(m.startswith("ankong") for m in hand["melds"])


def test_far_tiles_come_out_smaller_than_near_ones():
    """Faces shrink with distance; a turned standing face is narrower than its tile, so not every photo ranks so."""
    ratios, nearer_wider = [], []
    for seed in range(6):
        photo = views.seated(MARKED, seed, max_side=800)
        boxes = np.array([b[1:] for b in photo.boxes])
        width, bottom = boxes[:, 2] - boxes[:, 0], boxes[:, 3]
        rank = np.argsort(np.argsort(width)), np.argsort(np.argsort(bottom))
        nearer_wider.append(np.corrcoef(*rank)[0, 1] > 0.4)  # the lower in the photo (nearer), the wider
        far, near = bottom < np.quantile(bottom, 0.3), bottom > np.quantile(bottom, 0.7)
        ratios.append(np.median(width[far]) / np.median(width[near]))
    assert np.median(ratios) < 0.6 and sum(nearer_wider) >= 5


def test_lone_tiles_and_close_ups_come_in_many_sizes():
    shares, boxed = [], 0
    for seed in range(40):
        photo = views.tiles(MARKED, seed, max_side=320, clean=True)
        assert len(photo.boxes) <= min(4, len(photo.hand["tiles"]))
        boxed += bool(photo.boxes)  # at 320 px a far face seen from low is a few pixels: unlabelled
        shares += [(y2 - y1) / photo.image.shape[0] for _, _, y1, _, y2 in photo.boxes]
    assert boxed >= 35 and min(shares) < 0.1 and max(shares) > 0.5


def _marks(image: np.ndarray, where: np.ndarray) -> dict[str, np.ndarray] | None:
    """The centres of a face's red, blue and green marks (None where one is not seen)."""
    b, g, r = (image[..., k].astype(int) for k in range(3))
    found = {}
    for name, (hi, lo1, lo2) in {"red": (r, g, b), "blue": (b, g, r), "green": (g, r, b)}.items():
        ys, xs = np.nonzero(where & (hi > 100) & (np.maximum(lo1, lo2) < 25))  # no back colour is that pure
        if len(xs) < 4:
            return None
        found[name] = np.array([xs.mean(), ys.mean()])
    return found


def test_no_face_is_mirrored_standing_lying_or_turned():
    def turn(m: dict[str, np.ndarray]) -> float:  # > 0: red, blue, green clockwise on the photo (y down)
        (ax, ay), (bx, by) = m["blue"] - m["red"], m["green"] - m["red"]
        return float(np.sign(ax * by - ay * bx))

    printed = turn({k: np.array(v) for k, v in MARKS.items()})
    seen = 0
    for view, seed in [("seated", s) for s in range(6)] + [("tiles", s) for s in range(10)]:
        photo = getattr(views, view)(MARKED, seed, max_side=800, clean=True)
        for i in range(1, photo.masks.max() + 1):
            marks = _marks(photo.image, photo.masks == i)
            if marks:
                seen += 1
                assert turn(marks) == printed, (view, seed, i)
    assert seen > 60


def test_scene_mixes_are_read_and_drawn_per_image():
    assert parse_mix("hand=5,seated=3,tiles=2") == {"hand": 5.0, "seated": 3.0, "tiles": 2.0} and parse_mix("seated") == {"seated": 1.0}
    for bad, message in [("hand=2,crowd=1", "no scene kind 'crowd'"), ("seated=x", "weight 'x' is not a number"), ("hand=0", "add up to nothing")]:
        with pytest.raises(ValueError, match=message):
            parse_mix(bad)
    mix = parse_mix("hand=1,seated=1,tiles=1")
    picks = [scene_for(mix, 3, i) for i in range(300)]
    assert picks == [scene_for(mix, 3, i) for i in range(300)] and min(Counter(picks).values()) > 70
    assert {scene_for({"hand": 1.0}, 3, i) for i in range(50)} == {"hand"}  # today's datasets, photo for photo


def test_the_crops_sheet_has_one_row_per_kind_present(tmp_path):
    for sub in ("images", "labels", "hands"):
        (tmp_path / sub).mkdir()
    kinds = set()
    for seed in range(3):
        photo = views.seated(MARKED, seed, max_side=640)
        write(photo, tmp_path, f"p{seed}")
        kinds |= {c for c, *_ in photo.boxes}
    sheet = cv2.imread(str(crops_sheet(tmp_path, per_kind=5, cell=48)))
    assert sheet.shape[0] == 48 * len(kinds) and sheet.shape[1] == 48 + 5 * 50
    empty = Photo(np.full((40, 40, 3), 128, np.uint8), [], {})
    write(empty, tmp_path, "p9")
    assert cv2.imread(str(crops_sheet(tmp_path, per_kind=5, cell=48))).shape[0] == 48 * len(kinds)


@pytest.mark.parametrize(("middle", "labelled"), [(200.0, True), (0.0, True), (-20.0, False)])
def test_a_tile_cut_by_the_photos_edge_to_a_sliver_is_unlabelled(middle, labelled):
    at, axes = views.look_at((0.0, 0.0, 0.0), 10.0, np.radians(89.9), 0.0, 0.0)  # straight down: the tile about 54 px wide
    cam = views.Camera(at, axes, 500.0, (middle, 120.0))
    look = views.Look((236, 244, 248), (40, 130, 60), 0.6, np.array([0.0, 0.0, 1.0]), 0.7)
    photo = np.full((240, 400, 3), 128, np.uint8)
    boxes, _, ids = views.draw([views.lying("5m", 0.0, 0.0)], MARKED["marked"], cam, photo, look)
    assert ids.any()  # drawn, a sliver or more
    assert [c for c, *_ in boxes] == ([INDEX["5m"]] if labelled else [])
    if middle == 0.0:  # half of it: the box ends at the photo's edge, around what is left
        assert boxes[0][1] == 0.0 and 20 < boxes[0][3] < 34
