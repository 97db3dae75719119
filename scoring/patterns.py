"""Scoring patterns: small pure functions over a reading.

Each returns how many times its item applies (0: not at all), or that count with
a short note a player would say aloud (which wind, which wait). Values, names and
what replaces what live in the rule-set data files, not here.
"""

from __future__ import annotations

from collections.abc import Callable

from .reading import TWO_SIDED, WAIT_NAMES, Reading
from .tiles import (
    DRAGONS,
    PLANTS,
    SEASONS,
    SEAT_FLOWERS,
    WIND_NAMES,
    WIND_TILES,
    flower_name,
    is_honour,
    name,
    wind_tile,
)

Result = int | tuple[int, str]
Pattern = Callable[[Reading], Result]
PATTERNS: dict[str, Pattern] = {}


def pattern(fn: Pattern) -> Pattern:
    PATTERNS[fn.__name__] = fn
    return fn


def _pung_of(r: Reading, tile: int) -> bool:
    return tile in r.pung_tiles


def _suits(r: Reading) -> frozenset[int]:
    return r.suits


def _has_honour(r: Reading) -> bool:
    return any(is_honour(t) for t in r.kinds)


def _concealed_pungs(r: Reading) -> int:
    return sum(1 for s in r.sets if s.is_pung and s.concealed)


def _menqing(r: Reading) -> bool:
    """門清: nothing called from others; a concealed kong keeps it (RULINGS 3), and in
    hk-taiwan an exposed kong too unless the house says otherwise."""
    kong_ok = r.options.get("kong_keeps_concealed", False)
    return not any(m.exposed and not (kong_ok and m.is_kong) for m in r.hand.melds)


# Dealer items (RULINGS 5): paid only in payments that involve the dealer.


@pattern
def dealer(r: Reading) -> Result:
    return 1


@pattern
def dealer_streak(r: Reading) -> Result:
    n = r.hand.streak
    return (2 * n + 1, f"連{n}拉{n}") if n else 0


# Honour pungs.


@pattern
def dragon_pung(r: Reading) -> Result:
    found = [name(d) for d in DRAGONS if _pung_of(r, d)]
    return (len(found), "".join(found)) if found else 0


@pattern
def seat_wind(r: Reading) -> Result:
    return (1, WIND_NAMES[r.hand.seat]) if _pung_of(r, wind_tile(r.hand.seat)) else 0


@pattern
def round_wind(r: Reading) -> Result:
    return (1, WIND_NAMES[r.hand.round]) if _pung_of(r, wind_tile(r.hand.round)) else 0


# How the hand was won.


@pattern
def self_drawn(r: Reading) -> Result:
    return int(r.hand.self_drawn)


@pattern
def concealed_hand(r: Reading) -> Result:
    return int(_menqing(r))


@pattern
def concealed_self_drawn(r: Reading) -> Result:
    return int(_menqing(r) and r.hand.self_drawn)


@pattern
def single_wait(r: Reading) -> Result:
    """獨聽: exactly one kind completed the 16 tiles (RULINGS 4)."""
    return (1, WAIT_NAMES[r.wait]) if len(r.waits) == 1 else 0


@pattern
def kong_bloom(r: Reading) -> Result:
    return int(r.hand.self_drawn and (r.event("replacement") or r.event("double_replacement")))


@pattern
def last_tile(r: Reading) -> Result:
    return int(r.hand.self_drawn and r.event("last_tile"))


@pattern
def last_tile_or_discard(r: Reading) -> Result:
    return int(r.event("last_tile") or r.event("last_discard"))


@pattern
def robbing_kong(r: Reading) -> Result:
    return int(r.event("robbing_kong"))


@pattern
def all_melded(r: Reading) -> Result:
    return int(r.exposed_sets == 5 and not r.hand.self_drawn)


@pattern
def half_melded(r: Reading) -> Result:
    return int(r.exposed_sets == 5 and r.hand.self_drawn)


# Flowers.


