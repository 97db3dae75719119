"""Readings of a winning hand: one split into sets and a pair, plus the set the
winning tile completed. Patterns are scored on a reading; the best one wins
(RULINGS 1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .decompose import CHOW, PUNG, splits, waits
from .hand import Hand
from .special import specials
from .tiles import counts, format_tiles

KONG = "kong"

# Wait shapes, named as players name them.
SINGLE = "single"  # 單吊
EDGE = "edge"  # 邊張
CLOSED = "closed"  # 中洞 / 坎張
TWO_SIDED = "two_sided"  # 兩面
PAIR_WAIT = "pair_wait"  # 對碰
SPECIAL = "special"  # a special shape (十三么, 嚦咕嚦咕, 十六不搭)
WAIT_NAMES = {SINGLE: "單吊", EDGE: "邊張", CLOSED: "中洞", TWO_SIDED: "兩面", PAIR_WAIT: "對碰", SPECIAL: "特殊"}


@dataclass(frozen=True)
class Set:
    """One of the five sets. `concealed` follows RULINGS 2-3: a pung finished by a
    discard is exposed; a concealed kong is concealed."""

    shape: str  # chow, pung, kong
    tile: int  # lowest tile
    concealed: bool
    called: bool = False  # lies on the table as a chi/pon/kong/ankong

    @property
    def is_pung(self) -> bool:
        return self.shape in (PUNG, KONG)

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.shape == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.shape == KONG else 3)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.shape, "tiles": format_tiles(self.tiles), "concealed": self.concealed, "called": self.called}


@dataclass(frozen=True)
class Reading:
    hand: Hand
    options: Mapping[str, Any]
    sets: tuple[Set, ...] = ()
    pair: int | None = None
    win_set: int | None = None  # index into sets; None when the pair was completed
    wait: str | None = None
    waits: tuple[int, ...] = ()
    special: str | None = None  # the special shape's name, if this is one
    extra: tuple[int, ...] = ()  # a special shape's tiles outside its pair and sets

    @property
    def complete(self) -> bool:
        return self.pair is not None

    @cached_property
    def tiles(self) -> tuple[int, ...]:
        """Every tile of the sets and the pair (a kong's fourth tile included)."""
        out: list[int] = [self.pair, self.pair] if self.pair is not None else []
        for s in self.sets:
            out.extend(s.tiles)
        return tuple(out) + self.extra

    @cached_property
    def kinds(self) -> frozenset[int]:
        return frozenset(self.tiles)

    @cached_property
    def pung_tiles(self) -> frozenset[int]:
        """Kinds with a pung or kong in this reading."""
        return frozenset(s.tile for s in self.sets if s.is_pung)

    @cached_property
    def suits(self) -> frozenset[int]:
        """Suits present (0 m, 1 p, 2 s); honours are not a suit."""
        return frozenset(t // 9 for t in self.kinds if t < 27)

    @property
    def pungs(self) -> tuple[Set, ...]:
        return tuple(s for s in self.sets if s.is_pung)

    @property
    def chows(self) -> tuple[Set, ...]:
        return tuple(s for s in self.sets if s.shape == CHOW)

    @property
    def exposed_sets(self) -> int:
        """Sets called from other players (chi, pon, exposed kong)."""
        return sum(1 for m in self.hand.melds if m.exposed)

    def event(self, name: str) -> bool:
        return name in self.hand.events


def _hand_sets(hand: Hand) -> tuple[Set, ...]:
    return tuple(
        Set(KONG if m.is_kong else m.shape, m.tile, concealed=not m.exposed, called=True) for m in hand.melds
    )


def readings(hand: Hand, options: Mapping[str, Any], shapes: tuple[str, ...] = ()) -> list[Reading]:
    """Every (split x completed set) reading, and the special shapes the rule set
    knows; empty when the tiles do not win."""
    standing = tuple(counts(hand.concealed))
    called = _hand_sets(hand)
    win = hand.winning_tile
    if win is None:
        return []
    before = list(standing)
    before[win] -= 1
    extra = (lambda c: bool(specials(c, len(called), shapes))) if shapes else None
    hand_waits = waits(tuple(before), _held_before(hand), extra)
    out: list[Reading] = _special_readings(hand, options, standing, called, shapes, hand_waits)
    for pair, shapes in splits(standing):
        seen: set[tuple[str, int]] = set()
        if pair == win:
            sets = called + tuple(Set(s, t, concealed=True) for s, t in shapes)
            out.append(Reading(hand, options, sets, pair, None, SINGLE, hand_waits))
        for i, (shape, tile) in enumerate(shapes):
            if (shape, tile) in seen or not (tile == win or shape == CHOW and tile <= win <= tile + 2):
                continue
            seen.add((shape, tile))
            own = [Set(s, t, concealed=True) for s, t in shapes]
            if shape == PUNG:
                own[i] = Set(PUNG, tile, concealed=hand.self_drawn)
                wait = PAIR_WAIT
            else:
                wait = _chow_wait(tile, win)
            out.append(Reading(hand, options, called + tuple(own), pair, len(called) + i, wait, hand_waits))
    return out


def _special_readings(hand, options, standing, called, shapes, hand_waits) -> list[Reading]:
    out = []
    for name, pair, shape in specials(standing, len(called), shapes):
        own = (Set(shape[0], shape[1], concealed=True),) if shape else ()
        rest = list(standing)
        rest[pair] -= 2
        for t in own[0].tiles if own else ():
            rest[t] -= 1
        extra = tuple(k for k in range(len(rest)) for _ in range(rest[k]))
        out.append(Reading(hand, options, called + own, pair, None, SPECIAL, hand_waits, name, extra))
    return out


def _held_before(hand: Hand) -> tuple[int, ...]:
    """Own copies of each kind before the winning tile arrived."""
    held = list(hand.held)
    held[hand.winning_tile] -= 1
    return tuple(held)


def _chow_wait(low: int, win: int) -> str:
    pos = win - low
    if pos == 1:
        return CLOSED
    if pos == 0 and low % 9 == 6 or pos == 2 and low % 9 == 0:
        return EDGE
    return TWO_SIDED

