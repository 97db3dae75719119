"""`make export`: a trained checkpoint -> `models/taiscore-tiles.onnx` (class names in its metadata,
the box decode rewritten to run faster: `graph.fast_dfl`). `--finder`: a one-class run ->
`models/taiscore-finder.onnx` at the side it trained at, its metadata saying whether its
run trained on any Hong Kong photo."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import yaml

from vision.models import DEFAULT_FINDER, HONG_KONG_KEY

from .env import EXPORT_IMGSZ, ROOT, WORK, offline
from .graph import fast_dfl

MODEL = ROOT / "models" / "taiscore-tiles.onnx"
WEIGHTS = ROOT / "models" / "taiscore-tiles.pt"
REAL = WORK / "datasets" / "real"  # where `real.build` writes the Hong Kong photos


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


def finder(weights: Path, out: Path = DEFAULT_FINDER) -> Path:
    """A one-class run's weights as the shipped finder, stamped from the run's own data
    list (`args.yaml` beside `weights/`): "never seen" only if none of its training
    folders holds the Hong Kong photos. The runs it started from are the model card's to
    tell."""
    import onnx

    run = yaml.safe_load((Path(weights).parents[1] / "args.yaml").read_text())
    if not run.get("single_cls"):
        raise SystemExit(f"{weights}: not a one-class run")
    train = yaml.safe_load(Path(run["data"]).read_text())["train"]
    seen = any(Path(folder).resolve().is_relative_to(REAL.resolve()) for folder in ([train] if isinstance(train, str) else train))
    export(weights, out, int(run["imgsz"]))
    model = onnx.load(out)
    model.metadata_props.add(key=HONG_KONG_KEY, value="trained on" if seen else "never seen")
    onnx.save(model, out)
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--weights", type=Path, default=WORK / "runs" / "tiles" / "weights" / "last.pt")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--imgsz", type=int, default=EXPORT_IMGSZ, help="the network's input side; the detector reads it from the file")
    p.add_argument("--finder", action="store_true", help="a one-class run, written as the finder")
    args = p.parse_args(argv)
    print(finder(args.weights, args.out or DEFAULT_FINDER) if args.finder else export(args.weights, args.out or MODEL, args.imgsz))


if __name__ == "__main__":
    main()
