"""`hk-taiwan` (seed 000's 番數表 with seed 004's 叮, 即食, 天叮): every row positive and negative."""

from __future__ import annotations

import pytest
from conftest import ids, play

from scoring.ruleset import load

BASE = "123m456m789p234s678s55p"
FIVE_MELDS = ["chi 123m", "chi 456m", "pon 777p", "chi 234s", "chi 678s"]
CHI = dict(concealed="456m789p234s678s55p", melds=["chi 123m"], win="4m")
ORPHANS_OPEN = dict(concealed="19m19p19s1234567z1m", melds=["chi 234s"], win="1m")
ORPHANS_HIDDEN = dict(concealed="19m19p19s1234567z1m234s", win="1m")
EIGHT_PAIRS = dict(concealed="1122m3344p5566s11s777z", win="7z")
SIXTEEN = dict(concealed="147m258p369s1234567z1z", win="1z")
POOL5, POOL6, POOL8, POOL11 = "9m9s1z2z3z", "9m9s1z2z3z4z", "9m9s1z2z3z4z5z6z", "9m9s1z2z3z4z5z6z7z8p8s"
CHICKEN = dict(concealed="456m678p234s666s11z", melds=["chi 123m"], win="4m")


def B(**kw):
    return {"concealed": BASE, "win": "4m", **kw}


