"""One box per physical tile, placed where the candidates on it agree."""

from __future__ import annotations

import numpy as np
import pytest

from vision.config import DEFAULT
from vision.detections import Detections
from vision.voting import one_per_tile, vote, whole_tiles


def test_a_kept_box_moves_to_the_score_weighted_mean_of_the_boxes_on_its_tile():
    kept = np.array([[0.0, 0.0, 100, 100]])
    candidates = np.array([[0.0, 0.0, 100, 100], [4.0, 4.0, 104, 104], [60.0, 0, 160, 100], [-8.0, -8, 92, 92]])
    scores = np.array([0.9, 0.3, 0.9, 0.1])  # the third covers another tile, the fourth scores below the floor (0.25)
    assert vote(kept, candidates, scores, DEFAULT) == pytest.approx(np.array([[1.0, 1.0, 101, 101]]))


def test_a_box_no_candidate_votes_for_stays_where_it_is():
    kept = np.array([[0.0, 0.0, 100, 100]])
    assert (vote(kept, kept, np.array([0.1]), DEFAULT) == kept).all()


def test_one_tile_read_as_two_classes_keeps_the_surer_and_other_tiles_stay():
    candidates = Detections(
        np.array([[0.0, 0, 100, 130], [2, 2, 100, 130], [200, 0, 300, 130], [400, 0, 500, 130]]),
        np.array([0.6, 0.9, 0.7, 0.2]),  # the last is below the working confidence (0.25)
        np.array([3, 5, 3, 3]),
    )
    kept = one_per_tile(candidates, DEFAULT)
    assert sorted(kept.classes.tolist()) == [3, 5] and sorted(kept.scores.tolist()) == [0.7, 0.9]
    assert len(one_per_tile(Detections.empty(), DEFAULT)) == 0


def test_a_column_of_a_tile_boxed_alone_goes_and_askew_neighbours_stay():
    found = Detections(
        np.array([[0.0, 0, 100, 130], [50, 5, 98, 125], [60.0, 60, 160, 190], [300, 0, 400, 130]]),
        np.array([0.95, 0.9, 0.8, 0.4]),
        np.array([3, 3, 5, 7]),
    )
    # the column (0.9) lies wholly inside the surer tile (0.95): part of it, gone; the askew
    # neighbour (0.8) lies (40 x 70) / (100 x 130) = 0.22 inside the tile: a tile of its own
    assert whole_tiles(found, DEFAULT).scores.tolist() == [0.95, 0.8, 0.4]
    # the surer of the two stays: the tile, 0.44 inside the column, is not part of it
    found = Detections(found.boxes, np.array([0.9, 0.95, 0.8, 0.4]), found.classes)
    assert whole_tiles(found, DEFAULT).scores.tolist() == [0.95, 0.9, 0.8, 0.4]
    assert len(whole_tiles(Detections.empty(), DEFAULT)) == 0