def _seat_flower(r: Reading, group: tuple[int, ...]) -> Result:
    mine = [f for f in SEAT_FLOWERS[r.hand.seat] if f in group and f in r.hand.flowers]
    return (len(mine), "".join(flower_name(f) for f in mine)) if mine else 0


@pattern
def seat_flower_seasons(r: Reading) -> Result:
    return _seat_flower(r, SEASONS)


@pattern
def seat_flower_plants(r: Reading) -> Result:
    return _seat_flower(r, PLANTS)


@pattern
def flower_kong_seasons(r: Reading) -> Result:
    return int(set(SEASONS) <= set(r.hand.flowers))


@pattern
def flower_kong_plants(r: Reading) -> Result:
    return int(set(PLANTS) <= set(r.hand.flowers))


@pattern
def eight_flowers(r: Reading) -> Result:
    return int(r.event("eight_flowers"))


@pattern
def seven_rob_one(r: Reading) -> Result:
    return int(r.event("seven_rob_one"))


# Shapes.


def _pinghu_core(r: Reading) -> bool:
    return len(r.chows) == 5 and not _has_honour(r) and not r.hand.flowers and not r.hand.self_drawn


@pattern
def pinghu(r: Reading) -> Result:
    """平胡 (taiwan): five chows, no honour, no flower, on a discard, two-sided wait;
    with the house option pinghu_strict off, five chows are enough."""
    if not r.options.get("pinghu_strict", True):
        return int(len(r.chows) == 5)
    return int(_pinghu_core(r) and r.wait == TWO_SIDED and len(r.waits) >= 2)


@pattern
def all_chows(r: Reading) -> Result:
    """平胡 (taiwan-basic): five chows and nothing else checked."""
    return int(len(r.chows) == 5)


@pattern
def concealed_pungs_3(r: Reading) -> Result:
    return int(_concealed_pungs(r) >= 3)


@pattern
def concealed_pungs_4(r: Reading) -> Result:
    return int(_concealed_pungs(r) >= 4)


@pattern
def concealed_pungs_5(r: Reading) -> Result:
    return int(_concealed_pungs(r) >= 5)


@pattern
def four_kongs(r: Reading) -> Result:
    return int(sum(1 for s in r.sets if s.shape == "kong") >= 4)


@pattern
def all_pungs(r: Reading) -> Result:
    return int(len(r.pungs) == 5)


@pattern
def half_flush(r: Reading) -> Result:
    return int(len(_suits(r)) == 1 and _has_honour(r))


@pattern
def full_flush(r: Reading) -> Result:
    return int(len(_suits(r)) == 1 and not _has_honour(r))


@pattern
def all_honours(r: Reading) -> Result:
    return int(not _suits(r))


@pattern
def small_dragons(r: Reading) -> Result:
    return int(sum(_pung_of(r, d) for d in DRAGONS) == 2 and r.pair in DRAGONS)


@pattern
def big_dragons(r: Reading) -> Result:
    return int(all(_pung_of(r, d) for d in DRAGONS))


@pattern
def small_winds(r: Reading) -> Result:
    return int(sum(_pung_of(r, w) for w in WIND_TILES) == 3 and r.pair in WIND_TILES)


@pattern
def big_winds(r: Reading) -> Result:
    return int(all(_pung_of(r, w) for w in WIND_TILES))


# Declared or timed wins.


@pattern
def heavenly(r: Reading) -> Result:
    return int(r.event("heavenly"))


@pattern
def earthly(r: Reading) -> Result:
    return int(r.event("earthly"))


@pattern
def ready_dealt(r: Reading) -> Result:
    return int(r.event("ready_dealt"))


@pattern
def ready_first_discard(r: Reading) -> Result:
    return int(r.event("ready_first_discard"))


@pattern
def migi(r: Reading) -> Result:
    """MIGI (咪幾): declared ready with eight or fewer wall tiles left, concealed."""
    return int(r.event("ready") and _menqing(r))

