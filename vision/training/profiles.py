"""`python -m vision.training.profiles`: what a tile-set profile (`vision/tileset.py`)
does for art the shipped readers never saw, on renders (`datasets/sheet.py`,
`datasets/scene.py`).

For each held-out art style (`datasets.faces.HELD_OUT`: no network trains on them),
profiles are learnt from rendered sheets of that style (the first sheets whose tiles the
detector finds 42 of: one, then three), and rendered hands of it are read with no
profile, each of those, and the next style's one-sheet profile (another set's), and the next style's profile of
a sheet without its flowers, told the set has none (a look-alike set without flowers:
its player's flowers must still be read). Printed
per style: tiles read right (a labelled tile with a detection of its code at IoU 0.5)
and photos entirely right (every tile right, nothing extra); then the time to learn 42
photos and what reading a hand's tiles with a profile adds. The shipped networks were
trained on the Hong Kong photos, so this is not the unseen-real-set protocol; the
readers never saw any of this art.

`--unseen-real-set` is that protocol instead: the face reader that never saw a Hong Kong
photo (`models/unseen/`, alone), a profile taught from the labelled tiles of the Hong Kong
training photos in their own colour (`natural`: not a copy the export recoloured or made
grey) as a player photographs a sheet: for each kind, its first `k` clear tiles in photo
order (`clear`); then the Hong Kong validation photos read with none, 1, 3 and 10
examples per kind. The photos show several physical sets, and a player teaches the set
they play with, so each set the file names tell apart (`SETS`) is read again: with
none, with 1 and 3 examples per kind taught from its own training photos, and with
another set's profile of 1 per kind (which must read it no worse than none). A set whose
training photos show no flower (a set of 136 tiles) is read again with its profiles told
so, and the next set with that one. One table:
tiles found, read right, flowers read right, photos entirely right.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

import numpy as np

SHEET_SEEDS = range(1, 13)  # sheets tried per style, until three are learnt
HAND_SEED = 50_000
PER_KIND = (1, 3, 10)  # examples per kind the unseen real set is taught with
FACE_ON = (0.62, 0.82)  # width / height of a box round a face-up tile lying straight (3:4); askew ones are squarer
CLEAR_HEIGHT = 60  # px: a tile photographed to teach it fills this much of a 640 px photo at least
CLEAR_OVERLAP = 0.03  # share of its box another tile's box may cover: askew tiles' boxes overlap their neighbours'
UPRIGHT = 1.15  # a box this much taller than wide holds an upright tile, not one laid sideways
# A photo's tiles are white or ivory: the brightest 30 % of a tile's pixels saturated past
# this (of 255) in most of its tiles is a copy the export recoloured (32 of the 1350
# training photos: magenta, green), not a photo a camera takes.
TINTED = 60
# ... and 149 copies the export made grey: a tile's most coloured pixels (the 99th
# percentile of saturation over a photo's tiles) at GREY or less.
GREY = 20
# The Hong Kong photos show several physical sets, told apart by their file names
# (models/README.md, "The sets in the Hong Kong photos"): a player teaches the set they read.
SETS = {
    "felt": re.compile(r"IMG_2023"),  # rows on green felt: 270 training copies of 90 photos, 94 validation photos
    "indexed": re.compile(r"hand_|(bamboo|character|circle|flower|honor)_family_|discards_|one_bamboo_flowers"),  # numerals in a corner
}


def remembering(**readers):
    """A `Detector` (its readers as `readers` say) that keeps what it found and what the
    general readers read in each photo it is shown, so that reading the same photos again
    with another profile costs only the profile's part (`reread.named_by`): where the
    tiles lie and the general reading do not depend on the profile. The readings are the
    plain detector's, bit for bit; only the time differs (a measurement reads a few hundred
    photos with a dozen profiles)."""
    from vision.detector import Detector
    from vision.reread import named_by, read

    class Remembering(Detector):
        def __init__(self) -> None:
            super().__init__(**readers)
            self.kept: dict[tuple, tuple[np.ndarray, object]] = {}  # each photo kept with what was made of it: its id stays its own
            if self.finder is not None:
                finder = self.finder
                self.finder = lambda img, config: self._kept(img, ("finder", config), lambda: finder(img, config))

        def _kept(self, img: np.ndarray, key: tuple, make):
            key = (id(img), *key)
            if key not in self.kept:
                self.kept[key] = (img, make())
            return self.kept[key][1]

        def boxes(self, img, config=None, windows=True):
            config = config or self.config
            if not windows:  # only a squeeze's resized copy, kept by `boxes_at`
                return super().boxes(img, config, windows)
            return self._kept(img, ("boxes", config), lambda: super(Remembering, self).boxes(img, config))

        def boxes_at(self, img, config, size):  # a squeeze: kept under the photo, not under its resized copy (a new one each time)
            return self._kept(img, ("squeezed", config, size), lambda: super(Remembering, self).boxes_at(img, config, size))

        def named(self, img, found, config):
            if self.faces is None or not len(found):
                return found
            key = ("read", config, found.boxes.tobytes(), found.classes.tobytes())
            reading = self._kept(img, key, lambda: read(img, found, self.faces, self.flowers, config, self.characters, embed=True))
            return named_by(found, reading, img.shape, config, self.tileset)

    return Remembering()


def _right(detector, photo) -> tuple[int, int, bool]:
    """(tiles read right, tiles labelled, photo entirely right) of one rendered hand."""
    from vision.classes import CLASSES
    from vision.detections import box_iou

    tiles = detector.detect(photo.image)
    truth = np.array([b[1:] for b in photo.boxes]).reshape(-1, 4)
    codes = [CLASSES[b[0]] for b in photo.boxes]
    iou = box_iou(truth, np.array([t.box for t in tiles]).reshape(-1, 4))
    right = sum(bool(len(tiles)) and iou[i].max() >= 0.5 and tiles[int(iou[i].argmax())].code == c for i, c in enumerate(codes))
    return right, len(codes), right == len(codes) == len(tiles)


def clear(boxes: np.ndarray, width: int, height: int) -> np.ndarray:
    """Which labelled boxes (x1, y1, x2, y2) hold a tile as a player lays one to teach it:
    upright and straight (`FACE_ON`), whole in the photo, large (`CLEAR_HEIGHT`), and no
    other tile's box over it (`CLEAR_OVERLAP`). Most training photos are crowded tables
    photographed askew, whose first upright-looking boxes held parts of three tiles: the
    profile's examples then taught the neighbours (models/README.md, "The unseen-real-set
    protocol")."""
    from vision.detections import area, intersection

    x1, y1, x2, y2 = boxes.T
    w, h = x2 - x1, y2 - y1
    covered = intersection(boxes, boxes)
    np.fill_diagonal(covered, 0)
    whole = (x1 > 0) & (y1 > 0) & (x2 < width) & (y2 < height)
    straight = (w > FACE_ON[0] * h) & (w < FACE_ON[1] * h)
    return whole & straight & (h >= CLEAR_HEIGHT) & (covered.max(1, initial=0) <= CLEAR_OVERLAP * area(boxes))


