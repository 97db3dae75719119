"""Patterns of the `hk-taiwan` 番 table (seed 000, with seed 004's 叮 and 即食)."""

from __future__ import annotations

from collections import Counter

from .decompose import CHOW
from .patterns import Result, _has_honour, _menqing, _pung_of, pattern
from .reading import CLOSED, EDGE, PAIR_WAIT, SINGLE, Reading
from .tiles import DRAGONS, PLANTS, SEASONS, SEAT_FLOWERS, WIND_TILES, is_honour, is_terminal, wind_tile


def _chows(r: Reading) -> Counter:
    return Counter(s.tile for s in r.sets if s.shape == CHOW)


def _standard(r: Reading) -> bool:
    return r.special is None and r.pair is not None


def _hidden_pungs(r: Reading) -> int:
    """暗刻 for hk-taiwan: concealed pungs, and every kong (明、暗槓亦視為暗刻)."""
    return sum(1 for s in r.sets if s.is_pung and (s.concealed or s.shape == "kong"))


@pattern
def false_single(r: Reading) -> Result:
    """假獨: a single-tile shape used for the win while two or more kinds completed the hand."""
    return int(r.wait in (SINGLE, EDGE, CLOSED) and len(r.waits) >= 2)


@pattern
def pair_wait(r: Reading) -> Result:
    return int(r.wait == PAIR_WAIT)


@pattern
def pair_258(r: Reading) -> Result:
    return int(r.pair is not None and r.pair < 27 and r.pair % 9 in (1, 4, 7) and _standard(r))


@pattern
def double_replacement(r: Reading) -> Result:
    return int(r.hand.self_drawn and r.event("double_replacement"))


@pattern
def replacement_only(r: Reading) -> Result:
    return int(r.hand.self_drawn and r.event("replacement"))


@pattern
def declared_ready(r: Reading) -> Result:
    return int(r.event("ready"))


@pattern
def ready_one_round(r: Reading) -> Result:
    return int(r.event("ready_one_round"))


@pattern
def last_discard(r: Reading) -> Result:
    return int(r.event("last_discard") and not r.hand.self_drawn)


@pattern
def no_honours(r: Reading) -> Result:
    return int(not _has_honour(r))


@pattern
def no_flowers(r: Reading) -> Result:
    return int(not r.hand.flowers)


@pattern
def no_honours_no_flowers(r: Reading) -> Result:
    return int(not _has_honour(r) and not r.hand.flowers)


@pattern
def exposed_kongs(r: Reading) -> Result:
    return sum(1 for m in r.hand.melds if m.kind == "kong")


@pattern
def concealed_kongs(r: Reading) -> Result:
    return sum(1 for m in r.hand.melds if m.kind == "ankong")


@pattern
def flowers_by_seat(r: Reading) -> Result:
    """花 1 each, and 1 more for the winner's own seat flowers (另計位置)."""
    own = sum(1 for f in r.hand.flowers if f in SEAT_FLOWERS[r.hand.seat])
    return len(r.hand.flowers) + own


def _full_group(r: Reading) -> bool:
    have = set(r.hand.flowers)
    return set(SEASONS) <= have or set(PLANTS) <= have


@pattern
def flower_grass(r: Reading) -> Result:
    """一台草: flowers numbered 1-4 (either group) not all from one group."""
    have = set(r.hand.flowers)
    return int(all(n in have or n + 4 in have for n in SEASONS) and not _full_group(r))


@pattern
def flower_set(r: Reading) -> Result:
    """一台花: all four of one group."""
    return int(_full_group(r))


@pattern
def seven_flowers(r: Reading) -> Result:
    return int(len(r.hand.flowers) == 7)


@pattern
def wind_pungs_by_seat(r: Reading) -> Result:
    """東南西北 1 each, and 1 more for the winner's seat wind (另計位置)."""
    n = sum(1 for w in WIND_TILES if _pung_of(r, w))
    return n + int(_pung_of(r, wind_tile(r.hand.seat)))


@pattern
def big_pinghu(r: Reading) -> Result:
    return int(len(r.chows) == 5 and not _has_honour(r) and not r.hand.flowers)


@pattern
def chicken(r: Reading) -> Result:
    """大雞: the rule set adds it only when nothing else scored (a fallback item)."""
    return 1


def _wind_pungs(r: Reading) -> int:
    return sum(1 for w in WIND_TILES if _pung_of(r, w))


@pattern
def small_three_winds(r: Reading) -> Result:
    return int(_wind_pungs(r) == 2 and r.pair in WIND_TILES)


