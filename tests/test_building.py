"""One way from tiles in groups to a hand: typed notation, a corrected table, the layout reader."""

from __future__ import annotations

import pytest

from scoring.building import Placed, build, from_notation, hand_of, meld_of
from scoring.hand import HandError, hand_from_json
from scoring.scorer import score


def test_typed_tiles_make_the_hand_the_scorer_takes():
    placed = from_notation("123m456m789p234s678s55p", "4m", "", "")
    hand = hand_of(placed)
    assert hand == {"concealed": "123456m55789p234678s", "melds": [], "flowers": "", "winning_tile": "4m"}
    assert [p.group for p in placed].count("winning") == 1
    assert score(hand_from_json({**hand, "seat": "S", "discarder": "W"})).total == 3  # 門清 + 平胡


@pytest.mark.parametrize(
    ("concealed", "winning", "melds", "flowers", "message"),
    [
        ("456m789p234s678s55p", "4m", "ankong 11z", "", "ankong 11z"),
        ("123m456m789p234s678s55p", "45m", "", "", "expected one tile, got '45m'"),
        ("456m789p234s678s55p", "4m", "steal 123m", "", "write it as 'chi 234m'"),
        ("456m789p234s678s55p", "4m", "chi 135m", "", "three consecutive tiles"),
        ("123m456m789p234s678s55p", "9s", "", "", "winning tile 9s is not among the concealed tiles"),
        ("123m456m789p234s678s55p", "4m", "", "11f", "a second copy of flower 1f"),
        ("123x", "", "", "", "not tile notation"),
    ],
)
def test_typed_mistakes_are_refused_with_a_message(concealed, winning, melds, flowers, message):
    with pytest.raises(HandError) as e:
        from_notation(concealed, winning, melds, flowers)
    assert message in str(e.value)


def test_a_concealed_kong_lies_with_two_tiles_face_down():
    placed = from_notation("456m789p234s678s55p", "4m", "ankong 1111z, pon 999m", "2f")
    assert [p.code for p in placed if p.group == "meld 1"] == ["back", "1z", "1z", "back"]
    assert hand_of(placed)["melds"] == ["ankong 1111z", "pon 999m"]
    assert hand_of(placed)["flowers"] == "2f"


def test_what_stops_a_hand_is_named_and_the_rest_still_read():
    tiles = [Placed(c, "concealed") for c in "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s".split()]
    tiles += [Placed("1z", "meld 1"), Placed("5p", "meld 1"), Placed("back", "concealed"), Placed("3s", "winning"), Placed("4s", "winning")]
    built = build(tiles)
    assert built.problems == (
        "meld 1 (1z 5p) is not a chi, pon, kong or concealed kong",
        "a face-down tile among the standing tiles: turn it up or set its kind",
        "2 tiles marked winning (3s 4s): a hand wins on one",
    )
    assert "winning_tile" not in built.hand and built.hand["melds"] == []
    assert "13 tiles read (kongs count 3); a winning hand has 17" in built.doubts
    with pytest.raises(HandError, match="meld 1 \\(1z 5p\\)"):
        hand_of(tiles)


def test_doubts_follow_the_tiles():
    hand = [Placed(c, "concealed") for c in "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 6s 7s 8s 5p".split()]
    assert "the winning tile is not set apart from the row: mark it" in build(hand).doubts
    marked = hand[:-1] + [Placed("5p", "winning")]
    assert "the winning tile is not set apart from the row: mark it" not in build(marked).doubts
    assert any("16 tiles read" in d for d in build(marked).doubts)
    five = [Placed("1m", "concealed")] * 5
    assert "5 copies of 1m read: the set has four" in build(five).doubts


def test_flowers_are_laid_aside_once_each():
    assert "flower 2f seen 2 times: the set has one" in build([Placed("2f", "flowers")] * 2).problems
    assert build([Placed("2f", "concealed")]).problems == ("flower 2f among the hand's tiles: flowers are laid aside",)
    assert build([Placed("3m", "flowers")]).problems == ("only flowers belong with the flowers: 3m",)


@pytest.mark.parametrize("bad", [Placed("0m", "concealed"), Placed("1m", "meld 0"), Placed("1m", "hand")])
def test_unknown_kinds_and_groups_are_refused(bad):
    with pytest.raises(HandError, match="no such"):
        build([bad])


def test_meld_shapes():
    assert meld_of(["3m", "2m", "4m"]) == "chi 234m"
    assert meld_of(["8m", "9m", "1p"]) is None
    assert meld_of(["1z", "2z", "3z"]) is None
    assert meld_of(["back", "back", "back", "back"]) is None
    assert meld_of(["back", "5p", "5p", "back"]) == "ankong 5555p"
    assert meld_of(["7s"] * 4) == "kong 7777s"
    assert meld_of(["1f", "1f", "1f"]) is None
