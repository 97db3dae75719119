"""What the ledger page shows of a session: who sits where for the next hand, and each
hand in a line (who won, from whom, how many 台, what changed hands)."""

from __future__ import annotations

from .replay import Statement, replay
from .session import HandRecord, Table, hand_from_record

SELF_DRAWN = "自摸 self-drawn"
NONE = "—"  # an empty cell; a bare "-" (or a "#" header) would be read as Markdown by st.table and shown as a bullet (or nothing)


def next_seats(table: Table, statement: Statement) -> dict[str, str]:
    """Each player's seat wind in the hand about to be recorded: the seats the replay
    gives a hand added now (a draw changes nothing before it is played), replayed from
    where the statement leaves the night, so the night is not replayed again."""
    return replay(table, [HandRecord("draw")], statement.position).hands[-1].seats


def amounts(payments) -> str:
    """`"Cat→Ben 160; Dan→Ben 160"`: who pays whom in one hand."""
    return "; ".join(f"{p.payer}→{p.payee} {p.amount}" for p in payments) or NONE


def booked(table: Table, statement: Statement, record: dict) -> str:
    """What adding `record` (as the page would add it) books, replayed from where the
    statement leaves the night: its dealer, streak and stakes, which the score page's
    sidebar may not know. A record the night refuses raises HandError, as adding it would."""
    return amounts(replay(table, [hand_from_record(record, table)], statement.position).hands[-1].payments)


def hand_rows(statement: Statement, records: list[HandRecord], unit: str) -> list[dict]:
    """One row per recorded hand, in order. The 台 are the hand's own, as the score page's
    "Hand 牌型" total: dealer items (莊家, 連莊) are added only in the amounts they touch."""
    rows = []
    for h, rec in zip(statement.hands, records):
        if rec.type == "win":
            winner, source = ", ".join(w.player for w in rec.winners), rec.discarder or SELF_DRAWN
        elif rec.type == "false_win":
            winner, source = f"詐胡 {rec.offender}", NONE
        else:
            winner, source = NONE, NONE
        rows.append({
            "Hand 局": h.number,
            "Type 類": h.type,
            "Round 圈": h.round,
            "Dealer 莊": f"{h.dealer} 連{h.streak}",
            "Winner 胡": winner,
            "From 放槍": source,
            f"Hand 牌型 {unit}": ", ".join(str(v) for v in h.points.values()) or NONE,  # dealer items are in the amounts only
            "Amounts 金額": amounts(h.payments),
        })
    return rows
