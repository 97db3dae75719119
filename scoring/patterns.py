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

from .facts import PLANT_SET, SEASON_SET, flower_group, on_event, on_flowers, on_honour, on_pungs, pung_of, wind_pungs
from .reading import TWO_SIDED, WAIT_NAMES, Reading
from .tiles import (
    DRAGONS,
    SEAT_FLOWERS,
    WIND_NAMES,
    WIND_TILE,
    WIND_TILES,
    flower_name,
    name,
)

Result = int | tuple[int, str]
Pattern = Callable[[Reading], Result]

REPLACEMENTS = ("replacement", "double_replacement")
LAST_TILES = ("last_tile", "last_discard")


# Dealer items (RULINGS 5): paid only in payments that involve the dealer.


def dealer(r: Reading) -> Result:
    return 1


def dealer_streak(r: Reading) -> Result:
    n = r.hand.streak
    return (2 * n + 1, f"連{n}拉{n}") if n else 0


# Honour pungs.


@on_honour
def dragon_pung(r: Reading) -> Result:
    if r.pung_tiles.isdisjoint(DRAGONS):
        return 0
    found = [name(d) for d in DRAGONS if pung_of(r, d)]
    return len(found), "".join(found)


@on_honour
def seat_wind(r: Reading) -> Result:
    return (1, WIND_NAMES[r.hand.seat]) if pung_of(r, WIND_TILE[r.hand.seat]) else 0


@on_honour
def round_wind(r: Reading) -> Result:
    return (1, WIND_NAMES[r.hand.round]) if pung_of(r, WIND_TILE[r.hand.round]) else 0


@on_honour
def seat_and_round_wind(r: Reading) -> Result:
    """東風東: the pung is both seat and round wind; some tables pay a third 台 for it."""
    wind = r.hand.seat
    return (1, f"{WIND_NAMES[wind]}風{WIND_NAMES[wind]}") if wind == r.hand.round and pung_of(r, WIND_TILE[wind]) else 0


# How the hand was won.


def self_drawn(r: Reading) -> Result:
    return int(r.hand.self_drawn)


def concealed_hand(r: Reading) -> Result:
    return int(r.concealed)


def concealed_self_drawn(r: Reading) -> Result:
    return int(r.concealed and r.hand.self_drawn)


def single_wait(r: Reading) -> Result:
    """獨聽: exactly one kind completed the 16 tiles (RULINGS 4)."""
    return (1, WAIT_NAMES[r.wait]) if len(r.waits) == 1 else 0


@on_event
def kong_bloom(r: Reading) -> Result:
    return int(r.hand.self_drawn and not r.hand.events.isdisjoint(REPLACEMENTS))


@on_event
def last_tile(r: Reading) -> Result:
    return int(r.hand.self_drawn and "last_tile" in r.hand.events)


@on_event
def last_tile_or_discard(r: Reading) -> Result:
    return int(not r.hand.events.isdisjoint(LAST_TILES))


@on_event
def robbing_kong(r: Reading) -> Result:
    return int("robbing_kong" in r.hand.events)


def all_melded(r: Reading) -> Result:
    return int(r.hand.exposed_sets == 5 and not r.hand.self_drawn)


def half_melded(r: Reading) -> Result:
    return int(r.hand.exposed_sets == 5 and r.hand.self_drawn)


# Flowers.


def _seat_flower(r: Reading, group: int) -> Result:
    """The seat's own flower of a group (東 春 and 梅, 南 夏 and 蘭 ...): group 0 the seasons, 1 the plants."""
    own = SEAT_FLOWERS[r.hand.seat][group]
    return (1, flower_name(own)) if own in r.hand.flowers else 0


@on_flowers
def seat_flower_seasons(r: Reading) -> Result:
    return _seat_flower(r, 0)


@on_flowers
def seat_flower_plants(r: Reading) -> Result:
    return _seat_flower(r, 1)


@on_flowers
def flower_kong_seasons(r: Reading) -> Result:
    return int(flower_group(r, SEASON_SET))


@on_flowers
def flower_kong_plants(r: Reading) -> Result:
    return int(flower_group(r, PLANT_SET))


@on_event
def eight_flowers(r: Reading) -> Result:
    return int("eight_flowers" in r.hand.events)


@on_event
def seven_rob_one(r: Reading) -> Result:
    return int("seven_rob_one" in r.hand.events)


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
    return int(not r.has_honour and not r.hand.flowers and not r.hand.self_drawn and r.wait == TWO_SIDED and len(r.waits) >= 2)


@on_pungs
def concealed_pungs_3(r: Reading) -> Result:
    return int(r.concealed_pungs >= 3)


@on_pungs
def concealed_pungs_4(r: Reading) -> Result:
    return int(r.concealed_pungs >= 4)


@on_pungs
def concealed_pungs_5(r: Reading) -> Result:
    return int(r.concealed_pungs >= 5)


def four_kongs(r: Reading) -> Result:
    """四槓牌: four kongs on the table; a win by itself where the rule set says so."""
    return int(r.hand.kongs >= 4)


@on_pungs
def all_pungs(r: Reading) -> Result:
    return int(len(r.pungs) == 5)


@on_honour
def half_flush(r: Reading) -> Result:
    return int(len(r.suits) == 1 and r.has_honour)


def full_flush(r: Reading) -> Result:
    return int(len(r.suits) == 1 and not r.has_honour)


def all_honours(r: Reading) -> Result:
    return int(not r.suits)


@on_honour
def small_dragons(r: Reading) -> Result:
    return int(r.pair in DRAGONS and len(r.pung_tiles.intersection(DRAGONS)) == 2)


@on_honour
def big_dragons(r: Reading) -> Result:
    return int(r.pung_tiles.issuperset(DRAGONS))


@on_honour
def small_winds(r: Reading) -> Result:
    return int(r.pair in WIND_TILES and wind_pungs(r) == 3)


@on_honour
def big_winds(r: Reading) -> Result:
    return int(r.pung_tiles.issuperset(WIND_TILES))


# Declared or timed wins.


@on_event
def heavenly(r: Reading) -> Result:
    return int("heavenly" in r.hand.events)


@on_event
def earthly(r: Reading) -> Result:
    return int("earthly" in r.hand.events)


@on_event
def ready_dealt(r: Reading) -> Result:
    return int("ready_dealt" in r.hand.events)


@on_event
def ready_first_discard(r: Reading) -> Result:
    return int("ready_first_discard" in r.hand.events)


@on_event
def migi(r: Reading) -> Result:
    """MIGI (咪幾): declared ready with eight or fewer wall tiles left, concealed."""
    return int("ready" in r.hand.events and r.concealed)