def natural(img: np.ndarray, boxes: np.ndarray) -> bool:
    """Whether a photo (BGR) shows its tiles (`boxes`, x1, y1, x2, y2) in their own colour:
    the median over its tiles of their brightest pixels' saturation is `TINTED` or less,
    and their most coloured pixels' more than `GREY` (a tile's characters and dots are
    red, green and blue)."""
    import cv2

    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    tinted, saturation = [], []
    for x1, y1, x2, y2 in np.clip(boxes, 0, None).astype(int):
        pixels = hsv[y1:y2, x1:x2].reshape(-1, 3)
        if len(pixels):
            tinted.append(np.median(pixels[pixels[:, 2] >= np.percentile(pixels[:, 2], 70), 1]))
            saturation.append(pixels[:, 1])
    return not tinted or (float(np.median(tinted)) <= TINTED and float(np.percentile(np.concatenate(saturation), 99)) > GREY)


def set_of(name: str) -> str | None:
    """The physical set (`SETS`) a Hong Kong photo's file name says it shows, None where
    it names none (photos gathered from the web: many sets, a few photos each)."""
    return next((s for s, rule in SETS.items() if rule.match(name)), None)


def _examples(train: Path) -> dict[str | None, dict[str, list[tuple[np.ndarray, np.ndarray]]]]:
    """Each kind's first `max(PER_KIND)` examples (photo, box) as a player lays them to
    teach them, taken from the training photos in their own colour: under None from all
    of them, under a set's name (`SETS`) from that set's alone. A kind with too few clear
    tiles (`clear`; the flowers have one clear tile each, 8f two, 3f none) is filled with
    its first upright ones."""
    from vision.classes import BACK, CLASSES
    from vision.evaluate import image_files, labels_for
    from vision.image import load

    clear_ones: dict[str | None, dict[str, list]] = {}
    upright_ones: dict[str | None, dict[str, list]] = {}
    for f in image_files(train):
        img = load(f)
        gt = labels_for(f, img.shape[1], img.shape[0])
        face_up = gt[:, 0] < BACK
        if not natural(img, gt[face_up, 1:]):
            continue
        is_clear_ones = clear(gt[:, 1:], img.shape[1], img.shape[0])[face_up]
        for group in {None, set_of(f.name)}:
            for row, is_clear in zip(gt[face_up], is_clear_ones):
                seen = (clear_ones if is_clear else upright_ones).setdefault(group, {}).setdefault(CLASSES[int(row[0])], [])
                if (is_clear or row[4] - row[2] > UPRIGHT * (row[3] - row[1])) and len(seen) < max(PER_KIND):
                    seen.append((img, row[1:]))  # each photo read once; only the photos of examples kept
    out = {}
    for group in clear_ones.keys() | upright_ones.keys():
        chosen, upright = clear_ones.get(group, {}), upright_ones.get(group, {})
        out[group] = {kind: (chosen.get(kind, []) + upright.get(kind, []))[: max(PER_KIND)] for kind in chosen.keys() | upright.keys()}
    return out


