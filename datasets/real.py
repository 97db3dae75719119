"""Join the real labelled photos (Roboflow `chinese-mahjong-detection` v4, CC BY 4.0)
to our class order without copying them into the repository: images are linked,
labels rewritten as boxes in our 43-class order. Training photos the export mirrored
(`mirrored.py`) are flipped back, labels with them, since mirrored faces do not exist.
Photos whose source labels are wrong take the codes read again by eye
(`relabelled.tsv`): a wrong label marks right readings wrong in validation.

Class remap (their `data.yaml` names -> our codes): sc1..sc9 -> 1m..9m,
sd1..sd9 -> 1p..9p, sb1..sb9 -> 1s..9s, hwe hws hww hwn -> 1z 2z 3z 4z,
hdw hdg hdr -> 5z 6z 7z, bs1..bs4 (seasons) -> 1f..4f, bf1..bf4 (flowers) -> 5f..8f.
"""

from __future__ import annotations

import math
import os
import random
import shutil
import statistics
from pathlib import Path

import cv2
import numpy as np

from vision.classes import INDEX

SOURCE = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "chinese-mahjong-detection"
RELABELLED = Path(__file__).with_name("relabelled.tsv")
THEIR_NAMES = (
    "bs1 sc1 sd1 sb1 hwe bs2 sc2 sd2 sb2 hws bs3 sc3 sd3 sb3 hww bs4 sc4 sd4 sb4 hwn "
    "bf1 sc5 sd5 sb5 hdw bf2 sc6 sd6 sb6 hdg bf3 sc7 sd7 sb7 hdr bf4 sc8 sd8 sb8 sc9 sd9 sb9"
).split()
_SUIT = {"sc": "m", "sd": "p", "sb": "s"}
_HONOUR = {"hwe": "1z", "hws": "2z", "hww": "3z", "hwn": "4z", "hdw": "5z", "hdg": "6z", "hdr": "7z"}


def our_code(name: str) -> str:
    if name in _HONOUR:
        return _HONOUR[name]
    if name[:2] in _SUIT:
        return name[2] + _SUIT[name[:2]]
    n = int(name[2])
    return f"{n}f" if name[:2] == "bs" else f"{n + 4}f"


REMAP = [INDEX[our_code(n)] for n in THEIR_NAMES]


