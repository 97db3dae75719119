"""`taiscore eval`: detector accuracy on any YOLO dataset, with our own ONNX pipeline.

mAP follows the COCO recipe (predictions in falling confidence each take the best
unclaimed true box of their class; 101-point interpolated precision; IoU 0.50:0.95); precision and recall are reported at the
detector's working confidence, the numbers a player actually sees.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scoring.tiles import parse_tiles

from .classes import CLASSES
from .detections import box_iou
from .detector import Detector, Tile
from .image import load
from .layout import read_layout

IOUS = np.linspace(0.5, 0.95, 10)
EVERY_READING = 0.001  # the confidence evaluation reads at: mAP counts every reading, however unsure
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


@dataclass(frozen=True)
class Report:
    images: int
    precision: float
    recall: float
    map50: float
    map50_95: float
    per_class: dict[str, tuple[int, float, float]]  # code -> (instances, AP50, AP50-95)
    confusions: list[tuple[str, str, int]]  # (true, read as, count)
    exact_images: float  # share of photos whose every tile was read right
    hands: int = 0  # photos with a true hand beside them (hands/NAME.json)
    exact_hands: float = 0.0  # share of those whose hand object was read exactly

    def to_json(self) -> dict:
        return {
            "images": self.images,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "mAP50": round(self.map50, 4),
            "mAP50-95": round(self.map50_95, 4),
            "exact_image_rate": round(self.exact_images, 4),
            "hand_photos": self.hands,
            "exact_hand_rate": round(self.exact_hands, 4),
            "per_class": {c: {"instances": n, "AP50": round(a, 4), "AP50-95": round(b, 4)} for c, (n, a, b) in self.per_class.items()},
            "top_confusions": [{"true": t, "read_as": p, "count": n} for t, p, n in self.confusions],
        }


def image_files(target: Path) -> list[Path]:
    """A dataset YAML (its `val` entry) or a folder of images (labels beside in ../labels)."""
    if target.suffix in (".yaml", ".yml"):
        import yaml

        spec = yaml.safe_load(target.read_text())
        vals = spec["val"] if isinstance(spec["val"], list) else [spec["val"]]
        base = Path(spec.get("path") or target.parent)
        folders = [p if Path(p).is_absolute() else base / p for p in map(Path, vals)]
    else:
        folders = [target / "images" if (target / "images").is_dir() else target]
    return sorted(p for f in folders for p in Path(f).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def beside(image: Path, folder: str, suffix: str) -> Path:
    """`.../images/x.jpg` -> `.../<folder>/x<suffix>`."""
    parts = list(image.parts)
    idx = len(parts) - 1 - parts[::-1].index("images")
    parts[idx] = folder
    return Path(*parts).with_suffix(suffix)


def same_hand(read: dict, truth: dict) -> bool:
    norm = lambda h: (  # noqa: E731
        tuple(sorted(parse_tiles(h.get("concealed", "")))),
        tuple(sorted(h.get("melds", []))),
        h.get("flowers", ""),
        h.get("winning_tile"),
    )
    return norm(read) == norm(truth)


def labels_for(image: Path, w: int, h: int) -> np.ndarray:
    """Ground truth as rows (class, x1, y1, x2, y2) in pixels."""
    path = beside(image, "labels", ".txt")
    rows = []
    if path.exists():
        for line in path.read_text().splitlines():
            v = line.split()
            if len(v) == 5:
                c, cx, cy, bw, bh = int(v[0]), *map(float, v[1:])
                rows.append((c, (cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h))
    return np.array(rows, dtype=float).reshape(-1, 5)


def arrays(tiles: list[Tile]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The detector's tiles as `match` and `claimed` take them: boxes (N x 4), class indices, confidences."""
    boxes = np.array([t.box for t in tiles], float).reshape(-1, 4)
    return boxes, np.array([CLASSES.index(t.code) for t in tiles], int), np.array([t.conf for t in tiles], float)


def _claims(iou: np.ndarray, order: np.ndarray, thr: float) -> np.ndarray:
    """COCO's rule: in `order` (falling confidence), each prediction (a row of `iou`)
    claims the best unclaimed true box at `thr` or above; the index it claims, or -1."""
    taken = np.zeros(iou.shape[1], bool)
    claims = np.full(len(iou), -1)
    for i in order:
        cand = np.where(~taken & (iou[i] >= thr), iou[i], -1.0)
        j = int(cand.argmax())
        if cand[j] >= thr:
            taken[j] = True
            claims[i] = j
    return claims


def match(pred_boxes, pred_cls, gt: np.ndarray, pred_conf: np.ndarray | None = None) -> np.ndarray:
    """For each prediction and IoU threshold: is it a true positive (`_claims`, a true box
    of its class)?"""
    correct = np.zeros((len(pred_boxes), len(IOUS)), bool)
    if not len(pred_boxes) or not len(gt):
        return correct
    iou = box_iou(pred_boxes, gt[:, 1:]) * (pred_cls[:, None] == gt[None, :, 0])
    order = np.argsort(-pred_conf) if pred_conf is not None else np.arange(len(pred_boxes))
    for t, thr in enumerate(IOUS):
        correct[:, t] = _claims(iou, order, thr) >= 0
    return correct