def _taught(reader, name: str, examples: dict[str, list[tuple[np.ndarray, np.ndarray]]], k: int):
    """A profile of each kind's first `k` examples, read by `reader` (a Detector)."""
    from vision import tileset
    from vision.models import UNSEEN_FACES

    profile = tileset.empty(name, UNSEEN_FACES)
    for code, seen in examples.items():
        for img, box in seen[:k]:
            profile = tileset.teach(profile, reader, img, box.reshape(1, 4), [code])
    return profile


def corrected_as_read(reader, profile, shown: list[tuple[np.ndarray, Path]]) -> tuple[object, object, int]:
    """A player reading their set's photos `shown` one after another with `profile`, and
    correcting on the Check page each tile read as another kind: the crop taught as an
    example of its kind (`tileset.teach`, as `tileset.correct` does). Each photo is
    counted as read before its corrections are learnt. Returns the tally of all the
    photos, of the second half of them, and the corrections made."""
    from vision import tileset
    from vision.classes import BACK, CLASSES
    from vision.detections import box_iou
    from vision.evaluate import labels_for
    from vision.generalisation import Tally

    whole, later, corrections = Tally(), Tally(), 0
    for n, (img, f) in enumerate(shown):
        tiles, gt = reader.with_tileset(profile).detect(img), labels_for(f, img.shape[1], img.shape[0])
        for tally in (whole, later) if 2 * n >= len(shown) else (whole,):
            tally.add(tiles, gt)
        if not tiles or not len(gt):
            continue
        iou = box_iou(np.array([t.box for t in tiles]), gt[:, 1:])
        for tile, overlaps in zip(tiles, iou):
            label = gt[int(overlaps.argmax())]
            if overlaps.max() >= 0.5 and label[0] < BACK and tile.code != CLASSES[int(label[0])]:  # a face down stays the player's tap, not an example
                profile = tileset.teach(profile, reader, img, np.array([tile.box]), [CLASSES[int(label[0])]])
                corrections += 1
    return whole, later, corrections


def unseen_real_set(train: Path, valid: Path) -> None:
    """Issue 22's target, measured: the unseen real set read with a profile of it, each
    set (`SETS`) with its own, then all its photos with a profile of all its sets."""
    from vision.evaluate import image_files, labels_for
    from vision.generalisation import HEADER, Tally, row
    from vision.image import load
    from vision.models import UNSEEN_FACES

    reader = remembering(faces=UNSEEN_FACES, flowers=None)
    examples = _examples(train)
    photos = [(load(f), f) for f in image_files(valid)]
    taught = {group: {k: _taught(reader, f"{group}-{k}", examples[group], k) for k in PER_KIND[:2]} for group in SETS}
    told = {group: {k: p.with_flowers(False) for k, p in taught[group].items()} for group in SETS if not taught[group][1].shown_flowers}
    readings = []
    for i, group in enumerate(SETS):
        own, other = [(img, f) for img, f in photos if set_of(f.name) == group], [*SETS][(i + 1) % len(SETS)]
        readings.append((f"{group} set", own, "no profile", None))
        readings += [(f"{group} set", own, f"{k} per kind of its own", profile) for k, profile in taught[group].items()]
        readings += [(f"{group} set", own, f"{k} per kind of its own, no flowers", profile) for k, profile in told.get(group, {}).items()]
        readings.append((f"{group} set", own, f"the {other} set's, 1 per kind", taught[other][1]))
        readings += [(f"{group} set", own, f"the {other} set's, 1 per kind, no flowers", told[other][1])] if other in told else []
    readings.append(("all photos", photos, "no profile", None))
    readings += [("all photos", photos, f"{k} per kind, all sets' first", _taught(reader, f"hong-kong-{k}", examples[None], k)) for k in PER_KIND]
    print(f"Hong Kong validation photos ({len(photos)}), a face reader that never saw a Hong Kong photo; profiles taught from its training photos")
    print(HEADER, flush=True)
    for photos_of, shown, read_with, profile in readings:
        reading, tally = reader.with_tileset(profile), Tally()
        for img, f in shown:
            tally.add(reading.detect(img), labels_for(f, img.shape[1], img.shape[0]))
        print(row(f"{photos_of}, {read_with}", tally), flush=True)
    for group in SETS:  # its player keeps teaching it: each misread tile corrected as the photos are read
        own, kind = [(img, f) for img, f in photos if set_of(f.name) == group], "1 per kind of its own" + (", no flowers" if group in told else "")
        whole, later, corrections = corrected_as_read(reader, told.get(group, taught[group])[1], own)
        print(row(f"{group} set, {kind}, each misread tile corrected as read ({corrections} corrections)", whole), flush=True)
        print(row(f"{group} set, {kind}, corrected as read: the second half of its photos", later), flush=True)


