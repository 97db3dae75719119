"""A tile-aware start for yolo11n from the MIT-licensed `mahjong-detector` package.

Its ONNX export folded every BatchNorm into the convolution before it. We load
each folded weight into the unfused conv and rebuild the BatchNorm so it
reproduces the folded bias in train and eval mode alike: with BN as identity
plus bias, real photos give each BN input's mean m and variance v; then
running_mean = m, running_var = v, weight = sqrt(v + eps), bias = b + m.
Without this the first batches renormalise and undo the pretraining.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.classes import CLASSES, INDEX

# mahjong-detector's 34 classes: 1m 1p 1s 2m ... 9s, then chun haku hatsu nan pe sha tou.
THEIR_HONOURS = ("7z", "5z", "6z", "2z", "4z", "3z", "1z")
THEIR_CODES = [f"{n}{s}" for n in range(1, 10) for s in "mps"] + list(THEIR_HONOURS)


def onnx_path() -> Path:
    import mahjong_detector

    return Path(mahjong_detector.__file__).parent / "model.onnx"


def convert(out: Path, photos: list[Path], graph: Path | None = None) -> Path:
    """A trainable checkpoint at `out` from an exported yolo11n `graph`, its BatchNorm
    rebuilt on `photos`: by default mahjong-detector's, its 34 kinds copied into our 43
    classes; one of ours (the shipped finder) keeps its own classes and every layer, and
    must compute what the graph does."""
    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.tasks import DetectionModel

    exported = onnx.load(str(graph or onnx_path()))
    weights = {i.name: numpy_helper.to_array(i) for i in exported.graph.initializer}
    names = dict(enumerate(CLASSES)) if graph is None else graph_names(graph)
    model = DetectionModel("yolo11n.yaml", nc=len(names), verbose=False)
    modules = dict(model.named_modules())
    rows = torch.tensor([INDEX[c] for c in THEIR_CODES]) if graph is None else None
    bns = []
    with torch.no_grad():
        for key, value in weights.items():
            if not key.endswith(".weight") or value.ndim != 4:
                continue
            prefix = key[: -len(".weight")]
            conv, w = modules[prefix], torch.from_numpy(value.copy())
            bias = weights.get(prefix + ".bias")
            b = torch.from_numpy(bias.copy()) if bias is not None else None
            parent = prefix.rsplit(".", 1)[0]
            if prefix.endswith(".conv") and hasattr(modules[parent], "bn"):
                bn = modules[parent].bn
                conv.weight.copy_(w)
                unfold(bn, b)
                bns.append(bn)
            elif w.shape == conv.weight.shape:
                conv.weight.copy_(w)
                if b is not None:
                    conv.bias.copy_(b)
            elif rows is not None:  # class rows of the head: copy the 34 shared kinds into our order
                conv.weight[rows] = w
                conv.bias[rows] = b
            else:
                raise ValueError(f"{graph}: layer {prefix} is not yolo11n's with {len(names)} classes")
    recalibrate(model, bns, (_blob(path) for path in photos))
    model.float()
    model.names = names
    if graph is not None:
        _same(model, graph, photos[0])
    torch.save({"model": model, "train_args": {}, "date": None, "version": "taiscore-convert"}, out)
    return out


def graph_names(graph: Path) -> dict[int, str]:
    """The classes an ultralytics export names in its metadata."""
    import ast

    import onnx

    meta = {p.key: p.value for p in onnx.load(str(graph), load_external_data=False).metadata_props}
    if "names" not in meta:
        raise ValueError(f"{graph}: no class names in its metadata: not an ultralytics export")
    return ast.literal_eval(meta["names"])


def _same(model, graph: Path, photo: Path, tolerance: float = 1e-2) -> None:
    """Raise unless `model` gives what onnxruntime gives from `graph` for `photo`."""
    import onnxruntime as ort
    import torch

    session = ort.InferenceSession(str(graph), providers=["CPUExecutionProvider"])
    x = _blob(photo, int(session.get_inputs()[0].shape[2]))
    model.eval()
    with torch.no_grad():
        ours = model(x)[0].numpy()
    theirs = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
    if ours.shape != theirs.shape or np.abs(ours - theirs).max() > tolerance:
        raise ValueError(f"{graph}: rebuilt, it no longer computes what the graph does")


def unfold(bn, bias) -> None:
    """Make `bn` the identity plus the `bias` an export folded into the convolution before
    it (in eval mode); `recalibrate` then gives it the statistics that keep it so."""
    bn.running_mean.zero_()
    bn.running_var.fill_(1.0 - bn.eps)
    bn.weight.fill_(1.0)
    bn.bias.copy_(bias)


def _blob(path: Path, side: int = 640):
    import torch

    img = cv2.resize(cv2.imread(str(path)), (side, side))[:, :, ::-1].transpose(2, 0, 1)
    return torch.from_numpy(np.ascontiguousarray(img)).float()[None] / 255.0


def recalibrate(model, bns, inputs) -> None:
    """Give each BatchNorm in `bns` (identity plus the folded bias) the mean and variance
    of its input over `inputs`, so that it computes the folded function in train and eval
    mode alike; also used by a reader begun from its exported graph (`training.faces`)."""
    import torch

    stats: dict[int, list] = {id(bn): [] for bn in bns}

    def hook(bn, inputs, _output):
        x = inputs[0].double()
        stats[id(bn)].append((x.mean(dim=(0, 2, 3)), x.var(dim=(0, 2, 3), unbiased=False)))

    handles = [bn.register_forward_hook(hook) for bn in bns]
    model.eval()
    with torch.no_grad():
        for x in inputs:
            model(x)
    for h in handles:
        h.remove()
    with torch.no_grad():
        for bn in bns:
            means = torch.stack([m for m, _ in stats[id(bn)]])
            vars_ = torch.stack([v for _, v in stats[id(bn)]])
            m = means.mean(0)
            v = (vars_ + (means - m) ** 2).mean(0)
            bn.running_mean.copy_(m.float())
            bn.running_var.copy_(v.float())
            bn.weight.copy_(torch.sqrt(v + bn.eps).float())
            bn.bias.add_(m.float())
