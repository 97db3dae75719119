"""Tile-set profiles (我的牌): a player teaches the reader their own set from a photo or two.

No general reader knows every set a player may own. A profile keeps, for each kind,
a few example tiles of one set: the face reader's embedding of each (L2-normalised),
also with its box moved 32 ways (`MOVED`), and the general readers' reading of it.
From them it learns what the general readers get wrong about this set (`Correction`:
150 steps of logistic regression on the embeddings, added to the general reading's
log-odds), and reads a tile of the set so. The correction counts as far as the photo's
face-up tiles look like the profile's examples (`LIKE_NONE` .. `LIKE_FULL`, the median
over them of the nearest example's cosine similarity): another set's photos, whose
median tile lies below `LIKE_NONE`, keep the general reading as it was; a kind the
profile lacks keeps the general reader's probability. A set of 136 tiles has no
flowers, and its player may say so (`Profile.with_flowers`): its profile then reads a
tile like its examples as none (`Profile.without_flowers`), where the general reader
took one of its own tiles for a flower. The detector still decides where the tiles
are; a profile may make a tile's face surer, never drop the tile.

Profiles live one file per set (`NAME.npz`, arrays only, read with
allow_pickle=False, the metadata as JSON inside) in `$TAISCORE_TILESETS`, by default
the `tilesets` folder beside the ledger database in the user's data folder. Each
records the SHA-256 of the face reader file whose embeddings it keeps, and each
example's crop as the reader saw it (for the player to see what was learnt); a file
that is corrupt, made by another face reader, or by an older taiscore that kept less
of its examples, is refused by name and never used.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, replace
from functools import cached_property, lru_cache
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import flower_name, kind_of
from scoring.tiles import name as tile_name

from .config import DEFAULT
from .faces import DEFAULT_FACES, FACES, softmax
from .finder import joined, knows_the_set
from .flowers import FLOWER_FACES
from .voting import whole_tiles

FORMAT = 3  # 3: each example's embeddings with its box moved (session 38); 2: without them; 1: its embedding alone
# What a profile learns from its examples (`Correction`), chosen on the unseen real set
# (models/README.md, "Reading by a learnt correction"): the unit embeddings times SCALE, the
# weights' L2 penalty RIDGE (chosen again with the moved examples: "Examples moved in their
# box"), STEPS of gradient descent at RATE, in float32 (150 read as 300 did; 100 lost a photo).
SCALE, RIDGE, STEPS, RATE = 10.0, 0.03, 150, 0.5
# Each example is learnt from again with its box moved by up to MOVE of its width and
# height and scaled by up to RESIZE either way, MOVES ways drawn once (`MOVED`): the boxes a
# detector draws round a set's tiles vary so, and one example a kind is then no single point
# (models/README.md, "Examples moved in their box"). The file keeps the moved embeddings:
# changing any of these or the draw's seed, bump FORMAT.
MOVE, RESIZE, MOVES = 0.1, 0.15, 32
MOVED = np.random.default_rng(38).uniform((-MOVE, -MOVE, 1 - RESIZE), (MOVE, MOVE, 1 + RESIZE), (MOVES, 3))  # dx, dy, scale
# How far a photo is the profile's set: the median over its face-up tiles of the nearest
# example's cosine similarity, nothing at LIKE_NONE or less, the whole correction at LIKE_FULL
# or more. On the unseen real set a set's own validation photos lie at 0.88-0.92 (10th to 90th
# percentile), another set's at 0.75-0.86; of the gates tried that keep most of the felt set's
# gain, the one at which the rendered held-out styles read with each other's profiles lost
# fewest tiles (2 of about 8,700 readings, each between two looks of one font; 0.86 -> 0.92 lost
# none and 17 of the felt set's photos in 100; models/README.md, "Examples moved in their box").
LIKE_NONE, LIKE_FULL = 0.86, 0.88
# A set told it has no flowers (136 tiles) takes a tile's flower reading away as far as the
# photo is the set and the tile is like one of its examples: nothing at TILE_NONE or less
# (the nearest example's cosine similarity), all of it at TILE_FULL or more. The felt set's
# 1s, read as flowers, lie at 0.76-0.97 from its examples (median 0.83); the other Hong Kong
# sets' flowers at 0.62-0.87 (median 0.74-0.78), rendered styles' flowers from another's
# examples at 0.39-0.97 (median 0.59, 90th percentile 0.71; models/README.md, "A set without flowers").
TILE_NONE, TILE_FULL = 0.75, 0.80
# Learning finds tiles at this confidence (`tiles_in`): the face reader does not know the set
# yet, and the player's count of the tiles must be met, or nothing is learnt.
LEARN_CONF = 0.1
LEARNING = replace(DEFAULT, conf=LEARN_CONF)  # the thresholds a learning detector reads at
# Photos learnt from at a time, each on its own core: on 2 cores, 42 one-tile photos took the
# detector 2.5 s so, on one-thread sessions, against 4.5 s one at a time on two-thread ones.
WORKERS = 2
NAME = re.compile(r"[\w-]{1,64}")
_AGAIN = "delete it (taiscore tileset delete {}) and learn it again"  # learning into a set adds to it, so a set unfit to use goes first
ACTIVE = "active.json"  # the app's choice of set, beside the sets
SHEET = "123456789m123456789p123456789s1234567z12345678f"  # the standard sheet's TILES: the 42 kinds in five rows
SHEET_WITHOUT_FLOWERS = SHEET[: SHEET.index("z") + 1]  # a set of 136 tiles: its 34 kinds in the first four rows
_GROUP = re.compile(r"(\d+)([mpszf])")
PICTURE_LABEL, PICTURE_GAP = 16, 8  # px: a kind's name above its examples, and a gap before the next kind
SHEET_ROW = 9  # kinds in the sheet's longest row: a suit's one to nine


class ProfileError(ValueError):
    """A profile that cannot be used: badly named, missing, corrupt or made by other readers."""


class CountError(ValueError):
    """A learning photo that shows another number of tiles than its TILES name."""


def folder() -> Path:
    """`$TAISCORE_TILESETS`, else `tilesets` in the user's data folder (XDG), beside the
    ledger's default database."""
    if os.environ.get("TAISCORE_TILESETS"):
        return Path(os.environ["TAISCORE_TILESETS"])
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "taiscore" / "tilesets"


