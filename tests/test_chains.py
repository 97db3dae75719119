"""The ledger's rule-set policies and hk-taiwan's 拉 chains, as seeds 000 and 004 and
RULINGS ('hk-taiwan', 'Ledger') describe them. Amounts are worked out by hand in the comments."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT
from test_ledger import PLAYERS, audit, win

from ledger.chains import ChainBook
from ledger.policy import LedgerPolicyError, policy_from_json
from ledger.report import statement_text
from ledger.session import SessionError
from scoring.ruleset import RulesetError, load

HK = {"ruleset": "hk-taiwan", "stakes": {"base": 10, "point": 2}}  # 10 底, 2 per 番
CUT = {"type": "cut", "payer": "Cat", "payee": "Ben"}


def amounts(h) -> list[tuple[str, str, int, str]]:
    return [(p.payer, p.payee, p.amount, p.kind) for p in h.payments]


def chains(h) -> set[tuple[str, str, int, int]]:
    return {(c["from"], c["to"], c["amount"], c["mouths"]) for c in h.set_aside}


def off(discarder: str, **points: int) -> dict:
    """Several winners (name=points) on one discard."""
    return {"type": "win", "winners": [{"player": p, "points": n} for p, n in points.items()], "discarder": discarder}


def test_pull_twice_then_kick_half():
    """Seed 000 拉莊: B wins off A (set aside); again (x1.5 up, plus the new hand);
    then A wins off B: A pays half rounded down (踢半) and B now owes A."""
    # Ben wins 5 off Cat: 20, set aside. The deal passes to Ben.
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
    # Dan wins 2 off Ben, who now deals (+1): 10 + 3 x 2 = 16, set aside.
    s = audit([win("Ben", 5, "Cat"), win("Dan", 2, "Ben")], **HK)
    assert amounts(s.hands[1]) == [("Cat", "Ben", 20, "chain_paid")]
    assert chains(s.hands[1]) == {("Ben", "Dan", 16, 1)}


def test_the_chains_winner_winning_off_a_fourth_player_leaves_it_unchanged():
    # Ben (dealer, +1) wins 2 off Dan: 16 set aside; Cat's 20 to Ben waits on Ben's run.
    s = audit([win("Ben", 5, "Cat"), win("Ben", 2, "Dan")], **HK)
    assert amounts(s.hands[1]) == []
    assert chains(s.hands[1]) == {("Cat", "Ben", 20, 1), ("Dan", "Ben", 16, 1)}


def test_the_chains_payer_winning_off_a_fourth_player_settles_it_as_it_stands():
    # Cat wins 2 off Dan (no dealer involved: 10 + 2 x 2 = 14): no 踢半, Cat pays the 20 in full.
    s = audit([win("Ben", 5, "Cat"), win("Cat", 2, "Dan")], **HK)
    assert amounts(s.hands[1]) == [("Cat", "Ben", 20, "chain_paid")]
    assert chains(s.hands[1]) == {("Dan", "Cat", 14, 1)}


def test_several_winners_on_one_discard_a_chain_is_resolved_by_the_winner_in_it():
    # Dan discards to Ben (dealer, +1: 10 + 3 x 2 = 16) and Amy (10 + 4 x 2 = 18). Amy is a
    # third player to the chain Cat -> Ben, but Ben, who is in it, won: it waits.
    s = audit([win("Ben", 5, "Cat"), off("Dan", Ben=2, Amy=4)], **HK)
    assert amounts(s.hands[1]) == []
    assert chains(s.hands[1]) == {("Cat", "Ben", 20, 1), ("Dan", "Ben", 16, 1), ("Dan", "Amy", 18, 1)}
    # Cat discards to Ben and Amy: the chain grows (20 x 1.5 + 16 = 46); Amy's win does not pay it.
    s = audit([win("Ben", 5, "Cat"), off("Cat", Ben=2, Amy=4)], **HK)
    assert amounts(s.hands[1]) == []
    assert chains(s.hands[1]) == {("Cat", "Ben", 46, 2), ("Cat", "Amy", 18, 1)}
    # Dan discards to Cat and Amy: Cat, the payer, won off a fourth player: paid as it stands.
    s = audit([win("Ben", 5, "Cat"), off("Dan", Cat=2, Amy=4)], **HK)
    assert amounts(s.hands[1]) == [("Cat", "Ben", 20, "chain_paid")]


@pytest.mark.parametrize("ruleset", ["hk-taiwan", "taiwan"])
def test_a_dealer_among_several_winners_keeps_the_deal_and_adds_to_the_streak(ruleset):
    s = audit([off("Cat", Amy=2, Ben=3), {"type": "draw"}], ruleset=ruleset)
    assert [(h.dealer, h.streak) for h in s.hands] == [("Amy", 0), ("Amy", 1)]


@pytest.mark.parametrize(
    ("ruleset", "streaks"),
    [
        ("taiwan", [0, 1, 2, 3]),  # up on a dealer win and on a draw
        ("star31", [0, 1, 2, 3]),
        ("hk-taiwan", [0, 1, 1, 1]),  # up on a dealer win, unchanged on a draw
        ("taiwan-basic", [0, 0, 0, 0]),  # no streak
    ],
)
def test_each_rule_set_moves_the_streak_as_its_ledger_block_declares(ruleset, streaks):
    s = audit([win("Amy", 2, "Ben"), {"type": "draw"}, {"type": "draw"}, {"type": "draw"}], ruleset=ruleset)
    assert [h.streak for h in s.hands] == streaks
    assert {h.dealer for h in s.hands} == {"Amy"}


def test_a_draw_carries_every_chain():
    s = audit([win("Ben", 5, "Cat"), {"type": "draw"}, win("Ben", 5, "Cat")], **HK)
    assert s.hands[1].payments == () and chains(s.hands[1]) == {("Cat", "Ben", 20, 1)}
    assert s.hands[2].set_aside[0]["mouths"] == 2


def test_self_drawn_win_opens_three_chains_and_the_winner_keeps_them_running():
    s = audit([win("Ben", 5, None)], **HK)
    assert {(c["from"], c["to"]) for c in s.hands[0].set_aside} == {("Amy", "Ben"), ("Cat", "Ben"), ("Dan", "Ben")}
    s = audit([win("Ben", 5, None), win("Ben", 2, "Dan")], **HK)
    by_pair = {(c["from"], c["to"]): c for c in s.hands[1].set_aside}
    assert by_pair[("Dan", "Ben")]["mouths"] == 2 and by_pair[("Amy", "Ben")]["mouths"] == 1  # Ben's run goes on


def test_false_win_moves_neither_deal_streak_nor_chain_and_is_flat():
    """詐胡 (seed 000): 20 底 to each other player, dealer items never apply; seed 004's
    option: a 30-番 hand each, 10 + 30 x 2 = 70, still flat."""
    # Ben wins 2 off Cat: 14. Ben deals and wins 2 off Cat: 14 x 1.5 = 21 + 10 + 3 x 2 = 37.
    run = [win("Ben", 2, "Cat"), win("Ben", 2, "Cat"), {"type": "false_win", "offender": "Ben"}, {"type": "draw"}]
    s = audit(run, **HK)
    false_win = s.hands[2]
    assert amounts(false_win) == [("Ben", p, 200, "false_win") for p in PLAYERS if p != "Ben"]
    assert [(h.dealer, h.streak) for h in s.hands[1:]] == [("Ben", 0), ("Ben", 1), ("Ben", 1)]
    assert chains(s.hands[1]) == chains(false_win) == chains(s.hands[3]) == {("Cat", "Ben", 37, 2)}
    s = audit(run, options={"false_win": "30 fan"}, **HK)
    assert amounts(s.hands[2]) == [("Ben", p, 70, "false_win") for p in PLAYERS if p != "Ben"]
    with pytest.raises(RulesetError, match="option false_win .* got '30 fans'"):  # a typed choice: refused on reading
        audit([], options={"false_win": "30 fans"}, **HK)


def test_false_win_is_three_bases_each_in_taiwan():
    s = audit([{"type": "false_win", "offender": "Amy"}])
    assert amounts(s.hands[0]) == [("Amy", p, 300, "false_win") for p in PLAYERS if p != "Amy"]


def test_the_rounds_option_ends_the_game():
    hands = [win(PLAYERS[(i + 1) % 4], 2, PLAYERS[(i + 2) % 4]) for i in range(4)]
    with pytest.raises(SessionError, match="ended after 1 wind rounds"):
        audit(hands + [{"type": "draw"}], options={"rounds": 1}, **HK)


# Ben keeps winning 2 off Cat; from hand 2 he deals: 連 n adds 2n + 1.
# Chain: 14; 21 + 16 = 37; 56 + 20 = 76; 114 + 24 = 138; 207 + 28 = 235; 353 + 32 = 385.
CHAIN_AFTER = {1: 14, 2: 37, 3: 76, 4: 138, 5: 235, 6: 385}


@pytest.mark.parametrize("mouths", [3, 6])
def test_cut_at_three_and_six_mouths_settles_the_chain_and_moves_neither_deal_nor_streak(mouths):
    s = audit([win("Ben", 2, "Cat")] * mouths + [CUT, {"type": "draw"}], **HK)
    cut, after = s.hands[mouths], s.hands[mouths + 1]
    assert amounts(cut) == [("Cat", "Ben", CHAIN_AFTER[mouths], "cut")]
    assert cut.set_aside == () and s.pending == ()
    assert (cut.dealer, cut.streak) == (after.dealer, after.streak) == ("Ben", mouths - 1)


def test_cut_at_four_mouths_is_refused_unless_the_house_allows_any_count_from_three():
    hands = [win("Ben", 2, "Cat")] * 4 + [CUT]
    with pytest.raises(SessionError, match=r"holds 4 口; a chain can be cut at 3, 6, 9 … 口"):
        audit(hands, **HK)
    s = audit(hands, options={"cut_any_from_three": True}, **HK)
    assert amounts(s.hands[4]) == [("Cat", "Ben", CHAIN_AFTER[4], "cut")]
    with pytest.raises(SessionError, match="holds 2 口; a chain can be cut at 3 口 or more"):
        audit(hands[:2] + [CUT], options={"cut_any_from_three": True}, **HK)


def test_a_refused_cut_exits_2_with_one_line(tmp_path):
    session = tmp_path / "night.json"
    session.write_text(json.dumps({"players": PLAYERS, **HK, "hands": [win("Ben", 2, "Cat")] * 4 + [CUT]}))
    r = subprocess.run([sys.executable, "-m", "taiscore_cli", "ledger", "audit", str(session)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "holds 4 口" in r.stderr


def test_chicken_recorded_by_points_is_paid_at_once_at_ten_fan_and_never_chained():
    """RULINGS hk-taiwan: a win recorded as 1 番 is 大雞 10 (seed 000), paid at once."""
    s = audit([win("Ben", 1, "Cat")], **HK)
    assert s.hands[0].points == {"Ben": 10}
    assert amounts(s.hands[0]) == [("Cat", "Ben", 10 + 10 * 2, "at_once")]
    assert s.hands[0].set_aside == () and s.pending == ()
    s = audit([win("Amy", 1, "Cat")], **HK)  # the dealer's items are added as to any payment
    assert amounts(s.hands[0]) == [("Cat", "Amy", 10 + 11 * 2, "at_once")]
    s = audit([win("Ben", 1, "Cat")])  # in taiwan 1 台 is just 1 台
    assert amounts(s.hands[0]) == [("Cat", "Ben", 100 + 20, "win")]


def test_chicken_leaves_its_winners_chain_waiting_kicks_half_of_the_payers_and_a_third_players_pays_it():
    # Ben's 大雞 off Cat: Cat's 20 to Ben neither grows nor is paid.
    s = audit([win("Ben", 5, "Cat"), win("Ben", 1, "Cat")], **HK)
    assert amounts(s.hands[1]) == [("Cat", "Ben", 10 + 11 * 2, "at_once")]
    assert chains(s.hands[1]) == {("Cat", "Ben", 20, 1)}
    # Cat's 大雞 off Ben (the dealer, +1) breaks the chain as any win of A off B: 踢半.
    s = audit([win("Ben", 5, "Cat"), win("Cat", 1, "Ben")], **HK)
    assert sorted(amounts(s.hands[1])) == [("Ben", "Cat", 10 + 11 * 2, "at_once"), ("Cat", "Ben", 10, "kick_half")]
    assert s.hands[1].set_aside == ()
    # Dan's 大雞 off Amy is a third player's win: Cat pays the 20 as it stands.
    s = audit([win("Ben", 5, "Cat"), win("Dan", 1, "Amy")], **HK)
    assert sorted(amounts(s.hands[1])) == [("Amy", "Dan", 10 + 10 * 2, "at_once"), ("Cat", "Ben", 20, "chain_paid")]
    assert s.hands[1].set_aside == ()


def test_immediate_payments_never_enter_a_chain():
    hand = {"concealed": "456m789p234s678s55p", "melds": ["ankong 1111m"], "winning_tile": "4m"}
    s = audit([{"type": "win", "winners": [{"player": "Ben", "hand": hand}], "discarder": "Cat"}], **HK)
    assert sorted(k for *_, k in amounts(s.hands[0])) == ["immediate"] * 3
    assert len(s.hands[0].set_aside) == 1


def test_points_include_double_win_and_a_full_hand_gets_it_added():
    """RULINGS Ledger: recorded points are the whole hand value, 雙響 included; a full hand
    scored by the ledger gets 一炮雙響 (5 番, seed 000) added when two win on one discard,
    一炮三響 (10 番) when three do."""
    s = audit([off("Dan", Ben=6, Cat=6)], **HK)
    assert s.hands[0].payments == ()
    assert chains(s.hands[0]) == {("Dan", "Ben", 22, 1), ("Dan", "Cat", 22, 1)}
    hand = {"concealed": "123m456m789p234s222z55p", "winning_tile": "4m"}
    alone = audit([{"type": "win", "winners": [{"player": "Ben", "hand": hand}], "discarder": "Dan"}], **HK)
    shared = audit([{"type": "win", "winners": [{"player": "Ben", "hand": hand}, {"player": "Cat", "points": 6}], "discarder": "Dan"}], **HK)
    assert shared.hands[0].points["Ben"] - alone.hands[0].points["Ben"] == 5
    three = [{"player": "Ben", "hand": hand}, {"player": "Cat", "points": 6}, {"player": "Amy", "points": 6}]
    tripled = audit([{"type": "win", "winners": three, "discarder": "Dan"}], **HK)
    assert tripled.hands[0].points["Ben"] - alone.hands[0].points["Ben"] == 10  # 一炮三響 10 (seed 000)
    with pytest.raises(SessionError, match="says double_win but 1 player"):
        audit([{"type": "win", "winners": [{"player": "Ben", "hand": {**hand, "events": ["double_win"]}}], "discarder": "Dan"}], **HK)


def test_open_chains_are_pending_listed_in_the_text_and_paid_at_the_end():
    s = audit([win("Ben", 5, "Cat"), win("Ben", 2, "Dan")], **HK)
    assert s.pending == ({"from": "Cat", "to": "Ben", "amount": 20, "mouths": 1}, {"from": "Dan", "to": "Ben", "amount": 16, "mouths": 1})
    assert s.balances == {"Amy": 0, "Ben": 36, "Cat": -20, "Dan": -16}
    text = statement_text(s)
    assert "Cat -> Ben: 20 (1 口) set aside" in text
    assert text.split("open 拉 chains")[1].split("balances:")[0].count("口") == 2


def test_the_text_names_each_payment_as_the_table_does():
    s = audit([win("Ben", 5, "Cat"), win("Cat", 1, "Ben"), win("Dan", 2, "Amy"), win("Dan", 2, "Amy"), win("Dan", 2, "Amy"), CUT | {"payer": "Amy", "payee": "Dan"}], **HK)
    text = statement_text(s)
    for line in ["Ben -> Cat: 32 (大雞 paid at once)", "Cat -> Ben: 10 (踢半 kick half)", "Amy -> Dan: ", "(斬拉 cut)"]:
        assert line in text
    assert "kick_half" not in text and "at_once" not in text


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


TAIWAN_BLOCK = {"streak_up_on": ["dealer_win", "draw"], "false_win": {"bases": 3, "points": 0}, "several_winners": {}, "chains": None, "points_read_as": {}}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"streak_on_draw": "up"}, "unknown key.s. streak_on_draw"),
        ({"streak_up_on": ["dealer_win", "drawn"]}, "streak_up_on must list"),
        ({"false_win": {"bases": -3, "points": 0}}, "false_win.bases must be a whole number"),
        ({"false_win": {"option": "no_such_option", "by_value": {}}}, "not a house option of taiwan"),
        ({"several_winners": {"2": "double_win"}}, "names 'double_win', not an event"),
        ({"chains": {"cut_every": 3, "cut_any_from": 3}}, "missing key.s. cut_any_option"),
        ({"chains": {"cut_every": 0, "cut_any_from": 3, "cut_any_option": "migi"}}, "cut_every must be a whole number, 1 or more"),
        ({"chains": {"cut_every": 3, "cut_any_from": 3, "cut_any_option": "rounds"}}, "rounds must take a bool"),
        ({"points_read_as": {"1": "chicken"}}, "names 'chicken', not an item"),
        ({"points_read_as": {"²": "self_drawn"}}, "key '²' must be a whole number"),
    ],
)
def test_the_ledger_block_is_checked_when_loaded(change, message):
    with pytest.raises(LedgerPolicyError, match=message):
        policy_from_json({**TAIWAN_BLOCK, **change}, load("taiwan"))
