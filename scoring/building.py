"""From tiles laid out in groups to the tile keys of a hand object: one way for every source.

A winning hand lies on the table in groups: the standing tiles (手牌), the winning tile
set a little apart (胡牌), up to five melds (副露, a concealed kong 暗槓 with two or four
tiles face down) and the flowers laid aside (花). The layout reader, the app's
correction and typed notation all end here, so a hand is put together one way, and
what stops it (a meld that is no meld, a face-down standing tile, two winning tiles)
is named once, in the same words, wherever the tiles came from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .hand import HandError, parse_meld
from .tiles import TileError, code, format_flowers, format_tiles, kind_of, parse_flowers, parse_tiles

BACK = "back"  # a tile lying face down
CONCEALED, WINNING, FLOWERS, IGNORE = "concealed", "winning", "flowers", "ignore"
MAX_MELDS = 5
GROUPS = (CONCEALED, WINNING, *(f"meld {n}" for n in range(1, MAX_MELDS + 1)), FLOWERS, IGNORE)
GROUP_NAMES = {CONCEALED: "手牌 concealed", WINNING: "胡牌 winning", FLOWERS: "花 flowers", IGNORE: "不算 not this hand"}
CODES = (*(code(k) for k in range(34)), *(f"{n}f" for n in range(1, 9)), BACK)


@dataclass(frozen=True)
class Placed:
    """One tile as laid out: its kind (`3m`, `2f`, or `back` face down) and its group."""

    code: str
    group: str


@dataclass(frozen=True)
class Built:
    """The hand as far as the tiles make one, and what a player should look at.

    `problems` stop the hand being scored as laid out; `doubts` add what the scorer
    will refuse anyway (a count that is not 17, a fifth copy) and a missing winning tile."""

    hand: dict
    problems: tuple[str, ...]
    doubts: tuple[str, ...]


def group_label(group: str) -> str:
    """Chinese and English, as the page shows a group: `副露 1 meld 1`."""
    return GROUP_NAMES.get(group) or f"副露 {meld_number(group)} {group}"


def meld_number(group: str) -> int | None:
    """1 for `meld 1`; None for a group that is not a meld."""
    name, _, n = group.partition(" ")
    return int(n) if name == "meld" and n.isdigit() and int(n) >= 1 else None


def is_flower(code_: str) -> bool:
    return code_.endswith("f")


def meld_of(codes: list[str]) -> str | None:
    """The meld notation for 3-4 tiles as laid on the table (`pon 555p`), or None."""
    faces = [c for c in codes if c != BACK]
    backs = len(codes) - len(faces)
    if any(is_flower(c) for c in faces):
        return None
    if len(codes) == 4 and backs in (2, 4) and len(set(faces)) <= 1:
        return f"ankong {faces[0][0] * 4}{faces[0][1]}" if faces else None
    if backs or len(codes) not in (3, 4):
        return None
    kind = "chi" if len(set(codes)) > 1 else "pon" if len(codes) == 3 else "kong"
    try:
        return str(parse_meld(f"{kind} {format_tiles(parse_tiles(codes))}"))  # hand.py's one rule for a chi, pon or kong
    except HandError:
        return None


def _checked(tiles: Iterable[Placed]) -> list[Placed]:
    out = list(tiles)
    for t in out:
        if t.code not in CODES:
            raise HandError(f"no such tile: {t.code!r} (write tiles as 3m, 7z, 2f or back)")
        if t.group not in GROUPS and meld_number(t.group) is None:
            raise HandError(f"no such group: {t.group!r} (one of {', '.join(GROUPS)})")
    return out


def build(tiles: Iterable[Placed]) -> Built:
    """Put the hand together; never guesses: what does not fit is named, not mended."""
    tiles = _checked(tiles)
    by_group: dict[str, list[str]] = {}
    for t in tiles:
        by_group.setdefault(t.group, []).append(t.code)
    problems: list[str] = []
    standing = by_group.get(CONCEALED, []) + by_group.get(WINNING, [])
    flowers = by_group.get(FLOWERS, [])
    for c, n in sorted(Counter(flowers).items()):
        if n > 1:
            problems.append(f"flower {c} seen {n} times: the set has one")
    if any(not is_flower(c) for c in flowers):
        problems.append(f"only flowers belong with the flowers: {' '.join(c for c in flowers if not is_flower(c))}")
    stray = [c for g, codes in by_group.items() if g not in (FLOWERS, IGNORE) for c in codes if is_flower(c)]
    if stray:
        problems.append(f"flower {' '.join(stray)} among the hand's tiles: flowers are laid aside")
    melds: list[str] = []
    meld_groups = sorted((meld_number(g), codes) for g, codes in by_group.items() if meld_number(g) is not None)
    for n, codes in meld_groups:
        m = meld_of(codes)
        if m is None:
            problems.append(f"meld {n} ({' '.join(codes)}) is not a chi, pon, kong or concealed kong")
        else:
            melds.append(m)
    if len(meld_groups) > MAX_MELDS:
        problems.append(f"{len(meld_groups)} melds: a hand has at most {MAX_MELDS}")
    if BACK in standing:
        problems.append("a face-down tile among the standing tiles: turn it up or set its kind")
    winning = by_group.get(WINNING, [])
    if len(winning) > 1:
        problems.append(f"{len(winning)} tiles marked winning ({' '.join(winning)}): a hand wins on one")
    faces = [c for c in standing if c != BACK and not is_flower(c)]
    hand: dict = {
        "concealed": format_tiles(parse_tiles(faces)),
        "melds": melds,
        "flowers": format_flowers(tuple({int(c[0]) for c in flowers if is_flower(c)})),
    }
    doubts = list(problems)
    if len(winning) == 1 and winning[0] != BACK and not is_flower(winning[0]):
        hand["winning_tile"] = winning[0]
    elif not winning:
        doubts.append("the winning tile is not set apart from the row: mark it")
    count = len(faces) + 3 * len(melds)
    if count != 17:
        doubts.append(f"{count} tiles read (kongs count 3); a winning hand has 17")
    seen = Counter(faces)
    for m in melds:
        seen.update(code(k) for k in parse_meld(m).tiles)
    doubts += [f"{n} copies of {c} read: the set has four" for c, n in sorted(seen.items()) if n > 4]
    return Built(hand, tuple(problems), tuple(doubts))


def hand_of(tiles: Iterable[Placed]) -> dict:
    """The tile keys of a hand object, or HandError naming the first thing to fix."""
    built = build(tiles)
    if built.problems:
        raise HandError(built.problems[0])
    return built.hand


def laid_out(meld: str) -> list[str]:
    """A meld's tiles as they lie on the table: a concealed kong shows its two middle tiles."""
    m = parse_meld(meld)
    codes = [code(k) for k in m.tiles]
    return [BACK, codes[1], codes[2], BACK] if m.kind == "ankong" else codes


