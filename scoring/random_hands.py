"""Random legal winning hands, for the benchmark and the property tests."""

from __future__ import annotations

import random
from typing import Any

from .tiles import KINDS, WINDS, code, format_flowers, format_tiles


def _take(pool: list[int], tiles: list[int]) -> bool:
    if any(pool[t] < tiles.count(t) for t in set(tiles)):
        return False
    for t in tiles:
        pool[t] -= 1
    return True


def random_hand(rng: random.Random, ruleset: str = "taiwan") -> dict[str, Any]:
    """A winning hand object of the CLI contract: five sets and a pair, never a fifth copy."""
    pool = [4] * KINDS
    n_melds = rng.choices(range(6), weights=(40, 20, 15, 10, 8, 7))[0]
    concealed: list[int] = []
    melds: list[str] = []
    while len(melds) + len(concealed) // 3 < 5:
        called = len(melds) < n_melds
        if rng.random() < 0.55:
            s = rng.randrange(27)
            if s % 9 > 6 or not _take(pool, [s, s + 1, s + 2]):
                continue
            tiles = [s, s + 1, s + 2]
            kind = "chi"
        else:
            t = rng.randrange(KINDS)
            kong = called and rng.random() < 0.25
            tiles = [t] * (4 if kong else 3)
            if not _take(pool, tiles):
                continue
            kind = rng.choice(["kong", "ankong"]) if kong else "pon"
        if called:
            digits = "".join(code(t)[0] for t in tiles)
            melds.append(f"{kind} {digits}{code(tiles[0])[1]}")
        else:
            concealed += tiles
    while True:
        p = rng.randrange(KINDS)
        if _take(pool, [p, p]):
            concealed += [p, p]
            break
    seat = rng.choice(WINDS)
    self_drawn = rng.random() < 0.4
    hand: dict[str, Any] = {
        "ruleset": ruleset,
        "concealed": format_tiles(concealed),
        "melds": melds,
        "winning_tile": code(rng.choice(concealed)),
        "self_drawn": self_drawn,
        "seat": seat,
        "round": rng.choice(WINDS),
        "streak": rng.choice([0, 0, 0, 1, 2]) if seat == "E" or rng.random() < 0.5 else 0,
        "flowers": format_flowers(tuple(rng.sample(range(1, 9), rng.randrange(4)))),
    }
    if not self_drawn:
        hand["discarder"] = rng.choice([w for w in WINDS if w != seat])
    return hand
