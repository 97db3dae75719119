"""`star31` (seed 002) and `taiwan-basic` (seed 001): each item positive and negative.

Hands are shared with the `taiwan` cases where the item means the same; the
overrides are where the seeds read differently (RULINGS)."""

from __future__ import annotations

import pytest
from conftest import ids, play
from test_taiwan import BASE, CASES, FIVE_MELDS

from scoring.hand import HandError
from scoring.ruleset import load
from scoring.tiles import SEAT_FLOWERS

KONGS = ["kong 1111m", "kong 5555p", "ankong 9999s", "kong 2222z"]
EAST_PUNG = dict(concealed="123m456m789p234s111z55p", win="4m", seat="E", discarder="S")

# The seeds' values, written here so that a wrong edit of the data fails.
VALUES = {
    "star31": {  # seed 002's 台數表
        "dragon_pung": 1, "seat_wind": 1, "round_wind": 1, "seat_and_round_wind": 1, "self_drawn": 1, "concealed_hand": 1,
        "concealed_self_drawn": 3, "seat_flower_seasons": 1, "seat_flower_plants": 1, "flower_kong_seasons": 2, "flower_kong_plants": 2,
        "single_wait": 1, "kong_bloom": 1, "last_tile_or_discard": 1, "robbing_kong": 1, "all_melded": 2, "pinghu": 2,
        "concealed_pungs_3": 2, "concealed_pungs_4": 5, "concealed_pungs_5": 8, "all_pungs": 4, "half_flush": 4, "full_flush": 8,
        "four_kongs": 8, "small_dragons": 4, "big_dragons": 8, "small_winds": 8, "big_winds": 16, "eight_flowers": 8,
        "seven_rob_one": 8, "ready_first_discard": 8, "ready_dealt": 16, "earthly": 16, "heavenly": 24,
    },
    "taiwan-basic": {  # seed 001's two tables and its 正花
        "self_drawn": 1, "seat_wind": 1, "round_wind": 1, "dragon_pung": 1, "seat_flower_seasons": 1, "seat_flower_plants": 1,
        "pinghu": 2, "all_pungs": 4, "half_flush": 4, "full_flush": 8, "big_winds": 16, "small_winds": 8, "big_dragons": 8,
        "small_dragons": 4, "all_honours": 16,
    },
}
OVERRIDES = {
    "star31": {
        "last_tile_or_discard": (dict(concealed=BASE, win="4m", events=["last_discard"]), dict(concealed=BASE, win="4m")),
        "four_kongs": (dict(concealed="77p", melds=KONGS + ["chi 678s"], win="7p", self_drawn=True), dict(concealed="77p", melds=KONGS[:3] + ["pon 222z", "chi 678s"], win="7p")),
        "seat_and_round_wind": ({**EAST_PUNG, "options": {"seat_round_wind_three": True}}, {**EAST_PUNG, "round": "S", "options": {"seat_round_wind_three": True}}),
    },
    "taiwan-basic": {
        "pinghu": (dict(concealed=BASE, win="4m", self_drawn=True), dict(concealed="111m555m999p234s678s55p", win="4s")),
        "seat_flower_seasons": (dict(concealed=BASE, win="4m", flowers="2f", self_drawn=True), dict(concealed=BASE, win="4m", flowers="3f", self_drawn=True)),
        "seat_flower_plants": (dict(concealed=BASE, win="4m", flowers="6f", self_drawn=True), dict(concealed=BASE, win="4m", flowers="7f", self_drawn=True)),
    },
}


def _case(ruleset: str, item: str, positive: bool) -> dict:
    pos, neg = OVERRIDES[ruleset].get(item) or CASES[item][1:]
    case = dict(pos if positive else neg, ruleset=ruleset)
    if ruleset == "taiwan-basic" and "flowers" not in case:  # the 1 台 minimum: a seat flower
        case["flowers"] = f"{SEAT_FLOWERS[case.get('seat', 'S')][1]}f"
    return case


def _items(case: dict) -> dict[str, int]:
    kw = dict(case)
    return ids(play(kw.pop("concealed"), kw.pop("win"), **kw))


PARAMS = [(rs, item) for rs, values in VALUES.items() for item in sorted(values)]


@pytest.mark.parametrize("ruleset", sorted(VALUES))
def test_every_hand_item_of_the_table_has_a_value_here(ruleset):
    assert {i.id for i in load(ruleset).items if not i.dealer} == set(VALUES[ruleset])


@pytest.mark.parametrize(("ruleset", "item"), PARAMS)
def test_item_positive(ruleset, item):
    assert _items(_case(ruleset, item, True)).get(item) == VALUES[ruleset][item]


@pytest.mark.parametrize(("ruleset", "item"), PARAMS)
def test_item_negative(ruleset, item):
    assert item not in _items(_case(ruleset, item, False))


@pytest.mark.parametrize(("streak", "dealer_items"), [(0, [("dealer", 1)]), (1, [("dealer_streak", 3)]), (2, [("dealer_streak", 5)])])
def test_star31_dealer_items_are_one_and_two_n_plus_one(streak, dealer_items):
    """Seed 002: 庄家 1 台; 连一拉一 三台, 连二拉二 五台."""
    s = play(BASE, "4m", seat="E", self_drawn=True, streak=streak, ruleset="star31")
    assert [(i.id, i.value) for i in s.dealer_items] == dealer_items
    assert all(p.points == s.total + dealer_items[0][1] for p in s.payments)


