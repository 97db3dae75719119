"""From detected tiles to the scorer's hand object, with doubts instead of guesses.

A winning hand on the table is laid out in rows: the concealed row (the winning
tile set a little apart), the exposed melds (a chi's claimed tile turned, a
concealed kong with two or four tiles face down) and the flowers laid aside. We
group tiles by row and by gaps, recognise meld shapes, and report anything that
does not fit as a doubt for the player to fix.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from statistics import median

from scoring.tiles import format_flowers, format_tiles, parse_tiles

from .detector import Tile

LOW_CONF = 0.5


@dataclass(frozen=True)
class Group:
    role: str  # concealed, winning, meld, flowers, unread
    tiles: tuple[int, ...]  # indices into the detection list
    meld: str | None = None  # "pon 555p" for a meld group


@dataclass(frozen=True)
class HandReading:
    hand: dict
    groups: tuple[Group, ...]
    doubts: tuple[str, ...] = field(default=())

    def to_json(self) -> dict:
        return {"hand": self.hand, "doubts": list(self.doubts)}


def _suit_digit(code: str) -> tuple[str, int]:
    return code[1], int(code[0])


def meld_of(codes: list[str]) -> str | None:
    """The meld string for a group of 3-4 tiles as laid on the table, or None."""
    faces = [c for c in codes if c != "back"]
    backs = len(codes) - len(faces)
    if len(codes) == 4 and backs in (2, 4) and len(set(faces)) <= 1:
        return f"ankong {faces[0][0] * 4}{faces[0][1]}" if faces else None
    if backs:
        return None
    if len(set(codes)) == 1 and len(codes) in (3, 4):
        kind = "pon" if len(codes) == 3 else "kong"
        return f"{kind} {codes[0][0] * len(codes)}{codes[0][1]}"
    if len(codes) == 3:
        parts = sorted(_suit_digit(c) for c in codes)
        suits = {s for s, _ in parts}
        nums = [n for _, n in parts]
        if len(suits) == 1 and suits != {"z"} and nums == [nums[0], nums[0] + 1, nums[0] + 2]:
            return f"chi {''.join(map(str, nums))}{parts[0][0]}"
    return None


def _split_melds(codes: list[str]) -> list[int] | None:
    """Cut a run of touching meld tiles into 3s and 4s that are each a meld."""
    if not codes:
        return []
    for n in (3, 4):
        if len(codes) >= n and meld_of(codes[:n]):
            rest = _split_melds(codes[n:])
            if rest is not None:
                return [n] + rest
    return None


def _rows(tiles: list[Tile], idx: list[int]) -> list[list[int]]:
    if not idx:
        return []
    size = median(max(tiles[i].width, tiles[i].height) for i in idx)
    rows: list[list[int]] = []
    for i in sorted(idx, key=lambda i: tiles[i].cy):
        if rows and abs(tiles[i].cy - median(tiles[j].cy for j in rows[-1])) < 0.5 * size:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [sorted(r, key=lambda i: tiles[i].cx) for r in rows]


def _groups(tiles: list[Tile], row: list[int]) -> list[list[int]]:
    unit = median(min(tiles[i].width, tiles[i].height) for i in row)
    out = [[row[0]]]
    for prev, cur in zip(row, row[1:]):
        if tiles[cur].box[0] - tiles[prev].box[2] > 0.35 * unit:
            out.append([cur])
        else:
            out[-1].append(cur)
    return out


def parse_flower_codes(codes: list[str]) -> tuple[int, ...]:
    return tuple(sorted({int(c[0]) for c in codes}))


def _concealed_likeness(tiles: list[Tile], row_group: tuple[int, list[int]]) -> tuple:
    """Standing tiles number 3n+1 or 3n+2 and are not a run of melds; then the longest."""
    row, g = row_group
    codes = [tiles[i].code for i in g]
    return (_split_melds(codes) is None, len(g) % 3 != 0, len(g), row)


def read_layout(tiles: list[Tile]) -> HandReading:
    doubts: list[str] = []
    flower_idx = [i for i, t in enumerate(tiles) if t.code.endswith("f")]
    flowers = [tiles[i].code for i in flower_idx]
    for code, n in Counter(flowers).items():
        if n > 1:
            doubts.append(f"flower {code} seen {n} times: the set has one")
    rest = [i for i, t in enumerate(tiles) if not t.code.endswith("f")]
    groups: list[Group] = [Group("flowers", tuple(flower_idx))] if flower_idx else []
    rows = [_groups(tiles, r) for r in _rows(tiles, rest)]
    all_groups = [(r, g) for r, row in enumerate(rows) for g in row]
    concealed: list[int] = []
    winning: int | None = None
    if all_groups:
        main_row, main = max(all_groups, key=lambda rg: _concealed_likeness(tiles, rg))
        concealed = list(main)
        row = rows[main_row]
        k = row.index(main)
        beside = [row[j] for j in (k + 1, k - 1) if 0 <= j < len(row) and len(row[j]) == 1]
        if beside:
            winning = beside[0][0]
        groups.append(Group("concealed", tuple(concealed)))
        if winning is not None:
            groups.append(Group("winning", (winning,)))
    melds: list[str] = []
    for _, g in all_groups:
        if g == concealed or g == [winning]:
            continue
        codes = [tiles[i].code for i in g]
        cuts = _split_melds(codes)
        if cuts is None:
            doubts.append(f"ambiguous group of {len(g)} tile(s) ({' '.join(codes)}): not a chi, pon or kong")
            groups.append(Group("unread", tuple(g)))
            continue
        start = 0
        for n in cuts:
            part = g[start : start + n]
            m = meld_of([tiles[i].code for i in part])
            melds.append(m)
            groups.append(Group("meld", tuple(part), m))
            start += n
    hand_codes = [tiles[i].code for i in concealed + ([winning] if winning is not None else [])]
    if "back" in hand_codes:
        doubts.append("a face-down tile among the standing tiles: turn it up or mark its kind")
    faces = [c for c in hand_codes if c != "back"]
    hand: dict = {
        "concealed": format_tiles(parse_tiles(faces)),
        "melds": melds,
        "flowers": format_flowers(parse_flower_codes(flowers)),
    }
    if winning is not None:
        hand["winning_tile"] = tiles[winning].code
    else:
        doubts.append("the winning tile is not set apart from the row: mark it")
    count = len(faces) + 3 * len(melds)
    if count != 17:
        doubts.append(f"{count} tiles read (kongs count 3); a winning hand has 17")
    seen = Counter(faces)
    for m in melds:
        kind, digits = m.split()
        seen.update(f"{d}{digits[-1]}" for d in digits[:-1])
    doubts += [f"{n} copies of {c} read: the set has four" for c, n in sorted(seen.items()) if n > 4]
    low = [f"#{i} {t.code} {t.conf:.2f}" for i, t in enumerate(tiles) if t.conf < LOW_CONF]
    if low:
        doubts.append(f"low confidence, check these tiles: {', '.join(low)}")
    return HandReading(hand, tuple(groups), tuple(doubts))
