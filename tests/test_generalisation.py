"""The generalisation protocol's arithmetic: what counts as found, read right and
entirely right, and its refusal to run without the validation photos."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classes import INDEX
from vision.detector import Tile
from vision.evaluate import claimed
from vision.generalisation import Tally, main, table


def test_a_true_box_is_claimed_once_by_the_surest_prediction_of_its_class_or_of_any():
    gt = np.array([[INDEX["1m"], 0, 0, 10, 10], [INDEX["1f"], 20, 0, 30, 10]], float)
    boxes = np.array([[0, 0, 10, 10], [0, 0, 10, 11], [20, 0, 30, 10]], float)
    cls, conf = np.array([INDEX["2m"], INDEX["1m"], INDEX["1f"]]), np.array([0.9, 0.5, 0.8])
    assert claimed(boxes, cls, conf, gt).tolist() == [True, True]
    assert claimed(boxes[:1], cls[:1], conf[:1], gt).tolist() == [False, False]
    assert claimed(boxes[:1], cls[:1], conf[:1], gt, any_class=True).tolist() == [True, False]
    assert claimed(np.zeros((0, 4)), cls[:0], conf[:0], gt).tolist() == [False, False]


def test_a_row_counts_tiles_found_read_right_flowers_and_photos_entirely_right():
    tally = Tally()
    gt = np.array([[INDEX["1m"], 0, 0, 10, 10], [INDEX["1f"], 20, 0, 30, 10]], float)
    tally.add([Tile("1m", 0.9, (0, 0, 10, 10)), Tile("1f", 0.9, (20, 0, 30, 10))], gt)
    tally.add([Tile("1m", 0.9, (0, 0, 10, 10)), Tile("2f", 0.9, (20, 0, 30, 10))], gt)  # a flower misread
    tally.add([Tile("1m", 0.9, (0, 0, 10, 10)), Tile("1f", 0.9, (20, 0, 30, 10)), Tile("back", 0.5, (50, 0, 60, 10))], gt)  # one too many
    tally.add([], gt)
    assert tally.counts == {"photos": 4, "tiles": 8, "found": 6, "right": 5, "flowers": 4, "flowers_right": 2, "entirely_right": 1}
    row = table({"row": tally}).splitlines()[-1]
    assert row == "| row | 4 | 8 | 75.0 % | 62.5 % | 50.0 % of 4 | 25.0 % |"


def test_without_the_validation_photos_the_command_says_what_to_build(tmp_path, capsys):
    assert main(["--real", str(tmp_path / "none")]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.strip().splitlines()) == 1 and "datasets/README.md" in out.err


def test_a_reader_that_saw_the_hong_kong_photos_cannot_stand_for_the_unseen_real_set(tmp_path, capsys):
    from vision.models import DEFAULT_FACES

    (tmp_path / "images").mkdir()
    assert main(["--real", str(tmp_path), "--unseen-faces", str(DEFAULT_FACES)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.strip().splitlines()) == 1 and "trained on the Hong Kong photos" in out.err


def test_the_reader_of_the_unseen_real_set_says_it_never_saw_a_hong_kong_photo():
    from vision.generalisation import hong_kong_photos
    from vision.models import DEFAULT_FACES, DEFAULT_FLOWERS, UNSEEN_FACES

    assert hong_kong_photos(UNSEEN_FACES) == "never seen"
    assert hong_kong_photos(DEFAULT_FACES) == hong_kong_photos(DEFAULT_FLOWERS) == "trained on"


def test_a_training_run_knows_whether_it_reads_the_hong_kong_photos(tmp_path):
    from vision.training.faces import DEFAULT_DATA, saw_hong_kong

    assert saw_hong_kong([DEFAULT_DATA]) and saw_hong_kong([tmp_path, DEFAULT_DATA.parent / "valid"])
    assert not saw_hong_kong([tmp_path])


@pytest.mark.shared("art")
def test_the_generators_boxes_hold_the_face_where_the_detector_does():
    """What `vision.training.margins` measures for a reader trained on renders: the
    generator boxes a tile's face, as the real photos' labels and so the detector do;
    the detector's box is a little tighter, never elsewhere."""
    from vision.training.margins import ratios

    r = ratios(4)
    assert len(r) >= 10
    across, down, right, lower = np.median(r, axis=0)
    assert 0.75 < across < 1.0 and 0.8 < down < 1.0
    assert abs(right) < 0.05 and abs(lower) < 0.05


def test_the_cut_undoes_the_median_size_and_place_of_the_rendered_boxes():
    from vision.faces import MARGIN, Cut
    from vision.training.margins import cut_from

    r = np.array([[0.8, 0.6, 0.0, 0.2], [0.75, 0.75, 0.02, 0.15], [0.9, 0.7, -0.02, 0.1]])
    assert cut_from(r) == Cut(round(MARGIN / 0.8, 2), round(MARGIN / 0.7, 2), 0.0, 0.15)


def test_a_re_saved_photo_shows_the_same_tiles_in_other_pixels():
    from vision.generalisation import resaved

    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (40, 60, 3), dtype=np.uint8)
    gt = np.array([[INDEX["5z"], 1, 2, 30, 40]], float)
    (again, same), = resaved(lambda: iter([(img, gt)]), 50)()
    assert again.shape == img.shape and same is gt
    assert np.abs(again.astype(int) - img).mean() > 5  # noise does not survive a quality-50 JPEG
    (kept, _), = resaved(lambda: iter([(img, gt)]), 100)()
    assert np.abs(kept.astype(int) - img).mean() < np.abs(again.astype(int) - img).mean()


def test_a_jpeg_quality_outside_1_to_100_is_refused(tmp_path, capsys):
    for bad in ("0", "101", "high"):
        with pytest.raises(SystemExit) as stop:
            main(["--real", str(tmp_path), "--resave-quality", bad])
        assert stop.value.code == 2 and "1 to 100" in capsys.readouterr().err
