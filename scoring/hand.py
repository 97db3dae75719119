"""The winning hand as the player states it, checked against the physical tile set.

Everything here is refused loudly (RULINGS 8): a hand that cannot exist on a real
table is a misreading or a typo, and scoring it anyway would hide that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Annotated, Any, Literal

from msgspec import UNSET, Meta, UnsetType

from .decompose import CHOW, PUNG
from .quick import quick
from .schema import Amount, Strict, Wind, check, notation, shown
from .tiles import (
    KINDS,
    TileError,
    code,
    counts,
    kind_of,
    parse_flowers,
    parse_tiles,
)

EVENTS = (
    "last_tile",
    "last_discard",
    "replacement",
    "double_replacement",
    "robbing_kong",
    "heavenly",
    "earthly",
    "ready_dealt",
    "ready_first_discard",
    "ready",
    "ready_one_round",
    "eight_flowers",
    "seven_rob_one",
    "double_win",
    "triple_win",
)
FLOWER_WINS = frozenset({"eight_flowers", "seven_rob_one"})
MELD_KINDS = ("chi", "pon", "kong", "ankong")
MAX_STREAK = 99  # 連莊 n: no dealer keeps the deal a hundred times


class HandError(ValueError):
    """A hand that cannot be scored; the message names the problem."""


@dataclass(frozen=True)
class Meld:
    """A called or declared set lying face up (or, for 暗槓, face down) on the table."""

    kind: str
    tile: int
    shape: str = field(init=False, repr=False, compare=False)  # chow or pung (a kong is a pung here)
    is_kong: bool = field(init=False, repr=False, compare=False)
    exposed: bool = field(init=False, repr=False, compare=False)  # all but 暗槓
    tiles: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        chi, kong = self.kind == "chi", self.kind in ("kong", "ankong")
        put = object.__setattr__
        put(self, "shape", CHOW if chi else PUNG)
        put(self, "is_kong", kong)
        put(self, "exposed", self.kind != "ankong")
        put(self, "tiles", (self.tile, self.tile + 1, self.tile + 2) if chi else (self.tile,) * (4 if kong else 3))

    def __str__(self) -> str:
        digits = "".join(code(t)[0] for t in self.tiles)
        return f"{self.kind} {digits}{code(self.tile)[1]}"


@dataclass(frozen=True)
class Stakes:
    """底 and 台值 (番值): payment = base + points x point."""

    base: int = 100
    point: int = 20


@quick
@dataclass(frozen=True)
class Hand:
    ruleset: str
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()
    winning_tile: int | None = None
    self_drawn: bool = False
    seat: str = "E"
    round: str = "E"
    streak: int = 0
    discarder: str | None = None
    events: frozenset[str] = frozenset()
    pool: tuple[int, ...] = ()
    stakes: Stakes | None = None  # None: the rule set's usual stakes
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    eighth_flower: str | None = None  # seat holding the eighth flower when seven were self-drawn (七搶一 情況一)
    # Worked out once, when the hand is made: the check, the wait finder and patterns ask again and again.
    standing: tuple[int, ...] = field(init=False, repr=False, compare=False)  # copies of each kind among the concealed tiles
    held: tuple[int, ...] = field(init=False, repr=False, compare=False)  # copies of each kind in own hand and melds
    kongs: int = field(init=False, repr=False, compare=False)  # kongs on the table, exposed or concealed
    exposed_sets: int = field(init=False, repr=False, compare=False)  # sets called from others (chi, pon, exposed kong)

    def __post_init__(self) -> None:
        standing = counts(self.concealed)
        held = list(standing)
        kongs = exposed = 0
        for m in self.melds:
            for t in m.tiles:
                held[t] += 1
            kongs += m.is_kong
            exposed += m.exposed
        self.__dict__.update(standing=tuple(standing), held=tuple(held), kongs=kongs, exposed_sets=exposed)  # frozen: set once, in one call

    @property
    def is_dealer(self) -> bool:
        return self.seat == "E"

    @property
    def tile_count(self) -> int:
        """Tiles as RULINGS 8 counts them: a kong counts 3."""
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def four_kongs(self) -> bool:
        """四槓牌 on the table: where the rule set says so, a win without a hand (16 or 17 tiles)."""
        return self.kongs == 4


def parse_meld(text: str) -> Meld:
    parts = text.split()
    if len(parts) != 2 or parts[0] not in MELD_KINDS:
        raise HandError(f"{shown(text)}: write it as 'chi 234m', 'pon 555p', 'kong 7777s' or 'ankong 1111z'")
    kind, tiles_text = parts
    try:
        tiles = sorted(parse_tiles(tiles_text))
    except TileError as e:
        raise HandError(f"{shown(text)}: {e}") from None
    if kind == "chi":
        ok = len(tiles) == 3 and tiles[0] < 27 and tiles[0] // 9 == tiles[2] // 9 and tiles == [tiles[0], tiles[0] + 1, tiles[0] + 2]
        if not ok:
            raise HandError(f"{shown(text)}: a chi is three consecutive tiles of one suit")
    else:
        size = 3 if kind == "pon" else 4
        if len(tiles) != size or len(set(tiles)) != 1:
            raise HandError(f"{shown(text)}: a {kind} is {size} identical tiles")
    return Meld(kind, tiles[0])


NOTATION_CACHE = 1 << 12  # distinct strings of one field kept: melds, winning tiles and flowers recur across hands
_meld = lru_cache(maxsize=NOTATION_CACHE)(parse_meld)  # what they parse to is immutable: looked up, not parsed again
_flowers = lru_cache(maxsize=NOTATION_CACHE)(parse_flowers)
_tile = lru_cache(maxsize=NOTATION_CACHE)(kind_of)


class StakesIn(Strict):
    base: Amount
    point: Amount


class HandIn(Strict):
    """The hand object of the CLI contract (README). A key left out takes its default;
    a key given as null is refused: a tile, a seat or the stakes are never "nothing"."""

    concealed: Annotated[str, notation("123m456p55z")]
    ruleset: str = "taiwan"  # the rule set itself refuses a name it does not know
    options: dict[str, Any] = {}  # each option is checked by its rule set
    melds: list[Annotated[str, notation("pon 555p")]] = []
    flowers: Annotated[str, notation("15f")] = ""
    winning_tile: Annotated[str, notation("4m")] | UnsetType = UNSET  # absent only in a flower win
    self_drawn: bool = False
    seat: Wind = "E"
    round: Wind = "E"
    streak: Annotated[int, Meta(ge=0, le=MAX_STREAK)] = 0
    discarder: Wind | UnsetType = UNSET  # absent on a self-drawn win
    events: list[Literal[EVENTS]] = []
    pool: Annotated[str, notation("123m456p55z")] = ""
    stakes: StakesIn | UnsetType = UNSET  # absent: the rule set's usual stakes
    eighth_flower: Wind | UnsetType = UNSET  # 七搶一 情況一: the seat holding the eighth flower


def hand_from_json(obj: Any) -> Hand:
    """Read one hand object of the CLI contract; raises HandError naming the problem."""
    h = check(HandIn, obj, HandError, "a hand")
    field = "concealed"  # the field being parsed, named when its notation is wrong
    try:
        concealed = parse_tiles(h.concealed)
        field = "flowers"
        flowers = _flowers(h.flowers) if h.flowers else ()
        field = "winning_tile"
        winning_tile = None if h.winning_tile is UNSET else _tile(h.winning_tile)
        field = "pool"
        pool = parse_tiles(h.pool) if h.pool else ()
        melds = []
        for n, text in enumerate(h.melds, start=1):
            field = f"meld {n}"
            melds.append(_meld(text))
    except (TileError, HandError) as e:
        raise HandError(f"{field}: {e}") from None
    stakes = None if h.stakes is UNSET else Stakes(h.stakes.base, h.stakes.point)
    hand = Hand(  # in field order: fifteen keywords add a third to making the hand (4.9 -> 6.6 us)
        h.ruleset, concealed, tuple(melds), flowers, winning_tile, h.self_drawn, h.seat, h.round, h.streak,
        None if h.discarder is UNSET else h.discarder, frozenset(h.events), pool, stakes, MappingProxyType(h.options),
        None if h.eighth_flower is UNSET else h.eighth_flower,
    )  # fmt: skip
    validate(hand)
    return hand


def _contradiction(hand: Hand) -> str | None:
    ev, sd = hand.events, hand.self_drawn
    if not ev and hand.eighth_flower is None:  # every rule below needs an event or eighth_flower
        return None
    exposed = hand.exposed_sets > 0
    rules = [
        ("robbing_kong" in ev and sd, "robbing a kong (robbing_kong) is a win on another player's tile, not self-drawn"),
        (bool(ev & {"replacement", "double_replacement"}) and not sd, "a win on a replacement tile is self-drawn"),
        ("last_tile" in ev and not sd, "last_tile is a self-drawn win on the last wall tile; use last_discard for the last discard"),
        ("last_discard" in ev and sd, "last_discard is a win on a discard, not self-drawn"),
        ("heavenly" in ev and not hand.is_dealer, "heavenly (天胡) is the dealer's (seat E) win"),
        ("heavenly" in ev and not sd, "heavenly (天胡) is self-drawn"),
        ("earthly" in ev and hand.is_dealer, "earthly (地胡) is a non-dealer's win; the dealer's is heavenly"),
        (bool(ev & {"heavenly", "earthly"}) and bool(hand.melds), "heavenly/earthly wins come before any meld"),
        (len(ev & {"heavenly", "earthly", "ready_dealt", "ready_first_discard"}) > 1, "heavenly, earthly, ready_dealt and ready_first_discard exclude each other"),
        (bool(ev & {"ready_dealt", "ready_first_discard"}) and exposed, "a hand declared ready at the start stays concealed: no chi, pon or exposed kong"),
        ("ready_one_round" in ev and "ready" not in ev, "ready_one_round (即食) needs the ready declaration (ready)"),
        ("ready" in ev and exposed, "a ready declaration (ready) needs a concealed hand: no chi, pon or exposed kong"),
        (bool(ev & {"double_win", "triple_win"}) and sd, "several winners (double_win, triple_win) share one discard, not a self-draw"),
        (len(ev & {"double_win", "triple_win"}) > 1, "double_win and triple_win exclude each other"),
        (len(ev & FLOWER_WINS) > 1, "eight_flowers and seven_rob_one exclude each other"),
        ("eight_flowers" in ev and len(hand.flowers) != 8, f"eight_flowers needs all eight flowers, the hand shows {len(hand.flowers)}"),
        ("eight_flowers" in ev and not sd, "eight_flowers (八仙過海) counts as self-drawn: set self_drawn"),
        ("seven_rob_one" in ev and len(hand.flowers) != 7, f"seven_rob_one needs seven flowers in the winner's hand, it shows {len(hand.flowers)}"),
        ("seven_rob_one" in ev and sd, "seven_rob_one (七搶一) is paid by the holder of the eighth flower: name them as discarder"),
        (len(ev & {"last_tile", "last_discard", "heavenly"}) > 1, "the last tile of the wall cannot also be the first"),
        ("robbing_kong" in ev and bool(ev & {"replacement", "double_replacement"}), "robbing a kong is not a replacement-tile win"),
        (
            hand.eighth_flower is not None and not (sd and len(hand.flowers) == 7),
            "eighth_flower names who holds the eighth flower when a player with seven self-draws",
        ),
        (hand.eighth_flower == hand.seat, "the winner cannot hold the eighth flower as well as seven"),
    ]
    return next((msg for bad, msg in rules if bad), None)


def validate(hand: Hand) -> None:
    """Refuse what no table can produce: RULINGS 8, checked before any scoring."""
    flower_win = bool(hand.events & FLOWER_WINS)
    if len(hand.melds) > 5:
        raise HandError(f"{len(hand.melds)} melds: a hand has at most five sets")
    n = hand.tile_count
    if flower_win or hand.four_kongs:
        if n not in (16, 17):
            raise HandError(f"a flower or four-kong win holds 16 or 17 tiles (kongs count 3), got {n}")
    elif n != 17:
        raise HandError(f"a winning hand has 17 tiles (kongs count 3), got {n}")
    copies: tuple[int, ...] | list[int] = hand.held
    if hand.pool:
        copies = list(copies)
        for t in hand.pool:
            copies[t] += 1
    if max(copies) > 4:
        over = [code(k) for k in range(KINDS) if copies[k] > 4]
        raise HandError(f"a fifth copy of {', '.join(over)}: the set has four of each tile")
    if hand.winning_tile is not None and hand.winning_tile not in hand.concealed:
        raise HandError(f"winning tile {code(hand.winning_tile)} is not among the concealed tiles (they include the winning tile)")
    if hand.winning_tile is None and not (flower_win or hand.four_kongs):
        raise HandError("the winning tile (winning_tile) is missing: name the tile that completed the hand")
    if not hand.self_drawn:
        if hand.discarder is None:
            raise HandError("a win on a discard needs the discarder's seat (discarder), or set self_drawn")
        if hand.discarder == hand.seat:
            raise HandError(f"the discarder ({hand.discarder}) cannot be the winner")
    elif hand.discarder is not None:
        raise HandError("a self-drawn win has no discarder")
    problem = _contradiction(hand)
    if problem:
        raise HandError(f"contradictory events: {problem}")
