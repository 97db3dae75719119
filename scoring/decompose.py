"""Every way to split standing tiles into sets and a pair, and the waits of a hand.

Count vectors are tuples of 34 so results can be cached: random hands share a lot
of sub-shapes, and the wait finder asks the same question 34 times per hand.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from .tiles import KINDS

CHOW = "chow"
PUNG = "pung"

Shape = tuple[str, int]  # ("chow", lowest kind) or ("pung", kind)
Split = tuple[int, tuple[Shape, ...]]  # (pair kind, sets in a canonical order)


@lru_cache(maxsize=200_000)
def _sets(c: tuple[int, ...]) -> tuple[tuple[Shape, ...], ...]:
    """All ways to cut counts `c` into sets only; () when impossible."""
    i = next((k for k in range(KINDS) if c[k]), -1)
    if i < 0:
        return ((),)
    found: list[tuple[Shape, ...]] = []
    if c[i] >= 3:
        rest = list(c)
        rest[i] -= 3
        found += [((PUNG, i),) + tail for tail in _sets(tuple(rest))]
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        rest = list(c)
        rest[i] -= 1
        rest[i + 1] -= 1
        rest[i + 2] -= 1
        found += [((CHOW, i),) + tail for tail in _sets(tuple(rest))]
    return tuple(found)


@lru_cache(maxsize=200_000)
def splits(c: tuple[int, ...]) -> tuple[Split, ...]:
    """Every (pair, sets) reading of counts `c` (3n+2 tiles)."""
    if sum(c) % 3 != 2:
        return ()
    out: list[Split] = []
    for p in range(KINDS):
        if c[p] >= 2:
            rest = list(c)
            rest[p] -= 2
            out += [(p, sets) for sets in _sets(tuple(rest))]
    return tuple(out)


@cache
def _group_ok(c: tuple[int, ...], honours: bool, pair: bool) -> bool:
    """Can one suit's (or the honours') counts be cut into sets, plus a pair if `pair`?"""
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return not pair
    rest = list(c)
    if pair and c[i] >= 2:
        rest[i] -= 2
        if _group_ok(tuple(rest), honours, False):
            return True
        rest[i] += 2
    if c[i] >= 3:
        rest[i] -= 3
        if _group_ok(tuple(rest), honours, pair):
            return True
        rest[i] += 3
    if not honours and i <= 6 and c[i + 1] and c[i + 2]:
        rest[i] -= 1
        rest[i + 1] -= 1
        rest[i + 2] -= 1
        return _group_ok(tuple(rest), honours, pair)
    return False


def is_complete(c: tuple[int, ...]) -> bool:
    """Sets and one pair? Checked suit by suit: the pair's suit is the one with 3n+2 tiles."""
    groups = (c[0:9], c[9:18], c[18:27], c[27:34])
    pairs = [sum(g) % 3 for g in groups]
    if sorted(pairs) != [0, 0, 0, 2]:
        return False
    return all(_group_ok(g, i == 3, pairs[i] == 2) for i, g in enumerate(groups))


def waits(before: tuple[int, ...], held: tuple[int, ...], special: Callable[[tuple[int, ...]], bool] | None = None) -> tuple[int, ...]:
    """Tile kinds that complete `before` (3n+1 standing tiles), as sets and a pair
    or, where the rule set has them, as a `special` shape.

    `held` counts every copy in the player's own hand and melds: a kind whose four
    copies are all there cannot be drawn, so it is no wait (RULINGS 4 ignores
    only tiles seen elsewhere on the table).
    """
    near = set(range(KINDS)) if special else {k + d for k in range(KINDS) if before[k] for d in (-2, -1, 0, 1, 2)}
    found = []
    for k in sorted(near):
        if not 0 <= k < KINDS or held[k] >= 4:
            continue
        c = list(before)
        c[k] += 1
        if is_complete(tuple(c)) or special is not None and special(tuple(c)):
            found.append(k)
    return tuple(found)
