"""Winning shapes that are not five sets and a pair (hk-taiwan, seed 000):
十三么 with an extra set, 嚦咕嚦咕 (eight pairs and one more), 十六不搭."""

from __future__ import annotations

from .decompose import CHOW, PUNG, Shape
from .tiles import KINDS

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONOURS = tuple(range(27, 34))

# A special reading: the shape's name, its pair, a set if the shape has one, and the set's
# origin (None: standing in the hand; a meld's index otherwise).
Special = tuple[str, int, Shape | None]


def _orphans_rest(c: list[int]) -> int | None:
    """The doubled orphan when `c` is exactly the 13 orphans plus one of them."""
    if sum(c) != 14 or any(c[k] == 0 for k in ORPHANS) or any(c[k] for k in range(KINDS) if k not in ORPHANS):
        return None
    doubled = [k for k in ORPHANS if c[k] == 2]
    return doubled[0] if len(doubled) == 1 else None


def thirteen_orphans(standing: tuple[int, ...], called: int) -> list[Special]:
    """十三么: the 13 orphans, one doubled as the pair, and any one set (called or standing)."""
    c = list(standing)
    if called == 1:
        pair = _orphans_rest(c)
        return [("thirteen_orphans", pair, None)] if pair is not None else []
    if called:
        return []
    found = []
    for k in range(KINDS):
        shapes = [(PUNG, k)] + ([(CHOW, k)] if k < 27 and k % 9 <= 6 else [])
        for shape, t in shapes:
            tiles = [t] * 3 if shape == PUNG else [t, t + 1, t + 2]
            rest = list(c)
            for x in tiles:
                rest[x] -= 1
            if min(rest) >= 0 and (pair := _orphans_rest(rest)) is not None:
                found.append(("thirteen_orphans", pair, (shape, t)))
    return found


def eight_pairs(standing: tuple[int, ...], called: int) -> list[Special]:
    """嚦咕嚦咕: eight pairs and a third tile of one of them; concealed only."""
    if called or sum(standing) != 17:
        return []
    odd = [k for k in range(KINDS) if standing[k] % 2]
    if len(odd) != 1 or standing[odd[0]] != 3:
        return []
    return [("eight_pairs", odd[0], None)]


def sixteen_unrelated(standing: tuple[int, ...], called: int) -> list[Special]:
    """十六不搭: the seven honours, three unrelated tiles of each suit, one doubled as the pair."""
    if called or sum(standing) != 17:
        return []
    if any(standing[k] == 0 for k in HONOURS) or any(v > 2 for v in standing):
        return []
    doubled = [k for k in range(KINDS) if standing[k] == 2]
    if len(doubled) != 1:
        return []
    for suit in range(3):
        nums = [n for n in range(9) if standing[suit * 9 + n]]
        if len(nums) != 3 or any(b - a < 3 for a, b in zip(nums, nums[1:])):
            return []
    return [("sixteen_unrelated", doubled[0], None)]


SHAPES = {"thirteen_orphans": thirteen_orphans, "eight_pairs": eight_pairs, "sixteen_unrelated": sixteen_unrelated}


def specials(standing: tuple[int, ...], called: int, names: tuple[str, ...]) -> list[Special]:
    return [s for name in names for s in SHAPES[name](standing, called)]
