"""Patterns of the `hk-taiwan` 番 table (seed 000, with seed 004's 叮 and 即食).

Each function is named exactly as its item id in `rulesets/hk-taiwan.json`; the
rows it shares with the 台 tables (自摸, 門前清, 獨獨 ...) are in `patterns.py`."""

from __future__ import annotations

from collections import Counter

from .decompose import CHOW
from .facts import PLANT_SET, SEASON_SET, flower_group, on_event, on_flowers, on_honour, on_pungs, pung_of, standard, wind_pungs
from .patterns import Result
from .reading import CLOSED, EDGE, PAIR_WAIT, SINGLE, Reading
from .tiles import DRAGONS, SEASONS, SEAT_FLOWERS, WIND_TILE, WIND_TILES, is_honour, is_terminal, name


def _chows(r: Reading) -> Counter:
    return Counter(s.tile for s in r.sets if s.shape == CHOW)


def _hidden_pungs(r: Reading) -> int:
    """暗刻 for hk-taiwan: concealed pungs, and every kong (明、暗槓亦視為暗刻)."""
    return sum(1 for s in r.sets if s.is_pung and (s.concealed or s.shape == "kong"))


def _at_least_hidden(r: Reading, n: int) -> Result:
    """1 with the count said aloud when the hand holds n or more 暗刻 (the ladder's rows)."""
    have = _hidden_pungs(r)
    return (1, f"{have} 暗刻") if have >= n else 0


def false_single(r: Reading) -> Result:
    """假獨: a single-tile shape used for the win while two or more kinds completed the hand."""
    return int(r.wait in (SINGLE, EDGE, CLOSED) and len(r.waits) >= 2)


def pair_wait(r: Reading) -> Result:
    return int(r.wait == PAIR_WAIT)


def pair_258(r: Reading) -> Result:
    return int(r.pair is not None and r.pair < 27 and r.pair % 9 in (1, 4, 7) and standard(r))


@on_event
def double_replacement_win(r: Reading) -> Result:
    return int(r.hand.self_drawn and "double_replacement" in r.hand.events)


@on_event
def replacement_win(r: Reading) -> Result:
    return int(r.hand.self_drawn and "replacement" in r.hand.events)


@on_event
def ready(r: Reading) -> Result:
    return int("ready" in r.hand.events)


@on_event
def ready_one_round(r: Reading) -> Result:
    return int("ready_one_round" in r.hand.events)


@on_event
def last_discard(r: Reading) -> Result:
    return int("last_discard" in r.hand.events and not r.hand.self_drawn)


def no_honours(r: Reading) -> Result:
    return int(not r.has_honour)


def no_flowers(r: Reading) -> Result:
    return int(not r.hand.flowers)


def no_honours_no_flowers(r: Reading) -> Result:
    return int(not r.has_honour and not r.hand.flowers)


def exposed_kong(r: Reading) -> Result:
    return sum(1 for m in r.hand.melds if m.kind == "kong")


def concealed_kong(r: Reading) -> Result:
    return sum(1 for m in r.hand.melds if m.kind == "ankong")


@on_flowers
def flowers(r: Reading) -> Result:
    """花 1 each, and 1 more for the winner's own seat flowers (另計位置)."""
    own = sum(1 for f in r.hand.flowers if f in SEAT_FLOWERS[r.hand.seat])
    return len(r.hand.flowers) + own


def _full_group(r: Reading) -> bool:
    return flower_group(r, SEASON_SET) or flower_group(r, PLANT_SET)


@on_flowers
def flower_grass(r: Reading) -> Result:
    """一台草: flowers numbered 1-4 (either group) not all from one group."""
    have = set(r.hand.flowers)
    return int(all(n in have or n + 4 in have for n in SEASONS) and not _full_group(r))


@on_flowers
def flower_set(r: Reading) -> Result:
    """一台花: all four of one group."""
    return int(_full_group(r))


@on_flowers
def seven_flowers(r: Reading) -> Result:
    return int(len(r.hand.flowers) == 7)


@on_honour
def wind_pung(r: Reading) -> Result:
    """東南西北 1 each, and 1 more for the winner's seat wind (另計位置)."""
    return wind_pungs(r) + int(pung_of(r, WIND_TILE[r.hand.seat]))


def big_pinghu(r: Reading) -> Result:
    return int(len(r.chows) == 5 and not r.has_honour and not r.hand.flowers)


def chicken(r: Reading) -> Result:
    """大雞: always there; the rule set pays it instead of a hand worth exactly 1 番 (when_total)."""
    return 1


@on_honour
def small_three_winds(r: Reading) -> Result:
    return int(wind_pungs(r) == 2 and r.pair in WIND_TILES)


