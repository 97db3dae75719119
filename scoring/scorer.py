"""Score a hand under its rule set: best reading, itemised value, payments."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from itertools import compress, repeat
from operator import attrgetter, call
from typing import Any

from .hand import MAX_STREAK, Hand, HandError, Stakes
from .patterns import Result
from .quick import quick
from .reading import Reading, readings
from .ruleset import ItemRule, Ruleset, RulesetError, load
from .tiles import WINDS, code, format_tiles

ITEM_CACHE = 1 << 12  # distinct (item, value, note) kept; the four rule sets make a few hundred
PAYMENT_CACHE = 1 << 12  # distinct payments kept
_encoded = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(value, ensure_ascii=False), its encoder made once


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    name_en: str
    value: int
    note: str = ""
    replaced: tuple[str, ...] = ()  # applicable items this one replaced (RULINGS 7)
    count: int = 1  # occurrences (two 暗槓 are one item worth 2 x 2)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "name_en": self.name_en, "value": self.value}
        if self.note:
            out["note"] = self.note
        if self.replaced:
            out["replaces"] = list(self.replaced)
        return out

    @cached_property
    def json_utf8(self) -> bytes:
        """to_json() encoded: items are shared instances, so each is encoded once."""
        return _encoded(self.to_json()).encode()


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    points: int
    amount: int
    kind: str = "win"

    def to_json(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "points": self.points, "amount": self.amount, "kind": self.kind}

    @cached_property
    def json_utf8(self) -> bytes:
        """to_json() encoded: payments are shared instances, so each is encoded once."""
        return _encoded(self.to_json()).encode()


@quick
@dataclass(frozen=True)
class Score:
    ruleset: Ruleset
    hand: Hand
    reading: Reading
    items: tuple[Item, ...]
    dealer_items: tuple[Item, ...]
    payments: tuple[Payment, ...]
    payer_items: tuple[Item, ...] = ()  # paid by one named player only (七搶一 情況一: the eighth flower's holder)

    @property
    def total(self) -> int:
        return points(self.items)

    @property
    def dealer_total(self) -> int:
        return points(self.dealer_items)

    def to_json(self) -> dict[str, Any]:
        r = self.reading
        return {
            "ruleset": self.ruleset.id,
            "unit": self.ruleset.unit,
            "total": self.total,
            "items": [i.to_json() for i in self.items],
            "dealer_items": [i.to_json() for i in self.dealer_items],
            **({"payer_items": [i.to_json() for i in self.payer_items]} if self.payer_items else {}),
            "sets": [s.to_json() for s in r.sets],
            "pair": format_tiles([r.pair, r.pair]) if r.pair is not None else None,
            "wait": r.wait,
            "waits": [code(k) for k in r.waits],
            "payments": [p.to_json() for p in self.payments],
        }

    def to_json_line(self) -> bytes:
        """`json.dumps(self.to_json(), ensure_ascii=False)` in UTF-8, the same text, put
        together from parts encoded once: the items', sets' and payments' own JSON (shared
        instances), and the rule set, and the pair, wait and waits, looked up. Encoding
        the whole dict each hand was a third of a batch's time, and those parts recur."""
        r = self.reading
        payer = b'"payer_items": [%s], ' % b", ".join(map(JSON, self.payer_items)) if self.payer_items else b""
        return b'{%s, "total": %d, "items": [%s], "dealer_items": [%s], %s"sets": [%s], "pair": %s, "wait": %s, "waits": %s, "payments": [%s]}' % (
            _head(self.ruleset.id, self.ruleset.unit),
            self.total,
            b", ".join(map(JSON, self.items)),
            b", ".join(map(JSON, self.dealer_items)),
            payer,
            b", ".join(map(JSON, r.sets)),
            _pair_json(r.pair),
            _wait_json(r.wait),
            _waits_json(r.waits),
            b", ".join(map(JSON, self.payments)),
        )


VALUE = attrgetter("value")
JSON = attrgetter("json_utf8")
ID = attrgetter("id")


def points(items: Iterable[Item]) -> int:
    """What items come to."""
    return sum(map(VALUE, items))


