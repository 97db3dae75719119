"""Tile detection with onnxruntime + OpenCV only (no torch at run time)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .classes import BACK, CLASSES
from .faces import DEFAULT_FACES, FaceReader
from .flowers import DEFAULT_FLOWERS, FlowerReader
from .session import open_session
from .tileset import Profile

DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "taiscore-tiles.onnx"
SAME_TILE_IOU = 0.7  # two boxes of different classes overlapping this much are one physical tile
VOTE_IOU = 0.8  # candidates overlapping a kept box this much vote on where its edges lie
VOTE_FLOOR = 0.25  # ... if they score at least this; both chosen on 200 training photos
READER_BOX_SHARE = 0.4  # a box's final edges: this share the face reader's, the rest the detector's
# Windows only when the whole photo shows its tiles smaller than this (network input px):
# the per-photo median tile side of all but the smallest 5 % of training photos.
SMALL_TILE = 30
# A photo showing fewer than FEW_TILES tiles read SURE, or tiles (read at SEEN or above)
# whose median is more than LONG_TILE times as long as wide (1 % of training photos show
# theirs so), is read again at other proportions: squeezed along either side by each of
# STRETCHES; such a reading counts only with FEW_TILES tiles read SURE.
FEW_TILES = 3
SEEN = 0.25
SURE = 0.5
LONG_TILE = 2.5
STRETCHES = tuple(2 ** (k / 2) for k in range(1, 9))  # 1.4 to 16 times


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


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in `a` with every box in `b` (x1, y1, x2, y2)."""
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(2)
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])  # noqa: E731
    return inter / (area(a)[:, None] + area(b)[None, :] - inter + 1e-9)


def vote(kept: np.ndarray, boxes: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Each kept box moved to the score-weighted mean of the candidates that cover the same
    tile (box voting): NMS keeps one anchor's guess, and the neighbours' guesses average
    out some of its error. A kept box no candidate votes for stays where it is."""
    voters = scores >= VOTE_FLOOR
    boxes, scores = boxes[voters], scores[voters]
    weights = (box_iou(kept, boxes) >= VOTE_IOU) * scores
    total = weights.sum(1, keepdims=True)
    return np.where(total > 0, weights @ boxes / np.maximum(total, 1e-9), kept)


def _out_of_shape(boxes: np.ndarray, scores: np.ndarray) -> bool:
    """Whether the tiles a photo shows say it is out of its proportions: too few of them
    read surely (a tile stretched many times over can pass, unsurely, for a few square
    ones inside it), or most of those it shows far longer than any tile is wide."""
    if (scores >= SURE).sum() < FEW_TILES:
        return True
    seen = boxes[scores >= SEEN]
    w, h = seen[:, 2] - seen[:, 0], seen[:, 3] - seen[:, 1]
    return float(np.median(np.maximum(w, h) / np.maximum(np.minimum(w, h), 1e-9))) > LONG_TILE


def _tile_side(seen: np.ndarray) -> float | None:
    """The median side (square root of the area) of the tiles a photo shows clearly
    (`seen`, boxes in photo pixels); None where it shows none."""
    if not len(seen):
        return None
    return float(np.median(np.sqrt((seen[:, 2] - seen[:, 0]) * (seen[:, 3] - seen[:, 1]))))


def letterbox(img: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Resize keeping aspect, pad to size x size with grey (as ultralytics trains)."""
    h, w = img.shape[:2]
    scale = min(size / h, size / w)
    nh, nw = round(h * scale), round(w * scale)
    resized = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)  # as ultralytics does
    top, left = (size - nh) // 2, (size - nw) // 2
    out = np.full((size, size, 3), 114, np.uint8)
    out[top : top + nh, left : left + nw] = resized
    return out, scale, (left, top)


