"""`make export`: a trained checkpoint -> `models/taiscore-tiles.onnx` (class names in its metadata,
the box decode rewritten to run faster: `graph.fast_dfl`)."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from .env import EXPORT_IMGSZ, ROOT, WORK, offline
from .graph import fast_dfl

MODEL = ROOT / "models" / "taiscore-tiles.onnx"
WEIGHTS = ROOT / "models" / "taiscore-tiles.pt"


def export(weights: Path, out: Path = MODEL, imgsz: int = EXPORT_IMGSZ) -> Path:
    """ultralytics writes the ONNX file beside the weights it reads, so it reads a copy:
    exporting the shipped weights elsewhere must not overwrite the shipped file."""
    offline()
    from ultralytics import YOLO

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / Path(weights).name
        shutil.copy(weights, copy)
        made = Path(YOLO(str(copy)).export(format="onnx", imgsz=imgsz, opset=17, simplify=False, dynamic=False, half=False))
        fast_dfl(made)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(made, out)
    if out == MODEL:  # ship the weights too (optimizer stripped), so training can go on from them
        from ultralytics.utils.torch_utils import strip_optimizer

        strip_optimizer(str(weights), s=str(WEIGHTS))
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--weights", type=Path, default=WORK / "runs" / "tiles" / "weights" / "last.pt")
    p.add_argument("--out", type=Path, default=MODEL)
    p.add_argument("--imgsz", type=int, default=EXPORT_IMGSZ, help="the network's input side; the detector reads it from the file")
    args = p.parse_args(argv)
    print(export(args.weights, args.out, args.imgsz))


if __name__ == "__main__":
    main()
