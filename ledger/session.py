"""A night of play as data: the table, then hands in order; corrections are events too.

Everything else (dealer, streak, winds, payments, balances) is derived by replay,
so a statement can always be recomputed and audited from what was recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, RootModel, model_validator

from scoring.hand import HandError, HandIn, Stakes, StakesIn
from scoring.ruleset import load
from scoring.schema import Amount, Strict, check, refuse

HAND_TYPES = ("win", "draw", "false_win", "cut")
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
    options: dict = field(default_factory=dict)
    stakes: Stakes | None = None
    first_dealer: str | None = None


def _printable(name: str) -> str:
    if not name.isprintable():
        raise refuse("name", f"{name!r} is not a name: no control characters")
    return name


# The JSON forms of the ledger, checked strictly (scoring/schema.py). A new key of one
# hand type (a 斬拉 count, say) is a field of its model here and one of HandRecord.

PlayerName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_printable)]


class PaidIn(Strict):
    payer: PlayerName = Field(alias="from")
    payee: PlayerName = Field(alias="to")
    amount: Amount


class WinnerIn(Strict):
    player: PlayerName
    points: Annotated[int, Field(ge=0, le=MAX_POINTS)] = None
    hand: HandIn = None

    @model_validator(mode="before")
    @classmethod
    def _points_or_hand(cls, data: Any) -> Any:
        if isinstance(data, dict) and ("points" in data) == ("hand" in data):
            raise refuse("winner", "give either points or a hand")
        return data


class WinIn(Strict):
    type: Literal["win"]
    winners: Annotated[list[WinnerIn], Field(min_length=1, max_length=3)]
    discarder: PlayerName | None = None  # None: self-drawn
    paid: list[PaidIn] = None


class DrawIn(Strict):
    type: Literal["draw"]
    paid: list[PaidIn] = None


class FalseWinIn(Strict):
    type: Literal["false_win"]
    offender: PlayerName
    paid: list[PaidIn] = None


class CutIn(Strict):
    type: Literal["cut"]
    payer: PlayerName
    payee: PlayerName
    paid: list[PaidIn] = None


class RecordIn(RootModel):
    """One recorded hand, by its type; each type takes only its own keys."""

    root: Annotated[WinIn | DrawIn | FalseWinIn | CutIn, Field(discriminator="type")]


class TableIn(Strict):
    players: Annotated[list[PlayerName], Field(min_length=4, max_length=4)]
    ruleset: str = "taiwan"
    options: dict[str, Any] = {}  # each option is checked by the rule set
    stakes: StakesIn = None
    first_dealer: PlayerName = None


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
    s = check(SessionIn, obj, SessionError, "a session", HAND_TYPES)
    table = _table(s)
    records = []
    for n, (rec, raw) in enumerate(zip(s.hands, obj["hands"] if s.hands else (), strict=True), start=1):
        try:
            records.append(_record(rec.root, raw, table))
        except SessionError as e:
            raise SessionError(f"hand {n}: {e}") from None
    return table, records


def _table(t: TableIn) -> Table:
    if len(set(t.players)) != 4:
        raise SessionError(f"players must be four different names, in chair order: {', '.join(t.players)}")
    rs = load(t.ruleset)
    rs.resolve_options(t.options)
    stakes = None if t.stakes is None else Stakes(t.stakes.base, t.stakes.point)
    table = Table(tuple(t.players), t.ruleset, dict(t.options), stakes, t.first_dealer)
    if table.first_dealer is not None:
        _player(table.first_dealer, table, "first_dealer")
    return table


def hand_from_record(obj: Any, table: Table) -> HandRecord:
    """Check one recorded hand against the table; contradictions are refused."""
    return _record(check(RecordIn, obj, SessionError, "a hand", HAND_TYPES).root, obj, table)


def _record(rec: WinIn | DrawIn | FalseWinIn | CutIn, raw: dict, table: Table) -> HandRecord:
    paid = (
        None
        if rec.paid is None
        else tuple(Paid(_player(p.payer, table, "paid from"), _player(p.payee, table, "paid to"), p.amount) for p in rec.paid)
    )
    if isinstance(rec, DrawIn):
        return HandRecord("draw", paid=paid)
    if isinstance(rec, FalseWinIn):
        return HandRecord("false_win", offender=_player(rec.offender, table, "offender"), paid=paid)
    if isinstance(rec, CutIn):
        return HandRecord("cut", payer=_player(rec.payer, table, "payer"), payee=_player(rec.payee, table, "payee"), paid=paid)
    winners = tuple(
        Winner(_player(w.player, table, "winner"), w.points, raw_w.get("hand"))
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
