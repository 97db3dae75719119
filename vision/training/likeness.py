"""`python -m vision.training.likeness`: train a likeness network (相似) for tile-set
profiles to compare tiles by, on renders of the trained styles alone, and write it as
ONNX (`crops` in, a unit `embedding` out). Tried in session 30 and not shipped: the
profiles compare the face reader's pooled features (models/README.md, "A likeness
network of its own").

Why a network of its own: the face reader's pooled features learnt which kind a face is
across the trained styles, so they put a new set's tiles near whichever trained kind
they resemble, and a profile's examples of that set barely help. This network learns
instead whether two crops show the same face of the same set: each trained style's
each kind is a class of its own (a cosine-margin loss, as face recognition learns
people it will never meet), seen under what a photo varies: light, focus, a detector's
box off, its neighbours, a quarter turn, either reader's cut. Held-out styles measure
it (`HELD_OUT`: one example per kind, the rest read by the nearest one).
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from vision.classes import BACK
from vision.faces import FACES, SAME_CUT, SIZE, Cut

from .env import ROOT

OUT = ROOT / "work" / "runs" / "likeness.onnx"
DIM = 128  # the embedding's length
SCALE, COS_MARGIN = 24.0, 0.25  # CosFace: the logits' scale and the margin taken off the true class's cosine
CROPS_PER_TILE = 2
WARM_UP = 0.03  # share of the training time the learning rate rises over, before it anneals
EMBED_BATCH = 2048  # crops embedded at once to measure


def build_net(dim: int = DIM):
    """The face reader's blocks (`faces.blocks`, about 22 M multiply-adds a crop) and a
    linear head to a unit vector of `dim`."""
    from torch import nn

    from .faces import WIDTHS, blocks

    layers = [*blocks(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(WIDTHS[-1][1], dim)]

    class Likeness(nn.Sequential):
        def forward(self, x):
            return nn.functional.normalize(super().forward(x), dim=1)

    return Likeness(*layers)


def _photo_crops(job: tuple[int, str, str, int, Cut]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The face-up tiles of one rendered photo of `style` (`scene` "hand" or a
    `datasets.scene` scene), each cut `CROPS_PER_TILE` times as either reader may see it
    (its own cut or the `other` reader's), their classes (`style_index` times 42 plus
    the face) and the photo's seed for each."""
    from datasets.faces import build
    from datasets.scene import render, render_scene

    from .faces import augmented

    seed, style, scene, style_index, other = job
    faces = build([style])
    photo = render(faces, seed, max_side=960) if scene == "hand" else render_scene(faces, seed, scene, max_side=640)
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for c, *box in photo.boxes:
        if c == BACK:
            continue
        for _ in range(CROPS_PER_TILE):
            cut = SAME_CUT if rng.random() < 0.5 else other
            crops.append(augmented(photo.image, np.array(box), rng, turned=0.3, cut=cut)[0])
            labels.append(style_index * len(FACES) + c)
    return np.array(crops, np.uint8).reshape(-1, SIZE, SIZE, 3), np.array(labels, np.int64), np.full(len(labels), seed)