def corners(coords: list[float]) -> tuple[float, float, float, float]:
    """x1, y1, x2, y2 of a label's box (cx cy w h) or polygon (x1 y1 x2 y2 ...)."""
    if len(coords) == 4:
        cx, cy, w, h = coords
        return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    xs, ys = coords[0::2], coords[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def convert_line(line: str) -> str | None:
    """One label line (box or polygon) to a box line in our classes."""
    parts = line.split()
    if len(parts) < 5:
        return None
    cls, coords = REMAP[int(parts[0])], [float(v) for v in parts[1:]]
    if len(coords) > 4:  # polygon -> its bounding box
        x1, y1, x2, y2 = corners(coords)
        coords = [(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1]
    return f"{cls} " + " ".join(f"{v:.6f}" for v in coords)


def flip_line(line: str) -> str:
    """A box line as it reads once its photo is flipped left to right."""
    cls, cx, rest = line.split(" ", 2)
    return f"{cls} {1 - float(cx):.6f} {rest}"


def turn_line(line: str) -> str:
    """A box line as it reads once its photo is turned 180 degrees."""
    cls, cx, cy, rest = line.split(" ", 3)
    return f"{cls} {1 - float(cx):.6f} {1 - float(cy):.6f} {rest}"


def _write_changed(photo: np.ndarray, target: Path) -> None:
    """Write a changed photo (flipped, turned, stretched) at full JPEG quality, since it is trained on."""
    cv2.imwrite(str(target), photo, [cv2.IMWRITE_JPEG_QUALITY, 100])


def _place(img: Path, target: Path, flip: bool) -> None:
    """Link the photo, or write it flipped; a target of the other kind is replaced."""
    if os.path.lexists(target) and target.is_symlink() == flip:
        target.unlink()
    if os.path.lexists(target):
        return
    if flip:
        _write_changed(cv2.flip(cv2.imread(str(img)), 1), target)
    else:
        os.symlink(img, target)


def _fresh(folder: Path) -> tuple[Path, Path]:
    """An empty `folder/images` and `folder/labels`: what an earlier build chose, flipped
    or linked there must not linger."""
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir(parents=True)
    return folder / "images", folder / "labels"


def relabelled(path: Path = RELABELLED) -> dict[str, tuple[str, ...]]:
    """Source photos whose labels are wrong -> our code for each of their label lines, in order."""
    fields = (line.split("\t") for line in path.read_text().splitlines()[1:] if line.strip())
    return {f[0]: tuple(f[1].split()) for f in fields}


def relabel(lines: list[str], codes: tuple[str, ...], photo: str) -> list[str]:
    """Box lines with their classes replaced by `codes`, one per line."""
    if len(codes) != len(lines):
        raise ValueError(f"{photo}: {len(codes)} codes in the relabelled list for {len(lines)} labelled tiles")
    return [f"{INDEX[code]} {line.split(' ', 1)[1]}" for line, code in zip(lines, codes)]


def build(
    out: Path, source: Path = SOURCE, mirrored: frozenset[str] = frozenset(), relabelled: dict[str, tuple[str, ...]] | None = None
) -> dict[str, Path]:
    """Write `out/{train,valid}/{images,labels}`, flipping back the training photos
    named in `mirrored` and giving the photos in `relabelled` their codes; returns the
    image folder per split."""
    relabelled = relabelled or {}
    splits = {}
    for split in ("train", "valid"):
        images, labels = out / split / "images", out / split / "labels"
        images.mkdir(parents=True, exist_ok=True)
        labels.mkdir(parents=True, exist_ok=True)
        for img in sorted((source / split / "images").iterdir()):
            flip = split == "train" and img.name in mirrored
            _place(img, images / img.name, flip)
            src = source / split / "labels" / (img.stem + ".txt")
            lines = [c for raw in src.read_text().splitlines() if (c := convert_line(raw))] if src.exists() else []
            if img.name in relabelled:
                lines = relabel(lines, relabelled[img.name], img.name)
            if flip:
                lines = [flip_line(line) for line in lines]
            (labels / (img.stem + ".txt")).write_text("\n".join(lines) + ("\n" if lines else ""))
        splits[split] = images
    return splits


def flower_copies(out: Path, copies: int) -> list[Path]:
    """Extra links to the training photos that hold a flower, `copies` times over: the
    flowers are a third as common as each suit tile there, so the sampler sees them
    more often (whole photos are repeated, labels and all, never edited)."""
    train = out / "train"
    flower_ids = {str(INDEX[f"{n}f"]) for n in range(1, 9)}
    chosen = []
    for img in sorted((train / "images").iterdir()):
        label = (train / "labels" / (img.stem + ".txt")).read_text()
        if any(line.split()[0] in flower_ids for line in label.splitlines() if line.strip()):
            chosen.append((img, label))
    folders = []
    for k in range(1, copies + 1):
        images, labels = _fresh(out / f"train-flowers-{k}")
        for img, label in chosen:
            os.symlink(img.resolve(), images / img.name)
            (labels / (img.stem + ".txt")).write_text(label)
        folders.append(images)
    return folders


def turned_copies(out: Path) -> Path:
    """Every training photo turned 180 degrees, labels with it, in `out/train-turned`:
    a tile seen from across the table is turned, never mirrored, and the seven
    relabelled photos showed upside-down tiles misread (9m as 4m, 7s as 6s)."""
    train = out / "train"
    images, labels = _fresh(out / "train-turned")
    for img in sorted((train / "images").iterdir()):
        lines = (train / "labels" / (img.stem + ".txt")).read_text().splitlines()
        _write_changed(cv2.rotate(cv2.imread(str(img)), cv2.ROTATE_180), images / img.name)
        (labels / (img.stem + ".txt")).write_text("".join(turn_line(line) + "\n" for line in lines if line.strip()))
    return images


STRETCH_KEEP = 0.6  # a tile cut by the band keeps its label when this much of it is left


def stretch_line(line: str, axis: str, lo: float, size: float, across: tuple[float, float] = (0.0, 1.0)) -> str | None:
    """A box line once the band [lo, lo + size] along `axis` ("x" or "y") is stretched to
    the whole photo and the other axis squeezed into `across` (offset, share of the
    photo); None when the band leaves too little of the tile."""
    cls, *values = line.split()
    cx, cy, w, h = (float(v) for v in values)
    (centre, extent), (other, other_extent) = ((cx, w), (cy, h)) if axis == "x" else ((cy, h), (cx, w))
    a, b = max(centre - extent / 2, lo), min(centre + extent / 2, lo + size)
    if b - a < STRETCH_KEEP * extent:
        return None
    mid, span = ((a + b) / 2 - lo) / size, (b - a) / size
    other, other_extent = across[0] + other * across[1], other_extent * across[1]
    x, y, bw, bh = (mid, other, span, other_extent) if axis == "x" else (other, mid, other_extent, span)
    return f"{cls} {x:.6f} {y:.6f} {bw:.6f} {bh:.6f}"


def stretch(
    photo: np.ndarray, lines: list[str], axis: str, lo: float, size: float, squeeze: float = 1.0, at: float = 0.0
) -> tuple[np.ndarray, list[str]]:
    """The band [lo, lo + size] (fractions of the photo) along `axis` resized to the whole
    photo, the other axis `squeeze` times narrower at `at` (0 first, 1 last) on grey,
    boxes with it: what the export did to photos of one row of tiles."""
    h, w = photo.shape[:2]
    band = photo[:, round(lo * w) : round((lo + size) * w)] if axis == "x" else photo[round(lo * h) : round((lo + size) * h)]
    length = h if axis == "x" else w
    kept = max(1, round(length / squeeze))
    offset = round(at * (length - kept))
    out = np.full_like(photo, 114)
    if axis == "x":
        out[offset : offset + kept] = cv2.resize(band, (w, kept), interpolation=cv2.INTER_AREA)
    else:
        out[:, offset : offset + kept] = cv2.resize(band, (kept, h), interpolation=cv2.INTER_AREA)
    moved = (stretch_line(line, axis, lo, size, (offset / length, kept / length)) for line in lines)
    return out, [m for m in moved if m]


OUT_OF_SHAPE = 4.0  # a phone photo squeezed to 640x640 leaves tiles up to about 2.6 times as long as wide; the strips, 7 to 16


def out_of_shape(lines: list[str]) -> bool:
    """Whether the export stretched this photo's tiles out of shape, a strip of one row
    made 640x640: the median box is more than `OUT_OF_SHAPE` times taller than wide or
    wider than tall."""
    boxes = [line.split()[3:5] for line in lines if line.strip()]
    if not boxes:
        return False
    ratio = statistics.median_high(float(h) / float(w) for w, h in boxes)
    return max(ratio, 1 / ratio) > OUT_OF_SHAPE


def by_shape(split: Path) -> dict[str, Path]:
    """Link folders `<split>-natural` and `<split>-stretched` beside `split`, so the photos
    a camera takes (natural proportions) are measured apart from the strips the export
    stretched; returns the two folders."""
    folders = {kind: split.parent / f"{split.name}-{kind}" for kind in ("natural", "stretched")}
    for folder in folders.values():
        _fresh(folder)
    for img in sorted((split / "images").iterdir()):
        label = split / "labels" / (img.stem + ".txt")
        folder = folders["stretched" if out_of_shape(label.read_text().splitlines()) else "natural"]
        os.symlink(img.resolve(), folder / "images" / img.name)
        os.symlink(label.resolve(), folder / "labels" / label.name)
    return folders


UPRIGHT = 1.4  # a face-up tile seen from above is about this many times as tall as wide (the natural validation photos: 1.47)


def unstretch(photo: np.ndarray, lines: list[str]) -> np.ndarray:
    """A strip the export stretched, given its proportions back: its tiles upright and
    `UPRIGHT` times as tall as wide (the 34 strips hold upright faces), the pixel count kept."""
    h, w = photo.shape[:2]
    aspect = statistics.median_high(float(bw) * w / (float(bh) * h) for bw, bh in (line.split()[3:5] for line in lines if line.strip()))
    too_wide = math.sqrt(aspect * UPRIGHT)
    return cv2.resize(photo, (max(1, round(w / too_wide)), max(1, round(h * too_wide))), interpolation=cv2.INTER_AREA)


def restored(split: Path) -> Path:
    """`<split>-restored` beside `split`: every photo of it, the strips the export stretched
    out of shape given their proportions back (`unstretch`), so that all of them are read
    as the camera or the screen took them. The labels are shares of the photo and stand."""
    images, labels = _fresh(split.parent / f"{split.name}-restored")
    for img in sorted((split / "images").iterdir()):
        label = split / "labels" / (img.stem + ".txt")
        lines = label.read_text().splitlines()
        if out_of_shape(lines):
            _write_changed(unstretch(cv2.imread(str(img)), lines), images / img.name)
        else:
            os.symlink(img.resolve(), images / img.name)
        os.symlink(label.resolve(), labels / label.name)
    return images


def source_of(photo: str) -> str:
    """The source photo a Roboflow copy was made from (`<source>_jpg.rf.<hash>.jpg`)."""
    return photo.split(".rf.")[0]


def strip(photo: np.ndarray, lines: list[str], rng: random.Random) -> tuple[np.ndarray, list[str]]:
    """A band just wider than one tile (the smallest, or a random one) stretched to the
    whole photo and the other axis squeezed until the tiles are 3 to 16 times out of
    shape, boxes with it: what the export made of photos of one row of tiles."""
    axis = rng.choice("xy")
    along = 3 if axis == "x" else 4  # a box's extent along the axis (w or h); its centre is 2 before
    rows = [[float(v) for v in line.split()] for line in lines]
    row = min(rows, key=lambda r: r[along]) if rng.random() < 0.5 else rng.choice(rows)  # the smallest stretches most
    centre, extent = row[along - 2], row[along]
    pixels = photo.shape[1 if axis == "x" else 0]
    size = round(min(0.5, extent * rng.uniform(1.02, 1.5)) * pixels) / pixels  # whole pixels, so boxes and band agree
    lo = round(min(max(centre - size / 2 + rng.uniform(-0.15, 0.15) * size, 0.0), 1.0 - size) * pixels) / pixels
    squeeze = max(1.0, math.exp(rng.uniform(math.log(3), math.log(16))) * size)  # tiles 3 to 16 times out of shape
    return stretch(photo, lines, axis, lo, size, squeeze, rng.random())


def stretched_copies(out: Path, seed: int = 0) -> Path:
    """One copy per source photo made a strip (`strip`), in `out/train-stretched`: the
    export stretched every photo to 640x640, and 34 of the 296 validation photos were
    strips of one row whose tiles came out 7 to 16 times too tall or too wide, which no
    training photo showed (392 of their 395 tiles were missed)."""
    train = out / "train"
    images, labels = _fresh(out / "train-stretched")
    seen = set()
    for img in sorted((train / "images").iterdir()):
        lines = [line for line in (train / "labels" / (img.stem + ".txt")).read_text().splitlines() if line.strip()]
        if not lines or source_of(img.name) in seen:
            continue
        seen.add(source_of(img.name))
        photo, moved = strip(cv2.imread(str(img)), lines, random.Random(f"{seed}:{img.name}"))
        _write_changed(photo, images / img.name)
        (labels / (img.stem + ".txt")).write_text("".join(m + "\n" for m in moved))
    return images
