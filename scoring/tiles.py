"""Tile notation of RULINGS: `1m`..`9m`, `1p`..`9p`, `1s`..`9s`, `1z`..`7z`, `1f`..`8f`.

Tiles are kept as kind indices 0..33 (m 0-8, p 9-17, s 18-26, z 27-33) so that a
hand is a count vector; flowers are their own numbers 1..8 because they never
take part in sets.
"""

from __future__ import annotations

import re

KINDS = 34
SUITS = "mps"
WINDS = "ESWN"

SUIT_NAMES = {"m": "萬", "p": "筒", "s": "條"}
HONOUR_NAMES = ("東", "南", "西", "北", "白", "發", "中")
FLOWER_NAMES = ("春", "夏", "秋", "冬", "梅", "蘭", "菊", "竹")
NUMERALS = "一二三四五六七八九"
WIND_NAMES = {"E": "東", "S": "南", "W": "西", "N": "北"}

# Seat flowers: 東 = 1f, 5f · 南 = 2f, 6f · 西 = 3f, 7f · 北 = 4f, 8f.
SEAT_FLOWERS = {w: (i + 1, i + 5) for i, w in enumerate(WINDS)}
SEASONS = (1, 2, 3, 4)
PLANTS = (5, 6, 7, 8)

WHITE, GREEN, RED = 31, 32, 33
DRAGONS = (WHITE, GREEN, RED)
WIND_TILES = (27, 28, 29, 30)
WIND_TILE = dict(zip(WINDS, WIND_TILES))  # seat or round wind -> its tile

CODES = tuple(f"{n + 1}{suit}" for suit in "mpsz" for n in range(9))[:KINDS]  # kind -> its code: 0 -> "1m"

_GROUP = re.compile(r"(\d+)([mpszf])")
_WELL_FORMED = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)+")  # tiles only, every one a real tile
_KINDS_OF = {suit: bytes.maketrans(b"123456789", bytes(range(base, base + 9))) for suit, base in zip("mpsz", (0, 9, 18, 27))}  # a group's digits -> its kinds, by bytes.translate


class TileError(ValueError):
    """A tile string that does not follow the notation."""


def suit_of(kind: int) -> str:
    return "mpsz"[kind // 9]


def is_honour(kind: int) -> bool:
    return kind >= 27


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def code(kind: int) -> str:
    return CODES[kind]


def kind_of(code_: str) -> int:
    """`'3p'` -> 11; raises TileError naming the code."""
    kinds = parse_tiles(code_)
    if len(kinds) != 1:
        raise TileError(f"expected one tile, got {code_!r}")
    return kinds[0]


def name(kind: int) -> str:
    """Chinese name a player says: 三萬, 九筒, 東, 白."""
    if is_honour(kind):
        return HONOUR_NAMES[kind - 27]
    return NUMERALS[kind % 9] + SUIT_NAMES[suit_of(kind)]


def flower_name(number: int) -> str:
    return FLOWER_NAMES[number - 1]


def _groups(text: str) -> list[tuple[str, str]]:
    compact = "".join(text.split())
    groups = _GROUP.findall(compact)
    if "".join(d + s for d, s in groups) != compact:
        raise TileError(f"not tile notation: {text!r} (write tiles as 123m456p77z1f)")
    return groups


def parse_tiles(text: str | list[str]) -> tuple[int, ...]:
    """Parse `'123m55z'` (or a list of codes) into kind indices, in order. Well-formed
    text (nearly all of it) is recognised by one expression and read by table; anything
    else (the empty string too) goes the slow way, which names the first problem."""
    if not text:
        return ()
    if isinstance(text, list):
        text = "".join(text)
    compact = "".join(text.split())
    if _WELL_FORMED.fullmatch(compact):
        return tuple(b"".join([digits.encode().translate(_KINDS_OF[suit]) for digits, suit in _GROUP.findall(compact)]))
    kinds: list[int] = []
    for digits, suit in _groups(text):
        if suit == "f":
            raise TileError(f"flowers do not belong here: {digits}{suit}")
        for d in digits:
            n = int(d)
            if suit == "z" and not 1 <= n <= 7 or suit != "z" and not 1 <= n <= 9:
                raise TileError(f"no such tile: {d}{suit}")
            kinds.append((n - 1) + 9 * "mpsz".index(suit))
    return tuple(kinds)


def parse_flowers(text: str | list[str] | None) -> tuple[int, ...]:
    """Parse `'15f'` into flower numbers; refuses a second copy of a flower."""
    if not text:
        return ()
    if isinstance(text, list):
        text = "".join(text)
    numbers: list[int] = []
    for digits, suit in _groups(text):
        if suit != "f":
            raise TileError(f"not a flower: {digits}{suit}")
        for d in digits:
            n = int(d)
            if not 1 <= n <= 8:
                raise TileError(f"no such flower: {d}f")
            if n in numbers:
                raise TileError(f"a second copy of flower {d}f ({flower_name(n)})")
            numbers.append(n)
    return tuple(sorted(numbers))


def format_tiles(kinds: list[int] | tuple[int, ...]) -> str:
    """Kind indices back to compact notation, suit by suit: `[0,1,2,27]` -> `123m1z`."""
    out = []
    suit = ""
    for k in sorted(kinds):
        code_ = CODES[k]
        if code_[1] != suit:
            out.append(suit)
            suit = code_[1]
        out.append(code_[0])
    out.append(suit)
    return "".join(out)


def format_flowers(numbers: tuple[int, ...]) -> str:
    return "".join(str(n) for n in sorted(numbers)) + "f" if numbers else ""


def counts(kinds: tuple[int, ...] | list[int]) -> list[int]:
    c = [0] * KINDS
    for k in kinds:
        c[k] += 1
    return c
