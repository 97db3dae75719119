"""The `taiwan` rule set (seed 003 read with RULINGS): every item positive and negative."""

from __future__ import annotations

import pytest
from conftest import ids, play

from scoring.hand import HandError, hand_from_json
from scoring.scorer import score

BASE = "123m456m789p234s678s55p"  # five chows, two-sided wait on 4m/7m when 4m wins
FIVE_MELDS = ["chi 123m", "chi 456m", "pon 777p", "chi 234s", "chi 678s"]

# item id -> (value, a hand that scores it, a hand that does not)
CASES = {
    "dragon_pung": (1, dict(concealed="123m456m789p234s777z55p", win="4m"), dict(concealed="123m456m789p234s678s77z", win="4m")),
    "seat_wind": (1, dict(concealed="123m456m789p234s222z55p", win="4m"), dict(concealed="123m456m789p234s222z55p", win="4m", seat="W", discarder="N")),
    "round_wind": (1, dict(concealed="123m456m789p234s222z55p", win="4m", seat="W", discarder="N", round="S"), dict(concealed="123m456m789p234s222z55p", win="4m", seat="W", discarder="N")),
    "self_drawn": (1, dict(concealed="456m789p234s678s55p", melds=["chi 123m"], win="4m", self_drawn=True), dict(concealed="456m789p234s678s55p", melds=["chi 123m"], win="4m")),
    "concealed_hand": (1, dict(concealed=BASE, win="4m"), dict(concealed="456m789p234s678s55p", melds=["chi 123m"], win="4m")),
    "concealed_self_drawn": (3, dict(concealed=BASE, win="4m", self_drawn=True), dict(concealed="456m789p234s678s55p", melds=["chi 123m"], win="4m", self_drawn=True)),
    "seat_flower_seasons": (1, dict(concealed=BASE, win="4m", flowers="2f"), dict(concealed=BASE, win="4m", flowers="3f")),
    "seat_flower_plants": (1, dict(concealed=BASE, win="4m", flowers="6f"), dict(concealed=BASE, win="4m", flowers="7f")),
    "flower_kong_seasons": (2, dict(concealed=BASE, win="4m", flowers="1234f"), dict(concealed=BASE, win="4m", flowers="124f")),
    "flower_kong_plants": (2, dict(concealed=BASE, win="4m", flowers="5678f"), dict(concealed=BASE, win="4m", flowers="567f")),
    "single_wait": (1, dict(concealed=BASE, win="3m"), dict(concealed=BASE, win="4m")),
    "kong_bloom": (1, dict(concealed=BASE, win="4m", self_drawn=True, events=["replacement"]), dict(concealed=BASE, win="4m", self_drawn=True)),
    "last_tile": (1, dict(concealed=BASE, win="4m", self_drawn=True, events=["last_tile"]), dict(concealed=BASE, win="4m", events=["last_discard"])),
    "robbing_kong": (1, dict(concealed=BASE, win="4m", events=["robbing_kong"]), dict(concealed=BASE, win="4m")),
    "all_melded": (2, dict(concealed="55p", melds=FIVE_MELDS, win="5p"), dict(concealed="55p", melds=FIVE_MELDS, win="5p", self_drawn=True)),
    "half_melded": (1, dict(concealed="55p", melds=FIVE_MELDS, win="5p", self_drawn=True), dict(concealed="55p", melds=FIVE_MELDS, win="5p")),
    "pinghu": (2, dict(concealed=BASE, win="4m"), dict(concealed=BASE, win="4m", self_drawn=True)),
    "concealed_pungs_3": (2, dict(concealed="111m555m999p234s678s55p", win="4s"), dict(concealed="111m555m999p234s678s55p", win="9p")),
    "concealed_pungs_4": (5, dict(concealed="111m555m999p222s678s55p", win="7s"), dict(concealed="111m555m999p222s678s55p", win="2s")),
    "concealed_pungs_5": (8, dict(concealed="111m555m999p222s888s55p", win="5p"), dict(concealed="111m555m999p222s888s55p", win="8s")),
    "all_pungs": (4, dict(concealed="111m555m999p222s55p", melds=["pon 888s"], win="5p"), dict(concealed=BASE, win="4m")),
    "half_flush": (4, dict(concealed="123m456m789m111z678m55m", win="4m"), dict(concealed="123m456m789m234m678m55m", win="4m")),
    "full_flush": (8, dict(concealed="123m456m789m234m678m55m", win="4m"), dict(concealed="123m456m789m111z678m55m", win="4m")),
    "all_honours": (16, dict(concealed="111z222z333z555z666z77z", win="7z"), dict(concealed="123m456m789m111z678m55m", win="4m")),
    "small_dragons": (4, dict(concealed="123m456m789p666z777z55z", win="4m"), dict(concealed="123m456m666z777z789p55p", win="4m")),
    "big_dragons": (8, dict(concealed="123m456m555z666z777z44p", win="4m"), dict(concealed="123m456m789p666z777z55z", win="4m")),
    "small_winds": (8, dict(concealed="111z222z333z44z123m456m", win="4m"), dict(concealed="111z222z333z123m456m44p", win="4m")),
    "big_winds": (16, dict(concealed="111z222z333z444z123m55p", win="5p"), dict(concealed="111z222z333z44z123m456m", win="4m")),
    "eight_flowers": (8, dict(concealed=BASE, win="4m", self_drawn=True, flowers="12345678f", events=["eight_flowers"]), dict(concealed=BASE, win="4m", self_drawn=True, flowers="1234567f")),
    "seven_rob_one": (8, dict(concealed=BASE, win="4m", flowers="1234567f", events=["seven_rob_one"]), dict(concealed=BASE, win="4m", flowers="1234567f")),
    "ready_first_discard": (4, dict(concealed=BASE, win="4m", events=["ready_first_discard"]), dict(concealed=BASE, win="4m")),
    "ready_dealt": (8, dict(concealed=BASE, win="4m", events=["ready_dealt"]), dict(concealed=BASE, win="4m")),
    "earthly": (16, dict(concealed=BASE, win="4m", events=["earthly"]), dict(concealed=BASE, win="4m")),
    "heavenly": (16, dict(concealed=BASE, win="4m", seat="E", self_drawn=True, events=["heavenly"]), dict(concealed=BASE, win="4m", seat="E", self_drawn=True)),
    "migi": (8, dict(concealed=BASE, win="4m", events=["ready"], options={"migi": True}), dict(concealed=BASE, win="4m", options={"migi": True})),
    "seven_rob_one_self_drawn": (8, dict(concealed=BASE, win="4m", self_drawn=True, flowers="1234567f", eighth_flower="N"), dict(concealed=BASE, win="4m", self_drawn=True, flowers="1234567f")),
}


