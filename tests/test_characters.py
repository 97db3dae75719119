"""The text recogniser reading the characters on a tile: CTC's sum against every path
spelt out, the tile's slant and its own crop, the characters of fonts no network here was
trained on, and the Hong Kong photos' 萬 and honours."""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np
import pytest
from conftest import labelled_golden_photos, labelled_photos, tile_photo
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.characters import FLOWERS, HONOURS, NUMERALS, TILE, CharacterReader, corner_lines, ctc, slant, upright
from vision.classes import CLASSES

WRITTEN = [*NUMERALS, *HONOURS, *FLOWERS]  # the 23 faces written in characters (the two fonts below write a flower's name big)


def _spelt(path: tuple[int, ...]) -> tuple[int, ...]:
    """A CTC path's reading: repeats merged, blanks (0) dropped."""
    return tuple(c for c, _ in itertools.groupby(path) if c)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2**32 - 1), st.sampled_from([(1,), (2,), (1, 2), (3, 1)]))
def test_ctc_is_the_sum_over_every_path_that_spells_the_characters(steps, seed, label):
    probs = np.random.default_rng(seed).dirichlet(np.ones(4), size=(1, steps))
    brute = sum(math.prod(probs[0, t, c] for t, c in enumerate(path)) for path in itertools.product(range(4), repeat=steps) if _spelt(path) == label)
    assert ctc(probs, np.array([label]))[0, 0] == pytest.approx(brute, abs=1e-12)


@pytest.mark.parametrize("tilt", [-35, -20, -5, 0, 10, 25, 40])
def test_a_tiles_slant_is_the_turn_that_sets_it_square_again(tilt):
    face = np.full((80, 60, 3), 245, np.uint8)
    cv2.rectangle(face, (12, 14), (48, 66), (40, 40, 160), 4)
    img, box = tile_photo(face, tilt=tilt)
    x1, y1, x2, y2 = box[0].astype(int)
    assert slant(cv2.cvtColor(img[y1:y2, x1:x2], cv2.COLOR_BGR2GRAY)) == pytest.approx(-tilt, abs=3)


