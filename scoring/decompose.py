"""Every way to split standing tiles into sets and a pair, and the waits of a hand.

Sets never cross a suit, so both questions are answered suit by suit (the three
number suits and the honours) and the answers combined. One suit's counts recur
across hands far more often than a whole hand does, so the per-suit answers are
cached: a batch of random hands mostly looks them up.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import product
from operator import itemgetter

from .tiles import KINDS

CHOW = "chow"
PUNG = "pung"

Shape = tuple[str, int]  # ("chow", lowest kind) or ("pung", kind)
Split = tuple[int, tuple[Shape, ...]]  # (pair kind, sets in a canonical order)
Counts = tuple[int, ...]  # copies of each kind: 34 for a hand, 9 (or 7 honours) for one suit
Cuts = tuple[tuple[Shape, ...], ...]  # the ways to cut counts into sets

SUIT_STARTS = (0, 9, 18, 27)  # m, p, s, honours
HONOURS = 27
SUIT_CACHE = 1 << 16  # distinct one-suit holdings kept; random hands need a few thousand


def _suits(c: Counts) -> tuple[Counts, Counts, Counts, Counts]:
    return c[0:9], c[9:18], c[18:27], c[27:34]


@lru_cache(maxsize=SUIT_CACHE)
def _cuts(g: Counts, base: int) -> Cuts:
    """All ways to cut one suit's counts `g` (kinds from `base`) into sets only, each
    once; () when impossible. Depth first from the lowest kind, pung before chow, so
    the sets of a cut come in kind order."""
    i = next((k for k, n in enumerate(g) if n), -1)
    if i < 0:
        return ((),)
    found: list[tuple[Shape, ...]] = []
    if g[i] >= 3:
        rest = list(g)
        rest[i] -= 3
        found += [((PUNG, base + i),) + tail for tail in _cuts(tuple(rest), base)]
    if base < HONOURS and i <= 6 and g[i + 1] and g[i + 2]:
        rest = list(g)
        rest[i] -= 1
        rest[i + 1] -= 1
        rest[i + 2] -= 1
        found += [((CHOW, base + i),) + tail for tail in _cuts(tuple(rest), base)]
    first: dict[tuple[Shape, ...], tuple[Shape, ...]] = {}
    for cut in found:  # a pung and a chow of one kind come both ways round: keep the first
        first.setdefault(tuple(sorted(cut)), cut)
    return tuple(first.values())


@lru_cache(maxsize=SUIT_CACHE)
def _pair_cuts(g: Counts, base: int) -> tuple[tuple[int, Cuts], ...]:
    """Each pair one suit's counts can give up, lowest first, with the cuts of the rest."""
    out = []
    for i, n in enumerate(g):
        if n >= 2:
            rest = list(g)
            rest[i] -= 2
            cuts = _cuts(tuple(rest), base)
            if cuts:
                out.append((base + i, cuts))
    return tuple(out)


MOD3 = tuple(n % 3 for n in range(4 * 9 + 1))  # a suit's tile count (at most 36: four of nine kinds) -> what it holds beyond a multiple of 3


def _rests(suits: tuple[Counts, ...]) -> tuple[int, ...]:
    """What each suit holds beyond a multiple of 3, its tile count's remainder looked up."""
    return tuple(map(MOD3.__getitem__, map(sum, suits)))


def _pair_suit_of(rest: tuple[int, ...]) -> int | None:
    """The suit that must hold the pair: the only one whose count is 2 more than a
    multiple of 3. None when no suit is, or more than one suit is not a multiple of 3."""
    return rest.index(2) if sorted(rest) == [0, 0, 0, 2] else None


PAIR_SUIT = {rest: _pair_suit_of(rest) for rest in product(range(3), repeat=4)}  # suits' counts mod 3 -> the pair's suit


def _pair_suit(suits: tuple[Counts, ...]) -> int | None:
    return PAIR_SUIT[_rests(suits)]


def splits(c: Counts) -> tuple[Split, ...]:
    """Every (pair, sets) reading of counts `c`: pairs from the lowest kind, and for
    each the sets of every suit in turn (the same order as one search over all 34)."""
    suits = _suits(c)
    p = _pair_suit(suits)
    if p is None:
        return ()
    cuts = list(map(_cuts, suits, SUIT_STARTS))
    out: list[Split] = []
    for pair, own in _pair_cuts(suits[p], SUIT_STARTS[p]):
        cuts[p] = own
        out += [(pair, sum(combo, ())) for combo in product(*cuts)]
    return tuple(out)


def _span(g: Counts | list[int]) -> tuple[int, int]:
    """The first held kind of counts and one past the last (equal when none is held)."""
    lo, hi = 0, len(g)
    while lo < hi and not g[lo]:
        lo += 1
    while hi > lo and not g[hi - 1]:
        hi -= 1
    return lo, hi


def _trim(g: Counts | list[int]) -> Counts:
    """Counts without the empty kinds at either end."""
    lo, hi = _span(g)
    return tuple(g[lo:hi])


@lru_cache(maxsize=SUIT_CACHE)
def _suit_ok(g: Counts, base: int, pair: bool) -> bool:
    """Can one suit's counts be cut into sets, plus a pair if `pair`? Sets do not care
    where in a suit the tiles sit (234m cuts as 678m does), so a holding not seen before
    asks its trimmed counts, which the wait finder's many trial holdings share."""
    return _core_ok(_trim(g), base == HONOURS, pair)


