"""`python -m vision.training.finder WEIGHTS`: the tiles a one-class finder trained on
renders alone finds in the photos of `make eval-generalisation`.

Issue 21 asks the detector to find every tile whatever is printed on it, measured where
it never saw the tiles. The shipped detector saw the Hong Kong photos, so its "found" on
them says nothing of a new set. A finder trained with `make train ARGS="--no-real
--single-class --synthetic DIR"` never did: its found share on the Hong Kong validation
photos is the unseen-real-set number, and on the rendered rows (held-out art, unseen
scenes) the unseen-art one. The Hong Kong photos are also counted apart: the 34 strips
Roboflow's export stretched out of shape and the photos with natural proportions, as
`datasets.real.by_shape` links them for `taiscore eval`. Found: a true box claimed at
IoU 0.5 by a box at the working confidence (`vision.config.DEFAULT.conf`),
class-agnostic; stray: a box claiming none.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from vision.config import DEFAULT
from vision.evaluate import claimed, image_files
from vision.generalisation import HONG_KONG, hong_kong, rendered_rows

from .env import TRAIN_IMGSZ, offline


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.training.finder", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("weights", type=Path, help="a finder's weights (work/runs/NAME/weights/last.pt)")
    p.add_argument("--n", type=int, default=10, help="renders per rendered row (the generalisation table's fixed seeds)")
    p.add_argument("--max-side", type=int, default=960)
    p.add_argument("--imgsz", type=int, default=TRAIN_IMGSZ)
    p.add_argument("--real", type=Path, default=HONG_KONG)
    args = p.parse_args(argv)
    if not args.weights.is_file() or not (args.real / "images").is_dir():
        print(f"no weights at {args.weights}, or no validation photos at {args.real}/images", file=sys.stderr)
        return 2
    offline()
    from ultralytics import YOLO

    from datasets.real import by_shape

    model = YOLO(str(args.weights))
    rows = {f"unseen real set: the Hong Kong validation photos ({len(image_files(args.real))})": hong_kong(args.real)}
    shapes = by_shape(args.real)
    rows |= {f"  of them, {name}": hong_kong(shapes[kind]) for kind, name in (("natural", "natural proportions"), ("stretched", "strips the export stretched"))}
    rows |= rendered_rows(args.n, args.max_side)
    print("| row | photos | tiles | tiles found (IoU 0.5) | stray boxes a photo |\n| --- | --- | --- | --- | --- |")
    for name, read in rows.items():
        photos = tiles = found = stray = 0
        for img, gt in read():
            result = model.predict(img, imgsz=args.imgsz, conf=DEFAULT.conf, verbose=False)[0]
            boxes, conf = result.boxes.xyxy.numpy(), result.boxes.conf.numpy()
            hit = claimed(boxes, np.zeros(len(boxes), int), conf, gt, any_class=True)
            photos, tiles, found, stray = photos + 1, tiles + len(gt), found + int(hit.sum()), stray + max(0, len(boxes) - int(hit.sum()))
        print(f"| {name} | {photos} | {tiles} | {100 * found / max(tiles, 1):.1f} % | {stray / max(photos, 1):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
