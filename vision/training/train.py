"""`make train`: fine-tune yolo11n from the tile-aware start on our dataset YAML.

Resumable: a run folder with `weights/last.pt` is resumed instead of restarted.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from .env import ROOT, TRAIN_IMGSZ, WORK, offline

SHIPPED = ROOT / "models" / "taiscore-tiles.pt"  # the shipped model's weights, optimizer stripped


def dataset_yaml(synthetic: Path | None, flower_copies: int = 0, turned: bool = False, stretched: bool = False, real_train: bool = True) -> Path:
    """One YAML with absolute paths: real train (mirrored photos flipped back, + repeated
    flower photos, + the photos turned 180 degrees, + strips stretched as the export
    stretched them, + synthetic) to train, real valid to validate (and split by shape,
    `valid-natural` and `valid-stretched`, and `valid-restored` with the strips given
    their proportions back), wrong source labels read again. Without `real_train`, the
    synthetic photos alone are trained on: the real set stays unseen (issue 21's protocol)."""
    from datasets import mirrored, real
    from vision.classes import CLASSES

    splits = real.build(WORK / "datasets" / "real", mirrored=mirrored.read_list(), relabelled=real.relabelled())
    real.by_shape(splits["valid"].parent)
    real.restored(splits["valid"].parent)
    if not real_train and synthetic is None:
        raise SystemExit("--no-real trains on --synthetic alone: name a generated dataset")
    train: list[str] = []
    if real_train:
        train += [str(splits["train"]), *(str(f) for f in real.flower_copies(WORK / "datasets" / "real", flower_copies))]
        if turned:
            train.append(str(real.turned_copies(WORK / "datasets" / "real")))
        if stretched:
            train.append(str(real.stretched_copies(WORK / "datasets" / "real")))
    if synthetic is not None:
        train.append(str(synthetic.resolve() / "images"))
    names = "\n".join(f"  {i}: '{c}'" for i, c in enumerate(CLASSES))
    path = WORK / "datasets" / "taiscore.yaml"
    path.write_text(f"path: {WORK / 'datasets'}\ntrain: {train}\nval: {splits['valid']}\nnames:\n{names}\n")
    return path


def _use_every_core(trainer) -> None:
    """ultralytics trains on the CPU with one thread fewer than there are cores: one of
    two here, which left half this machine idle through runs 1-5."""
    import torch

    if trainer.device.type == "cpu":
        torch.set_num_threads(os.cpu_count())


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--imgsz", type=int, default=TRAIN_IMGSZ)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--name", default="tiles")
    p.add_argument("--synthetic", type=Path, help="a generated dataset folder to train on as well")
    p.add_argument("--flower-copies", type=int, default=0, help="times the real photos holding a flower are repeated in each epoch")
    p.add_argument("--turned", action="store_true", help="train on every photo turned 180 degrees as well (tiles seen from across the table)")
    p.add_argument("--stretched", action="store_true", help="train on a strip of each source photo stretched to the whole photo as well (as the export stretched narrow photos)")
    p.add_argument("--no-real", dest="real", action="store_false", help="train on --synthetic alone, the real photos unseen (they are still validated on)")
    p.add_argument("--single-class", action="store_true", help="one class, a tile: a finder whose boxes the face readers name (issue 21's detector)")
    p.add_argument("--device", default="cpu")
    p.add_argument("--start", type=Path, help="weights to fine-tune from, or an exported graph of ours (.onnx, such as models/taiscore-finder.onnx: its BatchNorm rebuilt); default: models/taiscore-tiles.pt if present, else the converted mahjong-detector start")
    p.add_argument("--fraction", type=float, default=1.0)
    p.add_argument("--lr0", type=float, default=5e-4, help="AdamW learning rate; gentle, so the tile-aware start is not undone")
    p.add_argument(
        "--degrees", type=float, default=0.0,
        help="random rotation; 0 by default: the export already turned every training copy up to 45 degrees, and turning its box again loosens it (runs 1-13 used 10, boxes 7 %% too large)",
    )
    p.add_argument("--box", type=float, default=7.5, help="weight of the box (IoU) loss; ultralytics' default")
    p.add_argument("--close-mosaic", type=int, default=2, help="last epochs trained on whole photos, as they are validated")
    p.add_argument("--no-val", dest="val", action="store_false", help="validate only after the last epoch (saves a minute per epoch on a CPU)")
    args = p.parse_args(argv)
    offline()
    from ultralytics import YOLO

    from .pretrained import convert, graph_names

    run = WORK / "runs" / args.name
    last = run / "weights" / "last.pt"
    if last.exists():
        model = YOLO(str(last))
        model.add_callback("on_pretrain_routine_start", _use_every_core)
        model.train(resume=True)
        return
    data = dataset_yaml(args.synthetic, args.flower_copies, args.turned, args.stretched, args.real)
    if args.real:
        start = args.start or (SHIPPED if SHIPPED.exists() else WORK / "start-yolo11n-tiles.pt")
        calibration = WORK / "datasets" / "real" / "train" / "images"
    else:  # neither the shipped weights nor statistics of the real photos: mahjong-detector's start, its BatchNorm rebuilt on renders
        start = args.start or WORK / "start-yolo11n-rendered.pt"
        calibration = args.synthetic / "images"
    graph = start if start.suffix == ".onnx" else None  # an exported graph of ours, such as the shipped finder
    if graph is not None:
        classes = len(graph_names(graph))
        if (classes == 1) != args.single_class:
            raise SystemExit(f"{graph} has {classes} classes: a one-class graph trains with --single-class, and only it")
        start = WORK / f"start-from-{graph.stem}.pt"  # made again each run: the graph may have changed since
    if graph is not None or not start.exists():
        convert(start, sorted(calibration.iterdir())[::20][:48], graph)
    model = YOLO(str(start))
    model.add_callback("on_pretrain_routine_start", _use_every_core)
    model.train(
        data=str(data),
        epochs=args.epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        device=args.device,
        workers=2,
        optimizer="AdamW",
        lr0=args.lr0,
        lrf=0.1,
        warmup_epochs=0,
        cos_lr=True,
        fliplr=0.0,  # mirrored faces do not exist
        flipud=0.0,
        degrees=args.degrees,
        mosaic=1.0,
        close_mosaic=args.close_mosaic,
        box=args.box,
        cache="ram",
        fraction=args.fraction,
        project=str(WORK / "runs"),
        name=args.name,
        exist_ok=True,
        plots=False,
        patience=50,
        seed=0,
        deterministic=False,
        amp=False,
        val=args.val,
        single_cls=args.single_class,
    )


if __name__ == "__main__":
    main()
