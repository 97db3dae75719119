"""`make eval-generalisation`: the shipped networks reading tiles they have never seen, in
one table, beside the Hong Kong validation photos they were tuned on.

The shipped networks were trained on the real photos only (the Hong Kong set of
`../shared/datasets/chinese-mahjong-detection`), so every rendered art source and font
is unseen by them: "unseen art" renders hands from each art source alone
(`datasets/faces.py`), "unseen scenes" renders what players photograph and the real
photos never show (`datasets/scene.py`: a lone tile, close-ups, a row of standing tiles
seen from the side, white, wood, glass and cloth tables), every art source mixed. Each
row is `--n` renders of fixed seeds, so a run reads the same photos every time.
"Unseen real set" (the readers trained without the Hong Kong photos, reading them) needs
networks trained so; none are, and no row claims it.

Per row: tiles found (class-agnostic, IoU 0.5), tiles read right (the right class at
IoU 0.5), flowers read right (the same, on the flowers), photos entirely right (every
tile read right and nothing else read), all at the detector's working confidence.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from .classes import CLASSES
from .detector import Detector
from .evaluate import arrays, claimed, image_files, labels_for
from .image import load

ROOT = Path(__file__).resolve().parents[1]
HONG_KONG = ROOT / "work" / "datasets" / "real" / "valid"
SEED = 900_000  # photo i of every rendered row is seed SEED + i
FLOWERS = np.array([c.endswith("f") for c in CLASSES])

Truth = tuple[np.ndarray, np.ndarray]  # BGR photo, its true boxes (rows class, x1, y1, x2, y2)


class Tally:
    """What one protocol row read, counted: photos, tiles, found, right, flowers,
    flowers_right, entirely_right."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def add(self, tiles: list, gt: np.ndarray) -> None:
        boxes, cls, conf = arrays(tiles)
        right = claimed(boxes, cls, conf, gt)
        flower = FLOWERS[gt[:, 0].astype(int)]
        self.counts.update(
            photos=1,
            tiles=len(gt),
            found=int(claimed(boxes, cls, conf, gt, any_class=True).sum()),
            right=int(right.sum()),
            flowers=int(flower.sum()),
            flowers_right=int(right[flower].sum()),
            entirely_right=int(right.all() and len(tiles) == len(gt)),
        )


def _share(n: int, of: int) -> str:
    return f"{100 * n / of:.1f} %" if of else "-"


def table(tallies: dict[str, Tally]) -> str:
    lines = [
        "| protocol row | photos | tiles | tiles found (IoU 0.5) | tiles read right | flowers read right | photos entirely right |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, tally in tallies.items():
        n = tally.counts
        flowers = f"{_share(n['flowers_right'], n['flowers'])} of {n['flowers']}" if n["flowers"] else "- (none shown)"
        lines.append(
            f"| {name} | {n['photos']} | {n['tiles']} | {_share(n['found'], n['tiles'])} | {_share(n['right'], n['tiles'])} | {flowers} | "
            f"{_share(n['entirely_right'], n['photos'])} |"
        )
    return "\n".join(lines)


def rendered_rows(n: int, max_side: int) -> dict[str, Callable[[], Iterator[Truth]]]:
    """Each rendered protocol row: its name and the photos it reads."""
    from datasets.faces import build
    from datasets.scene import render, render_scene

    faces = build()

    def photos(make: Callable[[int], object]) -> Callable[[], Iterator[Truth]]:
        def read() -> Iterator[Truth]:
            for i in range(n):
                photo = make(SEED + i)
                yield photo.image, np.array(photo.boxes, float).reshape(-1, 5)

        return read

    rows = {f"unseen art: {style}": photos(lambda seed, style=style: render({style: faces[style]}, seed, max_side)) for style in faces}
    scenes = {"lone tile": "lone", "close-up (a tile 10-70 % of the height)": "close-up", "standing row seen from the side": "standing"}
    rows |= {f"unseen scene: {name}": photos(lambda seed, s=scene: render_scene(faces, seed, s, max_side=max_side)) for name, scene in scenes.items()}
    rows |= {f"unseen scene: hand on a {table} table": photos(lambda seed, t=table: render(faces, seed, max_side, table=t)) for table in ("white", "wood", "glass", "cloth")}
    return rows


def hong_kong(folder: Path) -> Callable[[], Iterator[Truth]]:
    def read() -> Iterator[Truth]:
        for f in image_files(folder):
            img = load(f)
            yield img, labels_for(f, img.shape[1], img.shape[0])

    return read


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.generalisation", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, default=20, help="renders per rendered row (fixed seeds)")
    p.add_argument("--max-side", type=int, default=960, help="the renders' long side in pixels (the detector reads 480)")
    p.add_argument("--real", type=Path, default=HONG_KONG, help="the Hong Kong validation photos (`make train` or datasets/README.md builds them)")
    args = p.parse_args(argv)
    if not (args.real / "images").is_dir():
        print(f"no validation photos at {args.real}/images: build the dataset view first (datasets/README.md)", file=sys.stderr)
        return 2
    from tqdm import tqdm

    rows = rendered_rows(args.n, args.max_side)
    real = image_files(args.real)
    rows[f"Hong Kong validation photos (tuned on; {len(real)} as exported)"] = hong_kong(args.real)
    detector = Detector()
    tallies = {name: Tally() for name in rows}
    with tqdm(total=args.n * (len(rows) - 1) + len(real), unit="photo", file=sys.stderr) as bar:
        for name, read in rows.items():
            bar.set_description(name[:40])
            for img, gt in read():
                tallies[name].add(detector.detect(img), gt)
                bar.update()
    print(table(tallies))
    return 0


if __name__ == "__main__":
    sys.exit(main())