def readers_hash(faces: Path = DEFAULT_FACES) -> str:
    """What a profile's embeddings depend on: the SHA-256 of the face reader file, hashed
    again only when the file changes (its size or time): every photo read with a set, in
    the app or a measurement, checks it when the set is loaded and again when chosen."""
    stat = Path(faces).stat()
    return _file_hash(str(Path(faces).resolve()), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=8)
def _file_hash(path: str, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def kinds_of(tiles: str) -> list[str]:
    """`'123m4z'` -> ['1m', '2m', '3m', '4z'], in the order written; flowers `1f`-`8f`."""
    compact = "".join(tiles.split())
    groups = _GROUP.findall(compact)
    if not compact or "".join(d + s for d, s in groups) != compact:
        raise ValueError(f"{tiles!r} is not tile notation (e.g. 123m456p7z1f)")
    kinds = [f"{d}{s}" for digits, s in groups for d in digits]
    bad = [k for k in kinds if k not in FACES]
    if bad:
        raise ValueError(f"{tiles!r}: no tile {bad[0]}")
    return kinds


def faces_of(flowers: bool) -> tuple[str, ...]:
    """The kinds a set has: all 42, or (`flowers` False) the 34 without the flowers."""
    return FACES if flowers else FACES[: FLOWER_FACES.start]


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


@dataclass(frozen=True)
class Correction:
    """What a profile learnt about its set: over its kinds (`covered`, indices into
    `FACES`), log-odds `weights` @ (SCALE x unit embedding) + `bias` added to the
    general reading's log-probabilities."""

    covered: np.ndarray
    weights: np.ndarray
    bias: np.ndarray

    @staticmethod
    def learnt(kinds: tuple[str, ...], embeddings: np.ndarray, moved: np.ndarray, readings: np.ndarray) -> Correction:
        """Multinomial logistic regression over the examples' kinds, started from the
        general readings of the examples (`readings`, N x 42) and adding to them: it learns
        only what the general readers get wrong about this set, and, its weights held
        small (`RIDGE`), a single example of a kind is not learnt by heart. Each example
        counts with its embeddings `moved` in their box too (N x `MOVES` x features), each
        read as the example was."""
        copies = 1 + moved.shape[1]  # the example and its moved boxes
        index = np.repeat(np.array([FACES.index(k) for k in kinds], int), copies)
        covered = np.unique(index)
        target = np.eye(len(covered), dtype=np.float32)[np.searchsorted(covered, index)]
        general = np.repeat(_log(readings[:, covered].astype(np.float32)), copies, axis=0)
        x = np.float32(SCALE) * np.concatenate([embeddings[:, None], moved], axis=1).reshape(len(index), -1).astype(np.float32)
        weights, bias = np.zeros((len(covered), x.shape[1]), np.float32), np.zeros(len(covered), np.float32)
        for _ in range(STEPS):
            error = (softmax(general + x @ weights.T + bias) - target) / np.float32(len(x))
            weights -= np.float32(RATE) * (error.T @ x + np.float32(RIDGE) * weights)
            bias -= np.float32(RATE) * error.sum(0)
        return Correction(covered, weights, bias)

    def read(self, probs: np.ndarray, unit: np.ndarray) -> np.ndarray:
        """The general reading `probs` (N x 42) of tiles whose unit embeddings are `unit`,
        corrected: over `covered` (N x its kinds), the mass the general reading puts there
        shared out by its log-odds plus the correction's."""
        general = probs[:, self.covered]
        return general.sum(1, keepdims=True) * softmax(_log(general) + SCALE * unit @ self.weights.T + self.bias)


def _log(probs: np.ndarray) -> np.ndarray:
    return np.log(np.clip(probs, 0, None) + 1e-9)


@dataclass(frozen=True)
class Examples:
    """Tiles as a profile keeps them: their unit embeddings (N x features) as the general
    reading gave them and with their boxes moved (`moved`, N x `MOVES` x features), the
    general reading (`readings`, N x 42) and the crops as the face reader saw them."""

    embeddings: np.ndarray
    moved: np.ndarray
    readings: np.ndarray
    crops: np.ndarray

    @staticmethod
    def read(detector, img: np.ndarray, boxes: np.ndarray) -> Examples:
        """The tiles at `boxes` in the BGR `img` as `detector`'s general readers read a
        photo (`Detector.general`), and as its face reader embeds them with each box moved
        (`MOVED`; the embedding is the unturned crop's, so one turn: 32 more crops a tile)."""
        reader = _embedding_reader(detector.faces)
        reading = detector.general(img, boxes)
        moved = reader.read_embedded(img, moved_boxes(boxes), 1)[2]
        return Examples(_unit(reading.embedded), _unit(moved.reshape(len(boxes), MOVES, -1)), np.asarray(reading.probs, np.float32),
                        reader.crops(img, boxes))

    @staticmethod
    def concat(parts: list[Examples]) -> Examples:
        return Examples(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Examples)))


