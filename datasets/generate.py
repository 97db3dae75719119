"""`make dataset`: synthetic photos of winning hands as a YOLO dataset, plus a contact sheet.
Drawn from the trained art styles only (`datasets.faces.TRAINED`): the held-out ones stay
unseen, for `make eval-generalisation`.

Deterministic: image i of seed s is rendered from seed s * 1_000_003 + i, whatever the
number of workers; `--scenes` mixes in photos from where a player sits (`views.py`),
each image's scene drawn from its own seed; `--stretch` makes a share of the photos what
Roboflow's export made of every Hong Kong photo ("Resize to 640x640 (Stretch)", the
dataset's README.roboflow.txt): a square, and half of those a strip of one row whose
tiles are 3 to 16 times out of shape (`datasets.real.strip`), which a finder trained on
true proportions misses; `--across` lays a share of the top-down hands across the photo
at any angle, half of them close, as the Hong Kong photos' diagonal rows lie (a finder
trained without them missed whole rows). Output (never committed): images/, labels/
(43 classes), hands/ (the true hand, for the exact-hand rate; {"tiles": [...]} for a
photo of a few tiles), data.yaml, contact_sheet.png and crops_sheet.png.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CLASSES

from . import real, views
from .faces import TRAINED, build
from .scene import Photo, render, render_scene

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "work" / "datasets" / "synthetic"
_FACES: dict | None = None


def close_up(faces: dict, seed: int, max_side: int) -> Photo:
    """`datasets.scene`'s close-up of 1-4 lying tiles: sharp tiles for a reader trained on
    synthetic photos alone (`models/unseen/`)."""
    return render_scene(faces, seed, "close-up", max_side=max_side)


KINDS = {"hand": render, "seated": views.seated, "tiles": views.tiles, "close-up": close_up}  # hand: scene.render, top-down rows as before


def parse_mix(text: str) -> dict[str, float]:
    """`hand=5,seated=3,tiles=2` -> the share of each scene kind; a kind alone needs no weight."""
    mix = {}
    for part in text.split(","):
        name, _, weight = part.strip().partition("=")
        if name not in KINDS:
            raise ValueError(f"no scene kind {name!r}: one of {', '.join(KINDS)}")
        try:
            mix[name] = float(weight or 1)
        except ValueError:
            raise ValueError(f"scene {name}: weight {weight!r} is not a number") from None
        if mix[name] < 0:
            raise ValueError(f"scene {name}: weight {weight} is negative")
    if sum(mix.values()) <= 0:
        raise ValueError("the scene weights add up to nothing")
    return mix


def scene_for(mix: dict[str, float], seed: int, i: int) -> str:
    """Image i's scene kind: its own draw, so any number of workers picks the same."""
    return random.Random(f"scene {image_seed(seed, i)}").choices(list(mix), list(mix.values()))[0]


def image_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


def exported(photo: Photo, rng: random.Random) -> Photo:
    """The photo stretched to a square of its long side, half the time then made a strip
    of one row, its boxes with it."""
    h, w = photo.image.shape[:2]
    side = max(h, w)
    image = cv2.resize(photo.image, (side, side), interpolation=cv2.INTER_AREA)
    lines = box_lines(photo.boxes, w, h)
    if lines and rng.random() < 0.5:
        image, lines = real.strip(image, lines, rng)
    boxes = []
    for line in lines:
        c, cx, cy, bw, bh = line.split()
        x, y, bw, bh = (float(v) * side for v in (cx, cy, bw, bh))
        boxes.append((int(c), x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2))
    return Photo(image, boxes, photo.hand)


def box_lines(boxes: list[tuple[int, float, float, float, float]], w: int, h: int) -> list[str]:
    """Pixel boxes as YOLO label lines (class, centre and size as shares of the photo)."""
    return [f"{c} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}" for c, x1, y1, x2, y2 in boxes]


def across_for(share: float, seed: int, i: int) -> tuple[float, float]:
    """Image i's turn in degrees and zoom: with chance `share` its rows lie at any angle
    up to 90 degrees, as the Hong Kong photos' diagonal rows do, half of those seen 1 to
    2.5 times closer, running off the photo's edges as in its photos of 10 to 20 tiles;
    else (0, 1). Its own draw, so a share of 0 renders every photo as before."""
    rng = random.Random(f"across {image_seed(seed, i)}")
    if rng.random() >= share:
        return 0.0, 1.0
    return rng.uniform(-90, 90), rng.uniform(1.0, 2.5) if rng.random() < 0.5 else 1.0


