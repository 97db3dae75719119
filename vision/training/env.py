"""Keep ultralytics offline: no settings sync, no auto-install, no font download."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "work"
TRAIN_IMGSZ = 512  # training input side: reads the real photos better than 640, and trains faster (models/README.md)
EXPORT_IMGSZ = 480  # shipped input side: run 3 exported at 448/480/512/544 read the real photos best at 480, and it is faster


def offline() -> None:
    """Must run before the first `import ultralytics`."""
    config = WORK / "yolo-config"
    config.mkdir(parents=True, exist_ok=True)
    font = config / "Arial.ttf"
    if not font.exists():
        import matplotlib

        shutil.copy(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf", font)
    os.environ.update(
        YOLO_OFFLINE="1",
        YOLO_AUTOINSTALL="false",
        YOLO_CONFIG_DIR=str(config),
        YOLO_VERBOSE=os.environ.get("YOLO_VERBOSE", "true"),
    )