@pytest.mark.parametrize("tilt", [0, 15, 30])
def test_the_upright_crop_is_the_tile_itself_its_long_side_tile_px(tilt):
    img, box = tile_photo(np.full((80, 60, 3), 245, np.uint8), tilt=tilt)
    crop = upright(img, tuple(box[0]))
    assert crop.shape[0] == TILE and crop.shape[1] / crop.shape[0] == pytest.approx(68 / 88, abs=0.08)
    assert crop[crop.shape[0] // 2, crop.shape[1] // 2].tolist() == [245, 245, 245]  # RGB of the face, not the felt


@pytest.fixture(scope="module")
def reader():
    return CharacterReader()


@pytest.fixture(scope="module")
def held_out_fonts():
    """Faces drawn with two fonts no network here was trained on (datasets.faces.HELD_OUT)."""
    from datasets.faces import build

    faces = build(["taiwan-drawn", "drawn-cwkai-0"])
    assert len(faces) == 2 and all(len(f) == 42 for f in faces.values()), "fonts-noto-cjk and fonts-cwtex-kai are needed"
    return faces


@pytest.mark.parametrize("style", ["taiwan-drawn", "drawn-cwkai-0"])
def test_the_characters_of_a_font_never_trained_on_are_read_at_every_turn_and_tilt(reader, held_out_fonts, style):
    for code in WRITTEN:
        for turn, tilt in itertools.product(range(4), (0, 12)):
            evidence = reader.read(*tile_photo(held_out_fonts[style][code], turn, tilt))[0]
            assert CLASSES[evidence.argmax()] == code, (code, turn, tilt, evidence.max())


@pytest.mark.parametrize("style", ["taiwan-drawn", "drawn-cwkai-0"])
def test_dots_bamboo_and_white_carry_no_characters_it_reads(reader, held_out_fonts, style):
    for code in (c for c in CLASSES[:42] if c not in WRITTEN):
        for turn in range(4):
            assert reader.read(*tile_photo(held_out_fonts[style][code], turn))[0].max() < 0.1, code


def test_no_tile_no_reading(reader):
    assert reader.read(np.zeros((50, 50, 3), np.uint8), np.zeros((0, 4))).shape == (0, len(CLASSES) - 1)


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_on_the_hong_kong_photos_what_it_reads_is_right_and_it_reads_most_wan_and_honours(reader):
    spelt = set(NUMERALS) | set(HONOURS)  # the set paints its flowers' names small, in a corner
    said = right = written = read = 0
    for img, boxes, codes in labelled_golden_photos():
        for evidence, code in zip(reader.read(img, boxes), codes):
            written += code in spelt
            if evidence.max() >= 0.1:  # it reads some face's characters
                said += 1
                right += CLASSES[evidence.argmax()] == code
                read += code in spelt
    assert written >= 20 and said >= 10
    assert right / said >= 0.95 and read / written >= 0.5


def test_a_tiles_corners_are_read_at_each_turn_one_character_each():
    tile = np.zeros((96, 72, 3), np.uint8)
    tile[:29, :29] = 255  # the upright tile's top left corner, a 0.3 x 0.4 share of it
    views = corner_lines(tile)
    assert len(views) == 8 and all(v.shape[:2] == (3, 48) for v in views) and views[0].shape == (3, 48, 48)
    assert views[0].min() == 1.0 and views[1].max() == -1.0  # its top left is lit, its top right dark


def _same_number(code: str, other: str) -> bool:
    return (int(code[0]) - 1) % 4 == (int(other[0]) - 1) % 4  # 1f and 5f both carry 1 (or 一), and so on


def _corner_reads(reader: CharacterReader, img: np.ndarray, boxes: np.ndarray, codes: list[str]) -> tuple[int, int, int]:
    """Of the flowers in `boxes`, how many corners read a numeral or a name at 0.3 or more,
    how many of those are the flower's own, and how many flowers are read by some corner."""
    said = right = read = 0
    numerals, names = reader.corners(img, boxes)
    for numeral, name, code in zip(numerals, names, codes):
        for evidence, same in ((numeral, _same_number), (name, str.__eq__)):
            said += evidence.max() >= 0.3
            right += evidence.max() >= 0.3 and same(CLASSES[evidence.argmax()], code)
        read += max(numeral.max(), name.max()) >= 0.3
    return said, right, read


@pytest.mark.parametrize("style", [pytest.param("lietxia", marks=pytest.mark.shared("art")), *(f"drawn-cwkai-{k}" for k in range(1, 5))])
def test_a_flowers_numeral_and_name_painted_small_in_its_corners_are_read_in_styles_never_trained_on(reader, style):
    from datasets.faces import build

    faces = build([style])[style]
    flowers = [(code, turn) for code in FLOWERS for turn in range(4)]
    said = right = read = 0
    for code, turn in flowers:
        img, box = tile_photo(faces[code], turn)
        counts = _corner_reads(reader, img, box, [code])
        said, right, read = said + counts[0], right + counts[1], read + counts[2]
    assert right >= said - 1 and read >= len(flowers) / 2, (said, right, read)


@pytest.mark.shared("datasets/chinese-mahjong-detection")
def test_on_the_hong_kong_photos_a_flowers_corners_read_its_numeral_or_name(reader):
    from vision.training.golden import REAL

    said = right = read = flowers = 0
    for img, boxes, codes in labelled_photos(sorted(p.name for p in REAL.iterdir())[::4]):
        shown = [i for i, code in enumerate(codes) if code.endswith("f")]
        counts = _corner_reads(reader, img, boxes[shown], [codes[i] for i in shown])
        said, right, read, flowers = said + counts[0], right + counts[1], read + counts[2], flowers + len(shown)
    assert flowers >= 30 and right >= 0.95 * said and read >= flowers / 2, (flowers, said, right, read)


def test_no_tile_no_corners_read(reader):
    assert all(e.shape == (0, len(CLASSES) - 1) for e in reader.corners(np.zeros((50, 50, 3), np.uint8), np.zeros((0, 4))))


def test_a_model_without_the_tiles_characters_in_its_alphabet_is_refused_by_name():
    from vision.models import DEFAULT_FACES

    with pytest.raises(ValueError, match="taiscore-faces.onnx: its alphabet lacks"):
        CharacterReader(DEFAULT_FACES)