@pattern
def big_three_winds(r: Reading) -> Result:
    return int(_wind_pungs(r) >= 3)


@pattern
def missing_suit(r: Reading) -> Result:
    return int(len(r.suits) == 2 and not _has_honour(r))


@pattern
def five_gates(r: Reading) -> Result:
    return int(len(r.suits) == 3 and bool(r.kinds & set(WIND_TILES)) and bool(r.kinds & set(DRAGONS)))


def _hidden_ladder(n: int):
    def fn(r: Reading) -> Result:
        return int(_hidden_pungs(r) >= n)

    fn.__name__ = f"hidden_pungs_{n}"
    return pattern(fn)


for _n in (2, 3, 4, 5):
    _hidden_ladder(_n)


@pattern
def all_hidden_pungs_self_drawn(r: Reading) -> Result:
    """間間胡: five 暗刻 and self-drawn."""
    return int(_hidden_pungs(r) == 5 and r.hand.self_drawn)


def _outside(tiles: tuple[int, ...]) -> bool:
    return any(is_honour(t) or is_terminal(t) for t in tiles)


@pattern
def all_simples(r: Reading) -> Result:
    return int(not any(is_honour(t) or is_terminal(t) for t in r.kinds))


@pattern
def half_outside(r: Reading) -> Result:
    """半帶么: every set and the pair hold an honour or a terminal, with some honour."""
    return int(_standard(r) and _has_honour(r) and all(_outside(s.tiles) for s in r.sets) and _outside((r.pair,)))


@pattern
def full_outside(r: Reading) -> Result:
    """全帶么: every set and the pair hold a terminal, no honour."""
    ok = _standard(r) and not _has_honour(r)
    return int(ok and all(any(is_terminal(t) for t in s.tiles) for s in r.sets) and is_terminal(r.pair))


@pattern
def honours_and_terminals(r: Reading) -> Result:
    """混么: pungs and a pair of honours and terminals only, honours included."""
    return int(len(r.pungs) == 5 and _has_honour(r) and all(is_honour(t) or is_terminal(t) for t in r.kinds))


@pattern
def terminal_pungs_only(r: Reading) -> Result:
    """青么: pungs and a pair of terminals only."""
    return int(len(r.pungs) == 5 and all(is_terminal(t) for t in r.kinds))


@pattern
def thirteen_orphans_open(r: Reading) -> Result:
    return int(r.special == "thirteen_orphans")


@pattern
def thirteen_orphans_hidden(r: Reading) -> Result:
    return int(r.special == "thirteen_orphans" and all(s.concealed for s in r.sets) and _menqing(r))


@pattern
def eight_pairs(r: Reading) -> Result:
    return int(r.special == "eight_pairs")


@pattern
def sixteen_unrelated(r: Reading) -> Result:
    return int(r.special == "sixteen_unrelated")