def test_star31_all_melded_takes_no_single_wait():
    assert ids(play("55p", "5p", melds=FIVE_MELDS, ruleset="star31")) == {"all_melded": 2}


def test_star31_heavenly_is_24_and_ready_dealt_16():
    s = ids(play(BASE, "4m", seat="E", self_drawn=True, events=["heavenly"], ruleset="star31"))
    assert s["heavenly"] == 24
    assert ids(play(BASE, "4m", events=["ready_dealt"], ruleset="star31"))["ready_dealt"] == 16


def test_taiwan_basic_has_no_dealer_items_and_pays_one_base_plus_one_per_tai():
    s = play(BASE, "4m", seat="E", discarder="S", flowers="1f", ruleset="taiwan-basic")
    assert s.dealer_items == ()
    assert [(p.points, p.amount) for p in s.payments] == [(s.total, 1 + s.total)]


def test_taiwan_basic_seed_example_three_tai_self_drawn_pays_five_each():
    """Seed 001: a 3 台 hand self-drawn is 4 台, each opponent pays 5 units."""
    s = play("123m456m789p234s777z55p", "4m", seat="S", self_drawn=True, flowers="26f", ruleset="taiwan-basic")
    assert s.total == 4 and [p.amount for p in s.payments] == [5, 5, 5]


def test_taiwan_basic_refuses_a_hand_below_one_tai():
    with pytest.raises(HandError, match="below the minimum"):
        play("111m456m789p234s678s77z", "4m", ruleset="taiwan-basic")


def test_taiwan_basic_big_hands_replace_only_the_single_honour_items():
    s = ids(play("111z222z333z444z55z", "5z", melds=["pon 666z"], ruleset="taiwan-basic", seat="S"))
    assert {"big_winds", "all_honours", "all_pungs"} <= set(s)
    assert not {"seat_wind", "round_wind", "dragon_pung"} & set(s)


def test_house_options_change_values_and_replacements():
    heavenly = dict(seat="E", self_drawn=True, events=["heavenly"])
    assert ids(play(BASE, "4m", options={"heavenly_value": 24}, **heavenly))["heavenly"] == 24
    stacked = ids(play(BASE, "4m", flowers="1234f", options={"flower_kong_stacks": True}))
    assert stacked["flower_kong_seasons"] == 2 and stacked["seat_flower_seasons"] == 1
    loose = ids(play(BASE, "4m", self_drawn=True, flowers="3f", options={"pinghu_strict": False}))
    assert loose["pinghu"] == 2
    assert "pinghu" not in ids(play(BASE, "4m", self_drawn=True, flowers="3f"))


def test_star31_has_no_half_melded():
    """RULINGS star31: self-drawn with five exposed sets scores 自摸 and 獨聽 only."""
    assert ids(play("55p", "5p", melds=FIVE_MELDS, self_drawn=True, ruleset="star31")) == {"self_drawn": 1, "single_wait": 1}


def test_star31_seat_and_round_wind_is_two_or_three_by_option():
    assert ids(play(**EAST_PUNG, ruleset="star31")) == {"seat_wind": 1, "round_wind": 1, "concealed_hand": 1}
    three = ids(play(**EAST_PUNG, ruleset="star31", options={"seat_round_wind_three": True}))
    assert three["seat_wind"] + three["round_wind"] + three["seat_and_round_wind"] == 3


@pytest.mark.parametrize(("event", "value"), [("ready_dealt", 16), ("ready_first_discard", 8), ("earthly", 16)])
def test_star31_ready_and_earthly_replace_the_concealed_hand(event, value):
    assert ids(play(BASE, "4m", events=[event], ruleset="star31")) == {event: value, "pinghu": 2}


def test_star31_heavenly_replaces_concealed_self_drawn_and_takes_no_single_wait():
    s = ids(play(BASE, "3m", seat="E", self_drawn=True, events=["heavenly"], ruleset="star31"))
    assert s == {"heavenly": 24, "self_drawn": 1}


def test_star31_four_kongs_win_by_themselves_paid_as_self_drawn():
    """RULINGS star31 四槓牌: 16 tiles that complete nothing still win 8, all three pay."""
    s = play("789p7s", "7s", melds=KONGS, self_drawn=True, ruleset="star31")
    assert ids(s) == {"four_kongs": 8}
    assert {p.payer: p.points for p in s.payments} == {"E": 8 + 1, "W": 8, "N": 8}


def test_star31_four_kongs_add_the_hand_their_tiles_complete():
    s = ids(play("789p77s", "7s", melds=KONGS, self_drawn=True, ruleset="star31"))
    assert s == {"seat_wind": 1, "self_drawn": 1, "single_wait": 1, "four_kongs": 8}  # 南 kong for seat S


def test_star31_four_kongs_are_refused_on_a_discard_and_elsewhere_without_a_hand():
    with pytest.raises(HandError, match="self-drawn"):
        play("789p77s", "7s", melds=KONGS, ruleset="star31")
    with pytest.raises(HandError, match="not a winning hand"):
        play("789p7s", "7s", melds=KONGS, self_drawn=True, ruleset="taiwan")