CASES = {
    "single_wait": (2, B(win="3m"), B()),
    "false_single": (1, dict(concealed="11122m456p789p234s678s", win="2m"), B()),
    "pair_wait": (1, dict(concealed="555m777p123s456s789s99p", win="7p"), B()),
    "pair_258": (1, B(), dict(concealed="123m456m789p234s678s11p", win="4m")),
    "self_drawn": (1, {**CHI, "self_drawn": True}, CHI),
    "replacement_win": (2, {**CHI, "self_drawn": True, "events": ["replacement"]}, {**CHI, "self_drawn": True}),
    "double_replacement_win": (20, {**CHI, "self_drawn": True, "events": ["double_replacement"]}, {**CHI, "self_drawn": True, "events": ["replacement"]}),
    "concealed_hand": (3, B(), CHI),
    "concealed_self_drawn": (5, B(self_drawn=True), {**CHI, "self_drawn": True}),
    "ready": (5, B(events=["ready"]), B()),
    "ready_one_round": (5, B(events=["ready", "ready_one_round"]), B(events=["ready"])),
    "half_melded": (8, dict(concealed="55p", melds=FIVE_MELDS, win="5p", self_drawn=True), dict(concealed="55p", melds=FIVE_MELDS, win="5p")),
    "all_melded": (15, dict(concealed="55p", melds=FIVE_MELDS, win="5p"), dict(concealed="55p", melds=FIVE_MELDS, win="5p", self_drawn=True)),
    "last_tile": (5, B(self_drawn=True, events=["last_tile"]), B(self_drawn=True)),
    "last_discard": (5, B(events=["last_discard"]), B()),
    "no_honours": (1, B(flowers="2f"), dict(concealed="123m456m789p234s777z55p", win="4m", flowers="2f")),
    "no_flowers": (1, dict(concealed="123m456m789p234s777z55p", win="4m"), dict(concealed="123m456m789p234s777z55p", win="4m", flowers="1f")),
    "no_honours_no_flowers": (5, dict(concealed="123m456m789p234s666s55p", win="4m"), dict(concealed="123m456m789p234s666s55p", win="4m", flowers="1f")),
    "exposed_kong": (1, dict(concealed="456m789p234s678s55p", melds=["kong 1111m"], win="4m"), dict(concealed="456m789p234s678s55p", melds=["ankong 1111m"], win="4m")),
    "concealed_kong": (2, dict(concealed="456m789p234s678s55p", melds=["ankong 1111m"], win="4m"), dict(concealed="456m789p234s678s55p", melds=["kong 1111m"], win="4m")),
    "robbing_kong": (1, B(events=["robbing_kong"]), B()),
    "flowers": (1, B(flowers="3f"), B()),
    "flower_grass": (5, B(flowers="1368f"), B(flowers="136f")),
    "flower_set": (8, B(flowers="1234f"), B(flowers="1235f")),
    "seven_flowers": (15, B(flowers="1234567f"), B(flowers="123456f")),
    "seven_rob_one": (20, B(flowers="1234567f", events=["seven_rob_one"]), B(flowers="1234567f")),
    "eight_flowers": (40, B(flowers="12345678f", self_drawn=True, events=["eight_flowers"]), B(flowers="1234567f", self_drawn=True)),
    "wind_pung": (1, dict(concealed="123m456m789p234s333z55p", win="4m"), B()),
    "dragon_pung": (2, dict(concealed="123m456m789p234s777z55p", win="4m"), B()),
    "pinghu": (3, dict(concealed="123m456m789p234s678s55z", win="4m"), dict(concealed="123m456m789p234s666s55z", win="4m")),
    "big_pinghu": (10, B(), dict(concealed="123m456m789p234s678s55z", win="4m")),
    "chicken": (10, CHICKEN, B()),
    "all_pungs": (30, dict(concealed="111m555m999p222s55p", melds=["pon 888s"], win="5p"), B()),
    "half_flush": (30, dict(concealed="123m456m789m111z678m55m", win="4m"), dict(concealed="123m456m789m234m678m55m", win="4m")),
    "full_flush": (80, dict(concealed="123m456m789m234m678m55m", win="4m"), dict(concealed="123m456m789m111z678m55m", win="4m")),
    "small_dragons": (20, dict(concealed="123m456m789p666z777z55z", win="4m"), dict(concealed="123m456m666z777z789p55p", win="4m")),
    "big_dragons": (40, dict(concealed="123m456m555z666z777z44p", win="4m"), dict(concealed="123m456m789p666z777z55z", win="4m")),
    "small_three_winds": (15, dict(concealed="111z222z33z123m456m789p", win="4m"), B()),
    "big_three_winds": (30, dict(concealed="111z222z333z123m456m55p", win="4m"), dict(concealed="111z222z33z123m456m789p", win="4m")),
    "small_winds": (50, dict(concealed="111z222z333z44z123m456m", win="4m"), dict(concealed="111z222z333z123m456m44p", win="4m")),
    "big_winds": (80, dict(concealed="111z222z333z444z123m55p", win="5p"), dict(concealed="111z222z333z44z123m456m", win="4m")),
    "missing_suit": (5, dict(concealed="123m456m234s678s789s55m", win="4m"), B()),
    "five_gates": (10, dict(concealed="123m456p789s111z777z55p", win="4p"), B()),
    "hidden_pungs_2": (3, dict(concealed="111m555m789p234s678s55p", win="4s"), B()),
    "hidden_pungs_3": (10, dict(concealed="111m555m999p234s678s55p", win="4s"), dict(concealed="111m555m999p234s678s55p", win="9p")),
    "hidden_pungs_4": (20, dict(concealed="111m555m999p222s678s55p", win="7s"), dict(concealed="111m555m999p222s678s55p", win="2s")),
    "hidden_pungs_5": (40, dict(concealed="111m555m999p222s888s55p", win="5p"), dict(concealed="111m555m999p222s888s55p", win="8s")),
    "all_hidden_self_drawn": (90, dict(concealed="111m555m999p222s888s55p", win="5p", self_drawn=True), dict(concealed="111m555m999p222s888s55p", win="5p")),
    "all_simples": (5, dict(concealed="234m456m678p345s567s88p", win="4m"), B()),
    "half_outside": (15, dict(concealed="123m789m111z999p123s99s", win="1m"), B()),
    "full_outside": (30, dict(concealed="123m789m111p999p123s99s", win="1m"), dict(concealed="123m789m111z999p123s99s", win="1m")),
    "honours_and_terminals": (30, dict(concealed="111m999p111z222z999s11s", win="1s"), B()),
    "terminal_pungs_only": (90, dict(concealed="111m999m111p999p111s99s", win="9s"), dict(concealed="111m999p111z222z999s11s", win="1s")),
    "thirteen_orphans_open": (70, ORPHANS_OPEN, B()),
    "thirteen_orphans_hidden": (90, ORPHANS_HIDDEN, ORPHANS_OPEN),
    "eight_pairs": (40, EIGHT_PAIRS, B()),
    "sixteen_unrelated": (50, SIXTEEN, B()),
    "three_unrelated": (15, dict(concealed="147m147p147s1234567z1z", win="1z"), SIXTEEN),
    "heavenly": (120, B(seat="E", self_drawn=True, events=["heavenly"]), B(seat="E", self_drawn=True)),
    "ready_dealt": (60, B(events=["ready_dealt"]), B()),
    "earthly": (90, B(events=["earthly"], discarder="E"), B(discarder="E")),
    "five_discards": (30, B(pool=POOL5), B(pool=POOL6)),
    "seven_discards": (20, B(pool=POOL6), B(pool=POOL8)),
    "ten_discards": (10, B(pool=POOL8), B(pool=POOL11)),
    "double_win": (5, B(events=["double_win"]), B()),
    "triple_win": (10, B(events=["triple_win"]), B(events=["double_win"])),
    "same_chow_2": (5, dict(concealed="123m123m789p234s678s55p", win="2m"), B()),
    "same_chow_3": (15, dict(concealed="234s678s55p", melds=["chi 123m"] * 3, win="4s"), dict(concealed="123m123m789p234s678s55p", win="2m")),
    "same_chow_4": (30, dict(concealed="123m123m123m123m678s55p", win="6s"), dict(concealed="123m123m123m234s678s55p", win="4s")),
    "two_same_chows": (15, dict(concealed="123m123m234s234s678p55p", win="2m"), dict(concealed="123m123m789p234s678s55p", win="2m")),
    "mixed_chow_2": (1, dict(concealed="123m123p789p234s678s55p", win="2m"), B()),
    "mixed_chow_two_pairs": (5, dict(concealed="123m123p456p456s789s55p", win="2m"), dict(concealed="123m123p789p234s678s55p", win="2m")),
    "mixed_chow_3": (10, dict(concealed="123m123p123s456s789s55p", win="2m"), dict(concealed="123m123p789p234s678s55p", win="2m")),
    "brothers_2": (3, dict(concealed="222m222p789p234s678s55p", win="4s"), B()),
    "brothers_3": (10, dict(concealed="222m222p222s789p678s55p", win="7s"), dict(concealed="222m222p789p234s678s55p", win="4s")),
    "consecutive_pungs": (20, dict(concealed="555m666m777m234s678s55p", win="4s"), dict(concealed="111m555m999p234s678s55p", win="4s")),
    "terminal_chows": (2, dict(concealed="123m789m456p234s678s55p", win="2m"), B()),
    "double_terminal_chows": (10, dict(concealed="123m789m123s789s456p55p", win="2m"), dict(concealed="123m789m456p234s678s55p", win="2m")),
    "terminal_pung_pair": (3, dict(concealed="111m999m456p234s678s55p", win="4s"), B()),
    "double_terminal_pung_pair": (10, dict(concealed="111m999m111s999s456p55p", win="5p"), dict(concealed="111m999m456p234s678s55p", win="4s")),
    "pure_straight": (10, dict(concealed="456m789m234s678s55p", melds=["chi 123m"], win="4m"), B()),
    "pure_straight_hidden": (20, dict(concealed="123m456m789m234s678s55p", win="4m"), dict(concealed="456m789m234s678s55p", melds=["chi 123m"], win="4m")),
    "mixed_straight": (10, dict(concealed="456p789s234s678s55p", melds=["chi 123m"], win="4p"), B()),
    "mixed_straight_hidden": (20, dict(concealed="123m456p789s234s678s55p", win="4p"), dict(concealed="456p789s234s678s55p", melds=["chi 123m"], win="4p")),
    "two_suit_straight": (2, B(), dict(concealed="123m456p789s234s678s55p", win="4p")),
    "four_pung_chow_concealed": (5, dict(concealed="111m123m789p234s678s55p", win="4s"), dict(concealed="111m123m789p234s55p", melds=["chi 678s"], win="4s")),
    "four_pung_chow_open": (3, dict(concealed="111m123m789p234s55p", melds=["chi 678s"], win="4s"), dict(concealed="111m123m789p234s678s55p", win="4s")),
    "four_two_chows_pair_concealed": (10, dict(concealed="123m234m22m789p678s456s", win="6s"), dict(concealed="123m234m22m789p678s", melds=["chi 456s"], win="6s")),
    "four_two_chows_pair_open": (5, dict(concealed="123m234m22m789p678s", melds=["chi 456s"], win="6s"), dict(concealed="123m234m22m789p678s456s", win="6s")),
    "four_four_chows_concealed": (15, dict(concealed="123m234m234m345m789p55p", win="7p"), dict(concealed="123m234m234m345m55p", melds=["chi 789p"], win="5m")),
    "four_four_chows_open": (8, dict(concealed="123m234m234m345m55p", melds=["chi 789p"], win="5m"), dict(concealed="123m234m234m345m789p55p", win="7p")),
}


