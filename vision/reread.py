"""Every tile the detector found read again from its own crop: its face by the face reader
(`faces.py`), a tile that may be a flower by the flower reader too (`flowers.py`), one
showing its back called face down (`backs.py`), its edges blended with the reader's
(`blend.py`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .backs import face_down
from .blend import blend
from .characters import CharacterReader
from .classes import BACK
from .config import Thresholds
from .detections import Detections
from .faces import FACES, FaceReader
from .flowers import FLOWER_FACES, FlowerReader
from .suits import reread_suits
from .tileset import Profile

WHITE = FACES.index("5z")  # 白: an empty face, as a back the faces' colour looks


@dataclass(frozen=True)
class Reading:
    """The general readers' reading of N tiles, before any tile-set profile: `probs`
    (N x 42 over `FACES`), the tiles' boxes as the face reader sees them (`seen`), which
    are face up (`face_up`), and each one's embedding where asked for (`embedded`,
    N x features): what a profile reads a tile by, and keeps of an example it learns."""

    probs: np.ndarray
    seen: np.ndarray
    face_up: np.ndarray
    embedded: np.ndarray | None


def read(
    img: np.ndarray,
    found: Detections,
    faces: FaceReader,
    flowers: FlowerReader | None,
    config: Thresholds,
    characters: CharacterReader | None = None,
    embed: bool = False,
) -> Reading:
    """The tiles of `found` (boxes in `img` pixels) as the general readers read them: the
    face reader, a tile that may be a flower by the flower reader too, an unsure one by
    the text recogniser (`reread_characters`) and by whether it shows circles, dots or
    bamboo (`suits.reread_suits`). A tile showing its back, one colour unlike the photo's
    faces, is face down whatever the readers name it (`backs.face_down`), as is one the
    detector reads so."""
    if embed:
        probs, seen, embedded = faces.read_embedded(img, found.boxes, config.reader_turns)
    else:
        (probs, seen), embedded = faces.read(img, found.boxes, config.reader_turns), None
    if flowers is not None:
        probs = flowers.reread(img, found.boxes, probs, config.may_be_a_flower)
    read_down = found.classes == BACK
    face_up = ~(read_down | face_down(img, found.boxes, ~read_down, probs.argmax(1) == WHITE, config))
    if characters is not None:
        probs = reread_characters(img, found.boxes, probs, face_up, characters, config)
    return Reading(reread_suits(img, found.boxes, probs, face_up, config), seen, face_up, embedded)


def reread(
    img: np.ndarray,
    found: Detections,
    faces: FaceReader,
    flowers: FlowerReader | None,
    config: Thresholds,
    tileset: Profile | None = None,
    characters: CharacterReader | None = None,
) -> Detections:
    """The tiles of `found` as the readers read them (`read`), named so (`named_by`)."""
    reading = read(img, found, faces, flowers, config, characters, embed=tileset is not None)
    return named_by(found, reading, img.shape, config, tileset)


def named_by(found: Detections, reading: Reading, shape: tuple[int, ...], config: Thresholds, tileset: Profile | None = None) -> Detections:
    """The tiles of `found`, in a photo of `shape`, named by the general readers'
    `reading` of them: a face-up tile takes the face they read and P(tile here) x P(face)
    (with a tile-set profile, P(face) the surer of its reading and the general one's), a
    tile face down keeps the detector's score. Every tile found stays: where the tiles are
    is the detector's call, which tile the readers', and a tile they cannot read is one to
    check (a low confidence), not to lose. Only this part depends on the profile."""
    probs = reading.probs
    face_conf = probs.max(1)
    if tileset is not None:  # it may make a tile surer, never drop one
        probs = tileset.reread(probs, reading.embedded, reading.face_up)
        face_conf = np.maximum(face_conf, probs.max(1))
    classes = np.where(reading.face_up, probs.argmax(1), BACK)
    scores = np.where(reading.face_up, found.scores * face_conf, found.scores)
    h, w = shape[:2]
    return Detections(blend(found.boxes, reading.seen, config.reader_box_share), scores, classes).clipped(w, h)


def reread_characters(img: np.ndarray, boxes: np.ndarray, probs: np.ndarray, face_up: np.ndarray, characters: CharacterReader, config: Thresholds) -> np.ndarray:
    """`probs` with each face-up tile the readers are unsure of (no face
    `reader_unsure` or likelier) read by the text recogniser too: a face whose
    characters it reads with probability p takes odds 1 + `character_odds` x p times the
    readers'. Where it reads none, the readers' reading stands. Such a tile that may be a
    flower (`may_be_a_flower`, before or after) is read at its corners too
    (`among_flowers`, `corner_odds`, `name_odds`): the characters on a flower's face may
    read as another tile's, its numeral 二 as the 2m's."""
    unsure = face_up & (probs.max(1) < config.reader_unsure)
    if not unsure.any():
        return probs
    weighed = probs[unsure] * (1 + config.character_odds * characters.read(img, boxes[unsure]))
    out = probs.copy()
    out[unsure] = weighed / weighed.sum(1, keepdims=True)
    flowery = unsure & (np.maximum(probs[:, FLOWER_FACES].sum(1), out[:, FLOWER_FACES].sum(1)) >= config.may_be_a_flower)
    if flowery.any():
        out[flowery] = among_flowers(out[flowery], *characters.corners(img, boxes[flowery]), config.corner_odds, config.name_odds)
    return out


def among_flowers(probs: np.ndarray, numerals: np.ndarray, names: np.ndarray, odds: float, name_odds: float) -> np.ndarray:
    """`probs` with their share on the flowers spread anew by what the tiles' corners read:
    each flower's odds times 1 + `odds` x P(its numeral) and again for its name. A reader
    that never saw a set tells its flowers from the other tiles far better than one flower
    from another (models/README.md), and a corner of a 2m or of a dots tile reads as a
    numeral too: whether a tile is a flower at all stays the readers' call, but for a
    flower's name, which no other tile shows: the odds of the flowers together times
    1 + `name_odds` x the likeliest name's probability."""
    share = probs[:, FLOWER_FACES].sum(1, keepdims=True)
    named = 1 + name_odds * names[:, FLOWER_FACES].max(1, keepdims=True)
    total = 1 + share * (named - 1)  # the mass once the flowers' odds are so many times theirs
    weighed = probs[:, FLOWER_FACES] * (1 + odds * numerals[:, FLOWER_FACES]) * (1 + odds * names[:, FLOWER_FACES]) + 1e-12
    out = probs / total
    out[:, FLOWER_FACES] = share * named / total * weighed / weighed.sum(1, keepdims=True)
    return out