def _play(case: dict) -> dict[str, int]:
    """Every item the hand scores, those only one payer pays (七搶一 情況一) included."""
    kw = dict(case)
    s = play(kw.pop("concealed"), kw.pop("win"), **kw)
    return {i.id: i.value for i in s.items + s.payer_items}


@pytest.mark.parametrize("item", sorted(CASES))
def test_item_scores_when_its_pattern_is_there(item):
    value, positive, _ = CASES[item]
    assert _play(positive).get(item) == value


@pytest.mark.parametrize("item", sorted(CASES))
def test_item_absent_when_its_pattern_is_not(item):
    _, _, negative = CASES[item]
    assert item not in _play(negative)


def test_every_hand_item_of_the_table_has_cases():
    from scoring.ruleset import load

    assert {i.id for i in load("taiwan").items if not i.dealer} == set(CASES)


def test_dealer_items_only_in_payments_that_involve_the_dealer():
    s = play(BASE, "4m", self_drawn=True, streak=2)  # winner S, dealer E pays
    assert [i.id for i in s.dealer_items] == ["dealer_streak"] and s.dealer_items[0].value == 5
    by_payer = {p.payer: p for p in s.payments}
    assert by_payer["E"].points == s.total + 5
    assert by_payer["W"].points == by_payer["N"].points == s.total
    assert by_payer["W"].amount == 100 + s.total * 20


def test_dealer_winner_adds_dealer_item_to_every_payment():
    s = play(BASE, "4m", seat="E", self_drawn=True)
    assert [i.id for i in s.dealer_items] == ["dealer"]
    assert {p.payer for p in s.payments} == {"S", "W", "N"}
    assert all(p.points == s.total + 1 for p in s.payments)


def test_discard_win_is_paid_by_the_discarder_alone():
    s = play(BASE, "4m", discarder="N", stakes={"base": 50, "point": 10})
    assert [(p.payer, p.payee, p.points, p.amount) for p in s.payments] == [("N", "S", 3, 80)]