@on_honour
def big_three_winds(r: Reading) -> Result:
    return int(wind_pungs(r) >= 3)


def missing_suit(r: Reading) -> Result:
    return int(len(r.suits) == 2 and not r.has_honour)


@on_honour
def five_gates(r: Reading) -> Result:
    return int(len(r.suits) == 3 and not r.kinds.isdisjoint(WIND_TILES) and not r.kinds.isdisjoint(DRAGONS))


def hidden_pungs_2(r: Reading) -> Result:
    """兩暗刻: two 暗刻; every kong counts (明、暗槓亦視為暗刻)."""
    return _at_least_hidden(r, 2)


@on_pungs
def hidden_pungs_3(r: Reading) -> Result:
    """三暗刻: three 暗刻; the 16 tiles before a discard win decide (RULINGS 2)."""
    return _at_least_hidden(r, 3)


@on_pungs
def hidden_pungs_4(r: Reading) -> Result:
    """四暗刻: four 暗刻."""
    return _at_least_hidden(r, 4)


@on_pungs
def hidden_pungs_5(r: Reading) -> Result:
    """五暗刻: five 暗刻; self-drawn it is 間間胡 instead."""
    return _at_least_hidden(r, 5)


@on_pungs
def all_hidden_self_drawn(r: Reading) -> Result:
    """間間胡: five 暗刻 and self-drawn."""
    return int(_hidden_pungs(r) == 5 and r.hand.self_drawn)


def _outside(tiles: tuple[int, ...]) -> bool:
    return any(is_honour(t) or is_terminal(t) for t in tiles)


def all_simples(r: Reading) -> Result:
    return int(not any(is_honour(t) or is_terminal(t) for t in r.kinds))


@on_honour
def half_outside(r: Reading) -> Result:
    """半帶么: every set and the pair hold an honour or a terminal, with some honour."""
    return int(standard(r) and r.has_honour and all(_outside(s.tiles) for s in r.sets) and _outside((r.pair,)))


def full_outside(r: Reading) -> Result:
    """全帶么: every set and the pair hold a terminal, no honour."""
    ok = standard(r) and not r.has_honour
    return int(ok and all(any(is_terminal(t) for t in s.tiles) for s in r.sets) and is_terminal(r.pair))


@on_honour
def honours_and_terminals(r: Reading) -> Result:
    """混么: pungs and a pair of honours and terminals only, honours included."""
    return int(len(r.pungs) == 5 and r.has_honour and all(is_honour(t) or is_terminal(t) for t in r.kinds))


@on_pungs
def terminal_pungs_only(r: Reading) -> Result:
    """青么: pungs and a pair of terminals only."""
    return int(len(r.pungs) == 5 and all(is_terminal(t) for t in r.kinds))


def thirteen_orphans_open(r: Reading) -> Result:
    return int(r.special == "thirteen_orphans")


def thirteen_orphans_hidden(r: Reading) -> Result:
    return int(r.special == "thirteen_orphans" and all(s.concealed for s in r.sets) and r.concealed)


def eight_pairs(r: Reading) -> Result:
    return int(r.special == "eight_pairs")


def sixteen_unrelated(r: Reading) -> Result:
    return int(r.special == "sixteen_unrelated")


