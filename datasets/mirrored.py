"""Find the real training photos whose tile faces are mirrored.

The Roboflow export's training copies were augmented with random horizontal and
vertical flips, so about half of them show faces no real tile has (a flip is a
mirror; two flips are only a turn). Chirality survives turning, so each labelled
tile is cut out and its SIFT descriptors (which follow rotation but not reflection)
are matched against the same class cut from the validation photos, which were
never augmented, both as it is and flipped. A photo whose tiles match far better
flipped is mirrored; `real.build` flips it back.

Tiles alone leave many photos unsure (dots and bamboo look alike either way), but
every source photo was exported three times, each copy flipped at random. Whole
copies share thousands of SIFT features, so matching a copy against its first
sibling as it is and flipped tells whether the two have the same chirality; a
clear verdict on one copy then settles its siblings, and siblings with no clear
verdict pool their tile evidence.

The copies still unsure after that are judged a second time against a richer
reference: the validation photos plus every training photo settled in the first
round (the mirrored ones' tiles flipped back), sampled more deeply per class, and
settled again with their siblings. Photos still without an answer are left as
they are.

`python -m datasets.mirrored` writes `datasets/mirrored.tsv`: photo, tile matches
as it is and flipped and its own verdict in the first round, its chirality
relative to its first sibling, the same three from the second round (`-` where
its source photo was settled in the first), and the settled verdict.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from .real import SOURCE, corners, relabelled, source_of

LIST = Path(__file__).with_name("mirrored.tsv")
SIDE = 96  # a tile's short side in pixels before SIFT: enough detail in a 640 px photo's tile
PER_CLASS = 6000  # reference descriptors kept per class in the first round ...
SECOND_PER_CLASS = 20000  # ... and, sampled at random, in the second
RATIO = 0.75  # Lowe's ratio test
CLEAR = 1.5  # one reading must beat the other by this factor ...
MARGIN = 15  # ... and by this many matches, or the photo is left alone
SIBLING_FEATURES = 3000  # SIFT features per whole copy
SIBLING_INLIERS = 20  # a relation between copies needs this many RANSAC inliers ...
SIBLING_CLEAR = 2.0  # ... and this factor over the other chirality (measured: 3.4 at worst)
OPPOSITE = {"upright": "mirrored", "mirrored": "upright", "unsure": "unsure"}
T = TypeVar("T")


def ratio_matches(matcher: cv2.DescriptorMatcher, query: np.ndarray | None, train: np.ndarray | None) -> list:
    """Matches clearly better than their runner-up (Lowe's ratio test)."""
    if query is None or train is None or len(query) < 2 or len(train) < 2:
        return []
    pairs = matcher.knnMatch(query, train, k=2)
    return [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]


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


def _photos(split: Path) -> Iterator[tuple[Path, str]]:
    """A split's photos with their source labels, less those whose labels are wrong
    (they would teach the judge wrong faces)."""
    wrong = relabelled()
    for img in sorted((split / "images").iterdir()):
        if img.name in wrong:
            continue
        label = split / "labels" / (img.stem + ".txt")
        if label.exists():
            yield img, label.read_text()


Reference = tuple[Path, str, bool]  # a photo, its label, whether its faces are mirrored


def references(split: Path) -> Iterator[Reference]:
    """The photos of an unaugmented split, none of them mirrored."""
    return ((img, label, False) for img, label in _photos(split))


class Judge:
    """SIFT references per class from photos of known chirality; scores a photo both
    ways. Without a seed the first `per_class` descriptors of a class are kept, with
    one a random sample of them (the deeper second round would otherwise lean on the
    first few photos)."""

    def __init__(self, refs: Iterable[Reference], per_class: int = PER_CLASS, seed: int | None = None):
        self.sift = cv2.SIFT_create()
        self.matcher = cv2.BFMatcher()
        pooled: dict[int, list[np.ndarray]] = {}
        for img, label, mirror in refs:
            for cls, crop in tile_crops(cv2.imread(str(img), cv2.IMREAD_GRAYSCALE), label):
                _, desc = self.sift.detectAndCompute(cv2.flip(crop, 1) if mirror else crop, None)
                if desc is not None:
                    pooled.setdefault(cls, []).append(desc)
        rng = None if seed is None else np.random.default_rng(seed)
        self.reference = {}
        for cls, ds in pooled.items():
            found = np.vstack(ds)
            self.reference[cls] = found[:per_class] if rng is None else found[rng.permutation(len(found))[:per_class]]

    def _matches(self, crop: np.ndarray, cls: int) -> int:
        _, desc = self.sift.detectAndCompute(crop, None)
        return len(ratio_matches(self.matcher, desc, self.reference.get(cls)))

    def verdict(self, img: Path, label: str) -> Verdict:
        crops = tile_crops(cv2.imread(str(img), cv2.IMREAD_GRAYSCALE), label)
        as_is = sum(self._matches(crop, cls) for cls, crop in crops)
        flipped = sum(self._matches(cv2.flip(crop, 1), cls) for cls, crop in crops)
        return Verdict(img.name, as_is, flipped)


def by_source(items: Iterable[T], photo: Callable[[T], str]) -> list[list[T]]:
    """Items grouped by the source photo of the copy `photo` names, in first-seen order."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(source_of(photo(item)), []).append(item)
    return list(groups.values())


class Siblings:
    """Chirality of one copy relative to another of the same source photo: whole-photo
    SIFT matches, kept by a RANSAC affine fit (the copies differ by turns, shear and
    brightness), counted against the copy as it is and flipped."""

    def __init__(self):
        self.sift = cv2.SIFT_create(nfeatures=SIBLING_FEATURES)
        self.matcher = cv2.BFMatcher()

    def _inliers(self, a: tuple, b: tuple) -> int:
        (keys_a, desc_a), (keys_b, desc_b) = a, b
        good = ratio_matches(self.matcher, desc_a, desc_b)
        if len(good) < 3:
            return 0
        src = np.float32([keys_a[m.queryIdx].pt for m in good])
        dst = np.float32([keys_b[m.trainIdx].pt for m in good])
        _, mask = cv2.estimateAffine2D(src, dst, ransacReprojThreshold=8.0)
        return 0 if mask is None else int(mask.sum())

    def relations(self, copies: list[Path]) -> list[str]:
        """Each copy against the first: "same", "mirror" or "unknown"."""
        grays = [cv2.imread(str(c), cv2.IMREAD_GRAYSCALE) for c in copies]
        first = self.sift.detectAndCompute(grays[0], None)
        found = ["same"]
        for gray in grays[1:]:
            same = self._inliers(first, self.sift.detectAndCompute(gray, None))
            mirror = self._inliers(first, self.sift.detectAndCompute(cv2.flip(gray, 1), None))
            best, other = max(same, mirror), min(same, mirror)
            clear = best >= SIBLING_INLIERS and best >= SIBLING_CLEAR * other
            found.append(("same" if same > mirror else "mirror") if clear else "unknown")
        return found


def settle(verdicts: list[Verdict], relations: list[str]) -> list[str]:
    """Final verdicts for the copies of one source photo, `relations` to the first.
    Clear verdicts of related copies fix the first copy's chirality (and if they
    disagree nothing is settled); without any, related copies pool their tile
    matches. Copies of unknown relation keep their own verdict."""
    related = [(v, r) for v, r in zip(verdicts, relations) if r != "unknown"]
    implied = {w if r == "same" else OPPOSITE[w] for v, r in related if (w := v.word) != "unsure"}
    if len(implied) > 1:
        return [v.word for v in verdicts]
    if implied:
        first = implied.pop()
    else:
        pooled = [(v.as_is, v.flipped) if r == "same" else (v.flipped, v.as_is) for v, r in related]
        first = Verdict("", sum(p[0] for p in pooled), sum(p[1] for p in pooled)).word
    return [v.word if r == "unknown" else first if r == "same" else OPPOSITE[first] for v, r in zip(verdicts, relations)]


@dataclass(frozen=True)
class Row:
    verdict: Verdict
    relation: str
    settled: str
    second: Verdict | None = None  # the second round's matches, where there was one


def write_list(rows: list[Row], path: Path = LIST) -> None:
    def matches(v: Verdict | None) -> str:
        return "-\t-\t-" if v is None else f"{v.as_is}\t{v.flipped}\t{v.word}"

    lines = ["photo\tas_is\tflipped\town\trelation\tas_is_2\tflipped_2\town_2\tverdict"] + [
        f"{r.verdict.photo}\t{matches(r.verdict)}\t{r.relation}\t{matches(r.second)}\t{r.settled}" for r in rows
    ]
    path.write_text("\n".join(lines) + "\n")


def read_rows(path: Path = LIST) -> list[Row]:
    fields = (line.split("\t") for line in path.read_text().splitlines()[1:] if line.strip())
    return [
        Row(Verdict(f[0], int(f[1]), int(f[2])), f[4], f[8], None if f[5] == "-" else Verdict(f[0], int(f[5]), int(f[6])))
        for f in fields
    ]


def read_list(path: Path = LIST) -> frozenset[str]:
    """Names of the photos settled as mirrored."""
    return frozenset(r.verdict.photo for r in read_rows(path) if r.settled == "mirrored")


def judge_photos(photos: list[tuple[Path, str]], judge: Judge | None, earlier: dict[str, Verdict]) -> list[Row]:
    """Rows for every (photo, label), grouped by source photo; tile matches come
    from `earlier` when it has them (the slow part), else from `judge`."""
    siblings, rows = Siblings(), []
    for copies in by_source(photos, lambda p: p[0].name):
        verdicts = [earlier.get(img.name) or judge.verdict(img, label) for img, label in copies]
        relations = siblings.relations([img for img, _ in copies])
        rows += [Row(v, r, s) for v, r, s in zip(verdicts, relations, settle(verdicts, relations))]
    return rows


def second_references(rows: list[Row], photos: list[tuple[Path, str]], valid: Path) -> Iterator[Reference]:
    """The validation photos, then the training photos (of `photos`, in their order) the first round settled."""
    yield from references(valid)
    settled = {r.verdict.photo: r.settled == "mirrored" for r in rows if r.settled != "unsure"}
    yield from ((img, label, settled[img.name]) for img, label in photos if img.name in settled)


def second_round(rows: list[Row], photos: list[tuple[Path, str]], valid: Path, earlier: dict[str, Verdict]) -> list[Row]:
    """Every copy of a source photo left with an unsure copy, judged again (from
    `earlier` when it has the photo, else by a deeper judge, built only then) and
    settled again."""
    labels = {img.name: (img, label) for img, label in photos}
    groups = by_source(rows, lambda r: r.verdict.photo)
    again = [any(r.settled == "unsure" for r in g) for g in groups]
    judge = None
    if any(r.verdict.photo not in earlier for g, a in zip(groups, again) if a for r in g):
        judge = Judge(second_references(rows, photos, valid), SECOND_PER_CLASS, seed=0)
    out = []
    for group, unsure in zip(groups, again):
        if not unsure:
            out += group
            continue
        seconds = [earlier.get(r.verdict.photo) or judge.verdict(*labels[r.verdict.photo]) for r in group]
        settled = settle(seconds, [r.relation for r in group])
        out += [replace(r, second=v, settled=w) for r, v, w in zip(group, seconds, settled)]
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--source", type=Path, default=SOURCE)
    p.add_argument("--out", type=Path, default=LIST)
    p.add_argument("--reuse", type=Path, help="take both rounds' tile matches from this earlier list (the slow part)")
    args = p.parse_args(argv)
    earlier = read_rows(args.reuse) if args.reuse else []
    first = {r.verdict.photo: r.verdict for r in earlier}
    second = {r.verdict.photo: r.second for r in earlier if r.second}
    photos = list(_photos(args.source / "train"))
    judge = Judge(references(args.source / "valid")) if any(img.name not in first for img, _ in photos) else None
    rows = judge_photos(photos, judge, first)
    print(f"{len(rows)} photos; first round: " + _counts(r.verdict.word for r in rows))
    print("settled with siblings: " + _counts(r.settled for r in rows))
    rows = second_round(rows, photos, args.source / "valid", second)
    write_list(rows, args.out)
    print(f"second round, {sum(r.second is not None for r in rows)} photos again: " + _counts(r.settled for r in rows))
    print(f"-> {args.out}")


def _counts(words: Iterable[str]) -> str:
    found = list(words)
    return ", ".join(f"{found.count(w)} {w}" for w in ("upright", "mirrored", "unsure"))


if __name__ == "__main__":
    main()