def claimed(pred_boxes: np.ndarray, pred_cls: np.ndarray, pred_conf: np.ndarray, gt: np.ndarray, any_class: bool = False) -> np.ndarray:
    """For each true box (rows class, x1, y1, x2, y2): does a prediction claim it at IoU 0.5
    (`_claims`), one of its class unless `any_class`?"""
    found = np.zeros(len(gt), bool)
    if not len(pred_boxes) or not len(gt):
        return found
    iou = box_iou(pred_boxes, gt[:, 1:]) * (any_class or (pred_cls[:, None] == gt[None, :, 0]))
    claims = _claims(iou, np.argsort(-pred_conf), 0.5)
    found[claims[claims >= 0]] = True
    return found


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    r = np.concatenate(([0.0], recall, [1.0]))
    p = np.concatenate(([1.0], precision, [0.0]))
    p = np.flip(np.maximum.accumulate(np.flip(p)))
    x = np.linspace(0, 1, 101)
    return float(np.trapezoid(np.interp(x, r, p), x))


def evaluate(target: Path, detector: Detector) -> Report:
    """The detector's readings of every photo of `target` at `EVERY_READING`, precision,
    recall and the exact rates at its own working confidence."""
    files = image_files(target)
    working_conf = detector.config.conf
    reading = dataclasses.replace(detector.config, conf=EVERY_READING)
    stats, confusion, exact = [], Counter(), 0
    n_gt = Counter()
    tp_work = fp_work = 0
    hands = exact_hands = 0
    for f in files:
        img = load(f)
        h, w = img.shape[:2]
        gt = labels_for(f, w, h)
        tiles = detector.detect(img, reading)
        boxes, cls, conf = arrays(tiles)
        correct = match(boxes, cls, gt, conf)
        stats.append((correct, conf, cls))
        n_gt.update(gt[:, 0].astype(int).tolist())
        work = conf >= working_conf
        tp_work += int(correct[work, 0].sum())
        fp_work += int((~correct[work, 0]).sum())
        if Counter(cls[work].tolist()) == Counter(gt[:, 0].astype(int).tolist()):
            exact += 1
        truth = beside(f, "hands", ".json")
        if truth.exists():
            hands += 1
            working = [t for t in tiles if t.conf >= working_conf]
            exact_hands += same_hand(read_layout(working).hand, json.loads(truth.read_text()))
        if len(gt) and work.any():
            iou = box_iou(boxes[work], gt[:, 1:])
            for pi, gi in zip(*np.nonzero(iou >= 0.5)):
                if cls[work][pi] != gt[gi, 0] and iou[pi, gi] == iou[:, gi].max():
                    confusion[(CLASSES[int(gt[gi, 0])], CLASSES[int(cls[work][pi])])] += 1
    correct = np.concatenate([s[0] for s in stats]) if stats else np.zeros((0, 10), bool)
    conf = np.concatenate([s[1] for s in stats]) if stats else np.zeros(0)
    cls = np.concatenate([s[2] for s in stats]) if stats else np.zeros(0, int)
    per_class = {}
    for c in sorted(n_gt):
        sel = cls == c
        order = np.argsort(-conf[sel])
        hits = correct[sel][order]
        tpc = hits.cumsum(0)
        fpc = (~hits).cumsum(0)
        recall = tpc / max(n_gt[c], 1)
        precision = tpc / np.maximum(tpc + fpc, 1)
        aps = [average_precision(recall[:, t], precision[:, t]) if len(hits) else 0.0 for t in range(len(IOUS))]
        per_class[CLASSES[c]] = (n_gt[c], aps[0], float(np.mean(aps)))
    total_gt = sum(n_gt.values())
    return Report(
        images=len(files),
        precision=tp_work / max(tp_work + fp_work, 1),
        recall=tp_work / max(total_gt, 1),
        map50=float(np.mean([v[1] for v in per_class.values()])) if per_class else 0.0,
        map50_95=float(np.mean([v[2] for v in per_class.values()])) if per_class else 0.0,
        per_class=per_class,
        confusions=[(t, p, n) for (t, p), n in confusion.most_common(10)],
        exact_images=exact / max(len(files), 1),
        hands=hands,
        exact_hands=exact_hands / max(hands, 1),
    )


def report_text(r: Report) -> str:
    lines = [
        f"images {r.images}  precision {r.precision:.3f}  recall {r.recall:.3f}  "
        f"mAP50 {r.map50:.3f}  mAP50-95 {r.map50_95:.3f}  exact-image rate {r.exact_images:.3f}  "
        f"exact-hand rate {r.exact_hands:.3f} of {r.hands} hand photos",
        "class  instances  AP50   AP50-95",
    ]
    lines += [f"{c:<6} {n:>9}  {a:.3f}  {b:.3f}" for c, (n, a, b) in r.per_class.items()]
    lines.append("top confusions (true -> read as: count):")
    lines += [f"  {t} -> {p}: {n}" for t, p, n in r.confusions]
    return "\n".join(lines)
