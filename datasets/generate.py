"""`make dataset`: synthetic photos of winning hands as a YOLO dataset, plus a contact sheet.

Deterministic: image i of seed s is rendered from seed s * 1_000_003 + i, whatever the
number of workers. Output (never committed): images/, labels/ (43 classes), hands/
(the true hand, for the exact-hand rate), data.yaml and contact_sheet.png.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CLASSES

from .faces import build
from .scene import Photo, render

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "work" / "datasets" / "synthetic"
_FACES: dict | None = None


def image_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


def _one(args: tuple[int, int, Path, int]) -> int:
    seed, i, out, max_side = args
    global _FACES
    if _FACES is None:
        _FACES = build()
    photo = render(_FACES, image_seed(seed, i), max_side)
    write(photo, out, f"syn_{seed}_{i:06d}", quality=int(np.random.default_rng(image_seed(seed, i)).integers(40, 96)))
    return len(photo.boxes)


def write(photo: Photo, out: Path, name: str, quality: int = 90) -> None:
    h, w = photo.image.shape[:2]
    ok, jpg = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    (out / "images" / f"{name}.jpg").write_bytes(jpg.tobytes())
    lines = [f"{c} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}" for c, x1, y1, x2, y2 in photo.boxes]
    (out / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n")
    (out / "hands" / f"{name}.json").write_text(json.dumps(photo.hand))


def contact_sheet(out: Path, n: int = 16, cell: int = 480) -> Path:
    """The first images with their boxes and class names drawn: look before training."""
    tiles = []
    for img_path in sorted((out / "images").glob("*.jpg"))[:n]:
        img = cv2.imread(str(img_path))
        h, w = img.shape[:2]
        for line in (out / "labels" / f"{img_path.stem}.txt").read_text().split("\n"):
            if line:
                c, cx, cy, bw, bh = line.split()
                x1, y1 = int((float(cx) - float(bw) / 2) * w), int((float(cy) - float(bh) / 2) * h)
                x2, y2 = int((float(cx) + float(bw) / 2) * w), int((float(cy) + float(bh) / 2) * h)
                cv2.rectangle(img, (x1, y1), (x2, y2), (0, 0, 255), 2)
                cv2.putText(img, CLASSES[int(c)], (x1, max(10, y1 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 255, 255), 1)
        s = cell / max(h, w)
        img = cv2.resize(img, (int(w * s), int(h * s)))
        canvas = np.full((cell, cell, 3), 40, np.uint8)
        canvas[: img.shape[0], : img.shape[1]] = img
        tiles.append(canvas)
    cols = 4
    while len(tiles) % cols:
        tiles.append(np.full((cell, cell, 3), 40, np.uint8))
    sheet = np.vstack([np.hstack(tiles[r : r + cols]) for r in range(0, len(tiles), cols)])
    path = out / "contact_sheet.png"
    cv2.imwrite(str(path), sheet)
    return path


def generate(n: int, seed: int, out: Path, max_side: int = 1280, workers: int = 2) -> None:
    for sub in ("images", "labels", "hands"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    build()  # render the face cache once, before the workers read it
    start, boxes = time.time(), 0
    jobs = [(seed, i, out, max_side) for i in range(n)]
    with Pool(workers) as pool:
        for done, count in enumerate(pool.imap(_one, jobs, chunksize=4), start=1):
            boxes += count
            if done % 20 == 0 or done == n:
                rate = done / (time.time() - start)
                bar = "#" * int(30 * done / n)
                sys.stderr.write(f"\r[{bar:<30}] {done}/{n} images, {boxes} boxes, {rate:.1f} img/s, ETA {(n - done) / rate:.0f} s")
                sys.stderr.flush()
    sys.stderr.write("\n")
    names = "\n".join(f"  {i}: '{c}'" for i, c in enumerate(CLASSES))
    (out / "data.yaml").write_text(f"path: {out}\ntrain: images\nval: images\nnames:\n{names}\n")
    print(f"{n} images in {time.time() - start:.0f} s -> {out}; contact sheet {contact_sheet(out)}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=5000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument("--max-side", type=int, default=1280)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    generate(args.n, args.seed, args.out, args.max_side, args.workers)


if __name__ == "__main__":
    main()