def _one(args: tuple[int, int, Path, int, dict[str, float], float, float]) -> int:
    seed, i, out, max_side, mix, stretch, across = args
    global _FACES
    if _FACES is None:
        _FACES = build(list(TRAINED))
    kind = scene_for(mix, seed, i)
    laid = dict(zip(("turn", "zoom"), across_for(across, seed, i))) if kind == "hand" else {}
    photo = KINDS[kind](_FACES, image_seed(seed, i), max_side, **laid)
    rng = random.Random(f"stretch {image_seed(seed, i)}")
    if rng.random() < stretch:
        photo = exported(photo, rng)
    write(photo, out, f"syn_{seed}_{i:06d}", quality=int(np.random.default_rng(image_seed(seed, i)).integers(40, 96)))
    return len(photo.boxes)


def write(photo: Photo, out: Path, name: str, quality: int = 90) -> None:
    h, w = photo.image.shape[:2]
    ok, jpg = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    (out / "images" / f"{name}.jpg").write_bytes(jpg.tobytes())
    lines = box_lines(photo.boxes, w, h)
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


def crops_sheet(out: Path, per_kind: int = 12, cell: int = 64) -> Path:
    """One row per kind found in the labels: its name, then up to `per_kind` crops cut from
    their boxes, from the first images on; a wrong label shows as the odd one in its row."""
    crops: dict[int, list[np.ndarray]] = {}
    for img_path in sorted((out / "images").glob("*.jpg")):
        if len(crops) == len(CLASSES) and all(len(c) >= per_kind for c in crops.values()):
            break
        img = None
        for line in (out / "labels" / f"{img_path.stem}.txt").read_text().split("\n"):
            if not line or len(crops.get(int(line.split()[0]), ())) >= per_kind:
                continue
            img = cv2.imread(str(img_path)) if img is None else img
            h, w = img.shape[:2]
            c, cx, cy, bw, bh = (float(v) for v in line.split())
            x1, y1 = max(0, int((cx - bw / 2) * w)), max(0, int((cy - bh / 2) * h))
            x2, y2 = min(w, int(np.ceil((cx + bw / 2) * w))), min(h, int(np.ceil((cy + bh / 2) * h)))
            if x2 > x1 and y2 > y1:
                crop = img[y1:y2, x1:x2]
                s = cell / max(crop.shape[:2])
                crop = cv2.resize(crop, (max(1, int(crop.shape[1] * s)), max(1, int(crop.shape[0] * s))), interpolation=cv2.INTER_AREA)
                crops.setdefault(int(c), []).append(crop)
    rows = []
    for c in sorted(crops):
        row = np.full((cell, cell + per_kind * (cell + 2), 3), 40, np.uint8)
        cv2.putText(row, CLASSES[c], (4, cell // 2 + 6), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 255, 255), 1)
        for k, crop in enumerate(crops[c]):
            x = cell + k * (cell + 2)
            row[: crop.shape[0], x : x + crop.shape[1]] = crop
        rows.append(row)
    path = out / "crops_sheet.png"
    cv2.imwrite(str(path), np.vstack(rows) if rows else np.full((cell, cell, 3), 40, np.uint8))
    return path


def generate(
    n: int, seed: int, out: Path, max_side: int = 1280, workers: int = 2, mix: dict[str, float] | None = None, stretch: float = 0.0,
    across: float = 0.0,
) -> None:
    for sub in ("images", "labels", "hands"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    build(list(TRAINED))  # render the face cache once, before the workers read it
    start, boxes = time.time(), 0
    jobs = [(seed, i, out, max_side, mix or {"hand": 1.0}, stretch, across) for i in range(n)]
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
    print(f"{n} images in {time.time() - start:.0f} s -> {out}; contact sheet {contact_sheet(out)}, crops {crops_sheet(out)}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=5000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument("--max-side", type=int, default=1280)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--scenes", type=_mix, default="hand", help="kinds and weights: hand (top-down rows), seated (a seated player's view), tiles (a few tiles, close)")
    p.add_argument("--stretch", type=float, default=0.0, help="share of the photos stretched to a square, as the Hong Kong photos were (0-1)")
    p.add_argument("--across", type=float, default=0.0, help="share of the top-down hands whose rows lie across the photo, turned up to 90 degrees, half of them close (0-1)")
    args = p.parse_args(argv)
    for name in ("stretch", "across"):
        if not 0 <= getattr(args, name) <= 1:
            p.error(f"--{name} is a share from 0 to 1, not {getattr(args, name)}")
    generate(args.n, args.seed, args.out, args.max_side, args.workers, args.scenes, args.stretch, args.across)


def _mix(text: str) -> dict[str, float]:
    try:
        return parse_mix(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


if __name__ == "__main__":
    main()
