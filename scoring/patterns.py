"""Scoring patterns shared by the 台 rule sets (`taiwan`, `taiwan-basic`, `star31`)
and some `hk-taiwan` rows: small pure functions over a reading.

Each function is named exactly as the item id that uses it in the data files, so
`grep "def <id>"` finds the rule. Each returns how many times its item applies
(0: not at all), or that count with a short note a player would say aloud (which
wind, which wait). Values, names and what replaces what live in the rule-set data
files, not here; `registry.py` collects the functions.
"""

from __future__ import annotations

from collections.abc import Callable

from .facts import concealed, has_honour, pung_of
from .reading import TWO_SIDED, WAIT_NAMES, Reading
from .tiles import (
    DRAGONS,
    PLANTS,
    SEASONS,
    SEAT_FLOWERS,
    WIND_NAMES,
    WIND_TILES,
    flower_name,
    name,
    wind_tile,
)

Result = int | tuple[int, str]
Pattern = Callable[[Reading], Result]


def _concealed_pungs(r: Reading) -> int:
    return sum(1 for s in r.sets if s.is_pung and s.concealed)

# Dealer items (RULINGS 5): paid only in payments that involve the dealer.


def dealer(r: Reading) -> Result:
    return 1


def dealer_streak(r: Reading) -> Result:
    n = r.hand.streak
    return (2 * n + 1, f"連{n}拉{n}") if n else 0


# Honour pungs.


def dragon_pung(r: Reading) -> Result:
    found = [name(d) for d in DRAGONS if pung_of(r, d)]
    return (len(found), "".join(found)) if found else 0


def seat_wind(r: Reading) -> Result:
    return (1, WIND_NAMES[r.hand.seat]) if pung_of(r, wind_tile(r.hand.seat)) else 0


def round_wind(r: Reading) -> Result:
    return (1, WIND_NAMES[r.hand.round]) if pung_of(r, wind_tile(r.hand.round)) else 0


def seat_and_round_wind(r: Reading) -> Result:
    """東風東: the pung is both seat and round wind; some tables pay a third 台 for it."""
    wind = r.hand.seat
    return (1, f"{WIND_NAMES[wind]}風{WIND_NAMES[wind]}") if wind == r.hand.round and pung_of(r, wind_tile(wind)) else 0


# How the hand was won.


def self_drawn(r: Reading) -> Result:
    return int(r.hand.self_drawn)


def concealed_hand(r: Reading) -> Result:
    return int(concealed(r))


def concealed_self_drawn(r: Reading) -> Result:
    return int(concealed(r) and r.hand.self_drawn)


def single_wait(r: Reading) -> Result:
    """獨聽: exactly one kind completed the 16 tiles (RULINGS 4)."""
    return (1, WAIT_NAMES[r.wait]) if len(r.waits) == 1 else 0


def kong_bloom(r: Reading) -> Result:
    return int(r.hand.self_drawn and (r.event("replacement") or r.event("double_replacement")))


def last_tile(r: Reading) -> Result:
    return int(r.hand.self_drawn and r.event("last_tile"))


def last_tile_or_discard(r: Reading) -> Result:
    return int(r.event("last_tile") or r.event("last_discard"))


def robbing_kong(r: Reading) -> Result:
    return int(r.event("robbing_kong"))


def all_melded(r: Reading) -> Result:
    return int(r.exposed_sets == 5 and not r.hand.self_drawn)


def half_melded(r: Reading) -> Result:
    return int(r.exposed_sets == 5 and r.hand.self_drawn)


# Flowers.


def _seat_flower(r: Reading, group: tuple[int, ...]) -> Result:
    mine = [f for f in SEAT_FLOWERS[r.hand.seat] if f in group and f in r.hand.flowers]
    return (len(mine), "".join(flower_name(f) for f in mine)) if mine else 0


def seat_flower_seasons(r: Reading) -> Result:
    return _seat_flower(r, SEASONS)


def seat_flower_plants(r: Reading) -> Result:
    return _seat_flower(r, PLANTS)


def flower_kong_seasons(r: Reading) -> Result:
    return int(set(SEASONS) <= set(r.hand.flowers))


def flower_kong_plants(r: Reading) -> Result:
    return int(set(PLANTS) <= set(r.hand.flowers))


def eight_flowers(r: Reading) -> Result:
    return int(r.event("eight_flowers"))


def seven_rob_one(r: Reading) -> Result:
    return int(r.event("seven_rob_one"))


def seven_rob_one_self_drawn(r: Reading) -> Result:
    """七搶一 情況一 (seed 003): the seven-flower player self-draws on the replacement
    tile; the hand names the holder of the eighth flower (eighth_flower), who pays it."""
    return int(r.hand.eighth_flower is not None)


# Shapes.


def pinghu(r: Reading) -> Result:
    """平胡: five chows. Under the house option pinghu_strict (on in `taiwan` and
    `star31`) also no honour, no flower, won on a discard with a two-sided wait."""
    if len(r.chows) != 5:
        return 0
    if not r.options["pinghu_strict"]:
        return 1
    return int(not has_honour(r) and not r.hand.flowers and not r.hand.self_drawn and r.wait == TWO_SIDED and len(r.waits) >= 2)


def concealed_pungs_3(r: Reading) -> Result:
    return int(_concealed_pungs(r) >= 3)


def concealed_pungs_4(r: Reading) -> Result:
    return int(_concealed_pungs(r) >= 4)


def concealed_pungs_5(r: Reading) -> Result:
    return int(_concealed_pungs(r) >= 5)


def four_kongs(r: Reading) -> Result:
    """四槓牌: four kongs on the table; a win by itself where the rule set says so."""
    return int(sum(1 for m in r.hand.melds if m.is_kong) >= 4)


def all_pungs(r: Reading) -> Result:
    return int(len(r.pungs) == 5)


def half_flush(r: Reading) -> Result:
    return int(len(r.suits) == 1 and has_honour(r))


def full_flush(r: Reading) -> Result:
    return int(len(r.suits) == 1 and not has_honour(r))


def all_honours(r: Reading) -> Result:
    return int(not r.suits)


def small_dragons(r: Reading) -> Result:
    return int(sum(pung_of(r, d) for d in DRAGONS) == 2 and r.pair in DRAGONS)


def big_dragons(r: Reading) -> Result:
    return int(all(pung_of(r, d) for d in DRAGONS))


def small_winds(r: Reading) -> Result:
    return int(sum(pung_of(r, w) for w in WIND_TILES) == 3 and r.pair in WIND_TILES)


def big_winds(r: Reading) -> Result:
    return int(all(pung_of(r, w) for w in WIND_TILES))


# Declared or timed wins.


def heavenly(r: Reading) -> Result:
    return int(r.event("heavenly"))


def earthly(r: Reading) -> Result:
    return int(r.event("earthly"))


def ready_dealt(r: Reading) -> Result:
    return int(r.event("ready_dealt"))


def ready_first_discard(r: Reading) -> Result:
    return int(r.event("ready_first_discard"))


def migi(r: Reading) -> Result:
    """MIGI (咪幾): declared ready with eight or fewer wall tiles left, concealed."""
    return int(r.event("ready") and concealed(r))