def moved_boxes(boxes: np.ndarray) -> np.ndarray:
    """Each of `boxes` (x1, y1, x2, y2) moved and scaled about its centre each of the
    `MOVED` ways, box by box: N x `MOVES` rows."""
    boxes = np.asarray(boxes, float).reshape(-1, 1, 4)
    size = boxes[..., 2:] - boxes[..., :2]
    centre = (boxes[..., :2] + boxes[..., 2:]) / 2 + MOVED[:, :2] * size
    half = size * MOVED[:, 2:] / 2
    return np.concatenate([centre - half, centre + half], axis=-1).reshape(-1, 4)


@lru_cache(maxsize=8)
def _learnt(kinds: tuple[str, ...], embeddings: bytes, moved: bytes, readings: bytes) -> Correction:
    unit = np.frombuffer(embeddings, np.float32).reshape(len(kinds), -1)
    return Correction.learnt(kinds, unit, np.frombuffer(moved, np.float32).reshape(len(kinds), MOVES, unit.shape[1]),
                             np.frombuffer(readings, np.float32).reshape(len(kinds), -1))


@dataclass(frozen=True)
class Profile:
    """One set's examples: `kinds[i]` is the kind of the example whose unit embedding is
    `embeddings[i]`, with its box moved `moved[i]` (`MOVES` x features, `MOVED`), whose
    general reading (42 probabilities over `FACES`, before any profile) is `readings[i]`,
    and whose crop (RGB, as the face reader saw it) is `crops[i]`; `readers` the hash of
    the face reader file that embedded them. `flowers`: whether the set has flowers at
    all; a set of 136 tiles has none, and its player says so (`with_flowers`)."""

    name: str
    kinds: tuple[str, ...]
    embeddings: np.ndarray
    moved: np.ndarray
    readings: np.ndarray
    crops: np.ndarray
    readers: str
    flowers: bool = True

    @property
    def faces(self) -> tuple[str, ...]:
        return faces_of(self.flowers)

    def counts(self) -> dict[str, int]:
        """Examples per kind, in the faces' order, the kinds without one left out."""
        return {k: n for k in FACES if (n := self.kinds.count(k))}

    def doubts(self) -> list[str]:
        """What a player should look at: each kind without an example, and each example
        nearer another kind's examples than its own kind's others."""
        missing = [k for k in self.faces if k not in self.kinds]
        out = [f"no example of {', '.join(missing)}"] if missing else []
        if len(self.kinds) < 2:
            return out
        kinds = np.array(self.kinds)
        sims = self.embeddings @ self.embeddings.T
        for i, kind in enumerate(self.kinds):
            own, other = sims[i, (kinds == kind) & (np.arange(len(kinds)) != i)], sims[i, kinds != kind]
            if len(own) and len(other) and other.max() > own.max():
                nearest = kinds[kinds != kind][int(other.argmax())]
                number = int((kinds[:i] == kind).sum()) + 1
                out.append(f"example {number} of {kind} looks more like {nearest} than like the other {kind}")
        return out

    def summary(self) -> dict:
        return {"name": self.name, "kinds": len(self.counts()), "flowers": self.flowers, "examples": self.counts(), "doubts": self.doubts()}

    def usable_with(self, reader, faces: Path | None) -> Profile:
        """This profile, if the face reader `reader` (loaded from `faces`) embedded its
        examples; else ProfileError naming it."""
        if reader is None or not reader.embeds:
            raise ProfileError(f"tile set {self.name!r} needs a face reader that gives an embedding")
        if readers_hash(faces) != self.readers:
            raise ProfileError(f"tile set {self.name!r} was learnt by another version of the face reader than {faces}: {_AGAIN.format(self.name)}")
        return self

    def check_kinds(self, kinds: list[str]) -> None:
        """ProfileError naming the first of `kinds` that is no tile of this set: no face, or a
        flower where the set has none. Learning and teaching call it before reading a
        photo's tiles, the slow part."""
        for kind in kinds:
            if kind not in FACES:
                raise ProfileError(f"a tile set learns faces: {kind} is none")
            if kind not in self.faces:
                raise ProfileError(f"tile set {self.name!r} was told it has no flowers, so {kind} is none of its tiles: to teach one, tell it it has "
                                   f"them first (its box on My tiles, or taiscore tileset learn {self.name} --flowers)")

    @property
    def shown_flowers(self) -> tuple[str, ...]:
        """The flowers among its examples' kinds, in the faces' order."""
        return tuple(k for k in FACES[FLOWER_FACES] if k in self.kinds)

    def with_flowers(self, flowers: bool) -> Profile:
        """This profile of a set with flowers or (False) without; ProfileError where it was shown flowers."""
        if not flowers and self.shown_flowers:
            raise ProfileError(f"tile set {self.name!r} was shown flowers ({', '.join(self.shown_flowers)}), so it cannot be told it has none: "
                               f"undo the correction that showed one, or delete the set (on My tiles, or taiscore tileset delete {self.name}) and learn it again")
        return replace(self, flowers=flowers)

    def with_examples(self, kinds: list[str], examples: Examples) -> Profile:
        """This profile and `examples` of `kinds`; ProfileError where one is no tile of the set (`check_kinds`)."""
        self.check_kinds(kinds)
        features = examples.embeddings.shape[1]
        old = Examples(self.embeddings.reshape(-1, features), self.moved.reshape(-1, MOVES, features),
                       self.readings.reshape(-1, len(FACES)), self.crops.reshape(-1, *examples.crops.shape[1:]))
        both = Examples.concat([old, examples])
        return replace(self, kinds=self.kinds + tuple(kinds), embeddings=both.embeddings, moved=both.moved, readings=both.readings, crops=both.crops)

    def without_last(self, n: int = 1) -> Profile:
        """This profile less its last `n` examples: the undo of a correction."""
        keep = max(len(self.kinds) - n, 0)
        return replace(self, kinds=self.kinds[:keep], embeddings=self.embeddings[:keep], moved=self.moved[:keep], readings=self.readings[:keep],
                       crops=self.crops[:keep])

    @cached_property
    def correction(self) -> Correction:
        """What this set's examples teach (`Correction.learnt`), learnt once for the same
        examples: the app loads the active set again for every photo it reads."""
        as_bytes = [a.astype(np.float32).tobytes() for a in (self.embeddings, self.moved, self.readings)]
        return _learnt(self.kinds, *as_bytes)

    def picture(self, per_kind: int = 3) -> np.ndarray:
        """What was learnt, RGB, in the sheet's order: 萬 筒 條, the honours, the flowers
        where the set has them, a cell per kind with its name above its first `per_kind`
        examples side by side, as the face reader saw them; a kind without one, blank. A
        suit takes lines of `SHEET_ROW` / `per_kind` kinds (rounded up): the sheet's rows
        with one example a kind, and about as wide with more, so that a phone, which
        narrows the picture to its width, shows each example as large."""
        if not self.kinds:
            return np.zeros((0, 0, 3), np.uint8)
        size, per_line = self.crops.shape[1], -(-SHEET_ROW // per_kind)
        cell_w, cell_h = size * per_kind + PICTURE_GAP, size + PICTURE_LABEL
        suits = [row for suit in "mpszf" if (row := [k for k in self.faces if k.endswith(suit)])]
        lines = [row[i : i + per_line] for row in suits for i in range(0, len(row), per_line)]
        out = np.full((cell_h * len(lines), cell_w * max(map(len, lines)), 3), 255, np.uint8)
        for r, line in enumerate(lines):
            for c, kind in enumerate(line):
                x, y = c * cell_w, r * cell_h
                cv2.putText(out, kind, (x + 2, y + PICTURE_LABEL - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)
                seen = [crop for k, crop in zip(self.kinds, self.crops) if k == kind][:per_kind]
                for i, crop in enumerate(seen):
                    out[y + PICTURE_LABEL : y + cell_h, x + i * size : x + (i + 1) * size] = crop
        return out

    def reread(self, probs: np.ndarray, embedded: np.ndarray, face_up: np.ndarray) -> np.ndarray:
        """The general reading `probs` (N x 42) of a photo's tiles, embedded as `embedded`
        (N x features), read with this set's `correction`: among the profile's kinds, the
        mass the general reading puts on them is shared out again by its log-odds plus
        the correction's, as far as the photo's tiles `face_up` are this set
        (`likeness`: a tile's back is no face of it); the other kinds keep theirs. A set
        without flowers then takes each tile's flower reading away (`without_flowers`). All
        of a photo's tiles are read in one call."""
        face_up = np.asarray(face_up, bool)
        if not face_up.any() or not self.kinds:
            return probs
        unit = _unit(embedded)
        nearest = self.nearest(unit)  # once a photo: the gate and a set without flowers both weigh it
        weight = self.likeness(nearest[face_up])
        if weight == 0:
            return probs
        covered = self.correction.covered
        out = probs.copy()
        out[:, covered] = (1 - weight) * probs[:, covered] + weight * self.correction.read(probs, unit)
        return out if self.flowers else self.without_flowers(out, nearest, weight)

    def nearest(self, unit: np.ndarray) -> np.ndarray:
        """Each tile's cosine similarity to its nearest example, the tiles' unit embeddings `unit`."""
        return (unit @ self.embeddings.T).max(1)

    def without_flowers(self, probs: np.ndarray, nearest: np.ndarray, weight: float) -> np.ndarray:
        """`probs` with each tile's flower share taken away as far as the photo is this set
        (`weight`) and the tile is like one of its examples (its `nearest` similarity,
        `TILE_NONE` to `TILE_FULL`), the rest scaled back up to 1. A tile unlike them all
        keeps its flowers: another set that looks like this one may have them, and a
        look-alike set's flower is no nearer this set's examples than that."""
        gone = weight * np.clip((nearest - TILE_NONE) / (TILE_FULL - TILE_NONE), 0, 1)
        out = probs.copy()
        out[:, FLOWER_FACES] *= (1 - gone)[:, None]
        kept = out.sum(1, keepdims=True)
        return np.where(kept > 0, out / np.maximum(kept, 1e-30), probs)  # a tile read as nothing but flowers keeps its reading

    def likeness(self, nearest: np.ndarray) -> float:
        """How far a photo whose tiles lie `nearest` (`Profile.nearest`) from this set's
        examples is this set: their median, 0 at `LIKE_NONE` or less, 1 at `LIKE_FULL` or
        more. Another set's tiles look like a profile's examples too, a few of them as
        much as its own; a photo's tiles together tell the sets apart."""
        return float(np.clip((float(np.median(nearest)) - LIKE_NONE) / (LIKE_FULL - LIKE_NONE), 0, 1))

    def save(self, where: Path | None = None) -> Path:
        """Written whole to a temporary file, then moved over the old one."""
        path = path_of(self.name, where)
        meta = {"format": FORMAT, "name": self.name, "readers": self.readers, "flowers": self.flowers}
        buffer = io.BytesIO()
        arrays = {"kinds": np.array(self.kinds, dtype="U2"), "embeddings": self.embeddings.astype(np.float32),
                  "moved": self.moved.astype(np.float32), "readings": self.readings.astype(np.float32), "crops": self.crops.astype(np.uint8)}
        np.savez_compressed(buffer, **arrays, meta=np.array(json.dumps(meta)))
        _write_whole(path, buffer.getvalue())
        return path


def _write_whole(path: Path, data: bytes) -> None:
    """`data` written to a temporary file beside `path`, then moved over it: a reader sees the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")  # active.json and a set named "active" must not share one
    tmp.write_bytes(data)
    tmp.replace(path)


def path_of(name: str, where: Path | None = None) -> Path:
    if not NAME.fullmatch(name):
        raise ProfileError(f"{name!r} is not a tile-set name (letters, digits, - and _, at most 64)")
    return (where or folder()) / f"{name}.npz"


def names(where: Path | None = None) -> list[str]:
    """The profiles stored, by name (whether each is usable or not)."""
    base = where or folder()
    return sorted(p.stem for p in base.glob("*.npz")) if base.is_dir() else []


def empty(name: str, faces: Path = DEFAULT_FACES) -> Profile:
    path_of(name)
    return Profile(name, (), np.zeros((0, 0), np.float32), np.zeros((0, MOVES, 0), np.float32), np.zeros((0, len(FACES)), np.float32),
                   np.zeros((0, 0, 0, 3), np.uint8), readers_hash(faces))


def load(name: str, faces: Path = DEFAULT_FACES, where: Path | None = None) -> Profile:
    """The stored profile `name`, refused (ProfileError naming it) when it is missing,
    corrupt, or made by other readers than `faces`."""
    path = path_of(name, where)
    if not path.is_file():
        raise ProfileError(f"no tile set {name!r} in {path.parent}")
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            older = isinstance(meta, dict) and meta.get("format") in (1, 2) and meta.get("name") == name
            if not older:
                kinds = tuple(str(k) for k in data["kinds"])
                embeddings = np.asarray(data["embeddings"], np.float32)
                moved = np.asarray(data["moved"], np.float32)
                readings = np.asarray(data["readings"], np.float32)
                crops = np.asarray(data["crops"])
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, EOFError) as e:
        raise ProfileError(f"tile set {name!r} ({path}) is corrupt: {e}") from None
    if older:
        raise ProfileError(f"tile set {name!r} was learnt by an older taiscore, which kept less of its examples: {_AGAIN.format(name)}")
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("name") != name:
        raise ProfileError(f"tile set {name!r} ({path}) is corrupt: not a taiscore tile-set file of format {FORMAT}")
    flowers = meta.get("flowers", True)  # a set stored before a set could be told it has none has them
    if not isinstance(flowers, bool):
        raise ProfileError(f"tile set {name!r} ({path}) is corrupt: whether it has flowers is {flowers!r}, not true or false")
    shapes = embeddings.ndim == 2 and crops.ndim == 4 and crops.dtype == np.uint8 and len(embeddings) == len(crops) == len(kinds)
    shapes = shapes and moved.shape == (len(kinds), MOVES, embeddings.shape[1]) and bool(np.isfinite(moved).all())
    read = readings.shape == (len(kinds), len(FACES)) and bool(np.isfinite(readings).all()) and bool(((readings >= 0) & (readings <= 1)).all())
    if not shapes or not read or not set(kinds) <= set(faces_of(flowers)) or not np.isfinite(embeddings).all():
        raise ProfileError(f"tile set {name!r} ({path}) is corrupt: its examples do not match their kinds")
    if meta.get("readers") != readers_hash(faces):
        raise ProfileError(f"tile set {name!r} was learnt by another version of the face reader than {faces}: {_AGAIN.format(name)}")
    return Profile(name, kinds, _unit(embeddings), _unit(moved), readings, crops, meta["readers"], flowers)


def tell_flowers(name: str, flowers: bool, faces: Path = DEFAULT_FACES, where: Path | None = None) -> Profile:
    """The stored set `name` told whether it has flowers (`Profile.with_flowers`), and stored."""
    profile = load(name, faces, where).with_flowers(flowers)
    profile.save(where)
    return profile


def delete(name: str, where: Path | None = None) -> None:
    """The set's file gone; were it the active set, none is active."""
    path = path_of(name, where)
    if not path.is_file():
        raise ProfileError(f"no tile set {name!r} in {path.parent}")
    path.unlink()
    if active(where) is None:
        choose(None, where)


def active(where: Path | None = None) -> str | None:
    """The set the app reads with, kept between visits in `ACTIVE` beside the sets: None
    where none was chosen, the file is missing or unreadable, or its set is gone."""
    try:
        chosen = json.loads(((where or folder()) / ACTIVE).read_text(encoding="utf-8")).get("active")
    except (OSError, ValueError, AttributeError):
        return None
    return chosen if isinstance(chosen, str) and chosen in names(where) else None


def choose(name: str | None, where: Path | None = None) -> None:
    """Make the stored set `name` the active one, or none (None); written whole, then moved."""
    if name is not None and name not in names(where):
        raise ProfileError(f"no tile set {name!r} in {where or folder()}")
    _write_whole((where or folder()) / ACTIVE, json.dumps({"active": name}).encode())


def active_profile(faces: Path = DEFAULT_FACES, where: Path | None = None) -> Profile | None:
    """The active set's profile, None where none is active; ProfileError where it cannot be used."""
    name = active(where)
    return load(name, faces, where) if name else None


def rows_of(boxes: np.ndarray) -> list[list[int]]:
    """Indices of `boxes` (x1, y1, x2, y2) by row, from top to bottom, each row left to
    right. A row is the tiles whose centres lie at about the same height: a tile whose
    centre is within half the median tile height of the row's last one joins it."""
    if not len(boxes):
        return []
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    half = float(np.median(boxes[:, 3] - boxes[:, 1])) / 2
    rows: list[list[int]] = []
    for i in np.argsort(cy, kind="stable").tolist():
        if rows and cy[i] - cy[rows[-1][-1]] < half:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [sorted(row, key=lambda j: cx[j]) for row in rows]


def reading_order(boxes: np.ndarray) -> list[int]:
    """Indices of `boxes` in reading order: rows from top to bottom (`rows_of`), each left to right."""
    return [i for row in rows_of(boxes) for i in row]


def learn(detector, profile: Profile, photos: list[tuple[str, np.ndarray, str]], workers: int = WORKERS) -> Profile:
    """`profile` with the examples of every photo added: (name, BGR image, TILES in
    reading order). The finder and the detector place the tiles (`tiles_in`), at the
    `LEARNING` thresholds whatever the detector's own (the app's one detector reads and
    learns), `workers` photos at a time, and read as a photo is read, each box moved
    too (`Examples.read`). A photo whose tile count differs from its TILES raises
    CountError naming it (the first such in `photos`) and the tiles found in each of
    its rows, and nothing is learnt from any photo; so does a flower named for a set
    without flowers (ProfileError, `Profile.check_kinds`)."""
    named = [kinds_of(tiles) for _, _, tiles in photos]
    profile.check_kinds([k for kinds in named for k in kinds])
    with ThreadPoolExecutor(max(workers, 1)) as pool:
        found = list(pool.map(lambda photo, kinds: tiles_in(detector, photo[1], len(kinds)), photos, named))
    for (photo, _, _), boxes, kinds in zip(photos, found, named):
        if len(boxes) != len(kinds):
            found_rows = " + ".join(str(len(row)) for row in rows_of(boxes))  # which row to look at: the player laid them out
            raise CountError(f"{photo}: {len(boxes)} tiles found, {len(kinds)} named (rows found, top to bottom: {found_rows or 'none'})")
    if not photos:
        return profile
    with ThreadPoolExecutor(max(workers, 1)) as pool:
        read = list(pool.map(lambda photo, boxes: Examples.read(detector, photo[1], boxes), photos, found))
    return profile.with_examples([k for kinds in named for k in kinds], Examples.concat(read))


def tiles_in(detector, img: np.ndarray, named: int) -> np.ndarray:
    """The boxes of the `named` tiles a player says `img` shows, in reading order; a part
    of a tile boxed alone (`whole_tiles`) is no tile to count. Where they lie is first
    the finder's call, the detector's boxes filling in what it missed (`finder.joined`):
    a set being taught is new, and on a sheet of a set it half knows the detector boxes
    a tile twice or misses one, which the finder seldom does (models/README.md, "Where
    a sheet's tiles lie"). Only where the detector knows the set (`knows_the_set`) and
    the finder's count is not `named` (it boxes the wall beside a hand the detector
    knows) is the detector's placement (`Detector.placed`: its own tiles and those of the
    finder's that continue them or that it is sure of) taken instead, if its count is
    nearer `named`: a player's wrong count is refused, not met by whichever
    placement happens to match it. Without a finder, the detector's placement."""
    located = detector.boxes(img, LEARNING)
    reading = None if detector.finder is None else detector.finder(img, LEARNING)
    boxes = None if reading is None else whole_tiles(joined(located, reading, LEARNING), LEARNING).boxes
    if boxes is None or len(boxes) != named and knows_the_set(located, LEARNING):
        own = whole_tiles(detector.placed(img, located, LEARNING, reading), LEARNING).boxes
        if boxes is None or abs(len(own) - named) < abs(len(boxes) - named):
            boxes = own
    return boxes[reading_order(boxes)]


def _embedding_reader(reader):
    if reader is None or not reader.embeds:
        raise ProfileError("the face reader gives no embedding: a tile set needs the shipped face reader")
    return reader


def teach(profile: Profile, detector, img: np.ndarray, boxes: np.ndarray, kinds: list[str]) -> Profile:
    """`profile` with the tiles at `boxes` (x1, y1, x2, y2 in the BGR `img`) added as
    examples of `kinds`, as `detector`'s general readers read them (`Detector.general`)
    and with their boxes moved (`Examples.read`): a correction in the app adds its tile so."""
    profile.check_kinds(kinds)
    return profile.with_examples(list(kinds), Examples.read(detector, img, boxes))


def kind_label(kind: str) -> str:
    """`'4z'` -> '4z 北', `'3m'` -> '3m 三萬', `'1f'` -> '1f 春': a kind as the app names it."""
    return f"{kind} {flower_name(int(kind[0])) if kind.endswith('f') else tile_name(kind_of(kind))}"


@dataclass(frozen=True)
class Taught:
    """The example one correction added to the set `name`: the crop of the page's tile
    `tile` as `kind`, the set's `examples`-th, so that an undo takes away exactly it."""

    name: str
    kind: str
    tile: int
    examples: int


def correct(name: str, detector, img: np.ndarray, box, kind: str, tile: int, last: Taught | None = None,
            faces: Path = DEFAULT_FACES, where: Path | None = None) -> Taught:
    """The player's word for the tile at `box` (x1, y1, x2, y2 in the BGR `img`) added to
    the stored set `name` as an example of `kind`, read by `detector`'s general readers. A second word for the same tile
    replaces the example the first added (`last`), while it is still the set's last: a
    mistaken tap leaves no wrong example behind."""
    profile = load(name, faces, where)
    profile.check_kinds([kind])  # refused before the last example is taken away for it
    if last is not None and last.tile == tile and last.name == name and _is_last(profile, last):
        profile = profile.without_last()
    profile = teach(profile, detector, img, np.array([box], float), [kind])
    profile.save(where)
    return Taught(name, kind, tile, len(profile.kinds))


def undo(taught: Taught, faces: Path = DEFAULT_FACES, where: Path | None = None) -> bool:
    """The example `taught` added taken away again; False, and nothing changed, where it is
    no longer its set's last (the set was learnt into, or deleted, since)."""
    if taught.name not in names(where):
        return False
    profile = load(taught.name, faces, where)
    if not _is_last(profile, taught):
        return False
    profile.without_last().save(where)
    return True


def _is_last(profile: Profile, taught: Taught) -> bool:
    return len(profile.kinds) == taught.examples and profile.kinds[-1] == taught.kind
