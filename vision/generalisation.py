"""`make eval-generalisation`: the networks reading tiles they have never seen, in one
table, beside the Hong Kong validation photos they were tuned on.

- Unseen art: hands rendered from each held-out art style alone
  (`datasets.faces.HELD_OUT`: a whole art source, a whole kmahjongg tileset, a whole
  brush font, the Noto Serif drawing), which no network is ever trained on.
- Unseen scenes: what players photograph and the real photos never show
  (`datasets/scene.py`: a lone tile, close-ups, a row of standing tiles seen from the
  side, white, wood, glass and cloth tables), the held-out styles mixed.
- Unseen real set: the Hong Kong validation photos read by a face reader trained without
  any Hong Kong photo (`models/unseen/`, ONNX metadata `hong_kong_photos: never seen`),
  alone, as a new player's set is read; the detector and the finder are the shipped
  ones, which did see them: the row says how the tiles are read, not found.
- Re-saved: the Hong Kong validation photos encoded again as JPEG at `--resave-quality`
  (50 by default), as a photo sent on and saved again: the same tiles, other pixels;
  what a re-save costs.
Each rendered row is `--n` renders of fixed seeds, so a run reads the same photos.

Per row: tiles found (class-agnostic, IoU 0.5), tiles read right (the right class at
IoU 0.5), flowers read right (the same, on the flowers), photos entirely right (every
tile read right and nothing else read), all at the detector's working confidence.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASSES
from .config import DEFAULT
from .detector import Detector
from .evaluate import arrays, claimed, image_files, labels_for
from .image import load
from .models import DEFAULT_CHARACTERS, DEFAULT_FACES, DEFAULT_FLOWERS, HONG_KONG_KEY, UNSEEN_FACES

ROOT = Path(__file__).resolve().parents[1]
HONG_KONG = ROOT / "work" / "datasets" / "real" / "valid"
SEED = 900_000  # photo i of every rendered row is seed SEED + i
RESAVE_QUALITY = 50  # a heavy re-save: models/README.md gives 90 and 75 too
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


HEADER = (
    "| protocol row | photos | tiles | tiles found (IoU 0.5) | tiles read right | flowers read right | photos entirely right |\n"
    "| --- | --- | --- | --- | --- | --- | --- |"
)


def row(name: str, tally: Tally) -> str:
    """One row of `table`: a long run prints each as it is counted."""
    n = tally.counts
    flowers = f"{_share(n['flowers_right'], n['flowers'])} of {n['flowers']}" if n["flowers"] else "- (none shown)"
    return (
        f"| {name} | {n['photos']} | {n['tiles']} | {_share(n['found'], n['tiles'])} | {_share(n['right'], n['tiles'])} | {flowers} | "
        f"{_share(n['entirely_right'], n['photos'])} |"
    )


def table(tallies: dict[str, Tally]) -> str:
    return "\n".join([HEADER, *(row(name, tally) for name, tally in tallies.items())])


def rendered_rows(n: int, max_side: int) -> dict[str, Callable[[], Iterator[Truth]]]:
    """Each rendered protocol row: its name and the photos it reads."""
    from datasets.faces import HELD_OUT, build
    from datasets.scene import render, render_scene

    faces = build(list(HELD_OUT))

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


def resaved(read: Callable[[], Iterator[Truth]], quality: int) -> Callable[[], Iterator[Truth]]:
    """The photos of `read` encoded again as JPEG at `quality` (1-100) and decoded."""

    def again() -> Iterator[Truth]:
        for img, gt in read():
            _, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
            yield cv2.imdecode(data, cv2.IMREAD_COLOR), gt

    return again


def _quality(text: str) -> int:
    try:
        quality = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a JPEG quality is a whole number 1 to 100, not {text!r}") from None
    if not 1 <= quality <= 100:
        raise argparse.ArgumentTypeError(f"a JPEG quality is 1 to 100, not {quality}")
    return quality


def hong_kong_photos(reader: Path) -> str:
    """What a reader's ONNX metadata says of the Hong Kong photos ("trained on", "never
    seen"); a reader exported before it said so was trained on them."""
    import onnxruntime as ort

    meta = ort.InferenceSession(str(reader), providers=["CPUExecutionProvider"]).get_modelmeta().custom_metadata_map
    return meta.get(HONG_KONG_KEY, "trained on")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.generalisation", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, default=20, help="renders per rendered row (fixed seeds)")
    p.add_argument("--max-side", type=int, default=960, help="the renders' long side in pixels (the detector reads 480)")
    p.add_argument("--real", type=Path, default=HONG_KONG, help="the Hong Kong validation photos (`make train` or datasets/README.md builds them)")
    p.add_argument("--resave-quality", type=_quality, default=RESAVE_QUALITY, help="the JPEG quality (1-100) of the re-saved row")
    p.add_argument("--faces", type=Path, default=DEFAULT_FACES, help="the face reader of every row but the unseen real set's")
    p.add_argument("--flowers", type=Path, default=DEFAULT_FLOWERS, help="the flower reader beside it")
    p.add_argument("--unseen-faces", type=Path, default=UNSEEN_FACES, help="the unseen real set's face reader: one that never saw a Hong Kong photo (read alone, with no flower reader)")
    p.add_argument("--characters", default=str(DEFAULT_CHARACTERS), help="the text recogniser reading the characters of the tiles the readers are unsure of, in every row; 'none': without it")
    p.add_argument("--character-odds", type=float, default=DEFAULT.character_odds, help="how far the text recogniser's reading weighs (Thresholds.character_odds)")
    p.add_argument("--corner-odds", type=float, default=DEFAULT.corner_odds, help="how far a flower's numeral and name read in its corners weigh (Thresholds.corner_odds)")
    p.add_argument("--name-odds", type=float, default=DEFAULT.name_odds, help="how far a flower's name read in a corner weighs for whether the tile is a flower (Thresholds.name_odds)")
    p.add_argument("--suit-odds", type=float, default=DEFAULT.suit_odds, help="how far whether a tile shows circles weighs for the dots (Thresholds.suit_odds)")
    p.add_argument("--stick-odds", type=float, default=DEFAULT.stick_odds, help="how far a tile's sticks weigh for the bamboo (Thresholds.stick_odds)")
    args = p.parse_args(argv)
    if not (args.real / "images").is_dir():
        print(f"no validation photos at {args.real}/images: build the dataset view first (datasets/README.md)", file=sys.stderr)
        return 2
    for reader in (args.faces, args.flowers, args.unseen_faces):
        if not reader.is_file():
            print(f"no reader at {reader}", file=sys.stderr)
            return 2
    if hong_kong_photos(args.unseen_faces) != "never seen":
        print(f"{args.unseen_faces} was trained on the Hong Kong photos (ONNX metadata {HONG_KONG_KEY}): it cannot read them as an unseen set", file=sys.stderr)
        return 2
    from tqdm import tqdm

    characters = None if args.characters == "none" else Path(args.characters)
    config = dataclasses.replace(DEFAULT, character_odds=args.character_odds, corner_odds=args.corner_odds, name_odds=args.name_odds,
                                 suit_odds=args.suit_odds, stick_odds=args.stick_odds)
    shipped = Detector(faces=args.faces, flowers=args.flowers, characters=characters, config=config)
    unseen = Detector(faces=args.unseen_faces, flowers=None, characters=characters, config=config)
    real = image_files(args.real)
    rows = {f"unseen real set: the Hong Kong validation photos ({len(real)}), a face reader that never saw a Hong Kong photo": (hong_kong(args.real), unseen)}
    rows |= {name: (read, shipped) for name, read in rendered_rows(args.n, args.max_side).items()}
    rows[f"Hong Kong validation photos (tuned on; {len(real)} as exported)"] = (hong_kong(args.real), shipped)
    rows[f"Hong Kong validation photos ({len(real)}) re-saved as JPEG at quality {args.resave_quality}"] = (resaved(hong_kong(args.real), args.resave_quality), shipped)
    tallies = {name: Tally() for name in rows}
    with tqdm(total=args.n * (len(rows) - 3) + 3 * len(real), unit="photo", file=sys.stderr) as bar:
        for name, (read, detector) in rows.items():
            bar.set_description(name[:40])
            for img, gt in read():
                tallies[name].add(detector.detect(img), gt)
                bar.update()
    print(table(tallies))
    return 0


if __name__ == "__main__":
    sys.exit(main())
