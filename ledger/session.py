"""A night of play as data: the table, then hands in order; corrections are events too.

Everything else (dealer, streak, winds, payments, balances) is derived by replay,
so a statement can always be recomputed and audited from what was recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.hand import HandError, Stakes
from scoring.ruleset import load

HAND_TYPES = ("win", "draw", "false_win", "cut")


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


def _player(name: Any, table: Table, what: str) -> str:
    if name not in table.players:
        raise SessionError(f"{what} {name!r} is not at the table ({', '.join(table.players)})")
    return name


def table_from_json(obj: Any) -> Table:
    if not isinstance(obj, dict):
        raise SessionError("a session must be a JSON object")
    players = obj.get("players")
    if not isinstance(players, list) or len(players) != 4 or len(set(players)) != 4 or not all(isinstance(p, str) and p for p in players):
        raise SessionError("players must be four different names, in chair order")
    ruleset = obj.get("ruleset", "taiwan")
    rs = load(ruleset)
    rs.resolve_options(obj.get("options", {}))
    stakes = obj.get("stakes")
    if stakes is not None:
        if not isinstance(stakes, dict) or set(stakes) != {"base", "point"} or not all(isinstance(v, int) and v >= 0 for v in stakes.values()):
            raise SessionError("stakes must be {\"base\": N, \"point\": N} in whole units")
        stakes = Stakes(**stakes)
    table = Table(tuple(players), ruleset, dict(obj.get("options", {})), stakes, obj.get("first_dealer"))
    if table.first_dealer is not None:
        _player(table.first_dealer, table, "first_dealer")
    return table


def hand_from_record(obj: Any, table: Table) -> HandRecord:
    """Check one recorded hand against the table; contradictions are refused."""
    if not isinstance(obj, dict) or obj.get("type") not in HAND_TYPES:
        raise SessionError(f"a hand needs a type, one of {', '.join(HAND_TYPES)}: got {obj!r}")
    kind = obj["type"]
    paid = None
    if "paid" in obj:
        if not isinstance(obj["paid"], list):
            raise SessionError("paid must be a list of {from, to, amount}")
        paid = tuple(
            Paid(_player(p.get("from"), table, "paid from"), _player(p.get("to"), table, "paid to"), _amount(p.get("amount")))
            for p in obj["paid"]
        )
    if kind == "draw":
        return HandRecord("draw", paid=paid)
    if kind == "false_win":
        return HandRecord("false_win", offender=_player(obj.get("offender"), table, "offender"), paid=paid)
    if kind == "cut":
        payer, payee = _player(obj.get("payer"), table, "payer"), _player(obj.get("payee"), table, "payee")
        return HandRecord("cut", payer=payer, payee=payee, paid=paid)
    raw = obj.get("winners")
    if not isinstance(raw, list) or not raw:
        raise SessionError("a win needs winners: [{\"player\": ..., \"points\": N} or {\"player\": ..., \"hand\": {...}}]")
    winners = []
    for w in raw:
        if not isinstance(w, dict) or ("points" in w) == ("hand" in w):
            raise SessionError(f"winner {w!r}: give either points or a hand")
        if "points" in w and (not isinstance(w["points"], int) or isinstance(w["points"], bool) or w["points"] < 0):
            raise SessionError(f"winner {w.get('player')!r}: points must be a whole number, 0 or more")
        winners.append(Winner(_player(w.get("player"), table, "winner"), w.get("points"), w.get("hand")))
    names = [w.player for w in winners]
    if len(set(names)) != len(names):
        raise SessionError(f"a winner is named twice: {', '.join(names)}")
    discarder = obj.get("discarder")
    if discarder is not None:
        _player(discarder, table, "discarder")
        if discarder in names:
            raise SessionError(f"{discarder} cannot both discard and win")
    elif len(winners) > 1:
        raise SessionError("several winners are only possible on one discard: name the discarder")
    return HandRecord("win", tuple(winners), discarder, paid=paid)


def _amount(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise SessionError(f"an amount must be a whole number, 0 or more: got {v!r}")
    return v
