"""拉 chains in hk-taiwan, as seeds 000 and 004 describe them (RULINGS 'hk-taiwan')."""

from __future__ import annotations

import pytest
from test_ledger import PLAYERS, audit, win

from ledger.chains import ChainBook
from ledger.session import SessionError

HK = {"ruleset": "hk-taiwan", "stakes": {"base": 10, "point": 2}}


def amounts(h) -> list[tuple[str, str, int, str]]:
    return [(p.payer, p.payee, p.amount, p.kind) for p in h.payments]


def test_pull_twice_then_kick_half():
    """Seed 000 拉莊: B wins off A (set aside); again (x1.5 up, plus the new hand);
    then A wins off B: A pays half rounded down (踢半) and B now owes A."""
    # 10 底, 2 per 番. Ben wins 5 off Cat: 20, set aside. The deal passes to Ben.
    # Ben (dealer, +1) wins 5 off Cat: 20 x 1.5 = 30, plus 10 + 6 x 2 = 22: 52.
    # Cat wins 4 off Ben (dealer on 連1, +3): Cat pays Ben 26; Ben owes Cat 10 + 7 x 2 = 24.
    s = audit([win("Ben", 5, "Cat"), win("Ben", 5, "Cat"), win("Cat", 4, "Ben")], **HK)
    first, second, third = s.hands
    assert first.payments == () and first.set_aside == ({"from": "Cat", "to": "Ben", "amount": 20, "mouths": 1},)
    assert second.set_aside == ({"from": "Cat", "to": "Ben", "amount": 52, "mouths": 2},)
    assert amounts(third) == [("Cat", "Ben", 26, "kick_half")]
    assert third.set_aside == ({"from": "Ben", "to": "Cat", "amount": 24, "mouths": 1},)


def test_x1_5_rounds_up_and_half_rounds_down():
    """The rounding goes to the winner: x1.5 up, 踢半 down (seed 000)."""
    book = ChainBook()
    book.win([("A", "B", 25)], {"B"})
    book.win([("A", "B", 10)], {"B"})
    assert book.open()[0].amount == 38 + 10  # 37.5 rounds up
    book.win([("A", "B", 1)], {"B"})
    assert book.open()[0].amount == 72 + 1
    paid = book.win([("B", "A", 5)], {"A"})
    assert [(t.payer, t.payee, t.amount, t.kind) for t in paid] == [("A", "B", 36, "kick_half")]  # 73 / 2 down


def test_a_third_player_winning_pays_the_chain_as_it_stands():
    s = audit([win("Ben", 5, "Cat"), win("Dan", 1, "Ben")], **HK)
    assert ("Cat", "Ben", 20, "chain_paid") in amounts(s.hands[1])
    assert s.hands[1].set_aside == ({"from": "Ben", "to": "Dan", "amount": 14, "mouths": 1},)  # Ben now deals: +1


def test_a_draw_carries_every_chain_and_keeps_the_hk_streak():
    s = audit([win("Ben", 5, "Cat"), {"type": "draw"}, win("Ben", 5, "Cat")], **HK)
    assert s.hands[1].payments == () and s.hands[1].set_aside[0]["mouths"] == 1
    assert s.hands[2].set_aside[0]["mouths"] == 2
    s = audit([win("Amy", 1, "Ben"), {"type": "draw"}, {"type": "draw"}], **HK)
    assert [h.streak for h in s.hands] == [0, 1, 1]  # seed 004: a draw keeps the streak


def test_self_drawn_win_opens_three_chains_and_the_winner_keeps_them_running():
    s = audit([win("Ben", 5, None)], **HK)
    assert {(c["from"], c["to"]) for c in s.hands[0].set_aside} == {("Amy", "Ben"), ("Cat", "Ben"), ("Dan", "Ben")}
    s = audit([win("Ben", 5, None), win("Ben", 1, "Dan")], **HK)
    by_pair = {(c["from"], c["to"]): c for c in s.hands[1].set_aside}
    assert by_pair[("Dan", "Ben")]["mouths"] == 2 and by_pair[("Amy", "Ben")]["mouths"] == 1  # Ben's run goes on


