"""The ledger: dealer rotation, winds, payments, settlement, audit, the append-only store."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pg
import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.replay import replay, settle
from ledger.session import SessionError, hand_from_record, table_from_json
from ledger.store import Store

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]


def audit(hands: list[dict], **table) -> object:
    t = table_from_json({"players": PLAYERS, **table})
    return replay(t, [hand_from_record(h, t) for h in hands])


def win(player: str, points: int, discarder: str | None = None) -> dict:
    return {"type": "win", "winners": [{"player": player, "points": points}], "discarder": discarder}


def test_dealer_keeps_the_deal_on_a_win_or_a_draw_and_passes_it_otherwise():
    s = audit([win("Amy", 1, "Ben"), {"type": "draw"}, win("Cat", 2, "Amy"), win("Ben", 1, "Dan")])
    assert [(h.dealer, h.streak) for h in s.hands] == [("Amy", 0), ("Amy", 1), ("Amy", 2), ("Ben", 0)]
    assert s.hands[3].seats == {"Ben": "E", "Cat": "S", "Dan": "W", "Amy": "N"}


def test_draw_keeps_the_streak_in_taiwan_basic_at_zero():
    s = audit([{"type": "draw"}, win("Amy", 1, "Ben"), win("Amy", 1, "Ben")], ruleset="taiwan-basic")
    assert [h.streak for h in s.hands] == [0, 0, 0]
    assert [p.amount for p in s.hands[2].payments] == [2]


def test_dealer_items_follow_the_streak_into_payments_that_involve_the_dealer():
    s = audit([win("Amy", 1, "Ben"), win("Amy", 1, None), win("Cat", 0, "Ben")])
    assert [p.amount for p in s.hands[0].payments] == [100 + 2 * 20]  # 1 + 莊家 1
    assert [p.amount for p in s.hands[1].payments] == [100 + (1 + 3) * 20] * 3  # 連1: 3
    assert [p.amount for p in s.hands[2].payments] == [100]  # Ben pays Cat: no dealer involved


def test_a_full_game_moves_the_prevailing_wind_and_ends_after_four_rounds():
    hands = []
    for _ in range(4):  # each round: the deal passes through all four chairs
        for chair in range(4):
            winner = PLAYERS[(chair + 1) % 4]
            hands.append(win(winner, 1, PLAYERS[(chair + 2) % 4]))
    s = audit(hands)
    assert [h.round for h in s.hands] == list("EEEESSSSWWWWNNNN")
    assert [h.dealer for h in s.hands[:5]] == ["Amy", "Ben", "Cat", "Dan", "Amy"]
    with pytest.raises(SessionError, match="ended after 4 wind rounds"):
        audit(hands + [{"type": "draw"}])


def test_several_winners_on_one_discard_are_paid_separately():
    s = audit([{"type": "win", "winners": [{"player": "Ben", "points": 2}, {"player": "Cat", "points": 4}], "discarder": "Dan"}])
    assert [(p.payer, p.payee, p.amount) for p in s.hands[0].payments] == [("Dan", "Ben", 140), ("Dan", "Cat", 180)]


def test_a_full_hand_is_scored_with_the_seat_round_and_streak_the_ledger_knows():
    hand = {"concealed": "123m456m789p234s222z55p", "winning_tile": "4m"}
    s = audit([{"type": "win", "winners": [{"player": "Ben", "hand": hand}], "discarder": "Cat"}])
    assert s.hands[0].points == {"Ben": 2}  # Ben sits S: 門風 南 + 門清
    with pytest.raises(SessionError, match="says seat"):
        audit([{"type": "win", "winners": [{"player": "Ben", "hand": {**hand, "seat": "W"}}], "discarder": "Cat"}])


def test_audit_reports_every_difference_from_what_was_paid():
    s = audit([{**win("Ben", 3, "Amy"), "paid": [{"from": "Amy", "to": "Ben", "amount": 150}]}])
    assert [d.to_json() for d in s.differences] == [{"hand": 1, "from": "Amy", "to": "Ben", "computed": 180, "paid": 150}]


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (win("Eve", 1, "Amy"), "not at the table"),
        (win("Amy", 1, "Amy"), "both discard and win"),
        ({"type": "win", "winners": [{"player": "Amy", "points": 1}, {"player": "Ben", "points": 1}]}, "name the discarder"),
        ({"type": "win", "winners": [{"player": "Amy", "points": 1, "hand": {"concealed": "123m456m789p234s222z55p"}}], "discarder": "Ben"}, "either points or a hand"),
        ({"type": "cut", "payer": "Amy", "payee": "Ben"}, "拉 chains"),
        ({"type": "tea"}, "needs a type"),
    ],
)
def test_contradictory_hands_are_refused(hand, message):
    with pytest.raises(SessionError, match=message):
        audit([hand])


@st.composite
def recorded_hand(draw) -> dict:
    kind = draw(st.sampled_from(["win", "win", "win", "win", "draw", "false_win"]))
    if kind == "draw":
        return {"type": "draw"}
    if kind == "false_win":
        return {"type": "false_win", "offender": draw(st.sampled_from(PLAYERS))}
    winners = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=3, unique=True))
    rest = [p for p in PLAYERS if p not in winners]
    discarder = draw(st.sampled_from(rest if len(winners) > 1 else [None, *rest]))
    return {"type": "win", "winners": [{"player": w, "points": draw(st.integers(0, 20))} for w in winners], "discarder": discarder}


@settings(max_examples=60, deadline=None)
@given(st.lists(recorded_hand(), min_size=1, max_size=14), st.sampled_from(["taiwan", "star31", "taiwan-basic", "hk-taiwan"]))
def test_random_sessions_pass_the_deal_only_on_a_win_without_the_dealer_and_settle_exactly(hands, ruleset):
    s = audit(hands, ruleset=ruleset)
    for k in range(1, len(hands)):
        assert audit(hands[:k], ruleset=ruleset).hands == s.hands[:k]  # a later hand never rewrites an earlier one
    for h, after in zip(s.hands, s.hands[1:]):
        passes = h.type == "win" and h.dealer not in h.points
        assert (after.dealer != h.dealer) == passes
        assert after.streak == 0 if passes else after.streak >= h.streak
        if after.type == "false_win":  # 詐胡 touches no 拉 chain
            assert after.set_aside == h.set_aside
        if h.type == "false_win":
            assert after.streak == h.streak
    after = dict(s.balances)
    for a, b, n in s.transfers:
        after[a] += n
        after[b] -= n
    assert set(after.values()) <= {0}
    assert len(s.transfers) <= max(0, sum(1 for v in s.balances.values() if v) - 1)


def test_settlement_uses_zero_sum_pairs_to_save_transfers():
    assert len(settle({"A": 5, "B": -5, "C": 7, "D": -7})) == 2


@pytest.fixture(scope="module")
def postgres_url():
    if pg.binaries() is None:
        pytest.skip("PostgreSQL server binaries are installed by `make test`")
    return pg.shared()


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "sqlite":
        s = Store(tmp_path / "ledger.sqlite3")
    else:
        s = Store(request.getfixturevalue("postgres_url"))
    yield s
    s.close()


def test_store_undo_and_amend_are_events_and_nothing_is_deleted(store):
    sid = store.create({"players": PLAYERS})
    before = store._q("SELECT COUNT(*) FROM events")[0][0]
    first = store.add(sid, win("Ben", 3, "Amy"))
    store.add(sid, win("Cat", 1, "Ben"))
    store.undo(sid)
    assert len(store.statement(sid).hands) == 1
    store.amend(sid, first, win("Ben", 5, "Amy"))
    assert store.statement(sid).hands[0].points == {"Ben": 5}
    assert store._q("SELECT COUNT(*) FROM events")[0][0] == before + 4
    with pytest.raises(Exception, match="append-only"):
        store._q("DELETE FROM events")
    with pytest.raises(SessionError, match="not at the table"):
        store.add(sid, win("Eve", 1, "Amy"))
    assert store._q("SELECT COUNT(*) FROM events")[0][0] == before + 4
    assert [s[0] for s in store.sessions()].count(sid) == 1


WRITER = """
import sys
from ledger.store import Store
store = Store(sys.argv[1])
sid = store.create({"players": ["Amy", "Ben", "Cat", "Dan"], "ruleset": "taiwan-basic", "options": {}})
print(sid, flush=True)
n = 0
while True:
    store.add(sid, {"type": "draw"})
    n += 1
    print(n, flush=True)
