"""The synthetic photo generator and the real-photo converter."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from datasets import real
from datasets.faces import build
from datasets.generate import generate
from datasets.scene import layout, render
from scoring.random_hands import random_hand
from vision.classes import CLASSES, INDEX


@pytest.fixture(scope="module")
def faces():
    return build()


def test_every_art_source_gives_faces(faces):
    assert {"samoheen", "lietxia", "taiwan-drawn", "fluffy-regular", "kmahjongg-jade"} <= set(faces)
    assert all(len(f) == 42 for s, f in faces.items() if not s.startswith("fluffy"))


@pytest.mark.parametrize("seed", [3, 11, 27])
def test_boxes_are_tight_around_the_rendered_tiles(faces, seed):
    photo = render(faces, seed, max_side=960, clean=True)
    grey = np.all(photo.image == 128, axis=2)
    assert photo.boxes
    for _, x1, y1, x2, y2 in photo.boxes:
        x1, y1, x2, y2 = int(x1), int(y1), int(x2), int(y2)
        inside = ~grey[y1:y2, x1:x2]
        assert inside.mean() > 0.8  # the box is the tile
        assert inside[0].any() and inside[-1].any() and inside[:, 0].any() and inside[:, -1].any()  # tight
        if y1 > 1:  # nothing of it above or below the box (one pixel of edge blending aside)
            assert grey[y1 - 2, x1:x2].mean() > 0.5
        if y2 + 1 < grey.shape[0]:
            assert grey[y2 + 1, x1:x2].mean() > 0.5


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


def test_generated_dataset_is_yolo_and_the_same_with_any_number_of_workers(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    generate(6, seed=9, out=one, max_side=480, workers=1)
    generate(6, seed=9, out=two, max_side=480, workers=2)
    for f in sorted((one / "labels").iterdir()):
        assert f.read_text() == (two / "labels" / f.name).read_text()
        rows = [line.split() for line in f.read_text().splitlines() if line]
        assert all(0 <= int(r[0]) < len(CLASSES) and all(0 <= float(v) <= 1 for v in r[1:]) for r in rows)
    assert (one / "contact_sheet.png").stat().st_size > 0 and (one / "hands").is_dir()


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
    assert real.flower_copies(tmp_path, 0) == []
