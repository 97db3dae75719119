"""Find the real training photos whose tile faces are mirrored.

The Roboflow export's training copies were augmented with random horizontal and
vertical flips, so about half of them show faces no real tile has (a flip is a
mirror; two flips are only a turn). Chirality survives turning, so each labelled
tile is cut out and its SIFT descriptors (which follow rotation but not reflection)
are matched against the same class cut from the validation photos, which were
never augmented, both as it is and flipped. A photo whose tiles match far better
flipped is mirrored; `real.build` flips it back. Photos without a clear answer
(mostly dots and bamboo, which look alike either way) are left as they are.

`python -m datasets.mirrored` writes `datasets/mirrored.tsv`: photo, matches as it
is, matches flipped, verdict.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .real import SOURCE, corners

LIST = Path(__file__).with_name("mirrored.tsv")
SIDE = 96  # a tile's short side in pixels before SIFT: enough detail in a 640 px photo's tile
PER_CLASS = 6000  # reference descriptors kept per class
RATIO = 0.75  # Lowe's ratio test
CLEAR = 1.5  # one reading must beat the other by this factor ...
MARGIN = 15  # ... and by this many matches, or the photo is left alone


@dataclass(frozen=True)
class Verdict:
    photo: str
    as_is: int
    flipped: int

    @property
    def mirrored(self) -> bool:
        return self.flipped >= CLEAR * self.as_is and self.flipped - self.as_is >= MARGIN

    @property
    def upright(self) -> bool:
        return self.as_is >= CLEAR * self.flipped and self.as_is - self.flipped >= MARGIN

    @property
    def word(self) -> str:
        return "mirrored" if self.mirrored else "upright" if self.upright else "unsure"


def tile_crops(gray: np.ndarray, label: str) -> list[tuple[int, np.ndarray]]:
    """(their class, crop scaled to SIDE px on its short side) per labelled tile;
    a polygon label counts as its bounding box."""
    h, w = gray.shape
    crops = []
    for line in label.splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        x1, y1, x2, y2 = corners([float(v) for v in parts[1:]])
        a, b, c, d = max(int(x1 * w), 0), int(x2 * w), max(int(y1 * h), 0), int(y2 * h)
        if b - a < 8 or d - c < 8:
            continue
        crop = gray[c:d, a:b]
        scale = SIDE / min(crop.shape)
        crops.append((int(parts[0]), cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)))
    return crops


def _photos(split: Path):
    for img in sorted((split / "images").iterdir()):
        label = split / "labels" / (img.stem + ".txt")
        if label.exists():
            yield img, label.read_text()


class Judge:
    """SIFT references per class from unaugmented photos; scores a photo both ways."""

    def __init__(self, reference_split: Path):
        self.sift = cv2.SIFT_create()
        self.matcher = cv2.BFMatcher()
        pooled: dict[int, list[np.ndarray]] = {}
        for img, label in _photos(reference_split):
            for cls, crop in tile_crops(cv2.imread(str(img), cv2.IMREAD_GRAYSCALE), label):
                _, desc = self.sift.detectAndCompute(crop, None)
                if desc is not None:
                    pooled.setdefault(cls, []).append(desc)
        self.reference = {cls: np.vstack(ds)[:PER_CLASS] for cls, ds in pooled.items()}

    def _matches(self, crop: np.ndarray, cls: int) -> int:
        _, desc = self.sift.detectAndCompute(crop, None)
        ref = self.reference.get(cls)
        if desc is None or len(desc) < 2 or ref is None:
            return 0
        pairs = self.matcher.knnMatch(desc, ref, k=2)
        return sum(1 for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance)

    def verdict(self, img: Path, label: str) -> Verdict:
        crops = tile_crops(cv2.imread(str(img), cv2.IMREAD_GRAYSCALE), label)
        as_is = sum(self._matches(crop, cls) for cls, crop in crops)
        flipped = sum(self._matches(cv2.flip(crop, 1), cls) for cls, crop in crops)
        return Verdict(img.name, as_is, flipped)


def write_list(verdicts: list[Verdict], path: Path = LIST) -> None:
    rows = ["photo\tas_is\tflipped\tverdict"] + [f"{v.photo}\t{v.as_is}\t{v.flipped}\t{v.word}" for v in verdicts]
    path.write_text("\n".join(rows) + "\n")


def read_list(path: Path = LIST) -> frozenset[str]:
    """Names of the photos judged mirrored."""
    rows = (line.split("\t") for line in path.read_text().splitlines()[1:] if line.strip())
    return frozenset(r[0] for r in rows if Verdict(r[0], int(r[1]), int(r[2])).mirrored)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--source", type=Path, default=SOURCE)
    p.add_argument("--out", type=Path, default=LIST)
    args = p.parse_args(argv)
    judge = Judge(args.source / "valid")
    verdicts = [judge.verdict(img, label) for img, label in _photos(args.source / "train")]
    write_list(verdicts, args.out)
    counts = {w: sum(v.word == w for v in verdicts) for w in ("upright", "mirrored", "unsure")}
    print(f"{len(verdicts)} photos: " + ", ".join(f"{n} {w}" for w, n in counts.items()) + f" -> {args.out}")


if __name__ == "__main__":
    main()