"""


def test_killing_a_writer_loses_nothing_already_committed(tmp_path):
    db = tmp_path / "ledger.sqlite3"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    sid = proc.stdout.readline().strip()
    committed = 0
    deadline = time.time() + 60
    while committed < 30 and time.time() < deadline:
        committed = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    store = Store(db)
    assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert len(store.entries(sid)) >= committed


def test_cli_audit_and_store_round_trip(tmp_path):
    session = tmp_path / "night.json"
    session.write_text(json.dumps({"players": PLAYERS, "hands": [win("Ben", 3, "Amy"), {"type": "draw"}]}))
    run = lambda *a, **kw: subprocess.run([sys.executable, "-m", "taiscore_cli", *a], capture_output=True, text=True, cwd=ROOT, **kw)  # noqa: E731
    out = json.loads(run("ledger", "audit", str(session)).stdout)
    assert out["balances"] == {"Amy": -180, "Ben": 180, "Cat": 0, "Dan": 0}
    assert out["hands"][0]["payments"] == [{"from": "Amy", "to": "Ben", "amount": 180, "kind": "win"}]
    db = str(tmp_path / "l.sqlite3")
    sid = run("ledger", "new", "--players", *PLAYERS, "--db", db).stdout.strip()
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(win("Ben", 3, "Amy")))
    assert run("ledger", "add", sid, str(hand), "--db", db).returncode == 0
    csv_text = run("ledger", "export", sid, "--db", db).stdout
    assert "Amy,Ben,180,win" in csv_text
    bad = run("ledger", "add", sid, "-", "--db", db, input=json.dumps(win("Eve", 1, "Amy")))
    assert bad.returncode == 2 and "not at the table" in bad.stderr
