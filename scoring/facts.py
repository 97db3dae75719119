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


_Pattern = Callable[[Reading], object]


def _needs(fact: str, why: str) -> Callable[[_Pattern], _Pattern]:
    def mark(pattern: _Pattern) -> _Pattern:
        pattern.needs = fact  # type: ignore[attr-defined]
        return pattern

    mark.__doc__ = why
    return mark


# Patterns that are 0 unless the hand or reading has something most hands lack: the
# scorer leaves them out of the plan for the others (`Ruleset.plan`), a fifth of its calls.
on_event = _needs("events", "Applies only when the hand names an event (天胡, 搶槓, 海底 ...).")
on_honour = _needs("honour", "Applies only to a reading holding an honour tile (風, 三元).")
on_flowers = _needs("flowers", "Applies only to a hand showing a flower (花).")
on_pungs = _needs("pungs", "Applies only to a reading with three or more pungs or kongs (刻, 槓).")
NEEDS = ("events", "honour", "flowers", "pungs")  # in the order of the scorer's `present` flags