def three_unrelated(r: Reading) -> Result:
    """三不搭: a 十六不搭 whose three suits use the same numbers."""
    if r.special != "sixteen_unrelated":
        return 0
    nums = [frozenset(t % 9 for t in r.kinds if t // 9 == s) for s in range(3)]
    return int(nums[0] == nums[1] == nums[2])


def _pool_within(r: Reading, n: int) -> bool:
    return 0 < len(r.hand.pool) <= n


def five_discards(r: Reading) -> Result:
    return int(_pool_within(r, 5))


def seven_discards(r: Reading) -> Result:
    return int(_pool_within(r, 7))


def ten_discards(r: Reading) -> Result:
    return int(_pool_within(r, 10))


@on_event
def double_win(r: Reading) -> Result:
    return int("double_win" in r.hand.events)


@on_event
def triple_win(r: Reading) -> Result:
    return int("triple_win" in r.hand.events)


def same_chow_2(r: Reading) -> Result:
    """一般高: two identical chows (same suit, same numbers)."""
    return int(any(n >= 2 for n in _chows(r).values()))


def same_chow_3(r: Reading) -> Result:
    return int(any(n >= 3 for n in _chows(r).values()))


def same_chow_4(r: Reading) -> Result:
    return int(any(n >= 4 for n in _chows(r).values()))


def two_same_chows(r: Reading) -> Result:
    """雙般高: two different 一般高."""
    return int(sum(1 for n in _chows(r).values() if n >= 2) >= 2)


def _number_suits(r: Reading, pungs: bool) -> Counter:
    """How many suits hold a chow (or a pung) starting at each number."""
    starts = {(s.tile % 9, s.tile // 9) for s in r.sets if s.tile < 27 and (s.is_pung if pungs else s.shape == CHOW)}
    return Counter(n for n, _ in starts)


def mixed_chow_2(r: Reading) -> Result:
    """兩相逢: the same chow in two suits."""
    return int(any(n >= 2 for n in _number_suits(r, False).values()))


def mixed_chow_two_pairs(r: Reading) -> Result:
    """雙小花: two different 兩相逢."""
    return int(sum(1 for n in _number_suits(r, False).values() if n >= 2) >= 2)


def mixed_chow_3(r: Reading) -> Result:
    return int(any(n >= 3 for n in _number_suits(r, False).values()))


def brothers_2(r: Reading) -> Result:
    """兩兄弟: pungs of one number in two suits."""
    return int(any(n >= 2 for n in _number_suits(r, True).values()))


@on_pungs
def brothers_3(r: Reading) -> Result:
    return int(any(n >= 3 for n in _number_suits(r, True).values()))


@on_pungs
def consecutive_pungs(r: Reading) -> Result:
    """太般碰: three pungs in a row of one suit."""
    p = r.pung_tiles
    return int(any(t < 27 and t % 9 <= 6 and t + 1 in p and t + 2 in p for t in p))


def _per_suit(r: Reading, pungs: bool, low: int, high: int) -> int:
    own = {s.tile for s in r.sets if (s.is_pung if pungs else s.shape == CHOW)}
    return sum(1 for suit in range(3) if suit * 9 + low in own and suit * 9 + high in own)


def terminal_chows(r: Reading) -> Result:
    """老少上: 123 and 789 of one suit."""
    return int(_per_suit(r, False, 0, 6) >= 1)


def double_terminal_chows(r: Reading) -> Result:
    return int(_per_suit(r, False, 0, 6) >= 2)


def terminal_pung_pair(r: Reading) -> Result:
    """老少碰: 111 and 999 of one suit."""
    return int(_per_suit(r, True, 0, 8) >= 1)


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


def pure_straight(r: Reading) -> Result:
    return int(_straight(r, False, None))


def pure_straight_hidden(r: Reading) -> Result:
    return int(_straight(r, True, None))


def mixed_straight(r: Reading) -> Result:
    return int(_straight(r, False, 3))


def mixed_straight_hidden(r: Reading) -> Result:
    return int(_straight(r, True, 3))


def two_suit_straight(r: Reading) -> Result:
    return int(_straight(r, False, 2))


def _four_uses(r: Reading) -> list[tuple[str, int]]:
    """Tiles whose four copies are spread over sets and the pair (not a kong): 四歸."""
    out = []
    for t in sorted(r.kinds):  # kind order: the note names them as a player reads the hand
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


def _four(r: Reading, kind: str, nothing_on_table: bool) -> Result:
    """The tiles that spread their four copies the `kind` way, in a hand without (or
    with) melds on the table: the 無牌落地 / 有牌落地 rows. The note names the tiles."""
    if not standard(r) or bool(r.hand.melds) == nothing_on_table:
        return 0
    tiles = [t for k, t in _four_uses(r) if k == kind]
    return (len(tiles), "".join(name(t) for t in tiles)) if tiles else 0


def four_pung_chow_concealed(r: Reading) -> Result:
    """四歸一 (seed: 123、333 無牌落地): a pung and a chow share a tile's four copies,
    nothing on the table."""
    return _four(r, "pung_chow", True)


def four_pung_chow_open(r: Reading) -> Result:
    """四歸二: 四歸一 with melds on the table."""
    return _four(r, "pung_chow", False)


def four_two_chows_pair_concealed(r: Reading) -> Result:
    """四歸三 (seed: 123、234、33 無牌落地): two chows and the pair share the four copies."""
    return _four(r, "two_chows_pair", True)


def four_two_chows_pair_open(r: Reading) -> Result:
    """四歸三 with melds on the table (有牌落地)."""
    return _four(r, "two_chows_pair", False)


def four_four_chows_concealed(r: Reading) -> Result:
    """四歸四 (seed: 123、234、234、345 無牌落地): four chows hold the four copies.

    The seed adds 但未計一般高: the two 234 chows score 一般高 on their own row.
    """
    return _four(r, "four_chows", True)


def four_four_chows_open(r: Reading) -> Result:
    """四歸四 with melds on the table (有牌落地)."""
    return _four(r, "four_chows", False)
