"""The winning hand as the player states it, checked against the physical tile set.

Everything here is refused loudly (RULINGS 8): a hand that cannot exist on a real
table is a misreading or a typo, and scoring it anyway would hide that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .decompose import CHOW, PUNG
from .tiles import (
    KINDS,
    WINDS,
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
INPUT_KEYS = frozenset(
    {
        "ruleset", "options", "concealed", "melds", "flowers", "winning_tile",
        "self_drawn", "seat", "round", "streak", "discarder", "events", "pool", "stakes", "eighth_flower",
    }
)


class HandError(ValueError):
    """A hand that cannot be scored; the message names the problem."""


@dataclass(frozen=True)
class Meld:
    """A called or declared set lying face up (or, for 暗槓, face down) on the table."""

    kind: str
    tile: int

    @property
    def shape(self) -> str:
        return CHOW if self.kind == "chi" else PUNG

    @property
    def is_kong(self) -> bool:
        return self.kind in ("kong", "ankong")

    @property
    def exposed(self) -> bool:
        return self.kind != "ankong"

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chi":
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.is_kong else 3)

    def __str__(self) -> str:
        digits = "".join(code(t)[0] for t in self.tiles)
        return f"{self.kind} {digits}{code(self.tile)[1]}"


@dataclass(frozen=True)
class Stakes:
    """底 and 台值 (番值): payment = base + points x point."""

    base: int = 100
    point: int = 20


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
        return sum(1 for m in self.melds if m.is_kong) == 4

    @property
    def held(self) -> tuple[int, ...]:
        """Copies of each kind in the player's own hand and melds."""
        c = counts(self.concealed)
        for m in self.melds:
            for t in m.tiles:
                c[t] += 1
        return tuple(c)


def parse_meld(text: str) -> Meld:
    parts = text.split()
    if len(parts) != 2 or parts[0] not in MELD_KINDS:
        raise HandError(f"meld {text!r}: write it as 'chi 234m', 'pon 555p', 'kong 7777s' or 'ankong 1111z'")
    kind, tiles_text = parts
    try:
        tiles = sorted(parse_tiles(tiles_text))
    except TileError as e:
        raise HandError(f"meld {text!r}: {e}") from None
    if kind == "chi":
        ok = len(tiles) == 3 and tiles[0] < 27 and tiles[0] // 9 == tiles[2] // 9 and tiles == [tiles[0], tiles[0] + 1, tiles[0] + 2]
        if not ok:
            raise HandError(f"meld {text!r}: a chi is three consecutive tiles of one suit")
    else:
        size = 3 if kind == "pon" else 4
        if len(tiles) != size or len(set(tiles)) != 1:
            raise HandError(f"meld {text!r}: a {kind} is {size} identical tiles")
    return Meld(kind, tiles[0])


def _wind(value: Any, key: str) -> str:
    if value not in WINDS:
        raise HandError(f"{key} must be one of E, S, W, N, got {value!r}")
    return value


def hand_from_json(obj: Any, default_ruleset: str = "taiwan") -> Hand:
    """Read one hand object of the CLI contract; raises HandError naming the problem."""
    if not isinstance(obj, dict):
        raise HandError(f"a hand must be a JSON object, got {type(obj).__name__}")
    unknown = set(obj) - INPUT_KEYS
    if unknown:
        raise HandError(f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(INPUT_KEYS))}")
    try:
        concealed = parse_tiles(obj.get("concealed", ""))
        flowers = parse_flowers(obj.get("flowers"))
        pool = parse_tiles(obj.get("pool", ""))
        winning = obj.get("winning_tile")
        winning_tile = kind_of(winning) if winning is not None else None
    except TileError as e:
        raise HandError(str(e)) from None
    melds = obj.get("melds", [])
    if not isinstance(melds, list):
        raise HandError("melds must be a list such as [\"chi 234m\", \"pon 555p\"]")
    events = obj.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
        raise HandError("events must be a list of names")
    bad = [e for e in events if e not in EVENTS]
    if bad:
        raise HandError(f"unknown event(s) {', '.join(bad)}; known: {', '.join(EVENTS)}")
    streak = obj.get("streak", 0)
    if not isinstance(streak, int) or isinstance(streak, bool) or streak < 0:
        raise HandError(f"streak must be a whole number of repeats (0 or more), got {streak!r}")
    self_drawn = obj.get("self_drawn", False)
    if not isinstance(self_drawn, bool):
        raise HandError(f"self_drawn must be true or false, got {self_drawn!r}")
    stakes = _stakes(obj["stakes"]) if "stakes" in obj else None
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise HandError("options must be an object of house-rule switches")
    ruleset = obj.get("ruleset", default_ruleset)
    if not isinstance(ruleset, str):
        raise HandError(f"ruleset must be a name, got {ruleset!r}")
    discarder = obj.get("discarder")
    eighth = obj.get("eighth_flower")
    hand = Hand(
        ruleset=ruleset,
        concealed=concealed,
        melds=tuple(parse_meld(m) if isinstance(m, str) else _not_a_meld(m) for m in melds),
        flowers=flowers,
        winning_tile=winning_tile,
        self_drawn=self_drawn,
        seat=_wind(obj.get("seat", "E"), "seat"),
        round=_wind(obj.get("round", "E"), "round"),
        streak=streak,
        discarder=None if discarder is None else _wind(discarder, "discarder"),
        events=frozenset(events),
        pool=pool,
        stakes=stakes,
        options=MappingProxyType(dict(options)),
        eighth_flower=None if eighth is None else _wind(eighth, "eighth_flower"),
    )
    validate(hand)
    return hand


def _stakes(raw: Any) -> Stakes:
    if not isinstance(raw, dict) or set(raw) != {"base", "point"}:
        raise HandError("stakes must be an object with base and point, e.g. {\"base\": 100, \"point\": 20}")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in raw.values()):
        raise HandError("stakes base and point must be whole amounts, 0 or more")
    return Stakes(**raw)


def _not_a_meld(m: Any) -> Meld:
    raise HandError(f"meld {m!r} must be a string such as \"pon 555p\"")


def _contradiction(hand: Hand) -> str | None:
    ev, sd = hand.events, hand.self_drawn
    exposed = any(m.exposed for m in hand.melds)
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
    copies = list(hand.held)
    for t in hand.pool:
        copies[t] += 1
    over = [code(k) for k in range(KINDS) if copies[k] > 4]
    if over:
        raise HandError(f"a fifth copy of {', '.join(over)}: the set has four of each tile")
    if hand.winning_tile is not None and hand.winning_tile not in hand.concealed:
        raise HandError(f"winning tile {code(hand.winning_tile)} is not among the concealed tiles (they include the winning tile)")
    if hand.winning_tile is None and not (flower_win or hand.four_kongs):
        raise HandError("winning_tile is missing")
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