def test_seed_half_melded_worked_example_is_three():
    """Seed 003 item 14: 自摸 + 單吊 + 半求 = 1 + 1 + 1 = 3."""
    s = play("55p", "5p", melds=FIVE_MELDS, self_drawn=True)
    assert ids(s) == {"self_drawn": 1, "single_wait": 1, "half_melded": 1}


def test_all_melded_adds_single_wait():
    assert ids(play("55p", "5p", melds=FIVE_MELDS)) == {"all_melded": 2, "single_wait": 1}


def test_concealed_kong_keeps_the_hand_concealed_but_a_called_set_does_not():
    assert "concealed_hand" in ids(play("456m789p234s678s55p", "4m", melds=["ankong 1111m"]))
    assert "concealed_hand" not in ids(play("456m789p234s678s55p", "4m", melds=["kong 1111m"]))


@pytest.mark.parametrize(("win", "note"), [("3m", "邊張"), ("5m", "中洞"), ("5p", "單吊")])
def test_single_wait_names_its_shape(win, note):
    s = play(BASE, win)
    assert next(i for i in s.items if i.id == "single_wait").note == note


def test_two_sided_wait_with_one_side_dead_on_the_table_is_not_single():
    """Seed 003 補充(1): a 45m wait on 3m/6m with every 3m visible is no 獨聽."""
    s = play("111m456m789p234s678s55p", "6m", pool="3333m")
    assert "single_wait" not in ids(s)


def test_pung_finished_by_a_discard_is_exposed_unless_self_drawn():
    assert "concealed_pungs_3" not in ids(play("111m555m999p234s678s55p", "9p"))
    assert "concealed_pungs_3" in ids(play("111m555m999p234s678s55p", "9p", self_drawn=True))


def test_heavenly_self_drawn_keeps_the_self_drawn_part():
    s = play(BASE, "4m", seat="E", self_drawn=True, events=["heavenly"])
    assert {"heavenly", "self_drawn"} <= set(ids(s)) and "concealed_self_drawn" not in ids(s)


def test_eight_flowers_without_a_complete_hand_scores_it_alone():
    s = score(hand_from_json({"concealed": "123m456m789p234s678s5p", "self_drawn": True, "seat": "S", "flowers": "12345678f", "events": ["eight_flowers"]}))
    assert ids(s) == {"eight_flowers": 8}
    assert len(s.payments) == 3


def test_seven_rob_one_is_alone_and_paid_by_the_eighth_flower_holder():
    s = play(BASE, "4m", flowers="1234567f", events=["seven_rob_one"], discarder="N")
    assert ids(s) == {"seven_rob_one": 8}
    assert [p.payer for p in s.payments] == ["N"]


def test_seven_rob_one_switched_off_is_refused():
    with pytest.raises(HandError, match="seven_rob_one"):
        play(BASE, "4m", flowers="1234567f", events=["seven_rob_one"], options={"seven_rob_one": False})


def test_big_winds_replace_wind_items_and_big_dragons_the_dragon_items():
    s = ids(play("111z222z333z444z123m55p", "5p", seat="E", self_drawn=True))
    assert "big_winds" in s and not {"seat_wind", "round_wind", "small_winds"} & set(s)
    d = ids(play("123m456m555z666z777z44p", "4m"))
    assert "big_dragons" in d and not {"dragon_pung", "small_dragons"} & set(d)


def test_all_honours_stacks_with_what_it_contains():
    s = ids(play("111z222z333z555z666z77z", "7z", self_drawn=True, seat="E"))
    assert {"all_honours", "all_pungs", "concealed_pungs_5", "small_dragons", "seat_wind", "round_wind"} <= set(s)


def test_heavenly_takes_no_single_wait():
    """RULINGS 12: 天胡 has no winning tile to wait for; 3m alone would be 獨聽 (邊張)."""
    s = ids(play(BASE, "3m", seat="E", self_drawn=True, events=["heavenly"]))
    assert s == {"heavenly": 16, "self_drawn": 1}
    heavenly = next(i for i in play(BASE, "3m", seat="E", self_drawn=True, events=["heavenly"]).items if i.id == "heavenly")
    assert "single_wait" in heavenly.replaced


@pytest.mark.parametrize("event", ["ready_dealt", "ready_first_discard", "earthly"])
def test_ready_and_earthly_replace_the_concealed_hand(event):
    s = ids(play(BASE, "4m", events=[event]))
    assert "concealed_hand" not in s and s[event] == {"ready_dealt": 8, "ready_first_discard": 4, "earthly": 16}[event]