def rendered(styles: list[str], hands: int, close: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops, classes and photos of `hands` rendered hands and `close` close-ups, the
    styles in turn."""
    from vision.faces import cut_of
    from vision.models import UNSEEN_FACES
    from vision.session import open_session

    other = cut_of(open_session(UNSEEN_FACES, 1, "face model").get_modelmeta().custom_metadata_map)
    jobs = [(seed + i, styles[i % len(styles)], "hand" if i < hands else "close-up", i % len(styles), other) for i in range(hands + close)]
    with Pool(workers) as pool:
        made = pool.map(_photo_crops, jobs, chunksize=8)
    return tuple(np.concatenate([m[k] for m in made]) for k in range(3))


def nearest_right(embed, crops: np.ndarray, labels: np.ndarray, photos: np.ndarray) -> float:
    """Of each class's crops, the first is its example, and those in other photos than
    their example's are read by their nearest example among the same style's: the share
    read right."""
    vectors = embed(crops)
    styles = labels // len(FACES)
    right = total = 0
    for s in np.unique(styles):
        mine = np.flatnonzero(styles == s)
        kinds, first = np.unique(labels[mine], return_index=True)
        examples = mine[first]
        queries = mine[photos[mine] != photos[examples][np.searchsorted(kinds, labels[mine])]]
        pick = labels[examples][(vectors[queries] @ vectors[examples].T).argmax(1)]
        right, total = right + int((pick == labels[queries]).sum()), total + len(queries)
    return right / max(total, 1)


def train(args: argparse.Namespace) -> None:
    import torch

    from datasets.faces import HELD_OUT, TRAINED, build
    from vision.generalisation import SEED

    torch.manual_seed(args.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.backends.cudnn.benchmark = True
    began = time.time()
    trained = [s for s, f in build(list(TRAINED)).items() if len(f) == len(FACES)]
    held = [s for s, f in build(list(HELD_OUT)).items() if len(f) == len(FACES)]
    crops, labels, _ = rendered(trained, args.hands, args.close, args.seed, args.workers)
    check = rendered(held, args.check, 0, SEED, args.workers)  # the rendered rows' seeds
    print(f"{len(trained)} styles, {len(crops)} crops of {len(np.unique(labels))} faces to train on; "
          f"{len(check[0])} crops of {len(held)} held-out styles; rendered in {time.time() - began:.0f} s", flush=True)
    net = build_net().to(device).to(memory_format=torch.channels_last)
    weights = torch.nn.Parameter(torch.randn(len(trained) * len(FACES), DIM, device=device) * 0.01)
    if args.start:
        state = torch.load(args.start, map_location=device)
        net.load_state_dict(state["net"])
        weights.data.copy_(state["classes"])
    opt = torch.optim.AdamW([{"params": net.parameters()}, {"params": [weights], "weight_decay": 0.0}], lr=args.lr, weight_decay=args.weight_decay)
    x_all = torch.from_numpy(crops).to(device)
    y_all = torch.from_numpy(labels).to(device)

    def embed(seen: np.ndarray) -> np.ndarray:
        net.eval()
        with torch.no_grad(), torch.autocast(device, torch.bfloat16, enabled=device == "cuda"):
            out = [net(_input(torch.from_numpy(seen[i : i + EMBED_BATCH]).to(device))).float().cpu().numpy() for i in range(0, len(seen), EMBED_BATCH)]
        net.train()
        return np.concatenate(out)

    budget, step, last_report = args.minutes * 60, 0, time.time()
    start = time.time()
    while (done := (time.time() - start) / budget) < 1:
        lr = args.lr * min(1.0, done / WARM_UP) * 0.5 * (1 + np.cos(np.pi * done))
        for group in opt.param_groups:
            group["lr"] = lr
        pick = torch.randint(len(x_all), (args.batch,), device=device)
        x, y = _varied(_input(x_all[pick])), y_all[pick]
        with torch.autocast(device, torch.bfloat16, enabled=device == "cuda"):
            cosine = net(x).float() @ torch.nn.functional.normalize(weights, dim=1).T
        loss = torch.nn.functional.cross_entropy(SCALE * (cosine - COS_MARGIN * torch.nn.functional.one_hot(y, len(weights))), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        if time.time() - last_report > args.report or (time.time() - start) >= budget:
            last_report = time.time()
            print(f"{time.time() - start:.0f} s, step {step}, lr {lr:.2g}, loss {loss.item():.3f}, "
                  f"held-out styles read by their nearest example {nearest_right(embed, *check):.4f}", flush=True)
            torch.save({"net": net.state_dict(), "classes": weights.detach(), "step": step}, args.checkpoint)
    print(f"held-out styles read by their nearest example {nearest_right(embed, *check):.4f} after {step} steps", flush=True)
    torch.save({"net": net.state_dict(), "classes": weights.detach(), "step": step}, args.checkpoint)
    export(net.float().cpu().to(memory_format=torch.contiguous_format), args.out)


def _input(crops):
    """N x size x size x 3 uint8 on the device -> the readers' N x 3 x size x size float input."""
    import torch

    return crops.permute(0, 3, 1, 2).float().div(255.0).contiguous(memory_format=torch.channels_last)


def _varied(x):
    """Each crop turned a random quarter (a tile lies any way round, never mirrored), its
    colour balance and contrast changed, one in ten grey: the rendered crops are reused."""
    import torch

    turns = torch.randint(4, (len(x),), device=x.device)
    out = torch.empty_like(x)
    for k in range(4):
        mask = turns == k
        out[mask] = torch.rot90(x[mask], k, dims=(2, 3))
    gain = torch.empty(len(x), 3, 1, 1, device=x.device).uniform_(0.85, 1.15)
    mean = out.mean((1, 2, 3), keepdim=True)
    out = (out - mean) * torch.empty(len(x), 1, 1, 1, device=x.device).uniform_(0.7, 1.3) + mean * gain
    grey = torch.rand(len(x), 1, 1, 1, device=x.device) < 0.1
    out = torch.where(grey, out.mean(1, keepdim=True).expand_as(out), out)
    return out.clamp(0, 1).contiguous(memory_format=torch.channels_last)


def export(net, out: Path = OUT) -> Path:
    """ONNX: `crops` (N x 3 x 64 x 64, as the readers take them) in, `embedding` (N x DIM,
    unit length) out, the batch dynamic."""
    import torch

    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, (torch.zeros(1, 3, SIZE, SIZE),), str(out), input_names=["crops"], output_names=["embedding"],
                      dynamic_axes={"crops": {0: "n"}, "embedding": {0: "n"}}, opset_version=17, dynamo=False)
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m vision.training.likeness", description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=4000, help="rendered hands to train on (960 px), the trained styles in turn")
    p.add_argument("--close", type=int, default=2000, help="rendered close-ups to train on (640 px)")
    p.add_argument("--check", type=int, default=48, help="rendered hands of the held-out styles to measure on")
    p.add_argument("--minutes", type=float, default=5.0, help="training time: the learning rate anneals to zero over it")
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--weight-decay", type=float, default=5e-4)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--report", type=float, default=60.0, help="seconds between measurements")
    p.add_argument("--start", type=Path, help="a checkpoint to begin from (the network and its classes; the optimiser starts afresh)")
    p.add_argument("--checkpoint", type=Path, default=ROOT / "work" / "runs" / "likeness.pt")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    args.checkpoint.parent.mkdir(parents=True, exist_ok=True)
    train(args)


if __name__ == "__main__":
    main()