def _items(case: dict) -> dict[str, int]:
    kw = dict(case)
    return ids(play(kw.pop("concealed"), kw.pop("win"), ruleset="hk-taiwan", **kw))


def test_every_row_has_cases():
    assert {i.id for i in load("hk-taiwan").items if not i.dealer} == set(CASES)


@pytest.mark.parametrize("item", sorted(CASES))
def test_row_positive(item):
    value, positive, _ = CASES[item]
    assert _items(positive).get(item) == value


@pytest.mark.parametrize("item", sorted(CASES))
def test_row_negative(item):
    assert item not in _items(CASES[item][2])


# Seed 000's 已包括 column: the rows a row already includes are not listed beside it (RULINGS 7).
INCLUDES = {
    "replacement_win": {"self_drawn"},  # 花上自摸: 已包括自摸
    "double_replacement_win": {"self_drawn", "replacement_win"},  # 已包括自摸及槓上自摸
    "concealed_self_drawn": {"self_drawn", "concealed_hand"},  # 門前清自摸: 已包括自摸 (RULINGS: and 門前清)
    "half_melded": {"self_drawn", "single_wait"},  # 半求人: 已包括自摸、獨獨
    "all_melded": {"single_wait"},  # 全求人: 已包括獨獨
    "no_honours_no_flowers": {"no_honours", "no_flowers"},  # 無字花: 已包括無字、無花
    "eight_flowers": {"self_drawn", "flowers", "seven_flowers", "flower_set"},  # 八仙過海: 已包括自摸 (and RULINGS 11)
    "big_pinghu": {"pinghu", "no_honours_no_flowers"},  # 大平胡: 已包括無字花及平胡
    "all_hidden_self_drawn": {"self_drawn", "hidden_pungs_5", "hidden_pungs_4", "hidden_pungs_3"},  # 間間胡: 已包括五暗刻及自摸
}