def main(argv: list[str] | None = None) -> None:
    from datasets.faces import HELD_OUT, build
    from datasets.scene import render
    from datasets.sheet import ROWS, SHEET, render_sheet
    from vision import tileset
    from vision.detector import Detector

    p = argparse.ArgumentParser(prog="python -m vision.training.profiles", description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=20, help="rendered hands read per style and profile")
    p.add_argument("--unseen-real-set", action="store_true", help="the Hong Kong photos read by readers that never saw them, taught from its training photos")
    args = p.parse_args(argv)
    if args.unseen_real_set:
        from .faces import DEFAULT_DATA

        unseen_real_set(DEFAULT_DATA, DEFAULT_DATA.parent / "valid")
        return
    faces = {s: f for s, f in build(list(HELD_OUT)).items() if len(f) == 42}
    learner, reader = Detector(config=tileset.LEARNING), remembering()
    profiles, refused, sheets = {}, {}, {}
    for style, art in faces.items():
        sheets[style], refused[style] = [], 0
        for seed in SHEET_SEEDS:
            sheet = (f"sheet {seed}", render_sheet(art, seed), SHEET)
            try:
                tileset.learn(learner, tileset.empty(style), [sheet])
                sheets[style].append(sheet)
            except tileset.CountError:
                refused[style] += 1
            if len(sheets[style]) == 3:
                break
        profiles[style] = {n: tileset.learn(learner, tileset.empty(style), sheets[style][:n]) for n in (1, 3) if len(sheets[style]) >= n}
        flowerless = tileset.empty(style).with_flowers(False)
        for seed in SHEET_SEEDS:
            try:
                profiles[style]["no flowers"] = tileset.learn(learner, flowerless, [("sheet", render_sheet(art, seed, rows=ROWS[:4]), tileset.SHEET_WITHOUT_FLOWERS)])
                break
            except tileset.CountError:
                continue
    styles = list(faces)
    hands = {style: [render({style: faces[style]}, HAND_SEED + n) for n in range(args.hands)] for style in styles}  # each read with every profile
    print(f"{args.hands} rendered hands per style; tiles read right / photos entirely right")
    print(f"{'style':16} {'sheets refused':>14} {'no profile':>13} {'1 per kind':>13} {'3 per kind':>13} {'another set':>13} {'another, no flowers':>19}")
    for i, style in enumerate(styles):
        other = profiles[styles[(i + 1) % len(styles)]]
        readings = {"none": None, **{n: p for n, p in profiles[style].items()}, "other": other.get(1), "other without flowers": other.get("no flowers")}
        cells = []
        for key in ("none", 1, 3, "other", "other without flowers"):
            if key != "none" and readings.get(key) is None:
                cells.append("-")
                continue
            reader.tileset = readings[key]
            counts = [_right(reader, photo) for photo in hands[style]]
            right, total = sum(c[0] for c in counts), sum(c[1] for c in counts)
            cells.append(f"{right / total:.3f} / {np.mean([c[2] for c in counts]):.2f}")
        print(f"{style:16} {refused[style]:>14} " + " ".join(f"{c:>13}" for c in cells[:-1]) + f" {cells[-1]:>19}", flush=True)
    reader.tileset = None
    sheet = next(found[0] for found in sheets.values() if found)
    start = time.perf_counter()
    tileset.learn(learner, tileset.empty("timing"), [sheet] * 42)
    learnt = time.perf_counter() - start
    probs = np.full((20, 42), 1 / 42, np.float32)
    reads = {}
    for kind in (1, "no flowers"):
        profile = next(p[kind] for p in profiles.values() if kind in p)
        embedded = profile.embeddings[np.arange(20) % len(profile.kinds)]  # a hand of the set's own tiles: the whole correction read
        start = time.perf_counter()
        for _ in range(1000):
            profile.reread(probs, embedded, np.ones(20, bool))
        reads[kind] = time.perf_counter() - start
    print(f"learning 42 photos of the sheet: {learnt:.1f} s; a profile's reading of a hand's 20 tiles: {reads[1]:.3f} ms, "
          f"a set's without flowers: {reads['no flowers']:.3f} ms")


if __name__ == "__main__":
    main()