def test_seven_rob_one_case_one_the_holder_pays_eight_more():
    """Seed 003 情況一: self-drawn after the seventh flower is an ordinary self-draw paid by
    all three, and the eighth flower's holder (N) pays 8 台 more on top of their share."""
    s = play(BASE, "4m", self_drawn=True, flowers="1234567f", eighth_flower="N")
    assert ids(s) == {"concealed_self_drawn": 3, "seat_flower_plants": 1, "flower_kong_seasons": 2}
    assert [(i.id, i.value) for i in s.payer_items] == [("seven_rob_one_self_drawn", 8)]
    by_payer = {p.payer: (p.points, p.amount) for p in s.payments}
    assert by_payer == {"E": (6 + 1, 100 + 7 * 20), "W": (6, 100 + 6 * 20), "N": (6 + 8, 100 + 14 * 20)}


def test_seven_rob_one_case_one_holder_may_be_the_dealer():
    s = play(BASE, "4m", self_drawn=True, flowers="1234567f", eighth_flower="E")
    assert {p.payer: p.points for p in s.payments} == {"E": 6 + 1 + 8, "W": 6, "N": 6}


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (dict(flowers="1234567f", eighth_flower="N"), "eighth_flower"),  # not self-drawn
        (dict(self_drawn=True, flowers="123456f", eighth_flower="N"), "eighth_flower"),  # six flowers
        (dict(self_drawn=True, flowers="1234567f", eighth_flower="S"), "cannot hold the eighth flower"),
        (dict(self_drawn=True, flowers="1234567f", eighth_flower="N", ruleset="star31"), "no meaning in rule set star31"),
        (dict(self_drawn=True, flowers="1234567f", eighth_flower="N", options={"seven_rob_one": False}), None),
    ],
)
def test_eighth_flower_is_refused_where_it_means_nothing(hand, message):
    if message is None:  # with 七搶一 switched off the holder pays nothing extra
        assert play(BASE, "4m", **hand).payer_items == ()
        return
    with pytest.raises(HandError, match=message):
        play(BASE, "4m", **hand)


def test_flower_wins_hold_sixteen_or_seventeen_tiles():
    """RULINGS 11: 七搶一 needs no five sets and a pair; 16 tiles with no winning tile."""
    s = score(hand_from_json({"concealed": "123m456m789p234s678s5p", "seat": "S", "discarder": "N", "flowers": "1234567f", "events": ["seven_rob_one"]}))
    assert ids(s) == {"seven_rob_one": 8} and [p.payer for p in s.payments] == ["N"]
    with pytest.raises(HandError, match="16 or 17 tiles"):
        hand_from_json({"concealed": "123m456m789p234s678s", "seat": "S", "discarder": "N", "flowers": "1234567f", "events": ["seven_rob_one"]})


def test_eight_flowers_with_a_completed_hand_adds_its_items():
    """RULINGS 11: 八仙過海 replaces 花槓 and 正花; 門清自摸, 獨聽 and 槓上開花 are added."""
    s = play(BASE, "3m", self_drawn=True, flowers="12345678f", events=["eight_flowers", "replacement"])
    assert ids(s) == {"concealed_self_drawn": 3, "single_wait": 1, "kong_bloom": 1, "eight_flowers": 8}


def test_dealer_items_apply_to_flower_wins():
    """RULINGS 12: 不另計其他台數 speaks of the hand's items, not the dealer's."""
    rob = play(BASE, "4m", flowers="1234567f", events=["seven_rob_one"], discarder="E", streak=1)
    assert [(p.payer, p.points) for p in rob.payments] == [("E", 8 + 3)]
    eight = score(hand_from_json({"concealed": "123m456m789p234s678s5p", "self_drawn": True, "seat": "E", "flowers": "12345678f", "events": ["eight_flowers"]}))
    assert {p.payer: p.points for p in eight.payments} == {"S": 9, "W": 9, "N": 9}


def test_the_best_split_is_scored():
    """RULINGS 1: 111222333m reads as three pungs or three chows; self-drawn, the chows
    give no 平胡, so the pungs' 三暗刻 makes the higher total and is chosen."""
    s = play("111m222m333m789p234s55p", "4s", self_drawn=True)
    assert ids(s) == {"concealed_self_drawn": 3, "concealed_pungs_3": 2}
    assert [x.shape for x in s.reading.sets].count("pung") == 3
