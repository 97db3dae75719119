"""Facts about a reading that patterns of several rule sets ask for.

Public, in one place, so that a pattern module (and a newcomer writing a fifth
rule set) uses the same answer everywhere. The facts nearly every pattern asks
(`has_honour`, `concealed` for 門清, `concealed_pungs`, `pung_tiles`, `suits`) are
fields of the reading itself, worked out once when it is made.
"""

from __future__ import annotations

from collections.abc import Callable

from .reading import Reading
from .tiles import PLANTS, SEASONS, WIND_TILES

SEASON_SET = frozenset(SEASONS)
PLANT_SET = frozenset(PLANTS)


def pung_of(r: Reading, tile: int) -> bool:
    """A pung or kong of `tile` among the five sets."""
    return tile in r.pung_tiles


def wind_pungs(r: Reading) -> int:
    """How many of 東南西北 are pungs or kongs."""
    return len(r.pung_tiles.intersection(WIND_TILES))


def flower_group(r: Reading, group: frozenset[int]) -> bool:
    """All four flowers of one group (春夏秋冬 or 梅蘭菊竹) in the hand."""
    return len(r.hand.flowers) >= 4 and group.issubset(r.hand.flowers)


def standard(r: Reading) -> bool:
    """Five sets and a pair, not a special shape and not a win without a hand."""
    return r.special is None and r.pair is not None


def on_event(pattern: Callable[[Reading], object]) -> Callable[[Reading], object]:
    """Marks a pattern that applies only when the hand names an event (天胡, 搶槓, 海底 ...):
    it is 0 for a hand with none, so the scorer leaves it out for such a hand (most hands)."""
    pattern.on_event = True  # type: ignore[attr-defined]
    return pattern