@pattern
def three_unrelated(r: Reading) -> Result:
    """三不搭: a 十六不搭 whose three suits use the same numbers."""
    if r.special != "sixteen_unrelated":
        return 0
    nums = [frozenset(t % 9 for t in r.kinds if t // 9 == s) for s in range(3)]
    return int(nums[0] == nums[1] == nums[2])


def _pool_within(r: Reading, n: int) -> bool:
    return 0 < len(r.hand.pool) <= n


@pattern
def five_discards(r: Reading) -> Result:
    return int(_pool_within(r, 5))


@pattern
def seven_discards(r: Reading) -> Result:
    return int(_pool_within(r, 7))


@pattern
def ten_discards(r: Reading) -> Result:
    return int(_pool_within(r, 10))


@pattern
def double_win(r: Reading) -> Result:
    return int(r.event("double_win"))


@pattern
def triple_win(r: Reading) -> Result:
    return int(r.event("triple_win"))


@pattern
def same_chow_2(r: Reading) -> Result:
    """一般高: two identical chows (same suit, same numbers)."""
    return int(any(n >= 2 for n in _chows(r).values()))


@pattern
def same_chow_3(r: Reading) -> Result:
    return int(any(n >= 3 for n in _chows(r).values()))


@pattern
def same_chow_4(r: Reading) -> Result:
    return int(any(n >= 4 for n in _chows(r).values()))


@pattern
def two_same_chows(r: Reading) -> Result:
    """雙般高: two different 一般高."""
    return int(sum(1 for n in _chows(r).values() if n >= 2) >= 2)


def _number_suits(r: Reading, pungs: bool) -> Counter:
    """How many suits hold a chow (or a pung) starting at each number."""
    starts = {(s.tile % 9, s.tile // 9) for s in r.sets if s.tile < 27 and (s.is_pung if pungs else s.shape == CHOW)}
    return Counter(n for n, _ in starts)


@pattern
def mixed_chow_2(r: Reading) -> Result:
    """兩相逢: the same chow in two suits."""
    return int(any(n >= 2 for n in _number_suits(r, False).values()))


@pattern
def mixed_chow_two_pairs(r: Reading) -> Result:
    """雙小花: two different 兩相逢."""
    return int(sum(1 for n in _number_suits(r, False).values() if n >= 2) >= 2)


@pattern
def mixed_chow_3(r: Reading) -> Result:
    return int(any(n >= 3 for n in _number_suits(r, False).values()))


@pattern
def brothers_2(r: Reading) -> Result:
    """兩兄弟: pungs of one number in two suits."""
    return int(any(n >= 2 for n in _number_suits(r, True).values()))


@pattern
def brothers_3(r: Reading) -> Result:
    return int(any(n >= 3 for n in _number_suits(r, True).values()))


@pattern
def consecutive_pungs(r: Reading) -> Result:
    """太般碰: three pungs in a row of one suit."""
    p = r.pung_tiles
    return int(any(t < 27 and t % 9 <= 6 and t + 1 in p and t + 2 in p for t in p))


def _per_suit(r: Reading, pungs: bool, low: int, high: int) -> int:
    own = {s.tile for s in r.sets if (s.is_pung if pungs else s.shape == CHOW)}
    return sum(1 for suit in range(3) if suit * 9 + low in own and suit * 9 + high in own)


@pattern
def terminal_chows(r: Reading) -> Result:
    """老少上: 123 and 789 of one suit."""
    return int(_per_suit(r, False, 0, 6) >= 1)


@pattern
def double_terminal_chows(r: Reading) -> Result:
    return int(_per_suit(r, False, 0, 6) >= 2)


@pattern
def terminal_pung_pair(r: Reading) -> Result:
    """老少碰: 111 and 999 of one suit."""
    return int(_per_suit(r, True, 0, 8) >= 1)


@pattern
def double_terminal_pung_pair(r: Reading) -> Result:
    return int(_per_suit(r, True, 0, 8) >= 2)


def _straight(r: Reading, hidden: bool, suits_needed: int | None) -> bool:
    """123 + 456 + 789: of one suit (suits_needed None), or of exactly 2 or 3 different suits."""
    chows = [s for s in r.sets if s.shape == CHOW and (s.concealed and not s.called or not hidden)]
    by_start = {(s.tile % 9, s.tile // 9) for s in chows}
    if suits_needed is None:
        return any(all((n, suit) in by_start for n in (0, 3, 6)) for suit in range(3))
    for a in range(3):
        for b in range(3):
            for c in range(3):
                if (0, a) in by_start and (3, b) in by_start and (6, c) in by_start and len({a, b, c}) == suits_needed:
                    return True
    return False


@pattern
def pure_straight(r: Reading) -> Result:
    return int(_straight(r, False, None))


@pattern
def pure_straight_hidden(r: Reading) -> Result:
    return int(_straight(r, True, None))


@pattern
def mixed_straight(r: Reading) -> Result:
    return int(_straight(r, False, 3))


@pattern
def mixed_straight_hidden(r: Reading) -> Result:
    return int(_straight(r, True, 3))


@pattern
def two_suit_straight(r: Reading) -> Result:
    return int(_straight(r, False, 2))


def _four_uses(r: Reading) -> list[tuple[str, int]]:
    """Tiles whose four copies are spread over sets and the pair (not a kong): 四歸."""
    out = []
    for t in r.kinds:
        if any(s.shape == "kong" and s.tile == t for s in r.sets):
            continue
        in_chows = sum(1 for s in r.sets if s.shape == CHOW and s.tile <= t <= s.tile + 2)
        pung = any(s.shape == "pung" and s.tile == t for s in r.sets)
        pair = r.pair == t
        if pung and in_chows == 1:
            out.append(("pung_chow", t))
        elif pair and in_chows == 2:
            out.append(("two_chows_pair", t))
        elif in_chows == 4:
            out.append(("four_chows", t))
    return out


def _four(kind: str, concealed: bool):
    def fn(r: Reading) -> Result:
        if _standard(r) and (not r.hand.melds) == concealed:
            return sum(1 for k, _ in _four_uses(r) if k == kind)
        return 0

    fn.__name__ = f"four_{kind}_{'concealed' if concealed else 'open'}"
    return pattern(fn)


for _kind in ("pung_chow", "two_chows_pair", "four_chows"):
    for _concealed in (True, False):
        _four(_kind, _concealed)
