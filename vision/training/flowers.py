"""`make train-flowers`: train the flower reader (`vision/flowers.py`) on the labelled
flowers and seasons of the real training photos, then export it to
`models/taiscore-flowers.onnx`.

It starts from a face reader's weights (`--start`, a `make train-faces` run): its body
already reads tiles, and its eight flower rows start the new head, so the 1355 flowers
of the training photos teach it only to read them larger, at 96 px. Crops are cut as
the face reader's are (`faces.augmented`: the box off, tilted, turned any quarter,
never mirrored, light and focus varied). The face reader's held-out photos are held out
here too. Resumable from `work/runs/<name>/last.pt`.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from vision.flowers import FLOWER_FACES, FLOWERS, SIZE

from .env import ROOT, WORK
from .faces import (
    augmented,
    begun,
    build_net,
    checkpoint,
    golden_crops,
    held_out,
    load_tiles,
    plain,
    resumed,
    run_arguments,
    saw_hong_kong,
    started_from_hong_kong,
    to_onnx,
)

MODEL = ROOT / "models" / "taiscore-flowers.onnx"


def build_flower_net(start: Path | None):
    """A face reader's body and, from its flower rows, an 8-way head; the box head is
    left out (the flower reader says which flower, the face reader where the tile lies)."""
    import torch
    from torch import nn

    faces = build_net()
    if start is not None:
        faces.load_state_dict(torch.load(start, weights_only=False)["net"])
    layers = list(faces.children())
    pool, flatten, dropout, head = layers[faces.body : faces.body + 4]
    flowers = nn.Linear(head.in_features, len(FLOWERS))
    with torch.no_grad():
        flowers.weight.copy_(head.weight[FLOWER_FACES])
        flowers.bias.copy_(head.bias[FLOWER_FACES])
    return nn.Sequential(*layers[: faces.body], pool, flatten, dropout, flowers)


def accuracy(net, tiles, batch: int = 128) -> float:
    """The share of `tiles` read right from their labelled boxes."""
    import torch

    from vision.faces import blob

    net.eval()
    read = []
    with torch.no_grad():
        for i in range(0, len(tiles.rows), batch):
            crops = np.stack([plain(tiles.photos[int(r[0])], r[1:5], SIZE) for r in tiles.rows[i : i + batch]])
            read.append(net(torch.from_numpy(blob(crops))).argmax(1).numpy())
    truth = tiles.rows[:, 5].astype(int) - FLOWER_FACES.start
    return float((np.concatenate(read) == truth).mean()) if len(truth) else 0.0


def export(net, out: Path = MODEL, hong_kong: bool = True) -> Path:
    """ONNX with a dynamic batch and the 8 flowers in its metadata; for the shipped file,
    the golden crops and the network's own logits for them (`tests/golden/flowers.*`)."""
    import torch

    from vision.faces import blob

    from .golden import GOLDEN

    to_onnx(net, out, SIZE, ["logits"], ("flowers", repr(FLOWERS)), hong_kong)
    if out == MODEL:
        with torch.no_grad():
            logits = net(torch.from_numpy(blob(golden_crops("flowers", SIZE))))
        (GOLDEN / "flowers.json").write_text(json.dumps({"flowers": [FLOWERS[i] for i in logits.argmax(1).tolist()], "logits": logits.numpy().round(5).tolist()}))
    return out


def is_flower(tiles) -> np.ndarray:
    return (tiles.rows[:, 5] >= FLOWER_FACES.start) & (tiles.rows[:, 5] < FLOWER_FACES.stop)


def flowers_of(tiles):
    return tiles.subset(is_flower(tiles))


def train(args: argparse.Namespace) -> dict:
    import torch

    tiles, rng = begun(args)
    flower = is_flower(tiles)
    hold = np.array([held_out(tiles.names[int(r[0])], args.holdout) for r in tiles.rows], bool)
    fit, check = tiles.subset(flower & ~hold), tiles.subset(flower & hold)
    unseen = flowers_of(load_tiles(args.measure)) if args.measure else None
    print(f"{len(fit.rows)} flowers to train on, {len(check.rows)} held out")
    net = build_flower_net(args.start)
    hong_kong = saw_hong_kong(args.data) or args.start is not None and started_from_hong_kong(args.start)
    steps = args.epochs * int(np.ceil(len(fit.rows) * args.repeat / args.batch))
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps + 10, pct_start=0.1)
    run = WORK / "runs" / args.name
    start = resumed(run, net, opt, sched, rng)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    faces = fit.rows[:, 5].astype(int) - FLOWER_FACES.start
    for epoch in range(start, args.epochs):
        net.train()
        began, total = time.time(), 0.0
        order = rng.permutation(np.repeat(np.arange(len(fit.rows)), args.repeat))
        for i in range(0, len(order), args.batch):
            idx = order[i : i + args.batch]
            crops = np.stack([augmented(fit.photos[int(fit.rows[j, 0])], fit.rows[j, 1:5], rng, SIZE)[0] for j in idx])
            loss = loss_fn(net(torch.from_numpy(np.ascontiguousarray(crops.transpose(0, 3, 1, 2))).float() / 255.0), torch.from_numpy(faces[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        line = f"epoch {epoch + 1}/{args.epochs}: loss {total / len(order):.4f}, {time.time() - began:.0f} s"
        if len(check.rows):
            line += f", held out: {accuracy(net, check):.4f}"
        if unseen is not None and ((epoch + 1) % 3 == 0 or epoch + 1 == args.epochs):
            line += f", {args.measure.name}: {accuracy(net, unseen):.4f}"
        print(line, flush=True)
        checkpoint(run, net, opt, sched, rng, epoch, hong_kong)
    result = {"name": args.name, "epochs": args.epochs, "train_flowers": len(fit.rows), "held_out_flowers": len(check.rows)}
    if len(check.rows):
        result["held_out_accuracy"] = round(accuracy(net, check), 4)
    if unseen is not None:
        result["measured_on"] = {"folder": str(args.measure), "flowers": len(unseen.rows), "accuracy": round(accuracy(net, unseen), 4)}
    (run / "result.json").write_text(json.dumps(result, indent=1))
    if args.export:
        print(export(net, args.out, hong_kong))
    return result


def main(argv: list[str] | None = None) -> None:
    p = run_arguments(__doc__, "flowers", 12, 64, 1e-3, MODEL)
    p.add_argument("--start", type=Path, default=WORK / "runs" / "faces-f4" / "last.pt", help="a face reader's last.pt to begin from; 'none': from scratch")
    p.add_argument("--repeat", type=int, default=4, help="times each flower is shown an epoch, each time cut differently")
    args = p.parse_args(argv)
    args.start = None if str(args.start) == "none" else args.start
    if args.start is not None and not args.start.is_file():
        p.error(f"no face reader weights at {args.start}: train them first (`make train-faces`, see models/README.md) or pass --start none")
    print(json.dumps(train(args)))


if __name__ == "__main__":
    main()
