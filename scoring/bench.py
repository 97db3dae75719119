"""`make bench`: score a fixed set of random winning hands and print hands per second."""

from __future__ import annotations

import random
import time

from .hand import hand_from_json
from .random_hands import random_hand
from .scorer import score


def run(n: int, seed: int) -> None:
    rng = random.Random(seed)
    hands = [random_hand(rng) for _ in range(n)]
    start = time.process_time()
    for h in hands:
        score(hand_from_json(h))
    cpu = time.process_time() - start
    print(f"scored {n} random winning hands (seed {seed}) in {cpu:.2f} s of CPU on one core: {n / cpu:,.0f} hands/s")