def test_cut_after_three_mouths_and_not_before():
    hands = [win("Ben", 5, "Cat")] * 3
    with pytest.raises(SessionError, match="can be cut after 3"):
        audit(hands[:2] + [{"type": "cut", "payer": "Cat", "payee": "Ben"}], **HK)
    s = audit(hands + [{"type": "cut", "payer": "Cat", "payee": "Ben"}], **HK)
    assert amounts(s.hands[3]) == [("Cat", "Ben", s.hands[2].set_aside[0]["amount"], "cut")]
    assert s.pending == ()


def test_immediate_payments_and_chicken_hands_never_enter_a_chain():
    hand = {"concealed": "456m789p234s678s55p", "melds": ["ankong 1111m"], "winning_tile": "4m"}
    s = audit([{"type": "win", "winners": [{"player": "Ben", "hand": hand}], "discarder": "Cat"}], **HK)
    assert sorted(k for *_, k in amounts(s.hands[0])) == ["immediate"] * 3
    assert len(s.hands[0].set_aside) == 1


def test_open_chains_are_pending_and_paid_at_the_end():
    s = audit([win("Ben", 5, "Cat")], **HK)
    assert s.pending == ({"from": "Cat", "to": "Ben", "amount": 20, "mouths": 1},)
    assert s.balances == {"Amy": 0, "Ben": 20, "Cat": -20, "Dan": 0}


def test_false_win_pays_twenty_bases_each_at_once():
    s = audit([{"type": "false_win", "offender": "Dan"}], **HK)
    assert amounts(s.hands[0]) == [("Dan", p, 200, "false_win") for p in PLAYERS if p != "Dan"]


def test_false_win_thirty_fan_option_and_the_rounds_option():
    s = audit([{"type": "false_win", "offender": "Dan"}], options={"false_win": "30 fan"}, **HK)
    assert {p.amount for p in s.hands[0].payments} == {10 + 30 * 2}
    hands = [win(PLAYERS[(i + 1) % 4], 1, PLAYERS[(i + 2) % 4]) for i in range(4)]
    with pytest.raises(SessionError, match="ended after 1 wind rounds"):
        audit(hands + [{"type": "draw"}], options={"rounds": 1}, **HK)


def test_seed_000_eight_fan_on_a_discard_is_eighteen_dollars():
    """Seed 000: 一番 $1, 一底 $10: 出沖 8 番的價錢就是 $18 (自摸: each pays the same)."""
    s = audit([win("Ben", 8, "Cat"), win("Dan", 8, None)], ruleset="hk-taiwan", stakes={"base": 10, "point": 1})
    assert s.hands[0].set_aside == ({"from": "Cat", "to": "Ben", "amount": 18, "mouths": 1},)
    assert {c["amount"] for c in s.hands[1].set_aside if c["to"] == "Dan" and c["from"] != "Ben"} == {18}


def test_seed_004_dealer_on_two_repeats():
    """Seed 004: 莊家連兩莊自摸十番: 10 + 1 + 4 = 15 番, each pays 底 + 15 x 番值; the same
    dealer discarding to a 10-番 hand pays 底 + (10 + 5) x 番值."""
    run = [win("Amy", 0, "Ben"), win("Amy", 0, "Ben")]  # Amy deals: 連一, then 連二
    s = audit(run + [win("Amy", 10, None)], **HK)
    assert s.hands[2].streak == 2
    assert {c["amount"] for c in s.hands[2].set_aside if c["from"] in ("Cat", "Dan")} == {10 + 15 * 2}
    s = audit(run + [win("Cat", 10, "Amy")], **HK)
    assert ("Amy", "Cat", 10 + 15 * 2) in {(c["from"], c["to"], c["amount"]) for c in s.hands[2].set_aside}
