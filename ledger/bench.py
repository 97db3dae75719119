"""`python -m ledger.bench`: how long `ledger add` takes on a long night, against what
replaying the whole night (what every add cost before events kept their position) takes."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scoring.random_hands import random_hand

from .store import Store

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
CONTEXT = ("ruleset", "seat", "round", "streak", "self_drawn", "discarder")  # filled in by the ledger


def random_record(rng: random.Random) -> dict:
    """A hand as a table records it: a draw, a win by points, or a win with the full hand."""
    r = rng.random()
    if r < 0.1:
        return {"type": "draw"}
    winner = rng.choice(PLAYERS)
    discarder = rng.choice([p for p in PLAYERS if p != winner]) if rng.random() < 0.6 else None
    if r < 0.5:
        return {"type": "win", "winners": [{"player": winner, "points": rng.randrange(0, 12)}], "discarder": discarder}
    hand = {k: v for k, v in random_hand(rng).items() if k not in CONTEXT}
    return {"type": "win", "winners": [{"player": winner, "hand": hand}], "discarder": discarder}


def run(hands: int, adds: int, db: str | None, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(db or Path(tmp) / "ledger.sqlite3")
        sid = store.create({"players": PLAYERS, "options": {"rounds": 1000}})
        for _ in range(hands):
            store.add(sid, random_record(rng))
        times, cpu = [], []
        for _ in range(adds):
            record = random_record(rng)
            start, start_cpu = time.perf_counter(), time.process_time()
            store.add(sid, record)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        start = time.perf_counter()
        statement = store.statement(sid)
        full = time.perf_counter() - start
        hand = Path(tmp) / "hand.json"
        hand.write_text(json.dumps({"type": "draw"}))
        where = ["--db", str(store.path if db is None else db)]
        command = _seconds(["ledger", "add", sid, str(hand), *where])
        baseline = _seconds(["ledger", "list", *where])
        store.close()
    where = "PostgreSQL" if db else "SQLite"
    print(
        f"ledger add on a {len(statement.hands):,}-hand session ({where}): median {statistics.median(times) * 1000:.1f} ms, "
        f"max {max(times) * 1000:.1f} ms over {adds} adds (CPU median {statistics.median(cpu) * 1000:.1f} ms); "
        f"`taiscore ledger add` as a command {command:.2f} s "
        f"(`taiscore ledger list`, starting the command alone: {baseline:.2f} s); "
        f"replaying the whole night {full:.2f} s"
    )


def _seconds(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "taiscore_cli", *args], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m ledger.bench", description=__doc__)
    p.add_argument("--hands", type=int, default=3000)
    p.add_argument("--adds", type=int, default=20)
    p.add_argument("--db", help="a postgresql:// URL (default: a new SQLite file)")
    p.add_argument("--seed", type=int, default=2026)
    a = p.parse_args()
    run(a.hands, a.adds, a.db, a.seed)


if __name__ == "__main__":
    main()
