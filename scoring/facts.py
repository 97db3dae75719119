"""Facts about a reading that patterns of several rule sets ask for.

Public, in one place, so that a pattern module (and a newcomer writing a fifth
rule set) uses the same answer to "is this hand concealed?" everywhere.
"""

from __future__ import annotations

from .reading import Reading
from .tiles import WIND_TILES, is_honour


def pung_of(r: Reading, tile: int) -> bool:
    """A pung or kong of `tile` among the five sets."""
    return tile in r.pung_tiles


def has_honour(r: Reading) -> bool:
    return any(is_honour(t) for t in r.kinds)


def wind_pungs(r: Reading) -> int:
    """How many of 東南西北 are pungs or kongs."""
    return sum(1 for w in WIND_TILES if pung_of(r, w))


def concealed(r: Reading) -> bool:
    """門清: nothing called from others; a concealed kong keeps it (RULINGS 3), and in
    hk-taiwan an exposed kong too unless the house says otherwise."""
    kong_ok = r.options.get("kong_keeps_concealed", False)
    return not any(m.exposed and not (kong_ok and m.is_kong) for m in r.hand.melds)


def standard(r: Reading) -> bool:
    """Five sets and a pair, not a special shape and not a win without a hand."""
    return r.special is None and r.pair is not None
