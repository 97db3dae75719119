"""Record ultralytics' own predictions on the golden photos, for the ONNX pipeline test.

`python -m vision.training.golden` after every export: it runs ultralytics on the
shipped ONNX model and writes tests/golden/detections.json, which the tests (with
no torch installed) compare against vision.detector.
"""

from __future__ import annotations

import json

from .env import ROOT, offline

GOLDEN = ROOT / "tests" / "golden"
REAL = ROOT.parent / "shared" / "datasets" / "chinese-mahjong-detection" / "valid" / "images"
SYNTHETIC_SEEDS = (101, 202)
# The styles the rendered golden photos are drawn from, in this order: the six there
# were when tests/golden/detections.json was recorded (render picks one by seed).
GOLDEN_STYLES = ("samoheen", "lietxia", "fluffy-regular", "fluffy-black", "taiwan-drawn", "kmahjongg-jade")


def real_photos() -> list[str]:
    """The five real golden photos (every 60th validation photo). A missing folder is an
    error, not an empty list: the tests and golden files read these photos."""
    if not REAL.is_dir():
        raise FileNotFoundError(f"no real validation photos at {REAL}: ../shared must lie beside the checkout")
    return sorted(p.name for p in REAL.iterdir())[::60][:5]


def photos() -> list[tuple[str, object]]:
    """(name, BGR image) of every golden photo: a few real ones and rendered ones."""
    import cv2

    from datasets.faces import build
    from datasets.scene import render

    out = [(f"real/{name}", cv2.imread(str(REAL / name))) for name in real_photos()]
    faces = build(list(GOLDEN_STYLES))
    out += [(f"synthetic/{seed}", render(faces, seed, max_side=1280).image) for seed in SYNTHETIC_SEEDS]
    return out


def main() -> None:
    offline()
    from ultralytics import YOLO

    from vision.config import DEFAULT
    from vision.detector import DEFAULT_MODEL, Detector

    size = Detector(DEFAULT_MODEL).network.size
    model = YOLO(str(DEFAULT_MODEL), task="detect")
    record = {}
    for name, img in photos():
        r = model.predict(img, imgsz=size, conf=DEFAULT.conf, iou=DEFAULT.iou, verbose=False)[0]
        record[name] = [
            {"code": r.names[int(c)], "conf": round(float(s), 4), "box": [round(float(v), 1) for v in b]}
            for b, s, c in zip(r.boxes.xyxy.tolist(), r.boxes.conf.tolist(), r.boxes.cls.tolist())
        ]
    GOLDEN.mkdir(parents=True, exist_ok=True)
    (GOLDEN / "detections.json").write_text(json.dumps(record, indent=1))
    print(f"{sum(map(len, record.values()))} detections on {len(record)} photos -> {GOLDEN / 'detections.json'}")


if __name__ == "__main__":
    main()
