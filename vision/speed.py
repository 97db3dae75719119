"""`taiscore bench-detector`: median latency per photo and the process's peak memory."""

from __future__ import annotations

import resource
import statistics
import time

import numpy as np

from .detector import Detector


def run(detector: Detector, photos: list[np.ndarray], runs: int) -> None:
    detector.detect(photos[0])  # warm-up: first run allocates
    times = []
    for i in range(runs):
        img = photos[i % len(photos)]
        start = time.perf_counter()
        detector.detect(img)
        times.append(time.perf_counter() - start)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sizes = sorted({f"{p.shape[1]}x{p.shape[0]}" for p in photos})
    print(
        f"{runs} detections on {', '.join(sizes)} photos: median {statistics.median(times) * 1000:.0f} ms, "
        f"p90 {np.percentile(times, 90) * 1000:.0f} ms; peak memory {peak_mb:.0f} MB"
    )