# Hands with a call, so that no 門前清自摸 hides a 自摸 left listed.
NOT_CONCEALED = {
    "eight_flowers": {**CHI, "self_drawn": True, "flowers": "12345678f", "events": ["eight_flowers"]},
    "all_hidden_self_drawn": dict(
        concealed="111m555m999p222s55p", melds=["kong 8888s"], win="5p", self_drawn=True, options={"kong_keeps_concealed": False}
    ),
}


@pytest.mark.parametrize("item", sorted(INCLUDES))
def test_a_row_lists_none_of_the_rows_it_includes(item):
    found = _items(NOT_CONCEALED.get(item, CASES[item][1]))
    assert item in found and not INCLUDES[item] & set(found), found


def test_immediate_payments_are_their_own_lines():
    """暗槓: 1 底 from each other player; 一台花: 2 底 each (seed 000), outside the hand value."""
    s = play("456m789p234s678s55p", "4m", melds=["ankong 1111m"], flowers="1234f", ruleset="hk-taiwan")
    at_once = sorted((p.payer, p.amount) for p in s.payments if p.kind == "immediate")
    assert at_once == [("E", 10), ("E", 20), ("N", 10), ("N", 20), ("W", 10), ("W", 20)]
    assert [p.payer for p in s.payments if p.kind == "win"] == ["W"]


def test_flower_grass_is_one_base_from_each_at_once():
    """Seed 000: 一台草 另三家立即各賠 1 個底 (春夏 of one group, 菊竹 of the other: 1-4, mixed)."""
    s = play(BASE, "4m", flowers="1278f", ruleset="hk-taiwan")
    assert "flower_grass" in ids(s)
    assert sorted((p.payer, p.amount) for p in s.payments if p.kind == "immediate") == [("E", 10), ("N", 10), ("W", 10)]


def test_seat_extras_for_flowers_and_wind_pungs():
    s = ids(play("123m456m789p234s222z55p", "4m", flowers="26f", ruleset="hk-taiwan"))
    assert s["flowers"] == 4 and s["wind_pung"] == 2  # seat S: 夏 and 蘭 are its own, 南 pung


def test_chicken_hand_is_paid_at_once():
    s = play(CHICKEN["concealed"], "4m", melds=CHICKEN["melds"], ruleset="hk-taiwan")
    assert ids(s) == {"chicken": 10}
    assert s.items[0].replaced == ("no_flowers",)
    assert {p.kind for p in s.payments} == {"at_once"}