@lru_cache(maxsize=64)
def _pair_json(pair: int | None) -> bytes:
    """A reading's pair as JSON ("55z"); the pair, the wait and the waits are each kept
    apart: together they make thousands of combinations a batch, apart a few hundred."""
    return _encoded(None if pair is None else format_tiles([pair, pair])).encode()


@lru_cache(maxsize=16)
def _wait_json(wait: str | None) -> bytes:
    return _encoded(wait).encode()


@lru_cache(maxsize=ITEM_CACHE)
def _waits_json(waits: tuple[int, ...]) -> bytes:
    return _encoded([code(k) for k in waits]).encode()


@lru_cache(maxsize=8)
def _head(ruleset: str, unit: str) -> bytes:
    """A rule set's id and unit as JSON, the start of each of its lines."""
    return f'"ruleset": {_encoded(ruleset)}, "unit": {_encoded(unit)}'.encode()


@lru_cache(maxsize=ITEM_CACHE)
def _item(item_id: str, name: str, name_en: str, value: int, note: str, replaced: tuple[str, ...], count: int) -> Item:
    """Items are immutable and few (an item, its value and its note): one instance serves every hand."""
    return Item(item_id, name, name_en, value, note, replaced, count)


def _applicable(rule: ItemRule, result: Result, options: Mapping[str, Any]) -> Item | None:
    """The item for a pattern's result; most patterns return 0, so only a true result comes here."""
    count, note = result if isinstance(result, tuple) else (result, "")
    if not count:
        return None
    value = options[rule.value_option] if rule.value_option else rule.value
    return _item(rule.id, rule.name, rule.name_en, value * count, note, (), count)


def _resolve(rs: Ruleset, found: dict[str, Item], options: Mapping[str, Any]) -> tuple[Item, ...]:
    """Drop every item replaced by a kept item; keep table order (RULINGS 7, `Ruleset.resolution`)."""
    out = []
    for i, gone in rs.resolution(tuple(found), options):
        item = found[i]
        out.append(_item(item.id, item.name, item.name_en, item.value, item.note, gone, item.count) if gone else item)
    return tuple(out)


def _items(rs: Ruleset, r: Reading, dealer: bool = False, paid_by: str | None = None) -> tuple[Item, ...]:
    """The items of one group (hand items, dealer items, or those one payer alone pays)
    that apply to a reading, after replacements. Every pattern worth calling
    (`Ruleset.plan`) is called in one `map`; most return 0, so only the few true ones
    are looked at in Python."""
    options = r.options
    hand = r.hand
    plan = rs.plan((dealer, paid_by), dealer or r.complete, (bool(hand.events), r.has_honour, bool(hand.flowers), len(r.pungs) >= 3), options)
    results = list(map(call, plan.patterns, repeat(r)))
    found: dict[str, Item] = {}
    for rule, result in compress(zip(plan.rules, results), results):
        if item := _applicable(rule, result, options):
            found[rule.id] = item
    return _resolve(rs, found, options) if found else ()


def _paid_instead(rs: Ruleset, r: Reading, items: tuple[Item, ...]) -> tuple[Item, ...]:
    """A hand whose best reading comes to exactly `when_total` is paid as that item (大雞)."""
    instead = rs.instead_of_total
    if instead and r.complete and points(items) == instead.when_total:
        return (Item(instead.id, instead.name, instead.name_en, instead.value, replaced=tuple(i.id for i in items)),)
    return items


def dealer_items_for(rs: Ruleset, streak: int) -> tuple[Item, ...]:
    """Dealer items under the usual options: they depend on the streak alone (莊家, 連莊),
    so a hand recorded as points only has them too, and a batch works each streak out once."""
    return _dealer_items(rs.id, streak)


@lru_cache(maxsize=MAX_STREAK + 1)
def _dealer_items(ruleset: str, streak: int) -> tuple[Item, ...]:
    rs = load(ruleset)
    return _items(rs, Reading(Hand(ruleset=ruleset, concealed=(), streak=streak), rs.defaults), dealer=True)


@lru_cache(maxsize=PAYMENT_CACHE)
def _payment(payer: str, payee: str, points: int, amount: int, kind: str) -> Payment:
    """Payments are immutable and repeat (four seats, a few values at the usual stakes): one instance serves many hands."""
    return Payment(payer, payee, points, amount, kind)


