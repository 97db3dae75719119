"""Readings of a winning hand: one split into sets and a pair, plus the set the
winning tile completed. Patterns are scored on a reading; the best one wins
(RULINGS 1)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from itertools import chain, filterfalse
from operator import attrgetter
from typing import Any

from .decompose import CHOW, HONOURS, PUNG, Shape, splits, waits
from .hand import Hand
from .quick import quick
from .special import specials
from .tiles import KINDS, format_tiles

KONG = "kong"
SUIT_OF = tuple(min(k // 9, 3) for k in range(KINDS))  # kind -> 0 m, 1 p, 2 s, 3 honours

# Wait shapes, named as players name them.
SINGLE = "single"  # 單吊
EDGE = "edge"  # 邊張
CLOSED = "closed"  # 中洞 / 坎張
TWO_SIDED = "two_sided"  # 兩面
PAIR_WAIT = "pair_wait"  # 對碰
SPECIAL = "special"  # a special shape (十三么, 嚦咕嚦咕, 十六不搭)
WAIT_NAMES = {SINGLE: "單吊", EDGE: "邊張", CLOSED: "中洞", TWO_SIDED: "兩面", PAIR_WAIT: "對碰", SPECIAL: "特殊"}


@dataclass(frozen=True, slots=True)
class Set:
    """One of the five sets. `concealed` follows RULINGS 2-3: a pung finished by a
    discard is exposed; a concealed kong is concealed."""

    shape: str  # chow, pung, kong
    tile: int  # lowest tile
    concealed: bool
    called: bool = False  # lies on the table as a chi/pon/kong/ankong
    is_pung: bool = field(init=False, repr=False, compare=False)  # a pung or a kong
    suit: int = field(init=False, repr=False, compare=False)  # 0 m, 1 p, 2 s, 3 honours
    tiles: tuple[int, ...] = field(init=False, repr=False, compare=False)
    notation: str = field(init=False, repr=False, compare=False)  # its tiles as written: "234m"
    json_utf8: bytes = field(init=False, repr=False, compare=False)  # to_json() encoded: sets are shared, encoded once

    def __post_init__(self) -> None:
        tiles = (self.tile, self.tile + 1, self.tile + 2) if self.shape == CHOW else (self.tile,) * (4 if self.shape == KONG else 3)
        object.__setattr__(self, "is_pung", self.shape != CHOW)
        object.__setattr__(self, "suit", SUIT_OF[self.tile])
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "notation", format_tiles(tiles))
        object.__setattr__(self, "json_utf8", json.dumps(self.to_json(), ensure_ascii=False).encode())

    def to_json(self) -> dict[str, Any]:
        return {"type": self.shape, "tiles": self.notation, "concealed": self.concealed, "called": self.called}


@cache
def _set(shape: str, tile: int, concealed: bool, called: bool = False) -> Set:
    """Sets are immutable and few (34 kinds x shapes x flags): one instance of each serves every reading."""
    return Set(shape, tile, concealed, called)


@quick
@dataclass(frozen=True)
class Reading:
    """One way to read a winning hand. The facts patterns ask for again and again
    (its pungs, chows, suits, whether it is concealed) are worked out once, when
    it is made: some 35 patterns look at each reading."""

    hand: Hand
    options: Mapping[str, Any]
    sets: tuple[Set, ...] = ()
    pair: int | None = None
    win_set: int | None = None  # index into sets; None when the pair was completed
    wait: str | None = None
    waits: tuple[int, ...] = ()
    special: str | None = None  # the special shape's name, if this is one
    extra: tuple[int, ...] = ()  # a special shape's tiles outside its pair and sets
    complete: bool = field(init=False, repr=False, compare=False)  # five sets and a pair (or a special shape)
    pungs: tuple[Set, ...] = field(init=False, repr=False, compare=False)  # pungs and kongs
    chows: tuple[Set, ...] = field(init=False, repr=False, compare=False)
    pung_tiles: frozenset[int] = field(init=False, repr=False, compare=False)  # kinds with a pung or kong
    suits: frozenset[int] = field(init=False, repr=False, compare=False)  # suits present (0 m, 1 p, 2 s); honours are not a suit
    has_honour: bool = field(init=False, repr=False, compare=False)
    concealed_pungs: int = field(init=False, repr=False, compare=False)  # pungs and kongs counted as concealed (RULINGS 2-3)
    concealed: bool = field(init=False, repr=False, compare=False)  # 門清 (see below)

    def __post_init__(self) -> None:
        sets, pair = self.sets, self.pair
        pungs = tuple(filter(IS_PUNG, sets))
        suits = set(map(SUIT, sets))
        if pair is not None:
            suits.add(SUIT_OF[pair])
        if self.extra:
            suits.update(map(SUIT_OF.__getitem__, self.extra))
        self.__dict__.update(  # frozen: set once, here, in one call (object.__setattr__ per field costs more than the rest)
            complete=pair is not None,
            pungs=pungs,
            chows=tuple(filterfalse(IS_PUNG, sets)),
            pung_tiles=frozenset(map(TILE, pungs)),
            suits=frozenset(suits - {3}),
            has_honour=3 in suits,
            concealed_pungs=sum(map(CONCEALED, pungs)),
            concealed=_concealed(self.hand, self.options),
        )

    @cached_property
    def kinds(self) -> frozenset[int]:
        """The kinds among its tiles; a few hk-taiwan patterns ask, so it is found when first asked."""
        kinds = frozenset(chain(chain.from_iterable(map(TILES, self.sets)), self.extra))
        return kinds if self.pair is None else kinds | {self.pair}


IS_PUNG, TILES, SUIT, TILE, CONCEALED = map(attrgetter, ("is_pung", "tiles", "suit", "tile", "concealed"))


def _concealed(hand: Hand, options: Mapping[str, Any]) -> bool:
    """門清: nothing called from others; a concealed kong keeps it (RULINGS 3), and in
    hk-taiwan an exposed kong too unless the house says otherwise."""
    if not hand.exposed_sets:
        return True
    if not options.get("kong_keeps_concealed", False):
        return False
    return not any(m.exposed and not m.is_kong for m in hand.melds)


# Every set the standing tiles can hold, concealed, by its shape: a split's sets are looked up, not made.
STANDING_SETS = {(PUNG, k): _set(PUNG, k, True) for k in range(KINDS)} | {
    (CHOW, k): _set(CHOW, k, True) for k in range(HONOURS) if k % 9 <= 6
}


def _hand_sets(hand: Hand) -> tuple[Set, ...]:
    return tuple(_set(KONG if m.is_kong else m.shape, m.tile, not m.exposed, True) for m in hand.melds)


def readings(hand: Hand, options: Mapping[str, Any], shapes: tuple[str, ...] = ()) -> list[Reading]:
    """Every (split x completed set) reading, and the special shapes the rule set
    knows; empty when the tiles do not win."""
    win = hand.winning_tile
    if win is None:
        return []
    standing = hand.standing
    called = _hand_sets(hand)
    before = standing[:win] + (standing[win] - 1,) + standing[win + 1 :]
    extra = (lambda c: bool(specials(c, len(called), shapes))) if shapes else None
    held = hand.held  # own copies before the winning tile arrived: standing tiles and melds, less the winning tile
    hand_waits = waits(before, held[:win] + (held[win] - 1,) + held[win + 1 :], extra)
    out: list[Reading] = _special_readings(hand, options, standing, called, shapes, hand_waits) if shapes else []
    holds_win = _holding(win)
    for pair, cut in splits(standing):
        own = tuple(map(STANDING_SETS.__getitem__, cut))
        if pair == win:
            out.append(Reading(hand, options, called + own, pair, None, SINGLE, hand_waits))
        seen: set[Shape] = set()
        for i, shape in enumerate(cut):
            if shape not in holds_win or shape in seen:
                continue
            seen.add(shape)
            if shape[0] == PUNG:
                sets, wait = own[:i] + (_set(PUNG, win, hand.self_drawn),) + own[i + 1 :], PAIR_WAIT
            else:
                sets, wait = own, _chow_wait(shape[1], win)
            out.append(Reading(hand, options, called + sets, pair, len(called) + i, wait, hand_waits))
    return out


@cache
def _holding(win: int) -> frozenset[Shape]:
    """The standing sets the winning tile can have completed: its pung, and each chow holding it."""
    chows = {(CHOW, low) for low in (win - 2, win - 1, win) if (CHOW, low) in STANDING_SETS}
    return frozenset({(PUNG, win)} | chows)


def _special_readings(hand, options, standing, called, shapes, hand_waits) -> list[Reading]:
    out = []
    for name, pair, shape in specials(standing, len(called), shapes):
        own = (_set(shape[0], shape[1], True),) if shape else ()
        rest = list(standing)
        rest[pair] -= 2
        for t in own[0].tiles if own else ():
            rest[t] -= 1
        extra = tuple(k for k in range(len(rest)) for _ in range(rest[k]))
        out.append(Reading(hand, options, called + own, pair, None, SPECIAL, hand_waits, name, extra))
    return out


def _chow_wait(low: int, win: int) -> str:
    pos = win - low
    if pos == 1:
        return CLOSED
    if pos == 0 and low % 9 == 6 or pos == 2 and low % 9 == 0:
        return EDGE
    return TWO_SIDED

