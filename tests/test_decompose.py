"""The decomposer and the wait finder against a brute-force search (hypothesis).

Hands are drawn by hypothesis itself, set by set, so a failure shrinks to a small
hand: real 17-tile hands over several suits, some sets lying on the table as
chi, pon, kong or concealed kong, the rest standing.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.decompose import CHOW, PUNG, Shape, is_complete, splits, waits
from scoring.tiles import KINDS

CHOWS = [(CHOW, k) for k in range(27) if k % 9 <= 6]
PUNGS = [(PUNG, k) for k in range(KINDS)]


def _tiles(shape: Shape) -> list[int]:
    kind, t = shape
    return [t, t, t] if kind == PUNG else [t, t + 1, t + 2]


def _counts(tiles: list[int]) -> tuple[int, ...]:
    c = [0] * KINDS
    for t in tiles:
        c[t] += 1
    return tuple(c)


def brute_splits(c: tuple[int, ...]) -> set[tuple[int, tuple[Shape, ...]]]:
    """Every pair and multiset of sets whose tiles are exactly `c`: each pair, then
    every set that can take the lowest tile left, until nothing is left."""
    found = set()

    def cut(rest: Counter, sets: list[Shape], pair: int) -> None:
        if not +rest:
            found.add((pair, tuple(sorted(sets))))
            return
        low = min(t for t, n in rest.items() if n > 0)
        for shape in [s for s in CHOWS + PUNGS if low in _tiles(s)]:
            need = Counter(_tiles(shape))
            if all(rest[t] >= n for t, n in need.items()):
                cut(rest - need, sets + [shape], pair)

    have = Counter({k: n for k, n in enumerate(c) if n})
    for pair in [k for k, n in have.items() if n >= 2]:
        cut(have - Counter({pair: 2}), [], pair)
    return found


def brute_waits(before: tuple[int, ...], held: tuple[int, ...]) -> list[int]:
    """Every kind, not all four copies of it held, that completes `before` as sets and a pair."""
    return [k for k in range(KINDS) if held[k] < 4 and brute_splits(before[:k] + (before[k] + 1,) + before[k + 1 :])]


@st.composite
def hands(draw, suits: int = 4):
    """A winning 17-tile hand: five sets and a pair over `suits` suits (honours the
    fourth), each set drawn from the tiles still in the wall, so never a fifth copy.
    The first sets lie on the table (chi, pon, kong, concealed kong). Returns the
    standing counts and the counts on the table."""
    wall = Counter({k: 4 for k in range(KINDS) if k // 9 < suits})
    n_melds = draw(st.integers(0, 5))
    standing: list[int] = []
    on_table: list[int] = []
    for i in range(5):
        fitting = [s for s in CHOWS + PUNGS if all(wall[t] >= n for t, n in Counter(_tiles(s)).items())]
        assume(fitting)
        shape = draw(st.sampled_from(fitting))
        tiles = _tiles(shape)
        if i < n_melds:
            kinds = ["chi"] if shape[0] == CHOW else ["pon"] + (["kong", "ankong"] if wall[shape[1]] == 4 else [])
            if draw(st.sampled_from(kinds)) in ("kong", "ankong"):
                tiles = tiles + [shape[1]]
            on_table += tiles
        else:
            standing += tiles
        wall -= Counter(tiles)
    pairs = [k for k, n in wall.items() if n >= 2]
    assume(pairs)
    pair = draw(st.sampled_from(pairs))
    return _counts(standing + [pair, pair]), _counts(on_table)


@st.composite
def near_hands(draw):
    """A 3n+2 holding of one or two suits and the honours, not necessarily winning,
    with several splits or none: the shapes where a search goes wrong."""
    kinds = draw(st.lists(st.sampled_from(range(KINDS)), min_size=1, max_size=3, unique=True).map(sorted))
    size = 3 * draw(st.integers(1, 4)) + 2
    tiles = draw(st.lists(st.sampled_from([k for k in range(KINDS) if any(k // 9 == g // 9 for g in kinds)]), min_size=size, max_size=size))
    assume(max(Counter(tiles).values()) <= 4)
    return _counts(tiles)


def _split_set(c: tuple[int, ...]) -> set[tuple[int, tuple[Shape, ...]]]:
    got = [(p, tuple(sorted(sets))) for p, sets in splits(c)]
    assert len(got) == len(set(got)), "a split listed twice"
    return set(got)


@settings(max_examples=300, deadline=None)
@given(hands())
def test_every_split_of_a_winning_hand_is_found(hand):
    standing, _ = hand
    assert is_complete(standing)
    assert _split_set(standing) == brute_splits(standing)


@settings(max_examples=300, deadline=None)
@given(near_hands())
def test_splits_of_any_holding_match_brute_force(c):
    expected = brute_splits(c)
    assert _split_set(c) == expected
    assert is_complete(c) == bool(expected)


@settings(max_examples=200, deadline=None)
@given(hands(), st.data())
def test_waits_are_exactly_the_kinds_that_complete(hand, data):
    standing, on_table = hand
    win = data.draw(st.sampled_from([k for k in range(KINDS) if standing[k]]))
    before = standing[:win] + (standing[win] - 1,) + standing[win + 1 :]
    held = tuple(b + t for b, t in zip(before, on_table))
    expected = brute_waits(before, held)
    assert list(waits(before, held)) == expected
    assert win in expected


@settings(max_examples=100, deadline=None)
@given(hands(suits=1), st.data())
def test_waits_of_one_suit_hands_match_brute_force(hand, data):
    """One suit and many tiles standing: the hands with the most waits (九蓮寶燈 and kin)."""
    standing, on_table = hand
    win = data.draw(st.sampled_from([k for k in range(KINDS) if standing[k]]))
    before = standing[:win] + (standing[win] - 1,) + standing[win + 1 :]
    held = tuple(b + t for b, t in zip(before, on_table))
    assert list(waits(before, held)) == brute_waits(before, held)
