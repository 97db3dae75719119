"""`make bench`: read and score a fixed set of random winning hands and print hands per second,
reading (the JSON hand checked) and scoring (every split and every wait) apart as well."""

from __future__ import annotations

import random
import time

from .hand import hand_from_json
from .random_hands import random_hand
from .scorer import score


def run(n: int, seed: int) -> None:
    rng = random.Random(seed)
    objs = [random_hand(rng) for _ in range(n)]
    start = time.process_time()
    hands = [hand_from_json(h) for h in objs]
    read = time.process_time() - start
    for h in hands:
        score(h)
    cpu = time.process_time() - start
    print(
        f"read and scored {n} random winning hands (seed {seed}) in {cpu:.2f} s of CPU on one core: {n / cpu:,.0f} hands/s "
        f"(reading {n / read:,.0f} hands/s, scoring {n / (cpu - read):,.0f} hands/s)"
    )