def from_notation(concealed: str, winning: str = "", melds: str = "", flowers: str = "") -> tuple[Placed, ...]:
    """Typed tiles (`123m55p`, `4m`, `pon 555p, chi 234s`, `15f`) laid out as groups;
    HandError names the first thing that is not notation, nothing is taken on a guess."""
    try:
        kinds = list(parse_tiles(concealed))
        win = kind_of(winning.strip()) if winning.strip() else None
        flower_numbers = parse_flowers(flowers)
    except TileError as e:
        raise HandError(str(e)) from None
    out: list[Placed] = []
    if win is not None:
        if win not in kinds:
            raise HandError(f"winning tile {code(win)} is not among the concealed tiles (type them with the winning tile included)")
        kinds.remove(win)
    out += [Placed(code(k), CONCEALED) for k in kinds]
    if win is not None:
        out.append(Placed(code(win), WINNING))
    typed = [m.strip() for m in melds.split(",") if m.strip()]
    if len(typed) > MAX_MELDS:
        raise HandError(f"{len(typed)} melds typed: a hand has at most {MAX_MELDS}")
    for n, meld in enumerate(typed, start=1):
        out += [Placed(c, f"meld {n}") for c in laid_out(meld)]
    out += [Placed(f"{f}f", FLOWERS) for f in flower_numbers]
    return tuple(out)
