"""A reading under correction: each tile keeps its id, box and group through every edit.

The player checks the photo and mends what was misread: a tile's kind, a tile deleted,
a missed tile added, a tile moved to another group. Ids are given once, left to right
and row by row as the tiles lie on the photo, and never reused, so a label on the photo,
a doubt and the tile it names stay the same tile after any edit; the doubts and the
hand are recomputed from the tiles each time, never carried over.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from scoring.building import CONCEALED, FLOWERS, WINNING, Built, Placed, build, hand_of, is_flower

from .detector import Tile
from .layout import LOW_CONF, low_confidence, read_layout

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Seen:
    """One tile of the correction; conf 1.0 once typed or set by the player."""

    id: int
    code: str
    group: str
    conf: float = 1.0
    box: Box | None = None

    @property
    def doubtful(self) -> bool:
        return self.conf < LOW_CONF


@dataclass(frozen=True)
class Correction:
    tiles: tuple[Seen, ...] = ()
    next_id: int = 0

    @staticmethod
    def of_photo(found: list[Tile]) -> Correction:
        """The layout reader's grouping, numbered left to right, row by row."""
        reading = read_layout(found)
        placed = reading.placed
        tiles = tuple(Seen(n, placed[i].code, placed[i].group, found[i].conf, found[i].box) for n, i in enumerate(reading.order))
        return Correction(tiles, len(tiles))

    @staticmethod
    def of_placed(placed: Iterable[Placed]) -> Correction:
        tiles = tuple(Seen(n, p.code, p.group) for n, p in enumerate(placed))
        return Correction(tiles, len(tiles))

    def tile(self, id_: int) -> Seen | None:
        return next((t for t in self.tiles if t.id == id_), None)

    def winning_choices(self) -> dict[str, int]:
        """While no tile is marked winning: each kind among the standing tiles, in code order,
        with the id of its first tile, the one marked if that kind won."""
        if any(t.group == WINNING for t in self.tiles):
            return {}
        first: dict[str, int] = {}
        for t in self.tiles:
            if t.group == CONCEALED:
                first.setdefault(t.code, t.id)
        return dict(sorted(first.items()))

    def _with(self, id_: int, **changes) -> Correction:
        return replace(self, tiles=tuple(replace(t, **changes) if t.id == id_ else t for t in self.tiles))

    def set_kind(self, id_: int, code: str) -> Correction:
        """The player's word for a tile; a flower goes to the flowers, a suit tile out of them."""
        t = self.tile(id_)
        if t is None:
            return self
        group = t.group
        if is_flower(code) and group in (CONCEALED, WINNING):
            group = FLOWERS
        elif not is_flower(code) and group == FLOWERS:
            group = CONCEALED
        return self._with(id_, code=code, group=group, conf=1.0)

    def set_group(self, id_: int, group: str) -> Correction:
        """Move a tile; marking a winning tile sends the one marked before back to the row."""
        if self.tile(id_) is None:
            return self
        out = self
        if group == WINNING:
            for t in self.tiles:
                if t.group == WINNING and t.id != id_:
                    out = out._with(t.id, group=CONCEALED)
        return out._with(id_, group=group)

    def delete(self, id_: int) -> Correction:
        return replace(self, tiles=tuple(t for t in self.tiles if t.id != id_))

    def add(self, code: str) -> Correction:
        """A tile the reader missed: among the standing tiles, or with the flowers."""
        new = Seen(self.next_id, code, FLOWERS if is_flower(code) else CONCEALED)
        return Correction(self.tiles + (new,), self.next_id + 1)

    @property
    def placed(self) -> tuple[Placed, ...]:
        return tuple(Placed(t.code, t.group) for t in self.tiles)

    @property
    def built(self) -> Built:
        return build(self.placed)

    @property
    def doubts(self) -> tuple[str, ...]:
        return self.built.doubts + low_confidence((t.id, t.code, t.conf) for t in self.tiles)

    def hand(self) -> dict:
        """The hand object's tile keys; HandError names the first thing to fix."""
        return hand_of(self.placed)