def win_payments(seat: str, discarder: str | None, total: int, dealer_total: int, stakes: Stakes, kind: str = "win") -> tuple[Payment, ...]:
    """RULINGS 5-6 by seat wind: a self-draw (no discarder) is paid by the other three, a
    discard by the discarder; dealer items count where the dealer (E) wins or pays."""
    return _win_payments(seat, discarder, total, dealer_total, stakes.base, stakes.point, kind)


@lru_cache(maxsize=PAYMENT_CACHE)
def _win_payments(seat: str, discarder: str | None, total: int, dealer_total: int, base: int, point: int, kind: str) -> tuple[Payment, ...]:
    """`win_payments`, kept: seats, totals and stakes recur across a batch's hands."""
    payers = [discarder] if discarder else [w for w in WINDS if w != seat]
    out = []
    for payer in payers:
        points = total + (dealer_total if "E" in (payer, seat) else 0)
        out.append(_payment(payer, seat, points, base + points * point, kind))
    return tuple(out)


def _payments(
    hand: Hand, rs: Ruleset, items: tuple[Item, ...], total: int, dealer_total: int, payer_items: tuple[Item, ...]
) -> tuple[Payment, ...]:
    """RULINGS 6 (the eighth flower's holder adds what they alone pay), then the
    immediate payments outside the hand value (暗槓, 一台花 ...)."""
    stakes = hand.stakes or rs.stakes
    ids = set(map(ID, items))
    kind = "at_once" if not rs.flagged["at_once"].isdisjoint(ids) else "win"
    discarder = None if hand.self_drawn else hand.discarder
    out = win_payments(hand.seat, discarder, total, dealer_total, stakes, kind)
    extra = points(payer_items)
    if extra:
        holder = hand.eighth_flower
        out = [replace(p, points=p.points + extra, amount=p.amount + extra * stakes.point) if p.payer == holder else p for p in out]
    if not rs.flagged["immediate"].isdisjoint(ids):
        out = list(out)
        for item in items:
            bases = rs.by_id[item.id].immediate * item.count
            if bases:
                out += [_payment(w, hand.seat, 0, bases * stakes.base, "immediate") for w in WINDS if w != hand.seat]
    return tuple(out)


def score(hand: Hand) -> Score:
    """The best reading's items and payments; raises HandError naming the problem."""
    rs = load(hand.ruleset)
    options = rs.resolve_options(hand.options)
    if hand.events:
        rs.check_events(hand.events, options)
    if hand.eighth_flower is not None and not any(i.paid_by == "eighth_flower" for i in rs.items):
        raise RulesetError(f"eighth_flower has no meaning in rule set {rs.id}")
    candidates = readings(hand, options, rs.shapes) if hand.tile_count == 17 else []
    if not candidates:
        bare = Reading(hand, options)  # a win without a hand: flowers (RULINGS 11) or 四槓牌
        if not _items(rs, bare):
            raise HandError(
                f"not a winning hand: {format_tiles(hand.concealed)} with {len(hand.melds)} meld(s) "
                "is not five sets and a pair"
            )
        candidates = [bare]
    if len(candidates) == 1:  # most hands read one way
        reading, best = candidates[0], _items(rs, candidates[0])
    else:
        reading, best = max(((r, _items(rs, r)) for r in candidates), key=lambda ri: points(ri[1]))
    items = _paid_instead(rs, reading, best)
    total = points(items)
    if total < rs.minimum:
        raise HandError(f"below the minimum: {total} {rs.unit}, rule set {rs.id} needs at least {rs.minimum}")
    if not hand.self_drawn and not rs.flagged["as_self_drawn"].isdisjoint(map(ID, items)):
        as_self_drawn = [i.id for i in items if i.id in rs.flagged["as_self_drawn"]]
        raise HandError(f"{', '.join(as_self_drawn)} is paid as self-drawn by all three: set self_drawn")
    dealer_items = dealer_items_for(rs, hand.streak) if options is rs.defaults else _items(rs, reading, dealer=True)
    payer_items = _items(rs, reading, paid_by="eighth_flower") if hand.eighth_flower else ()
    payments = _payments(hand, rs, items, total, points(dealer_items), payer_items)
    return Score(rs, hand, reading, items, dealer_items, payments, payer_items)
