"""`taiscore bench-detector`: median latency per photo, the whole path from the photo's
bytes to a payout, and the process's peak memory; with a tile set, what it adds."""

from __future__ import annotations

import resource
import statistics
import time
from pathlib import Path

import numpy as np

from scoring.hand import HandError, hand_from_json
from scoring.scorer import score

from .detector import Detector
from .image import load
from .layout import read_layout
from .reread import reread


def _payout(detector: Detector, data: bytes) -> None:
    """What the app does on upload: decode, detect, read the layout, score."""
    reading = read_layout(detector.detect(load(data)))
    try:
        score(hand_from_json({**reading.hand, "seat": "S", "discarder": "W"}))
    except HandError:
        pass  # a misread hand still costs the same work; the player fixes it on the page


def _tileset_share(detector: Detector, img: np.ndarray, runs: int) -> float:
    """The median of what re-reading a photo's tiles with the detector's tile set takes
    more than without, the two interleaved: a loaded host slows both alike, where two
    whole benches minutes apart differ by more than the few ms measured."""
    found, extra = detector.boxes(img), []
    for _ in range(runs):
        start = time.perf_counter()
        reread(img, found, detector.faces, detector.flowers, detector.config, characters=detector.characters)
        middle = time.perf_counter()
        reread(img, found, detector.faces, detector.flowers, detector.config, detector.tileset, detector.characters)
        extra.append((time.perf_counter() - middle) - (middle - start))
    return statistics.median(extra)


def run(detector: Detector, paths: list[Path], runs: int) -> None:
    photos = [load(p) for p in paths]
    blobs = [Path(p).read_bytes() for p in paths]
    detector.detect(photos[0])  # warm-up: first run allocates
    detect, payout = [], []
    for i in range(runs):
        start = time.perf_counter()
        detector.detect(photos[i % len(photos)])
        detect.append(time.perf_counter() - start)
        start = time.perf_counter()
        _payout(detector, blobs[i % len(blobs)])
        payout.append(time.perf_counter() - start)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sizes = sorted({f"{p.shape[1]}x{p.shape[0]}" for p in photos})
    print(
        f"{runs} runs on {', '.join(sizes)} photos: detection median {statistics.median(detect) * 1000:.0f} ms "
        f"(p90 {np.percentile(detect, 90) * 1000:.0f} ms); photo bytes to payout median {statistics.median(payout) * 1000:.0f} ms; "
        f"peak memory {peak_mb:.0f} MB"
        + (f"; tile set {detector.tileset.name!r} adds a median {_tileset_share(detector, photos[0], max(runs, 50)) * 1000:.1f} ms a photo"
           f" ({len(detector.tileset.kinds)} examples; re-reading with it and without, interleaved)" if detector.tileset else "")
    )