@pytest.mark.parametrize(
    ("seat", "flowers", "expected"),
    [
        ("S", "5f", {"chicken": 10}),  # one flower, not its own: 1 番, so 大雞
        ("W", "137f", {"flowers": 5}),  # 春 1, 秋 and 菊 its own 2 each: 5 番 is never 大雞
        ("S", "6f", {"flowers": 2}),  # its own 蘭: 2 番
    ],
)
def test_chicken_only_for_a_hand_of_exactly_one_fan(seat, flowers, expected):
    """RULINGS hk-taiwan 大雞: dealer items aside, exactly 1 番 is paid as 10; 2 or more never."""
    discarder = "N" if seat != "N" else "E"
    s = play(CHICKEN["concealed"], "4m", melds=CHICKEN["melds"], ruleset="hk-taiwan", seat=seat, discarder=discarder, flowers=flowers)
    assert ids(s) == expected


def test_chicken_is_decided_on_the_best_reading():
    """233445m is 234m + 345m; 3m closed 2_4m (坎張 with other waits: 假獨, 2 番 with 無花) or
    opened 45m (two-sided: 無花 alone, 1 番). The hand is worth 2 (RULINGS 1): never 大雞 10."""
    s = play("233445m11z", "3m", melds=["chi 123p", "chi 456p", "pon 999s"], ruleset="hk-taiwan")
    assert ids(s) == {"false_single": 1, "no_flowers": 1}


def test_chicken_leaves_dealer_items_aside():
    s = play(CHICKEN["concealed"], "4m", melds=CHICKEN["melds"], ruleset="hk-taiwan", seat="E", discarder="S", streak=1)
    assert ids(s) == {"chicken": 10} and [(i.id, i.value) for i in s.dealer_items] == [("dealer_streak", 3)]
    assert [(p.points, p.amount) for p in s.payments] == [(13, 10 + 13 * 2)]


@pytest.mark.parametrize(("streak", "dealer_items"), [(0, [("dealer", 1)]), (1, [("dealer_streak", 3)]), (2, [("dealer_streak", 5)])])
def test_dealer_items_are_seed_000s_two_n_plus_one(streak, dealer_items):
    """Seed 000: 第一舖 (n=0) 做莊一番，第二舖做莊三番，第三舖做莊五番; only the dealer's payment adds it."""
    s = play(BASE, "4m", self_drawn=True, streak=streak, ruleset="hk-taiwan")
    assert [(i.id, i.value) for i in s.dealer_items] == dealer_items
    assert {p.payer: p.points - s.total for p in s.payments} == {"E": dealer_items[0][1], "W": 0, "N": 0}


def test_heavenly_takes_no_wait_item():
    """RULINGS 12: there is no winning tile to wait for; 3m would be 獨獨 (edge) otherwise."""
    s = ids(play(BASE, "3m", seat="E", self_drawn=True, events=["heavenly"], ruleset="hk-taiwan"))
    assert s["heavenly"] == 120 and not {"single_wait", "false_single", "pair_wait"} & set(s)
    assert "single_wait" in ids(play(BASE, "3m", seat="E", self_drawn=True, ruleset="hk-taiwan"))


def test_eight_flowers_replace_every_flower_item_and_add_the_hand():
    """RULINGS 11: 八仙過海 40 replaces 花 and 一台花; the completed hand's rows are added."""
    s = ids(play(BASE, "4m", seat="S", self_drawn=True, flowers="12345678f", events=["eight_flowers"], ruleset="hk-taiwan"))
    assert s["eight_flowers"] == 40 and s["concealed_self_drawn"] == 5
    assert not {"flowers", "flower_set", "flower_grass", "seven_flowers", "self_drawn"} & set(s)


def test_ready_dealt_replaces_the_plain_ready():
    """天叮 is a 叮 made straight from the deal (seed 004): 60, not 60 + 5."""
    s = ids(play(BASE, "4m", events=["ready", "ready_dealt"], ruleset="hk-taiwan"))
    assert s["ready_dealt"] == 60 and "ready" not in s


def test_an_exposed_kong_keeps_the_hand_concealed_unless_the_house_says_otherwise():
    hand = dict(melds=["kong 1111m"], ruleset="hk-taiwan")
    assert "concealed_hand" in ids(play("456m789p234s678s55p", "4m", **hand))
    assert "concealed_hand" not in ids(play("456m789p234s678s55p", "4m", options={"kong_keeps_concealed": False}, **hand))


def test_special_shapes_wait_on_every_kind_that_completes_them():
    s = play(SIXTEEN["concealed"], "1z", ruleset="hk-taiwan")
    assert len(s.reading.waits) == 16 and s.reading.special == "sixteen_unrelated"
