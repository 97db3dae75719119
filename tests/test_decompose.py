"""The decomposer and the wait finder against a brute-force search (hypothesis)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.decompose import CHOW, PUNG, is_complete, splits, waits
from scoring.tiles import KINDS

ALL_SETS = [(PUNG, k) for k in range(KINDS)] + [(CHOW, k) for k in range(27) if k % 9 <= 6]


def _tiles(shape: tuple[str, int]) -> list[int]:
    kind, t = shape
    return [t, t, t] if kind == PUNG else [t, t + 1, t + 2]


def brute_splits(c: tuple[int, ...]) -> set[tuple[int, tuple]]:
    """Every pair x multiset of sets whose tiles are exactly `c`."""
    n = (sum(c) - 2) // 3
    have = Counter({k: v for k, v in enumerate(c) if v})
    fitting = [s for s in ALL_SETS if all(have[t] >= _tiles(s).count(t) for t in _tiles(s))]
    found = set()
    for pair in [k for k in have if have[k] >= 2]:
        for combo in combinations_with_replacement(fitting, n):
            used = Counter([pair, pair] + [t for s in combo for t in _tiles(s)])
            if used == have:
                found.add((pair, tuple(sorted(combo))))
    return found


@st.composite
def small_hands(draw, extra_tile: bool = True):
    """A few sets and a pair in one or two suits, so brute force stays fast."""
    base = draw(st.sampled_from([0, 9, 18, 27]))
    width = 7 if base == 27 else 9
    n_sets = draw(st.integers(1, 3))
    c = [0] * KINDS
    for _ in range(n_sets + 1):
        k = base + draw(st.integers(0, width - 1))
        c[k] += 1
    while sum(c) < 3 * n_sets + 2:
        c[base + draw(st.integers(0, width - 1))] += 1
    if any(v > 4 for v in c):
        c = [min(v, 4) for v in c]
        c[base] += (3 * n_sets + 2) - sum(c)
    return tuple(c)


@st.composite
def winning_counts(draw):
    base = draw(st.sampled_from([0, 9, 18]))
    c = [0] * KINDS
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            t = base + draw(st.integers(0, 6))
            for k in (t, t + 1, t + 2):
                c[k] += 1
        else:
            c[base + draw(st.integers(0, 8))] += 3
    c[draw(st.sampled_from([base + i for i in range(9)] + [27, 33]))] += 2
    return tuple(c)


@settings(max_examples=300, deadline=None)
@given(small_hands())
def test_splits_match_brute_force(c):
    if any(v > 4 for v in c):
        return
    got = {(p, tuple(sorted(sets))) for p, sets in splits(c)}
    assert got == brute_splits(c)
    assert is_complete(c) == bool(got)


@settings(max_examples=300, deadline=None)
@given(winning_counts())
def test_splits_of_built_winning_hands_match_brute_force(c):
    if any(v > 4 for v in c):
        return
    assert is_complete(c)
    assert {(p, tuple(sorted(sets))) for p, sets in splits(c)} == brute_splits(c)


@settings(max_examples=200, deadline=None)
@given(winning_counts(), st.data())
def test_waits_are_exactly_the_kinds_that_complete(c, data):
    if any(v > 4 for v in c):
        return
    drop = data.draw(st.sampled_from([k for k in range(KINDS) if c[k]]))
    before = list(c)
    before[drop] -= 1
    before_t = tuple(before)
    expected = []
    for k in range(KINDS):
        if before_t[k] >= 4:
            continue
        after = list(before_t)
        after[k] += 1
        if brute_splits(tuple(after)):
            expected.append(k)
    assert list(waits(before_t, before_t)) == expected
    assert drop in expected
