"""Tile detection with onnxruntime + OpenCV only (no torch at run time), in stages: the
network finds candidates (`network.py`), in windows too over a very large photo of small
tiles (`windows.py`), one box per tile is kept and placed (`voting.py`), in a photo of a
set the detector does not know the finder places the tiles (`finder.py`), the face and
flower readers read each tile again (`reread.py`; the text recogniser the characters of
those they are unsure of: `characters.py`, and their circles whether dots: `suits.py`;
with a tile-set profile, by their likeness to its set's examples too: `tileset.py`; a
tile showing its back is face down: `backs.py`),
and a photo stretched out of its proportions is read again squeezed back into them
(`reshape.py`). Every threshold lies in `config.Thresholds`."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .characters import CharacterReader
from .classes import CLASSES
from .config import DEFAULT, Thresholds
from .detections import Detections
from .faces import FaceReader
from .finder import TileFinder, joined, knows_the_set, row_mates, sure_tiles
from .flowers import FlowerReader
from .models import DEFAULT_CHARACTERS, DEFAULT_FACES, DEFAULT_FINDER, DEFAULT_FLOWERS, DEFAULT_MODEL
from .network import TileNetwork
from .reread import Reading, read, reread
from .reshape import a_few_in_shape, out_of_shape, reproportioned, smoothed_along
from .tileset import Profile
from .voting import one_per_tile
from .windows import in_windows


@dataclass(frozen=True)
class Tile:
    """One detected tile: its code, confidence and box in original-image pixels."""

    code: str
    conf: float
    box: tuple[float, float, float, float]

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]

    @property
    def cx(self) -> float:
        return (self.box[0] + self.box[2]) / 2

    @property
    def cy(self) -> float:
        return (self.box[1] + self.box[3]) / 2

    def to_json(self) -> dict:
        return {"code": self.code, "conf": round(self.conf, 4), "box": [round(v, 1) for v in self.box]}


class Detector:
    """Loads the ONNX models once; `detect` takes a BGR image of any size. The face reader
    is left out where `faces` is None, the flower reader where `flowers` (or `faces`) is,
    the text recogniser where `characters` (or `faces`) is, the finder where `finder` (or
    `faces`: no reader would name its tiles) is."""

    def __init__(
        self,
        model: Path = DEFAULT_MODEL,
        config: Thresholds = DEFAULT,
        threads: int = 2,
        faces: Path | None = DEFAULT_FACES,
        flowers: Path | None = DEFAULT_FLOWERS,
        tileset: Profile | None = None,
        finder: Path | None = DEFAULT_FINDER,
        characters: Path | None = DEFAULT_CHARACTERS,
    ):
        self.network = TileNetwork(model, threads)
        self.finder = TileFinder(finder, threads) if faces is not None and finder is not None else None
        self.config = config
        self.faces = FaceReader(faces, threads) if faces is not None else None
        self.flowers = FlowerReader(flowers, threads) if faces is not None and flowers is not None else None
        self.characters = CharacterReader(characters, threads) if faces is not None and characters is not None else None
        self.faces_file = faces
        self.tileset = tileset.usable_with(self.faces, faces) if tileset is not None else None

    def with_tileset(self, tileset: Profile | None) -> Detector:
        """The same networks reading with `tileset` (or none): the app's set changes with
        every correction, its networks are loaded once."""
        other = copy.copy(self)
        other.tileset = tileset.usable_with(self.faces, self.faces_file) if tileset is not None else None
        return other

    def detect(self, img: np.ndarray, config: Thresholds | None = None) -> list[Tile]:
        """Every tile with its code, confidence and box, top to bottom, left to right, read
        at `config` (the detector's own by default). Where the detector does not know the
        set, the finder says where the tiles lie, the detector's filling in, before the
        readers name them; where it knows the set, the finder's tiles it missed that
        continue its rows or that the finder is sure of join its own (`completed`). A
        photo that shows no tile read surely, or tiles far too long, is read again at
        other proportions, unless the finder sees a lone tile or a close-up in it or the
        photo is not smoothed along either side as a stretch leaves it; a squeeze takes
        the place of where the tiles lie only where the detector finds tiles in it surer
        than there."""
        config = config or self.config
        located = self.completed(img, self.boxes(img, config), config)
        found = own = self.named(img, located, config)
        finder = self.finding(img, located, config)
        placed = joined(located, finder, config)
        if out_of_shape(found, config) and not a_few_in_shape(finder, config) and (sides := smoothed_along(img, config)):
            h, w = img.shape[:2]
            squeezed = reproportioned(lambda size: self.boxes_at(img, config, size), w, h, placed, config, sides)
            found = own if squeezed is placed else self.named(img, squeezed, config)
        if found is own and finder is not None:
            found = self.named(img, placed, config)
        tiles = [Tile(CLASSES[int(c)], float(s), tuple(float(v) for v in b)) for b, s, c in zip(found.boxes, found.scores, found.classes)]
        return sorted(tiles, key=lambda t: (t.box[1], t.box[0]))

    def boxes_at(self, img: np.ndarray, config: Thresholds, size: tuple[int, int]) -> Detections:
        """The detector's tiles in `img` resized to `size` (w, h), boxes in `img`'s own
        pixels, whole (a squeezed copy is not read in windows: 18 copies of a 12 MP photo
        would take seconds). The readers read the winning squeeze's tiles from `img`
        itself, where a squeeze has not blurred them."""
        (h, w), (nw, nh) = img.shape[:2], size
        return self.boxes(cv2.resize(img, size, interpolation=cv2.INTER_AREA), config, windows=False).scaled(w / nw, h / nh)

    def finding(self, img: np.ndarray, located: Detections, config: Thresholds, reading: Detections | None = None) -> Detections | None:
        """The finder's tiles (its `reading` of `img` where already made) where the
        detector, having found `located`, does not know the set; None where it does, or
        where there is no finder."""
        if self.finder is None or knows_the_set(located, config):
            return None
        return self.finder(img, config) if reading is None else reading

    def completed(self, img: np.ndarray, located: Detections, config: Thresholds, reading: Detections | None = None) -> Detections:
        """The detector's tiles `located` and, where it knows the set, the finder's tiles
        (its `reading` of `img` where already made) it missed: those continuing its rows
        where it is sure of fewer than a hand (`finder_hand`: `row_mates`; where it is
        sure of every tile it sees, only those the finder scores `finder_row` or more),
        and those the finder is sure of anywhere (`sure_tiles`). The finder costs a photo
        of a hand about as much again."""
        if self.finder is None or not knows_the_set(located, config):
            return located
        finder = self.finder(img, config) if reading is None else reading
        known = located.scores >= config.finder_known
        if known.sum() < config.finder_hand:
            doubt = (located.scores[~known] >= config.seen).any()
            mates = finder if doubt else finder[finder.scores >= config.finder_row]
            located = Detections.concat([located, row_mates(located, mates, config, config.finder_known)])
        return Detections.concat([located, sure_tiles(located, finder, config)])

    def placed(self, img: np.ndarray, located: Detections, config: Thresholds, reading: Detections | None = None) -> Detections:
        """Where the tiles lie: the detector's `located`, completed (`completed`), and,
        where it does not know the set, the finder's tiles first (`finder.joined`); the
        finder's `reading` of `img`, where already made, is not made again."""
        located = self.completed(img, located, config, reading)
        return joined(located, self.finding(img, located, config, reading), config)

    def named(self, img: np.ndarray, found: Detections, config: Thresholds) -> Detections:
        """`found` as the readers read it (`reread.py`), or as found where there are none."""
        if self.faces is None or not len(found):
            return found
        return reread(img, found, self.faces, self.flowers, config, self.tileset, self.characters)

    def general(self, img: np.ndarray, boxes: np.ndarray, config: Thresholds | None = None) -> Reading:
        """The general readers' reading of the tiles at `boxes` (x1, y1, x2, y2 in `img`),
        whatever the tile-set profile, with each one's embedding: what a profile keeps of
        an example it learns (`tileset.learn`, `tileset.teach`)."""
        found = Detections(np.asarray(boxes, float).reshape(-1, 4), np.ones(len(boxes)), np.zeros(len(boxes), int))
        return read(img, found, self.faces, self.flowers, config or self.config, self.characters, embed=True)

    def boxes(self, img: np.ndarray, config: Thresholds | None = None, windows: bool = True) -> Detections:
        """The detector alone: one box per physical tile, windows over a very wide or very
        large photo of small tiles merged (unless `windows` is False). Candidates are kept
        down to `vote_floor` whatever the working threshold, so that a box votes the same
        at any threshold."""
        config = config or self.config
        h, w = img.shape[:2]
        find = lambda part: self.network(part, min(config.conf, config.vote_floor))  # noqa: E731
        whole = find(img)
        parts = [whole] + (in_windows(find, img, whole, self.network.size, config) if windows else [])
        return one_per_tile(Detections.concat(parts).clipped(w, h), config)