@lru_cache(maxsize=SUIT_CACHE)
def _core_ok(core: Counts, honours: bool, pair: bool) -> bool:
    """`_suit_ok` for counts trimmed at both ends: a search from the first kind that stops
    at the first cut. A chow needs the two kinds after it inside the core."""
    if not core:
        return not pair
    first = core[0]
    if pair and first >= 2 and _core_ok(_less(core, first - 2), honours, False):
        return True
    if first >= 3 and _core_ok(_less(core, first - 3), honours, pair):
        return True
    if not honours and len(core) >= 3 and core[1] and core[2]:
        return _core_ok(_trim((first - 1, core[1] - 1, core[2] - 1) + core[3:]), honours, pair)
    return False


def _less(core: Counts, first: int) -> Counts:
    """Trimmed counts with the first kind's count lowered to `first`: the rest stays
    trimmed at its end, so only the front can be empty."""
    if first:
        return (first,) + core[1:]
    lo = 1
    while lo < len(core) and not core[lo]:
        lo += 1
    return core[lo:]


def is_complete(c: Counts) -> bool:
    """Sets and one pair?"""
    suits = _suits(c)
    p = _pair_suit(suits)
    return p is not None and all(_suit_ok(g, base, i == p) for i, (g, base) in enumerate(zip(suits, SUIT_STARTS)))


@lru_cache(maxsize=SUIT_CACHE)
def _suit_waits(g: Counts, base: int, pair: bool) -> tuple[int, ...]:
    """The kinds of one suit that, added to `g`, let it be cut into sets (and a pair
    if `pair`). As in `_suit_ok`, a holding not seen before asks its trimmed counts,
    and keeps the waits the suit has room for on either side (a wait lies at most two
    kinds out): 234m waits on 1m and 5m, 789m on 6m alone."""
    lo, hi = _span(g)
    if lo == hi:
        return ()
    start = base + lo
    first, end = base, base + len(g)
    return tuple(start + k for k in _core_waits(g[lo:hi], base == HONOURS, pair) if first <= start + k < end)


@lru_cache(maxsize=SUIT_CACHE)
def _core_waits(core: Counts, honours: bool, pair: bool) -> tuple[int, ...]:
    """`_suit_waits` of trimmed counts, as offsets from their first kind, with room on
    both sides (the caller drops what its suit has no room for). Only a kind next to
    or one apart from a held one (the same one for honours) can join a set or a pair."""
    reach = 0 if honours else 2
    near = {k + d for k, n in enumerate(core) if n for d in range(-reach, reach + 1)}
    size = len(core)
    out = []
    for k in sorted(near):
        if k < 0:  # one or two kinds before the core: the tile and the gaps up to it lead
            if _core_ok((1,) + (0,) * (-k - 1) + core, honours, pair):
                out.append(k)
        elif k >= size:  # after it: the core, the gaps, the tile
            if _core_ok(core + (0,) * (k - size) + (1,), honours, pair):
                out.append(k)
        elif core[k] < 4 and _core_ok(core[:k] + (core[k] + 1,) + core[k + 1 :], honours, pair):  # inside it: the ends stay held, so the counts stay trimmed
            out.append(k)
    return tuple(out)


def _joins(rest: tuple[int, ...]) -> tuple[tuple[int, bool, itemgetter, tuple[int, ...], tuple[bool, ...]], ...]:
    """Where a tile can go in counts whose suits hold `rest` tiles more than a multiple
    of 3. Each suit must end with a multiple of 3 but the pair's suit (2 more): the tile
    joins a suit with 1 more (it then holds the pair) or one of two suits with 2 more
    (the other holds the pair). Each way: the suit joined, whether it holds the pair,
    and the other suits (picked, their first kinds, whether each holds the pair), which
    must be cut as they stand."""
    shape = sorted(rest)
    if shape == [0, 0, 0, 1]:
        ways = [(rest.index(1), rest.index(1))]  # (the suit the tile joins, the pair's suit)
    elif shape == [0, 0, 2, 2]:
        a = rest.index(2)
        b = rest.index(2, a + 1)
        ways = [(a, b), (b, a)]
    else:
        return ()
    out = []
    for target, pair in ways:
        others = [i for i in range(4) if i != target]
        bases = tuple(SUIT_STARTS[i] for i in others)
        out.append((target, target == pair, itemgetter(*others), bases, tuple(i == pair for i in others)))
    return tuple(out)


JOINS = {rest: _joins(rest) for rest in product(range(3), repeat=4)}  # suits' counts mod 3 -> where a tile can go


def _set_waits(before: Counts) -> tuple[int, ...] | set[int]:
    """Kinds that complete `before` as sets and a pair (`JOINS` says where a tile can go)."""
    suits = _suits(before)
    found: tuple[int, ...] | set[int] = ()
    for target, holds_pair, others, bases, pairs in JOINS[_rests(suits)]:
        if all(map(_suit_ok, others(suits), bases, pairs)):
            more = _suit_waits(suits[target], SUIT_STARTS[target], holds_pair)
            found = set(found).union(more) if found else more
    return found


def waits(before: Counts, held: Counts, special: Callable[[Counts], bool] | None = None) -> tuple[int, ...]:
    """Tile kinds that complete `before` (3n+1 standing tiles), as sets and a pair
    or, where the rule set has them, as a `special` shape.

    `held` counts every copy in the player's own hand and melds: a kind whose four
    copies are all there cannot be drawn, so it is no wait (RULINGS 4 ignores
    only tiles seen elsewhere on the table).
    """
    found = _set_waits(before)
    if special is not None:
        found = set(found)
        for k in range(KINDS):
            if k not in found and special(before[:k] + (before[k] + 1,) + before[k + 1 :]):
                found.add(k)
    if 4 in map(held.__getitem__, found):
        return tuple(sorted(k for k in found if held[k] < 4))
    return tuple(sorted(found))
