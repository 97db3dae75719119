"""`make train-faces`: train the face reader (`vision/faces.py`) on every labelled tile
of the real training photos, then export it to `models/taiscore-faces.onnx`.

Each tile is cut out as the reader will see it, with what a detector's box and a
table add: the box a little off, the photo tilted, the tile turned any quarter
(a tile seen from across the table or laid sideways in a meld is turned, never
mirrored), light and focus as phones vary. The reader learns the face (face-down
tiles have none) and where the labelled box lies in the crop. One source photo in
ten is held out (all three of its exported copies) to measure the reader apart from
what it learned. Resumable from `work/runs/<name>/last.pt`; `--start` begins from
another run's weights or from an exported reader (`from_onnx`).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.classes import BACK, CLASSES
from vision.faces import FACES, MARGIN, SAME_CUT, SIZE, Cut, crop, crop_matrix
from vision.models import HONG_KONG_KEY

from .embedding import add_embedding
from .env import ROOT, WORK
from .margins import rendered_cut, stamp

MODEL = ROOT / "models" / "taiscore-faces.onnx"
DEFAULT_DATA = WORK / "datasets" / "real" / "train"
FLOWER_REPEAT = 3  # the flowers are a third as common as each other face in the training photos
INSET = (1 - 1 / MARGIN) / 2  # where a box's edges lie in its own crop, in crop units
WIDTHS = [(32, 64, 1), (64, 64, 2), (64, 128, 1), (128, 128, 1), (128, 128, 2), (128, 256, 1), (256, 256, 1), (256, 256, 2), (256, 512, 1)]  # (in, out, stride) of each separable block


@dataclass(frozen=True)
class Tiles:
    """The photos of one folder and every labelled tile in them: (photo, x1, y1, x2, y2,
    face), the face `BACK` for a face-down tile; `real` says which photos are the Hong
    Kong photos, whose boxes are drawn as the detector draws them."""

    photos: list[np.ndarray]
    names: list[str]
    rows: np.ndarray
    real: np.ndarray

    def subset(self, keep: np.ndarray) -> Tiles:
        return Tiles(self.photos, self.names, self.rows[keep], self.real)

    def boxed(self) -> np.ndarray:
        """Per tile, whether its label teaches the box head: every tile where the photos
        are all rendered (the export is stamped `box_labels` rendered), else only the real
        photos' tiles. A reader taught by both learnt the generator's edges and placed the
        validation photos' tiles worse (models/README.md, faces-mix1)."""
        photo = self.rows[:, 0].astype(int)
        return self.real[photo] if self.real.any() else np.ones(len(photo), bool)


def load_tiles(*folders: Path) -> Tiles:
    """YOLO folders (`images/`, `labels/`) read into memory, one after another."""
    from datasets.real import corners

    photos, names, rows, real = [], [], [], []
    hong_kong = {folder: saw_hong_kong([folder]) for folder in folders}  # a folder is real or rendered as a whole
    for img in sorted(p for folder in folders for p in (folder / "images").iterdir()):
        photo = cv2.imread(str(img))
        label = img.parent.parent / "labels" / (img.stem + ".txt")
        if photo is None or not label.exists():
            continue
        h, w = photo.shape[:2]
        for line in label.read_text().splitlines():
            v = line.split()
            if len(v) == 5 and int(v[0]) <= BACK:
                x1, y1, x2, y2 = corners([float(x) for x in v[1:]])
                rows.append((len(photos), x1 * w, y1 * h, x2 * w, y2 * h, int(v[0])))
        photos.append(photo)
        names.append(img.name)
        real.append(hong_kong[img.parent.parent])
    return Tiles(photos, names, np.array(rows, dtype=np.float64).reshape(-1, 6), np.array(real, bool))