class Detector:
    """Loads the ONNX models once; `detect` takes a BGR image of any size. The detector
    finds the tiles, in windows too over a very large photo of small tiles (`_windows`);
    the face reader, unless `faces` is None, reads each one's face and edges again from
    its own crop (`vision/faces.py`), and the flower reader, unless `flowers` is None,
    reads again, larger, each tile the face reader says may be a flower
    (`vision/flowers.py`); a photo stretched out of its proportions is read again
    squeezed back into them (`_reproportioned`); a tile-set profile, if given, reads the
    faces again by their likeness to its set's examples (`vision/tileset.py`)."""

    def __init__(
        self,
        model: Path = DEFAULT_MODEL,
        conf: float = 0.25,
        iou: float = 0.7,
        threads: int = 2,
        faces: Path | None = DEFAULT_FACES,
        flowers: Path | None = DEFAULT_FLOWERS,
        tileset: Profile | None = None,
    ):
        self.session = open_session(model, threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        names = ast.literal_eval(meta.get("names", "{}"))
        if tuple(names[i] for i in sorted(names)) != CLASSES:
            raise ValueError(f"{model}: its classes are not the 43 taiscore classes")
        self.size = int(self.session.get_inputs()[0].shape[2])
        self.input = self.session.get_inputs()[0].name
        self.conf, self.iou = conf, iou
        self.faces = FaceReader(faces, threads) if faces is not None else None
        self.flowers = FlowerReader(flowers, threads) if faces is not None and flowers is not None else None
        self.tileset = tileset.usable_with(self.faces, faces) if tileset is not None else None

    def _raw(self, img: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes (x1y1x2y2 in `img` pixels), scores and classes above the threshold or
        VOTE_FLOOR, whichever is lower, so that a box votes the same at any threshold."""
        padded, scale, (left, top) = letterbox(img, self.size)
        blob = np.ascontiguousarray(padded[:, :, ::-1].transpose(2, 0, 1), dtype=np.float32)[None] / 255.0
        out = self.session.run(None, {self.input: blob})[0][0]  # (4 + nc, anchors)
        scores_all = out[4:]
        cls = scores_all.argmax(0)
        scores = scores_all[cls, np.arange(scores_all.shape[1])]
        keep = scores >= min(self.conf, VOTE_FLOOR)
        cx, cy, w, h = out[:4, keep]
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
        boxes = (boxes - [left, top, left, top]) / scale
        return boxes, scores[keep], cls[keep]

    def _windows(self, w: int, h: int, tile: float | None = None) -> list[tuple[int, int, int, int]]:
        """The whole photo, plus overlapping windows when it is very wide or very large and
        its tiles come out smaller than `SMALL_TILE` at the network's input (`tile`: their
        side in photo pixels, None if unknown). Each window is as small as brings them up to
        that size and no smaller: windows over large tiles enlarge them past anything
        trained on, and parts of tiles (one circle of a 2p) pass for tiles. Where the whole
        photo shows no tile, each is half its long side."""
        wins = [(0, 0, w, h)]
        long_, short = max(w, h), min(w, h)
        if long_ <= 3 * self.size and long_ <= 2.2 * short:
            return wins
        if tile is None:
            side = max(self.size, min(short, long_ // 2))
        elif tile * self.size / long_ >= SMALL_TILE:
            return wins
        else:
            side = max(self.size, round(self.size * tile / SMALL_TILE))
        step = int(side * 0.75)
        xs = list(range(0, max(w - side, 0) + 1, step)) + [max(w - side, 0)]
        ys = list(range(0, max(h - side, 0) + 1, step)) + [max(h - side, 0)]
        wins += sorted({(x, y, min(x + side, w), min(y + side, h)) for x in xs for y in ys})
        return wins

    def _uncut(self, boxes: np.ndarray, window: tuple[int, int, int, int], w: int, h: int) -> np.ndarray:
        """Which of a window's boxes stop short of its inner edges (those that are not the
        photo's): a box reaching one is a tile the edge cuts, and the window beside it,
        overlapping by a quarter of its side, sees that tile whole."""
        x1, y1, x2, y2 = window
        margin = max(x2 - x1, y2 - y1) / self.size  # one pixel of the network's input
        return ~(
            ((boxes[:, 0] < margin) & (x1 > 0))
            | ((boxes[:, 1] < margin) & (y1 > 0))
            | ((boxes[:, 2] > x2 - x1 - margin) & (x2 < w))
            | ((boxes[:, 3] > y2 - y1 - margin) & (y2 < h))
        )

    def boxes(self, img: np.ndarray, in_windows: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The detector alone: one box per physical tile (x1, y1, x2, y2 in `img` pixels),
        its score and class, windows over a very wide or very large photo of small tiles
        merged (unless `in_windows` is False), each box placed by `vote`."""
        h, w = img.shape[:2]
        whole = self._raw(img)
        parts = [whole]
        # the tiles' size read at SEEN, not at the working threshold, which `taiscore eval` lowers
        windows = self._windows(w, h, _tile_side(whole[0][whole[1] >= SEEN]))[1:] if in_windows else []
        for x1, y1, x2, y2 in windows:
            b, s, c = self._raw(img[y1:y2, x1:x2])
            uncut = self._uncut(b, (x1, y1, x2, y2), w, h)
            parts.append((b[uncut] + [x1, y1, x1, y1], s[uncut], c[uncut]))
        boxes = np.concatenate([p[0] for p in parts]).clip(0, [w, h, w, h])
        scores = np.concatenate([p[1] for p in parts])
        classes = np.concatenate([p[2] for p in parts])
        if not len(boxes):
            return boxes.reshape(0, 4), scores, classes
        xywh = np.column_stack([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]]).tolist()
        keep = np.array(cv2.dnn.NMSBoxesBatched(xywh, scores.tolist(), classes.tolist(), self.conf, self.iou), dtype=int).reshape(-1)
        # One physical tile gets one box: of two boxes of different classes covering the same
        # tile, the more confident stays (class-aware NMS alone keeps both).
        across = cv2.dnn.NMSBoxes([xywh[i] for i in keep], scores[keep].tolist(), 0.0, SAME_TILE_IOU)
        keep = keep[np.array(across, dtype=int).reshape(-1)]
        return vote(boxes[keep], boxes, scores), scores[keep], classes[keep]

    def detect(self, img: np.ndarray) -> list[Tile]:
        """Every tile with its code, confidence and box, top to bottom, left to right. A
        photo that shows (almost) no tile, or tiles far too long, is read again at other
        proportions (`_reproportioned`)."""
        boxes, scores, classes = self._read(img)
        if _out_of_shape(boxes, scores):
            boxes, scores, classes = self._reproportioned(img, boxes, scores, classes)
        tiles = [Tile(CLASSES[int(c)], float(s), tuple(float(v) for v in b)) for b, s, c in zip(boxes, scores, classes)]
        return sorted(tiles, key=lambda t: (t.box[1], t.box[0]))

    def _read(self, img: np.ndarray, size: tuple[int, int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes (in `img` pixels), scores and classes of the tiles in `img`: the detector's,
        reading it resized to `size` (w, h) if given, whole (a squeezed copy is not read in
        windows: 18 copies of a 12 MP photo would take seconds), then the face reader's,
        reading each tile from `img` itself, where a squeeze has not blurred it."""
        if size is None:
            boxes, scores, classes = self.boxes(img)
        else:
            (h, w), (nw, nh) = img.shape[:2], size
            boxes, scores, classes = self.boxes(cv2.resize(img, size, interpolation=cv2.INTER_AREA), in_windows=False)
            boxes = boxes * [w / nw, h / nh, w / nw, h / nh]
        if self.faces is not None and len(boxes):
            boxes, scores, classes = self._read_faces(img, boxes, scores, classes)
        return boxes, scores, classes

    def _reproportioned(self, img: np.ndarray, *reading: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The best reading of `img` squeezed back into shape, boxes in `img` pixels. A
        photo stretched out of its proportions (an export or an app that makes every image
        square) shows its tiles many times too tall or too wide, and the detector finds
        none. It is read squeezed by each of `STRETCHES` along either side, then by a
        quarter step either side of the best. The reading with the most confidence in the
        tiles it sees wins, the photo's own included; a squeezed one must read at least
        `FEW_TILES` of them `SURE`ly: of 18 readings of a photo the detector reads poorly,
        one may see a few tiles at low confidence, which is no reason to read it out of shape."""
        h, w = img.shape[:2]

        def squeezed(stretch: float, along_x: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            return self._read(img, (max(1, round(w / stretch)), h) if along_x else (w, max(1, round(h / stretch))))

        def surer(candidate: tuple[np.ndarray, ...], than: tuple[np.ndarray, ...]) -> bool:
            scores, other = candidate[1], than[1]
            return (scores >= SURE).sum() >= FEW_TILES and scores[scores >= SEEN].sum() > other[other >= SEEN].sum()

        best, how = reading, None
        for stretch, along_x in [(s, x) for s in STRETCHES for x in (True, False)]:
            candidate = squeezed(stretch, along_x)
            if surer(candidate, best):
                best, how = candidate, (stretch, along_x)
        if how is not None:
            stretch, along_x = how
            for finer in (stretch / 2**0.25, stretch * 2**0.25):
                candidate = squeezed(finer, along_x)
                if surer(candidate, best):
                    best = candidate
        return best

    def _read_faces(self, img: np.ndarray, boxes: np.ndarray, scores: np.ndarray, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The face reader's reading for every tile: where its edges lie, and for a face-up
        tile its face and P(tile here) x P(face) (with a tile-set profile, P(face) the surer
        of its reading and the general one's); a tile the detector reads face down keeps
        that reading; the flower reader says which flower a tile is that may be one. The
        reader's box and the detector's are off independently, so their blend
        (`READER_BOX_SHARE`) is nearer the tile than either."""
        probs, seen, embedded = self.faces.read_embedded(img, boxes)
        if self.flowers is not None:
            probs = self.flowers.reread(img, boxes, probs)
        boxes = (1 - READER_BOX_SHARE) * boxes + READER_BOX_SHARE * seen
        face_up = classes != BACK
        face_conf = probs.max(1)
        if self.tileset is not None:  # it may make a tile surer, never drop one
            probs = self.tileset.reread(probs, embedded)
            face_conf = np.maximum(face_conf, probs.max(1))
        classes = np.where(face_up, probs.argmax(1), classes)
        scores = np.where(face_up, scores * face_conf, scores)
        keep = scores >= self.conf
        h, w = img.shape[:2]
        return boxes[keep].clip(0, [w, h, w, h]), scores[keep], classes[keep]
