"""From detected tiles to the scorer's hand object, with doubts instead of guesses.

A winning hand on the table is laid out in rows: the concealed row (the winning
tile set a little apart), the exposed melds (a chi's claimed tile turned, a
concealed kong with two or four tiles face down) and the flowers laid aside. We
group tiles by row and by gaps, recognise meld shapes, and report anything that
does not fit as a doubt for the player to fix.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import median

from scoring.building import CONCEALED, FLOWERS, IGNORE, WINNING, Placed, build, meld_of

from .detector import Tile

LOW_CONF = 0.5


@dataclass(frozen=True)
class Group:
    role: str  # concealed, winning, meld, flowers, unread (no meld shape), other (not this hand)
    tiles: tuple[int, ...]  # indices into the detection list
    meld: str | None = None  # "pon 555p" for a meld group


@dataclass(frozen=True)
class HandReading:
    hand: dict
    groups: tuple[Group, ...]
    doubts: tuple[str, ...] = field(default=())
    placed: tuple[Placed, ...] = ()  # each detection, in order, in the group it was read into
    order: tuple[int, ...] = ()  # detection indices as a player counts them (reading_order)

    def to_json(self) -> dict:
        return {"hand": self.hand, "doubts": list(self.doubts)}


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
    if flower_idx:
        groups.insert(0, Group("flowers", tuple(flower_idx)))
    for _, g in all_groups:
        if g == concealed or g == [winning]:
            continue
        if not any(near(i) for i in g) or len(g) > 4 and all(tiles[i].code == "back" for i in g):
            groups.append(Group("other", tuple(g)))  # other players' tiles or the wall: not this hand
            continue
        cuts = _split_melds([tiles[i].code for i in g])
        if cuts is None:
            groups.append(Group("unread", tuple(g)))  # laid out as a meld the player must mend
            continue
        start = 0
        for n in cuts:
            part = g[start : start + n]
            groups.append(Group("meld", tuple(part), meld_of([tiles[i].code for i in part])))
            start += n
    placed = _placed(tiles, groups)
    order = reading_order(tiles)
    built = build(placed[i] for i in order)  # doubts name tiles as a player counts them
    number = {i: n for n, i in enumerate(order)}
    doubts = built.doubts + low_confidence((number[i], t.code, t.conf) for i, t in enumerate(tiles))
    return HandReading(built.hand, tuple(groups), doubts, placed, tuple(order))


def low_confidence(tiles: Iterable[tuple[int, str, float]]) -> tuple[str, ...]:
    """The doubt naming each (number, code, conf) read below LOW_CONF; none when all read well."""
    low = [f"#{n} {c} {conf:.2f}" for n, c, conf in tiles if conf < LOW_CONF]
    return (f"low confidence, check these tiles: {', '.join(low)}",) if low else ()


def _placed(tiles: list[Tile], groups: list[Group]) -> tuple[Placed, ...]:
    """Each detection in the group a player would put it in: melds numbered as read,
    a group that is no meld kept as one so its doubt stays until it is mended."""
    group_of: dict[int, str] = {}
    melds = 0
    for g in groups:
        if g.role in ("meld", "unread"):
            melds += 1
        name = {"concealed": CONCEALED, "winning": WINNING, "flowers": FLOWERS}.get(g.role, f"meld {melds}" if g.role in ("meld", "unread") else IGNORE)
        group_of.update(dict.fromkeys(g.tiles, name))
    return tuple(Placed(t.code, group_of.get(i, IGNORE)) for i, t in enumerate(tiles))


def reading_order(tiles: list[Tile]) -> list[int]:
    """Detection indices left to right, row by row from the top: how a player counts
    tiles on a photo. A tile starts a new row when its centre lies more than half a tile
    below the row's first tile."""
    if not tiles:
        return []
    unit = median(max(t.width, t.height) for t in tiles)
    rows: list[list[int]] = []
    for i in sorted(range(len(tiles)), key=lambda i: tiles[i].cy):
        if rows and tiles[i].cy - tiles[rows[-1][0]].cy <= 0.5 * unit:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda i: tiles[i].cx)]