def held_out(name: str, share: float) -> bool:
    """Whether a photo's source is held out: all exported copies of one source go together."""
    from datasets.real import source_of

    digest = hashlib.sha256(source_of(name).encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32 < share


def jittered(box: np.ndarray, rng: np.random.Generator, shift: float = 0.05, scale: float = 0.1) -> np.ndarray:
    """The box moved by `shift` and resized by `scale` of its size (standard deviations),
    as a detector's box is off."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx, cy = (x1 + x2) / 2 + rng.normal(0, shift) * w, (y1 + y2) / 2 + rng.normal(0, shift) * h
    w, h = w * np.exp(rng.normal(0, scale)), h * np.exp(rng.normal(0, scale))
    return np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])


def edges_in_crop(box: np.ndarray, matrix: np.ndarray, turns: int, size: int = SIZE) -> np.ndarray:
    """Where `box` lies in a crop (`crop_matrix`, then `turns` quarter turns as np.rot90
    makes them), in crop units: the bounds of its four corners, as a labeller would draw
    a box round the turned tile."""
    x1, y1, x2, y2 = box
    xs, ys = matrix @ np.array([[x1, x2, x2, x1], [y1, y1, y2, y2], [1, 1, 1, 1]]) / size
    out = np.array([xs.min(), ys.min(), xs.max(), ys.max()])
    for _ in range(turns):
        out = np.array([out[1], 1 - out[2], out[3], 1 - out[0]])
    return out


def turned_box(box: np.ndarray, angle: float) -> np.ndarray:
    """The upright box round `box`'s tile once the tile is turned `angle` degrees about its
    centre: the box a labeller or a detector draws round a tile lying askew."""
    x1, y1, x2, y2 = box
    c, s = abs(np.cos(np.radians(angle))), abs(np.sin(np.radians(angle)))
    w, h = (x2 - x1) * c + (y2 - y1) * s, (x2 - x1) * s + (y2 - y1) * c
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    return np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])


def augmented(
    photo: np.ndarray, box: np.ndarray, rng: np.random.Generator, size: int = SIZE, turned: float = 0.0, cut: Cut = SAME_CUT
) -> tuple[np.ndarray, np.ndarray, bool]:
    """One tile as a detector's box and a phone might give it, where its labelled box lies
    in that crop, and whether the crop is untilted, as the reader's crops are at run time
    (only those teach the box): the box shifted and resized by several percent (the
    training copies' boxes hold a tile turned up to 45 degrees and table in their
    corners; a detector's box round an upright tile is tight), half the crops tilted up
    to 10 degrees, turned a random quarter, light, colour, focus and noise varied. A
    share `turned` of the tiles lie askew, up to 45 degrees, in the upright box round
    them, as on a table photographed at any angle (synthetic photos hold their rows
    nearly level; a real table's lie any way): such a crop is what reading gives, so it
    teaches the box too. `cut`: how the reader cuts its crops."""
    turn = rng.uniform(-45, 45) if turned and rng.random() < turned else 0.0
    given, turns = jittered(turned_box(box, turn) if turn else box, rng), int(rng.integers(4))
    tilt = rng.uniform(-10, 10) if rng.random() < 0.5 else 0.0
    out = crop(photo, tuple(given), size, angle=turn + tilt, cut=cut)
    target = edges_in_crop(box, crop_matrix(tuple(given), size, turn + tilt, cut), turns, size)
    out = np.rot90(out, turns).astype(np.float32)
    gain = rng.uniform(0.65, 1.35) * rng.uniform(0.9, 1.1, 3)
    mean = out.mean()
    out = (out - mean) * rng.uniform(0.7, 1.3) + mean * gain
    if rng.random() < 0.1:
        out[:] = out.mean(2, keepdims=True)
    if rng.random() < 0.25:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.3))
    if rng.random() < 0.5:
        out = out + rng.normal(0, rng.uniform(1, 8), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8), target, tilt == 0.0


def plain(photo: np.ndarray, box: np.ndarray, size: int = SIZE, cut: Cut = SAME_CUT) -> np.ndarray:
    return crop(photo, tuple(box), size, cut=cut)


def blocks() -> list:
    """The readers' convolutions: a stem and the separable blocks of `WIDTHS`, each
    convolution followed by its BatchNorm and a ReLU, down to a 4 x 4 map of a 64 px crop."""
    from torch import nn

    def sep(cin: int, cout: int, stride: int) -> list[nn.Module]:
        return [
            nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
            nn.BatchNorm2d(cin),
            nn.ReLU(inplace=True),
            nn.Conv2d(cin, cout, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        ]

    layers = [nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True)]
    for cin, cout, stride in WIDTHS:
        layers += sep(cin, cout, stride)
    return layers


def build_net():
    """A MobileNet-style network for 64 px crops, about 22 M multiply-adds a tile, so the
    17-25 tiles of a hand cost a few milliseconds on two CPU cores. It gives 42 face
    logits and the tile's box in crop units; the box head starts at the crop's own box."""
    import torch
    from torch import nn

    class FaceNet(nn.Sequential):
        """The face classifier, layer for layer as the readers before the box head (so
        their weights load), and a box head on its last 4 x 4 feature map."""

        def __init__(self, layers: list[nn.Module], body: int):
            super().__init__(*layers)
            self.body = body
            self.box = nn.Sequential(nn.Flatten(), nn.Linear(WIDTHS[-1][1] * 16, 128), nn.ReLU(inplace=True), nn.Linear(128, 4))
            nn.init.zeros_(self.box[3].weight)
            nn.init.zeros_(self.box[3].bias)
            self.register_buffer("inset", torch.tensor([INSET, INSET, 1 - INSET, 1 - INSET]))

        def forward(self, x):
            layers = list(self.children())
            for layer in layers[: self.body]:
                x = layer(x)
            faces = x
            for layer in layers[self.body : -1]:
                faces = layer(faces)
            return faces, self.inset + self.box(x) / 10

    layers = blocks()
    body = len(layers)
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(WIDTHS[-1][1], len(FACES))]
    return FaceNet(layers, body)


def batches(tiles: Tiles, batch: int, rng: np.random.Generator, turned: float = 0.0):
    """One epoch of augmented crops, their faces, boxes and whether each teaches the box
    (untilted, as the reader's crops are at run time, and `Tiles.boxed`): every tile
    once, the flowers `FLOWER_REPEAT` times, a share `turned` lying askew."""
    faces, boxed = tiles.rows[:, 5].astype(int), tiles.boxed()
    repeat = np.where(np.char.endswith(np.array(CLASSES)[faces], "f"), FLOWER_REPEAT, 1)
    order = rng.permutation(np.repeat(np.arange(len(faces)), repeat))
    for i in range(0, len(order), batch):
        idx = order[i : i + batch]
        made = [augmented(tiles.photos[int(tiles.rows[j, 0])], tiles.rows[j, 1:5], rng, turned=turned) for j in idx]
        yield np.stack([m[0] for m in made]), faces[idx], np.stack([m[1] for m in made]), np.array([m[2] for m in made]) & boxed[idx]


def readings(net, tiles: Tiles, given: np.ndarray, batch: int = 256, cut: Cut = SAME_CUT) -> tuple[np.ndarray, np.ndarray]:
    """The network's face probabilities for each tile and its box in photo pixels, each
    cropped from its `given` box as at run time, by `cut`."""
    import torch

    from vision.faces import blob, uncrop

    net.eval()
    probs, boxes = [np.zeros((0, len(FACES)))], [np.zeros((0, 4))]
    with torch.no_grad():
        for i in range(0, len(tiles.rows), batch):
            rows, at = tiles.rows[i : i + batch], given[i : i + batch]
            logits, seen = net(torch.from_numpy(blob(np.stack([plain(tiles.photos[int(r[0])], b, cut=cut) for r, b in zip(rows, at)]))))
            probs.append(torch.softmax(logits, 1).numpy())
            boxes.append(uncrop(seen.numpy(), at, cut))
    return np.concatenate(probs), np.concatenate(boxes)


def measured(net, tiles: Tiles, seed: int = 0, cut: Cut = SAME_CUT) -> dict:
    """On held-out tiles: the share of faces read right overall, of the flowers and per
    face, each read from its labelled box cut by `cut`; and the mean IoU with the label
    of a box a detector might give (`jittered` by about half the training spread) before
    and after the reader places it."""
    from vision.detections import box_iou

    rng = np.random.default_rng(seed)
    labels, faces = tiles.rows[:, 1:5], tiles.rows[:, 5].astype(int)
    probs, _ = readings(net, tiles, labels, cut=cut)
    given = np.stack([jittered(b, rng, 0.025, 0.05) for b in labels])
    _, placed = readings(net, tiles, given, cut=cut)
    iou = lambda a: float(np.mean(np.diag(box_iou(a, labels))))  # noqa: E731
    up = faces != BACK
    right = probs.argmax(1)[up] == faces[up]
    flower = np.char.endswith(np.array(FACES)[faces[up]], "f")
    per = {FACES[c]: round(float(right[faces[up] == c].mean()), 4) for c in np.unique(faces[up])}
    return {"tiles": int(up.sum()), "accuracy": round(float(right.mean()), 4), "flowers": round(float(right[flower].mean()), 4), "iou_given": round(iou(given), 4), "iou_placed": round(iou(placed), 4), "per_face": per}


def saw_hong_kong(data: list[Path]) -> bool:
    """Whether a run trains on any of the real Hong Kong photos (`work/datasets/real/...`)."""
    return any(f.resolve().is_relative_to(DEFAULT_DATA.parent.resolve()) for f in data)


def to_onnx(net, out: Path, size: int, outputs: list[str], classes: tuple[str, str], hong_kong: bool) -> None:
    """A reader as ONNX: `crops` (N x 3 x size x size) in, `outputs` out, the batch
    dynamic, its classes in the metadata (`classes`: key, the names' repr) and whether
    it ever saw the Hong Kong photos (`hong_kong_photos`: "trained on" or "never seen",
    which `make eval-generalisation` reads); then the pooled features as `embedding`,
    for the tile-set profiles."""
    import onnx
    import torch

    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net,
        (torch.zeros(1, 3, size, size),),
        str(out),
        input_names=["crops"],
        output_names=outputs,
        dynamic_axes={name: {0: "n"} for name in ["crops", *outputs]},
        opset_version=17,
        dynamo=False,
    )
    model = onnx.load(str(out))
    model.metadata_props.add(key=classes[0], value=classes[1])
    model.metadata_props.add(key=HONG_KONG_KEY, value="trained on" if hong_kong else "never seen")
    onnx.save(model, str(out))
    add_embedding(out)


def export(net, out: Path = MODEL, hong_kong: bool = True) -> Path:
    """ONNX with a dynamic batch and the 42 faces in its metadata; for the shipped file,
    the golden crops and the network's own readings of them too (`tests/golden/faces.*`),
    which the tests hold the ONNX file to."""
    to_onnx(net, out, SIZE, ["logits", "box"], ("faces", repr(FACES)), hong_kong)
    if out == MODEL:
        record_golden(net)
    return out


def golden_crops(name: str, size: int = SIZE) -> np.ndarray:
    """The first two labelled tiles of each real golden photo, cropped at `size` as at run
    time, also written side by side to `tests/golden/<name>.png`."""
    from datasets.real import corners

    from .golden import GOLDEN, REAL, real_photos

    crops = []
    for photo_name in real_photos():
        photo = cv2.imread(str(REAL / photo_name))
        h, w = photo.shape[:2]
        for line in (REAL.parent / "labels" / photo_name).with_suffix(".txt").read_text().splitlines()[:2]:
            crops.append(plain(photo, np.array(corners([float(v) for v in line.split()[1:]])) * [w, h, w, h], size))
    crops = np.stack(crops)
    cv2.imwrite(str(GOLDEN / f"{name}.png"), np.hstack(list(crops))[:, :, ::-1])
    return crops


def record_golden(net) -> None:
    """The golden crops and what the network reads in them."""
    import torch

    from vision.faces import blob

    from .golden import GOLDEN

    with torch.no_grad():
        logits, boxes = net(torch.from_numpy(blob(golden_crops("faces"))))
    record = {"faces": [FACES[i] for i in logits.argmax(1).tolist()], "logits": logits.numpy().round(5).tolist(), "boxes": boxes.numpy().round(5).tolist()}
    (GOLDEN / "faces.json").write_text(json.dumps(record))


def resumed(run: Path, net, opt, sched, rng: np.random.Generator) -> int:
    """The epoch to begin at: 0 for a new run, else the one after the run's last
    checkpoint, whose weights, optimiser, schedule and random state are loaded. A run
    resumed with another --epochs (or other data) keeps its place on the one-cycle
    schedule and anneals to the new end: a CPU run can be cut short without restarting."""
    import torch

    last = run / "last.pt"
    run.mkdir(parents=True, exist_ok=True)
    if not last.exists():
        return 0
    state = torch.load(last, weights_only=False)
    planned, phases = sched.total_steps, [dict(p) for p in sched._schedule_phases]
    net.load_state_dict(state["net"])
    opt.load_state_dict(state["opt"])
    sched.load_state_dict(state["sched"])
    sched.total_steps, sched._schedule_phases = planned, phases
    rng.bit_generator.state = state["rng"]
    return state["epoch"] + 1


def checkpoint(run: Path, net, opt, sched, rng: np.random.Generator, epoch: int, hong_kong: bool) -> None:
    """`hong_kong`: whether these weights ever saw the Hong Kong photos, for a reader started from them."""
    import torch

    state = {"net": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "rng": rng.bit_generator.state, "epoch": epoch, "hong_kong": hong_kong}
    torch.save(state, run / "last.pt")


def from_onnx(net, path: Path, crops: np.ndarray) -> float:
    """Load an exported reader's weights into `net`, for a run begun from a reader whose
    checkpoint was not kept. The export folded each BatchNorm into the convolution before
    it; each is rebuilt to compute the folded function in train and eval mode alike, from
    its input's statistics on `crops` (`pretrained.recalibrate`). Returns the largest
    difference between the rebuilt net's logits and the graph's on those crops."""
    import onnx
    import onnxruntime as ort
    import torch
    from onnx import numpy_helper
    from torch import nn

    from vision.faces import blob

    from .pretrained import recalibrate, unfold

    graph = onnx.load(str(path)).graph
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    layers = list(net.children())
    pairs = [(conv, layers[i + 1]) for i, conv in enumerate(layers) if isinstance(conv, nn.Conv2d)]
    folded = [node.input[1:] for node in graph.node if node.op_type == "Conv"]
    if len(folded) != len(pairs):
        raise ValueError(f"{path}: {len(folded)} convolutions, the reader has {len(pairs)}")
    with torch.no_grad():
        for (conv, bn), (w, b) in zip(pairs, folded):
            conv.weight.copy_(weights[w])
            unfold(bn, weights[b])
    net.load_state_dict({k: v for k, v in weights.items() if k in net.state_dict()}, strict=False)
    given = blob(crops)
    x = torch.from_numpy(given)
    recalibrate(net, [bn for _, bn in pairs], torch.split(x, 128))
    with torch.no_grad():
        ours = net(x)[0].numpy()
    theirs = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(["logits"], {"crops": given})[0]
    return float(np.abs(ours - theirs).max())


def started_from_hong_kong(start: Path) -> bool:
    """Whether a checkpoint's or an exported reader's weights saw the Hong Kong photos;
    one that does not say, did."""
    if start.suffix == ".onnx":
        from vision.generalisation import hong_kong_photos

        return hong_kong_photos(start) != "never seen"
    import torch

    return bool(torch.load(start, weights_only=False).get("hong_kong", True))


def begun(args: argparse.Namespace) -> tuple[Tiles, np.random.Generator]:
    """A run's threads and seeds set, and its photos read (the real training photos built
    first, as `make train` builds them, if they are the ones asked for and not there)."""
    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    if DEFAULT_DATA in args.data and not DEFAULT_DATA.is_dir():
        from .train import dataset_yaml

        dataset_yaml(None)
    return load_tiles(*args.data), np.random.default_rng(args.seed)


def train(args: argparse.Namespace) -> dict:
    import torch

    tiles, rng = begun(args)
    hold = np.array([held_out(tiles.names[int(r[0])], args.holdout) for r in tiles.rows], bool)
    fit, check = tiles.subset(~hold), tiles.subset(hold)
    unseen = load_tiles(args.measure) if args.measure else None
    print(f"{len(tiles.photos)} photos, {len(fit.rows)} tiles to train on, {len(check.rows)} held out")
    net = build_net()
    hong_kong = saw_hong_kong(args.data) or args.start is not None and started_from_hong_kong(args.start)
    # A reader trained on rendered boxes reads real ones through the cut that shows it a tile as
    # it learnt one (`vision.training.margins`): so the real photos are measured, and it is stamped.
    rendered = rendered_cut() if not saw_hong_kong(args.data) and (unseen is not None or args.export) else None
    real_cut = rendered or SAME_CUT  # how the real photos of --measure are cut
    if rendered is not None:
        print(f"trained on rendered boxes: real ones are read at crop_margin {rendered.across} {rendered.down}, crop_shift {rendered.right} {rendered.lower}")
    if args.start and args.start.suffix == ".onnx":
        crops = np.concatenate([c for c, *_ in itertools.islice(batches(fit, args.batch, np.random.default_rng(args.seed + 1)), 8)])
        print(f"starting from {args.start}: logits within {from_onnx(net, args.start, crops):.2g} of the graph's")
    elif args.start:
        missing = net.load_state_dict(torch.load(args.start, weights_only=False)["net"], strict=False).missing_keys
        print(f"starting from {args.start}" + (f"; new: {', '.join(missing)}" if missing else ""))
    steps = args.epochs * int(np.ceil(len(fit.rows) * 1.2 / args.batch))
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps + 100, pct_start=0.05)
    run = WORK / "runs" / args.name
    start = resumed(run, net, opt, sched, rng)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05, ignore_index=BACK)
    for epoch in range(start, args.epochs):
        net.train()
        began, total, seen = time.time(), 0.0, 0
        for crops, faces, boxes, teaches in batches(fit, args.batch, rng, args.turned):
            x = torch.from_numpy(np.ascontiguousarray(crops.transpose(0, 3, 1, 2))).float() / 255.0
            logits, placed = net(x)
            taught = torch.from_numpy(teaches).float()
            off = ((placed - torch.from_numpy(boxes).float()).abs().sum(1) * taught).sum() / taught.sum().clamp(min=1)
            loss = loss_fn(logits, torch.from_numpy(faces)) + args.box * off
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched.last_epoch < sched.total_steps - 1:
                sched.step()
            total, seen = total + loss.item() * len(faces), seen + len(faces)
        line = f"epoch {epoch + 1}/{args.epochs}: loss {total / seen:.4f}, {time.time() - began:.0f} s"
        if len(check.rows):
            got = measured(net, check)
            line += f", held out: accuracy {got['accuracy']:.4f}, flowers {got['flowers']:.4f}, box IoU {got['iou_given']:.4f} -> {got['iou_placed']:.4f}"
        if unseen is not None and ((epoch + 1) % 3 == 0 or epoch + 1 == args.epochs):
            got = measured(net, unseen, cut=real_cut)
            line += f", {args.measure.name}: accuracy {got['accuracy']:.4f}, flowers {got['flowers']:.4f}"
        print(line, flush=True)
        checkpoint(run, net, opt, sched, rng, epoch, hong_kong)
    result = {"name": args.name, "epochs": args.epochs, "train_tiles": len(fit.rows)}
    if len(check.rows):
        result["held_out"] = measured(net, check)
    if unseen is not None:
        result["measured_on"] = {"folder": str(args.measure), **measured(net, unseen, cut=real_cut)}
    (run / "result.json").write_text(json.dumps(result, indent=1))
    if args.export:
        print(export(net, args.out, hong_kong))
        if rendered is not None:
            stamp(args.out, rendered)
    return result


def run_arguments(description: str, name: str, epochs: int, batch: int, lr: float, model: Path) -> argparse.ArgumentParser:
    """The options every reader's training run takes; each adds its own."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--data", type=Path, nargs="+", default=[DEFAULT_DATA], help="YOLO folders (images/, labels/) trained on together; by default the real training photos, built as `make train` builds them")
    p.add_argument("--measure", type=Path, help="a YOLO folder never trained on, read from its labelled boxes every third epoch and at the end (e.g. the Hong Kong validation photos, for a reader trained without them)")
    p.add_argument("--name", default=name)
    p.add_argument("--epochs", type=int, default=epochs)
    p.add_argument("--batch", type=int, default=batch)
    p.add_argument("--lr", type=float, default=lr)
    p.add_argument("--weight-decay", type=float, default=5e-4)
    p.add_argument("--holdout", type=float, default=0.1, help="share of source photos held out to measure on (0: train on all)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--export", action="store_true", help=f"write {model.relative_to(ROOT)} at the end")
    p.add_argument("--out", type=Path, default=model)
    return p


def main(argv: list[str] | None = None) -> None:
    p = run_arguments(__doc__, "faces", 40, 128, 3e-3, MODEL)
    p.add_argument("--box", type=float, default=10.0, help="weight of the box loss (L1 over the four edges, in crop units) beside the face loss")
    p.add_argument("--turned", type=float, default=0.0, help="share of the tiles laid askew, up to 45 degrees, in the upright box round them (for synthetic photos, whose rows lie nearly level)")
    p.add_argument("--start", type=Path, help="begin from the weights of another run's last.pt (a box head it lacks starts at the crop's own box), or of an exported reader's .onnx")
    result = train(p.parse_args(argv))
    print(json.dumps({k: v for k, v in result.items() if k != "held_out"} | {"held_out": {k: v for k, v in result.get("held_out", {}).items() if k != "per_face"}}))


if __name__ == "__main__":
    main()
