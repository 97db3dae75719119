"""A night of play as data: the table, then hands in order; corrections are events too.

Everything else (dealer, streak, winds, payments, balances) is derived by replay,
so a statement can always be recomputed and audited from what was recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as default
from typing import Annotated, Any

from msgspec import UNSET, Meta, UnsetType, field

from scoring.hand import HandError, HandIn, Stakes, StakesIn
from scoring.ruleset import load
from scoring.schema import Amount, Strict, check

MAX_POINTS = 10_000  # a hand's 台 or 番: far above any table's limit hand


class SessionError(HandError):
    """A session or event that cannot be replayed; the message names the problem."""


@dataclass(frozen=True)
class Winner:
    player: str
    points: int | None = None  # hand value without dealer items, or
    hand: dict | None = None  # a full hand for the scorer (seat, round, streak filled in by the ledger)


@dataclass(frozen=True)
class Paid:
    payer: str
    payee: str
    amount: int


@dataclass(frozen=True)
class HandRecord:
    """One hand as recorded at the table."""

    type: str  # win, draw, false_win (詐胡), cut (斬拉 of an open chain)
    winners: tuple[Winner, ...] = ()
    discarder: str | None = None  # None on a self-drawn win
    offender: str | None = None  # false_win
    payer: str | None = None  # cut: who settles the chain now
    payee: str | None = None
    paid: tuple[Paid, ...] | None = None  # what changed hands, if the table recorded it


@dataclass(frozen=True)
class Table:
    players: tuple[str, str, str, str]  # chairs in deal order (E, S, W, N of the first hand)
    ruleset: str = "taiwan"
    options: dict = default(default_factory=dict)
    stakes: Stakes | None = None
    first_dealer: str | None = None


# The JSON forms of the ledger, checked strictly (scoring/schema.py). A new key of one
# hand type (a 斬拉 count, say) is a field of its model here and one of HandRecord.

PlayerName = Annotated[str, Meta(min_length=1, max_length=40)]  # every name but the table's must be one of the table's


class PaidIn(Strict):
    payer: PlayerName = field(name="from")
    payee: PlayerName = field(name="to")
    amount: Amount


class WinnerIn(Strict):
    player: PlayerName
    points: Annotated[int, Meta(ge=0, le=MAX_POINTS)] | UnsetType = UNSET
    hand: HandIn | UnsetType = UNSET

    def __post_init__(self) -> None:
        if (self.points is UNSET) == (self.hand is UNSET):
            raise ValueError("give either points or a hand")


class WinIn(Strict, tag="win", tag_field="type"):
    winners: Annotated[list[WinnerIn], Meta(min_length=1, max_length=3)]
    discarder: PlayerName | None = None  # None: self-drawn
    paid: list[PaidIn] | UnsetType = UNSET


class DrawIn(Strict, tag="draw", tag_field="type"):
    paid: list[PaidIn] | UnsetType = UNSET


class FalseWinIn(Strict, tag="false_win", tag_field="type"):
    offender: PlayerName
    paid: list[PaidIn] | UnsetType = UNSET


class CutIn(Strict, tag="cut", tag_field="type"):
    payer: PlayerName
    payee: PlayerName
    paid: list[PaidIn] | UnsetType = UNSET


RecordIn = WinIn | DrawIn | FalseWinIn | CutIn  # one recorded hand, by its type; each type takes only its own keys


class TableIn(Strict):
    players: Annotated[list[PlayerName], Meta(min_length=4, max_length=4)]
    ruleset: str = "taiwan"
    options: dict[str, Any] = {}  # each option is checked by the rule set
    stakes: StakesIn | UnsetType = UNSET
    first_dealer: PlayerName | UnsetType = UNSET


class SessionIn(TableIn):
    """A whole night for `ledger audit`: the table and its hands in order."""

    hands: list[RecordIn] = []


def _player(name: str, table: Table, what: str) -> str:
    if name not in table.players:
        raise SessionError(f"{what} {name!r} is not at the table ({', '.join(table.players)})")
    return name


def table_from_json(obj: Any) -> Table:
    return _table(check(TableIn, obj, SessionError, "a session"))


def session_from_json(obj: Any) -> tuple[Table, list[HandRecord]]:
    """A whole night: the table, and each hand checked against it ("hand 3: ...")."""
    s = check(SessionIn, obj, SessionError, "a session")
    table = _table(s)
    records = []
    for n, (rec, raw) in enumerate(zip(s.hands, obj["hands"] if s.hands else (), strict=True), start=1):
        try:
            records.append(_record(rec, raw, table))
        except SessionError as e:
            raise SessionError(f"hand {n}: {e}") from None
    return table, records


def _table(t: TableIn) -> Table:
    odd = next((p for p in t.players if not p.isprintable()), None)
    if odd is not None:
        raise SessionError(f"players: {odd!r} is not a name: no control characters")
    if len(set(t.players)) != 4:
        raise SessionError(f"players must be four different names, in chair order: {', '.join(t.players)}")
    rs = load(t.ruleset)
    rs.resolve_options(t.options)
    stakes = None if t.stakes is UNSET else Stakes(t.stakes.base, t.stakes.point)
    table = Table(tuple(t.players), t.ruleset, dict(t.options), stakes, None if t.first_dealer is UNSET else t.first_dealer)
    if table.first_dealer is not None:
        _player(table.first_dealer, table, "first_dealer")
    return table


def hand_from_record(obj: Any, table: Table) -> HandRecord:
    """Check one recorded hand against the table; contradictions are refused."""
    return _record(check(RecordIn, obj, SessionError, "a hand"), obj, table)


def _record(rec: WinIn | DrawIn | FalseWinIn | CutIn, raw: dict, table: Table) -> HandRecord:
    paid = (
        None
        if rec.paid is UNSET
        else tuple(Paid(_player(p.payer, table, "paid from"), _player(p.payee, table, "paid to"), p.amount) for p in rec.paid)
    )
    if isinstance(rec, DrawIn):
        return HandRecord("draw", paid=paid)
    if isinstance(rec, FalseWinIn):
        return HandRecord("false_win", offender=_player(rec.offender, table, "offender"), paid=paid)
    if isinstance(rec, CutIn):
        return HandRecord("cut", payer=_player(rec.payer, table, "payer"), payee=_player(rec.payee, table, "payee"), paid=paid)
    winners = tuple(
        Winner(_player(w.player, table, "winner"), None if w.points is UNSET else w.points, raw_w.get("hand"))
        for w, raw_w in zip(rec.winners, raw["winners"], strict=True)
    )
    names = [w.player for w in winners]
    if len(set(names)) != len(names):
        raise SessionError(f"a winner is named twice: {', '.join(names)}")
    if rec.discarder is not None:
        _player(rec.discarder, table, "discarder")
        if rec.discarder in names:
            raise SessionError(f"{rec.discarder} cannot both discard and win")
    elif len(winners) > 1:
        raise SessionError("several winners are only possible on one discard: name the discarder")
    return HandRecord("win", winners, rec.discarder, paid=paid)
