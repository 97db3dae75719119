"""Every tile the detector found read again from its own crop: its face by the face reader
(`faces.py`), a tile that may be a flower by the flower reader too (`flowers.py`), its
edges blended with the reader's (`blend.py`)."""

from __future__ import annotations

import numpy as np

from .blend import blend
from .classes import BACK
from .config import Thresholds
from .detections import Detections
from .faces import FaceReader
from .flowers import FlowerReader
from .tileset import Profile


def reread(
    img: np.ndarray, found: Detections, faces: FaceReader, flowers: FlowerReader | None, config: Thresholds, tileset: Profile | None = None
) -> Detections:
    """The tiles of `found` (boxes in `img` pixels) as the readers read them: a face-up
    tile takes the face they read and P(tile here) x P(face) (with a tile-set profile,
    P(face) the surer of its reading and the general one's), a tile the detector reads
    face down keeps that reading. Every tile found stays: where the tiles are is the
    detector's call, which tile the readers', and a tile they cannot read is one to check
    (a low confidence), not to lose."""
    if tileset is None:
        (probs, seen), embedded = faces.read(img, found.boxes, config.reader_turns), None
    else:
        probs, seen, embedded = faces.read_embedded(img, found.boxes, config.reader_turns)
    if flowers is not None:
        probs = flowers.reread(img, found.boxes, probs, config.may_be_a_flower)
    face_up = found.classes != BACK
    face_conf = probs.max(1)
    if tileset is not None:  # it may make a tile surer, never drop one
        probs = tileset.reread(probs, embedded)
        face_conf = np.maximum(face_conf, probs.max(1))
    classes = np.where(face_up, probs.argmax(1), found.classes)
    scores = np.where(face_up, found.scores * face_conf, found.scores)
    h, w = img.shape[:2]
    return Detections(blend(found.boxes, seen, config.reader_box_share), scores, classes).clipped(w, h)
