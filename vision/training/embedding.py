"""`python -m vision.training.embedding`: give the shipped face and flower readers an
`embedding` output, the pooled features their classification head reads, for the
tile-set profiles (`vision/tileset.py`).

The training checkpoints are not kept with the project, so the output is added to the
exported graph itself: the tensor was always computed, now it is also returned. The
readers' own outputs stay bit for bit what they were (checked on every rewrite), and
the file grows by a few bytes. `training.faces.to_onnx` calls `add_embedding` on every
export, so a retrained reader ships with the output too.
"""

from __future__ import annotations

from pathlib import Path

from .env import ROOT

EMBEDDING = "embedding"
READERS = (ROOT / "models" / "taiscore-faces.onnx", ROOT / "models" / "taiscore-flowers.onnx")


def add_embedding(path: Path) -> bool:
    """Add the `embedding` output (N x features: the input of the Gemm that gives
    `logits`) to the reader at `path`, in place; False if it has one already. Refuses a
    graph without that head, or one whose outputs would change."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    model = onnx.load(str(path))
    graph = model.graph
    if EMBEDDING in [o.name for o in graph.output]:
        return False
    head = next((n for n in graph.node if n.op_type == "Gemm" and list(n.output) == ["logits"]), None)
    weights = next((i for i in graph.initializer if head is not None and i.name == head.input[1]), None)
    if head is None or weights is None:
        raise ValueError(f"{path}: no Gemm head giving `logits` to take the embedding from")
    features = weights.dims[1] if any(a.name == "transB" and a.i for a in head.attribute) else weights.dims[0]
    pooled = helper.make_node("Identity", [head.input[0]], [EMBEDDING], name="/embedding/Identity")
    graph.node.append(pooled)
    graph.output.append(helper.make_tensor_value_info(EMBEDDING, TensorProto.FLOAT, ["n", features]))
    onnx.checker.check_model(model)
    before = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    after = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    given = before.get_inputs()[0]
    x = {given.name: np.random.default_rng(0).random((5, *given.shape[1:]), dtype=np.float32)}
    names = [o.name for o in before.get_outputs()]
    if not all(np.array_equal(a, b) for a, b in zip(before.run(names, x), after.run(names, x))):
        raise ValueError(f"{path}: the rewritten graph reads differently; left unchanged")
    onnx.save(model, str(path))
    return True


def main() -> None:
    for path in READERS:
        print(f"{path.name}: {'embedding added' if add_embedding(path) else 'has its embedding already'}")


if __name__ == "__main__":
    main()
