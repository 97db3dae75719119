"""What the app shows: the ledger's next seats and hand lines, names instead of ids."""

from __future__ import annotations

import re

from ledger.replay import replay
from ledger.session import HandRecord, Winner, table_from_json
from ledger.summary import hand_rows, next_seats
from scoring import ruleset
from scoring.display import hand_summary, item_name, option_label

TABLE = table_from_json({"players": ["Amy", "Ben", "Cat", "Dan"]})


def test_the_next_hand_seats_follow_the_dealer():
    assert next_seats(TABLE, replay(TABLE, [])) == {"Amy": "E", "Ben": "S", "Cat": "W", "Dan": "N"}
    ben_wins = HandRecord("win", (Winner("Ben", points=3),), discarder="Cat")
    assert next_seats(TABLE, replay(TABLE, [ben_wins])) == {"Amy": "N", "Ben": "E", "Cat": "S", "Dan": "W"}  # the deal passes to Ben


def test_each_hand_says_who_won_from_whom_and_for_how_much():
    records = [HandRecord("win", (Winner("Ben", points=3),), discarder="Cat"), HandRecord("draw"), HandRecord("win", (Winner("Dan", points=2),))]
    rows = hand_rows(replay(TABLE, records), records, "台")
    assert [r["Hand 局"] for r in rows] == [1, 2, 3]
    assert (rows[0]["Winner 胡"], rows[0]["From 放槍"], rows[0]["Hand 牌型 台"], rows[0]["Amounts 金額"]) == ("Ben", "Cat", "3", "Cat→Ben 160")
    assert (rows[1]["Winner 胡"], rows[1]["Hand 牌型 台"], rows[1]["Amounts 金額"]) == ("—", "—", "—")
    assert rows[2]["From 放槍"] == "自摸 self-drawn" and rows[2]["Amounts 金額"].count("→Dan") == 3


def test_no_header_or_cell_is_read_as_markdown():
    """st.table renders Markdown: a "#" header shows as nothing, a "-" cell as a bullet."""
    records = [HandRecord("draw"), HandRecord("false_win", offender="Ben")]
    rows = hand_rows(replay(TABLE, records), records, "台")
    shown = [k for k in rows[0]] + [str(v) for r in rows for v in r.values()]
    assert not [s for s in shown if re.match(r"\s*([#>*+-]|\d+[.)])(\s|$)", s)], shown


def test_ids_are_shown_by_name():
    rs = ruleset.load("taiwan")
    assert item_name(rs, "concealed_hand") == "門清 Concealed hand"
    assert option_label(rs.options["pinghu_strict"]) == "平胡從嚴 Strict all-chows"
    assert hand_summary({"concealed": "123m", "winning_tile": "3m", "melds": ["pon 555p"], "flowers": "2f"}) == "123m · 胡 3m · pon 555p · 花 2f"
