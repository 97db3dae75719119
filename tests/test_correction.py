"""Correcting a reading: ids and boxes stay with their tiles, doubts follow every edit, taps find tiles."""

from __future__ import annotations

import numpy as np
from test_layout import row

from scoring.building import from_notation
from vision import overlay
from vision.correction import Correction

HAND = "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5p".split()


def _photo_reading() -> Correction:
    """A concealed row with 5p apart as the winning tile and a pon above it, detected
    right to left (the detector's order says nothing of where a tile lies)."""
    tiles = row(HAND + ["5p"], 10, 300, gap_after={12: 30}) + row("9s 9s 9s".split(), 10, 200)
    tiles[3] = type(tiles[3])("4m", 0.3, tiles[3].box)
    return Correction.of_photo(list(reversed(tiles)))


def test_tiles_are_numbered_left_to_right_row_by_row():
    c = _photo_reading()
    assert [t.code for t in c.tiles[:3]] == ["9s", "9s", "9s"]  # the top row first
    assert [t.id for t in c.tiles] == list(range(17))
    xs = [t.box[0] for t in c.tiles[3:]]
    assert xs == sorted(xs)
    assert c.doubts[-1] == "low confidence, check these tiles: #6 4m 0.30"


def test_a_delete_keeps_every_other_tile_its_id_box_and_group():
    c = _photo_reading()
    before = {t.id: t for t in c.tiles}
    after = c.delete(10)
    assert 10 not in {t.id for t in after.tiles}
    assert all(before[t.id] == t for t in after.tiles)
    assert c.doubts == ("low confidence, check these tiles: #6 4m 0.30",)
    assert after.doubts == ("16 tiles read (kongs count 3); a winning hand has 17", "low confidence, check these tiles: #6 4m 0.30")


def test_doubts_are_recomputed_after_each_edit():
    c = Correction.of_placed(from_notation("123m456m789p234s678s55p"))
    assert "the winning tile is not set apart from the row: mark it" in c.doubts
    c = c.set_group(c.tiles[3].id, "winning")
    assert c.doubts == ()
    c = c.delete(0).delete(1)
    assert c.doubts == ("15 tiles read (kongs count 3); a winning hand has 17",)
    c = c.add("1m").add("2m")
    assert c.doubts == () and c.hand()["concealed"] == "123456m55789p234678s"
    assert [t.id for t in c.tiles][-2:] == [17, 18]  # new ids: a deleted tile's id is never reused


def test_one_winning_tile_and_flowers_go_where_they_belong():
    c = Correction.of_placed(from_notation("123m456m789p234s678s55p", "4m"))
    first = next(t.id for t in c.tiles if t.code == "5p")
    c = c.set_group(first, "winning")
    assert [t.code for t in c.tiles if t.group == "winning"] == ["5p"]
    c = c.add("3f")
    assert c.tiles[-1].group == "flowers"
    c = c.set_kind(c.tiles[-1].id, "9m")
    assert c.tiles[-1].group == "concealed" and c.tiles[-1].conf == 1.0


def test_a_tap_on_the_photo_finds_the_tile_under_it():
    c = _photo_reading()
    img = np.full((420, 900, 3), 200, np.uint8)
    view = overlay.photo(img, c, selected=6)
    target = c.tile(8)
    (x1, y1, x2, y2), _ = next((r, v) for r, v in view.targets if v == 8)
    shown = 390  # a phone column
    k = shown / view.image.shape[1]
    assert view.at((x1 + x2) / 2 * k, (y1 + y2) / 2 * k, shown) == target.id
    assert view.at(2, 2, shown) is None  # the margin around the tiles


def test_labels_never_overlap_each_other():
    boxes = [(float(x), 100.0, x + 20.0, 130.0) for x in range(0, 400, 21)]
    spots = overlay.place_labels(boxes, [(60.0, 18.0)] * len(boxes))
    assert not any(overlay._overlaps(a, b) for i, a in enumerate(spots) for b in spots[i + 1 :])
    assert not any(overlay._overlaps(s, b) for s in spots for b in boxes)


def test_the_photo_is_cropped_to_the_tiles():
    c = _photo_reading()
    x1, y1, x2, y2 = overlay.crop([t.box for t in c.tiles], (2000, 3000, 3))
    assert (x1, y1) == (0, 172) and x2 < 1000 and y2 < 400


def test_the_picker_gives_every_kind_by_suit():
    view = overlay.picker()
    w = view.image.shape[1]
    cell = w / 9
    rows = sorted({r[1] for r, _ in view.targets})
    assert view.at(cell * 4.5, rows[1] + 5, w) == "5p"
    assert view.at(cell * 7.5, rows[3] + 5, w) == "back"
    assert view.at(cell * 0.5, rows[4] + 5, w) == "1f"
    assert len(view.targets) == 9 * 3 + 8 + 8


def test_the_winning_tile_is_offered_once_per_standing_kind_until_one_is_marked():
    c = Correction.of_placed(from_notation("123m456m789p234s678s55p", melds="pon 999s"))
    choices = c.winning_choices()
    assert list(choices) == ["1m", "2m", "2s", "3m", "3s", "4m", "4s", "5m", "5p", "6m", "6s", "7p", "7s", "8p", "8s", "9p"]
    assert "9s" not in choices and choices["5p"] == next(t.id for t in c.tiles if t.code == "5p")
    assert c.set_group(choices["4m"], "winning").winning_choices() == {}
