"""What a rule set means for the ledger (RULINGS 'Ledger', 'hk-taiwan'), declared in the
`"ledger"` block of its data file rather than in the replay: the streak, the 詐胡
penalty, the event several winners on one discard add, 拉 chains and when one may be
cut (斬拉), and recorded points read as an item (大雞). Checked when loaded: a missing
or unknown key, or a bad value, is refused by name."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from scoring.hand import Stakes
from scoring.ruleset import RULESET_DIR, Ruleset, load

from .session import SessionError

STREAK_MOMENTS = ("dealer_win", "draw")


class LedgerPolicyError(ValueError):
    """A rule set's `"ledger"` block that the ledger cannot follow; the message names the key."""


@dataclass(frozen=True)
class Penalty:
    """底 and points (台 / 番) the offender of a 詐胡 pays each other player: flat, no dealer items."""

    bases: int
    points: int

    def amount(self, stakes: Stakes) -> int:
        return self.bases * stakes.base + self.points * stakes.point


@dataclass(frozen=True)
class FalseWin:
    """詐胡: one penalty, or one per value of a house option (hk-taiwan: 20 底, or 30 番)."""

    penalties: Mapping[Any, Penalty]  # option value -> penalty; the one key None without an option
    option: str | None = None

    def penalty(self, options: Mapping[str, Any]) -> Penalty:
        if self.option is None:
            return self.penalties[None]
        value = options[self.option]
        if value not in self.penalties:
            known = ", ".join(repr(v) for v in self.penalties)
            raise SessionError(f"house option {self.option}={value!r} names no 詐胡 penalty; known: {known}")
        return self.penalties[value]


@dataclass(frozen=True)
class CutCounts:
    """The 口 at which a chain's payer may 斬拉: multiples of `every`, or any count from `any_from`."""

    every: int
    any_from: int | None = None

    def allows(self, mouths: int) -> bool:
        return mouths >= self.any_from if self.any_from is not None else mouths % self.every == 0

    def __str__(self) -> str:
        if self.any_from is not None:
            return f"{self.any_from} 口 or more"
        return ", ".join(str(self.every * k) for k in (1, 2, 3)) + " … 口"


@dataclass(frozen=True)
class Chains:
    """拉: every win payment is set aside between payer and winner (ledger/chains.py)."""

    cut_every: int
    cut_any_from: int
    cut_any_option: str  # the house option under which any count of cut_any_from or more may be cut

    def cut_counts(self, options: Mapping[str, Any]) -> CutCounts:
        return CutCounts(self.cut_every, self.cut_any_from if options[self.cut_any_option] else None)


@dataclass(frozen=True)
class LedgerPolicy:
    """One rule set's `"ledger"` block, checked: replay reads the rule set's ledger meaning only from here."""

    streak_up_on: frozenset[str]  # dealer_win, draw: when the dealer's streak n goes up by one
    false_win: FalseWin
    several_winners: Mapping[int, str]  # winners on one discard -> the event added to each full hand
    chains: Chains | None  # None: every payment is made at once
    points_read_as: Mapping[int, str]  # a win recorded by these points is this item (hk-taiwan: 1 -> 大雞)


def _object(block: Any, where: str) -> dict:
    if not isinstance(block, dict):
        raise LedgerPolicyError(f"{where} must be an object")
    return block


def _keys(block: Any, where: str, required: set[str]) -> dict:
    block = _object(block, where)
    if missing := sorted(required - set(block)):
        raise LedgerPolicyError(f"{where}: missing key(s) {', '.join(missing)}")
    if unknown := sorted(set(block) - required):
        raise LedgerPolicyError(f"{where}: unknown key(s) {', '.join(unknown)}")
    return block


def _count(v: Any, where: str, least: int = 0) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < least:
        raise LedgerPolicyError(f"{where} must be a whole number, {least} or more: got {v!r}")
    return v


def _option(name: Any, rs: Ruleset, where: str, kind: type) -> str:
    if name not in rs.options:
        raise LedgerPolicyError(f"{where} names {name!r}, not a house option of {rs.id}")
    if type(rs.options[name].default) is not kind:
        raise LedgerPolicyError(f"{where}: house option {name} must take a {kind.__name__}")
    return name


def _penalty(raw: Any, where: str) -> Penalty:
    raw = _keys(raw, where, {"bases", "points"})
    return Penalty(_count(raw["bases"], f"{where}.bases"), _count(raw["points"], f"{where}.points"))


def _false_win(raw: Any, rs: Ruleset, where: str) -> FalseWin:
    if isinstance(raw, dict) and "option" in raw:
        raw = _keys(raw, where, {"option", "by_value"})
        option = _option(raw["option"], rs, f"{where}.option", str)
        by_value = _object(raw["by_value"], f"{where}.by_value")
        if rs.options[option].default not in by_value:
            raise LedgerPolicyError(f"{where}.by_value has no penalty for the default {rs.options[option].default!r} of {option}")
        return FalseWin(MappingProxyType({v: _penalty(p, f"{where}.by_value.{v}") for v, p in by_value.items()}), option)
    return FalseWin(MappingProxyType({None: _penalty(raw, where)}))


def _by_count(raw: Any, where: str, least: int, known: Mapping[str, Any], what: str) -> Mapping[int, str]:
    out = {}
    for key, name in _object(raw, where).items():
        if not key.isdecimal():
            raise LedgerPolicyError(f"{where}: key {key!r} must be a whole number")
        if name not in known:
            raise LedgerPolicyError(f"{where}.{key} names {name!r}, not {what} of this rule set")
        out[_count(int(key), f"{where} key", least)] = name
    return MappingProxyType(out)


def _chains(raw: Any, rs: Ruleset, where: str) -> Chains | None:
    if raw is None:
        return None
    raw = _keys(raw, where, {"cut_every", "cut_any_from", "cut_any_option"})
    return Chains(
        _count(raw["cut_every"], f"{where}.cut_every", 1),
        _count(raw["cut_any_from"], f"{where}.cut_any_from", 1),
        _option(raw["cut_any_option"], rs, f"{where}.cut_any_option", bool),
    )


def policy_from_json(raw: Any, rs: Ruleset) -> LedgerPolicy:
    """The `"ledger"` block of rule set `rs`, checked against its options, events and items."""
    where = f"{rs.id}: ledger"
    raw = _keys(raw, where, {"streak_up_on", "false_win", "several_winners", "chains", "points_read_as"})
    streak = raw["streak_up_on"]
    if not isinstance(streak, list) or len(set(streak)) != len(streak) or not set(streak) <= set(STREAK_MOMENTS):
        raise LedgerPolicyError(f"{where}.streak_up_on must list distinct moments out of {', '.join(STREAK_MOMENTS)}: got {streak!r}")
    return LedgerPolicy(
        streak_up_on=frozenset(streak),
        false_win=_false_win(raw["false_win"], rs, f"{where}.false_win"),
        several_winners=_by_count(raw["several_winners"], f"{where}.several_winners", 2, rs.events, "an event"),
        chains=_chains(raw["chains"], rs, f"{where}.chains"),
        points_read_as=_by_count(raw["points_read_as"], f"{where}.points_read_as", 0, rs.by_id, "an item"),
    )


@cache
def ledger_policy(ruleset_id: str) -> LedgerPolicy:
    rs = load(ruleset_id)
    raw = json.loads((RULESET_DIR / f"{rs.id}.json").read_text(encoding="utf-8"))
    if "ledger" not in raw:
        raise LedgerPolicyError(f"{rs.id}: the rule set declares no ledger block")
    return policy_from_json(raw["ledger"], rs)
