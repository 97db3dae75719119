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
    """Chains of side-by-side tiles: each tile links to its nearest neighbour on the right
    that overlaps it vertically, so slightly turned or tilted rows stay whole."""
    if not idx:
        return []
    unit = median(min(tiles[i].width, tiles[i].height) for i in idx)
    right: dict[int, int] = {}
    for i in idx:
        a = tiles[i]
        best = None
        for j in idx:
            b = tiles[j]
            if j == i or b.cx <= a.cx:
                continue
            gap = b.box[0] - a.box[2]
            overlap = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
            if -0.4 * unit <= gap <= 2.5 * unit and overlap >= 0.5 * min(a.height, b.height):
                if best is None or gap < best[0]:
                    best = (gap, j)
        if best:
            right[i] = best[1]
    left: dict[int, int] = {}
    for i, j in sorted(right.items(), key=lambda ij: tiles[ij[1]].box[0] - tiles[ij[0]].box[2]):
        if j not in left:
            left[j] = i
    starts = [i for i in idx if i not in left]
    rows = []
    for i in starts:
        row = [i]
        while row[-1] in right and left.get(right[row[-1]]) == row[-1]:
            row.append(right[row[-1]])
        rows.append(row)
    return rows


def _groups(tiles: list[Tile], row: list[int]) -> list[list[int]]:
    """Cut a row where tiles stand apart: the distance between neighbouring centres is
    compared with the row's usual spacing, which stays right when the photo is turned
    or tilted (box gaps do not: turned boxes swell and overlap)."""
    steps = [((tiles[b].cx - tiles[a].cx) ** 2 + (tiles[b].cy - tiles[a].cy) ** 2) ** 0.5 for a, b in zip(row, row[1:])]
    usual = median(sorted(steps)[: max(1, (len(steps) + 1) // 2)]) if steps else 0.0
    out = [[row[0]]]
    for step, cur in zip(steps, row[1:]):
        if step > 1.3 * usual:
            out.append([cur])
        else:
            out[-1].append(cur)
    return out


def parse_flower_codes(codes: list[str]) -> tuple[int, ...]:
    return tuple(sorted({int(c[0]) for c in codes}))


def _concealed_likeness(tiles: list[Tile], row_group: tuple[int, list[int]]) -> tuple:
    """Standing tiles number 3n+1 or 3n+2 and are not a run of melds; then the longest,
    then the nearest the camera (the largest tiles)."""
    _, g = row_group
    codes = [tiles[i].code for i in g]
    faces = sum(c != "back" for c in codes)
    return (faces > len(g) / 2, _split_melds(codes) is None, len(g) % 3 != 0, len(g), median(tiles[i].height for i in g))


def _near(tiles: list[Tile], hand_idx: list[int], same_row: set[int]):
    """The winner's own area: the concealed row, and beside and beyond it, not the rest of the table."""
    xs = [v for i in hand_idx for v in (tiles[i].box[0], tiles[i].box[2])]
    top, bottom = min(tiles[i].box[1] for i in hand_idx), max(tiles[i].box[3] for i in hand_idx)
    w = median(min(tiles[i].width, tiles[i].height) for i in hand_idx)
    h = median(max(tiles[i].width, tiles[i].height) for i in hand_idx)

    def inside(i: int) -> bool:
        t = tiles[i]
        return i in same_row or min(xs) - 8 * w <= t.cx <= max(xs) + 8 * w and top - 3.8 * h <= t.cy <= bottom + 0.6 * h

    return inside


def read_layout(tiles: list[Tile]) -> HandReading:
    doubts: list[str] = []
    rest = [i for i, t in enumerate(tiles) if not t.code.endswith("f")]
    groups: list[Group] = []
    rows = [_groups(tiles, r) for r in _rows(tiles, rest)]
    all_groups = [(r, g) for r, row in enumerate(rows) for g in row]
    concealed: list[int] = []
    winning: int | None = None
    near = lambda i: True  # noqa: E731  (no concealed row: nothing to measure from)
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
        near = _near(tiles, concealed + ([winning] if winning is not None else []), {i for g in row for i in g})
    flower_idx = [i for i, t in enumerate(tiles) if t.code.endswith("f") and near(i)]
    flowers = [tiles[i].code for i in flower_idx]
    for code, n in Counter(flowers).items():
        if n > 1:
            doubts.append(f"flower {code} seen {n} times: the set has one")
    if flower_idx:
        groups.insert(0, Group("flowers", tuple(flower_idx)))
    melds: list[str] = []
    for _, g in all_groups:
        if g == concealed or g == [winning]:
            continue
        if not any(near(i) for i in g) or len(g) > 4 and all(tiles[i].code == "back" for i in g):
            groups.append(Group("other", tuple(g)))  # other players' tiles or the wall: not this hand
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
