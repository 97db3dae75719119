"""Rewrites of the exported detector graph that change its speed, not its output."""

from __future__ import annotations

from pathlib import Path


def fast_dfl(path: Path) -> None:
    """The box head's distribution focal loss decode (DFL) as ultralytics exports it takes
    a softmax over the 16 bins on axis 1, which onnxruntime computes through a transpose
    of its own: the graph's dearest node (4.4 ms of 35 at 480 px on 2 cores). Put the bins
    last instead, take the softmax there and its expectation by a MatMul with 0..15: the
    same numbers, in a fraction of the time. Rewrites the file in place, once both graphs
    have given the same output for the same input."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import helper, numpy_helper

    model = onnx.load(str(path))
    nodes = list(model.graph.node)
    by_name = {n.name: n for n in nodes}
    transpose, softmax, conv = (by_name.get(f"/model.23/dfl/{k}") for k in ("Transpose", "Softmax", "conv/Conv"))
    if not (transpose and softmax and conv) or list(transpose.attribute[0].ints) != [0, 2, 1, 3]:
        raise ValueError(f"{path}: no ultralytics DFL decode to rewrite")
    bins = next(i for i in model.graph.initializer if i.name == conv.input[1])
    weights = numpy_helper.from_array(numpy_helper.to_array(bins).reshape(-1, 1).astype(np.float32), "dfl_bins")
    transpose.attribute[0].CopyFrom(helper.make_attribute("perm", [0, 1, 3, 2]))
    softmax.attribute[0].CopyFrom(helper.make_attribute("axis", -1))
    matmul = helper.make_node("MatMul", [softmax.output[0], weights.name], conv.output, name="/model.23/dfl/MatMul")
    nodes[nodes.index(conv)] = matmul
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    model.graph.initializer.remove(bins)
    model.graph.initializer.append(weights)
    onnx.checker.check_model(model)
    before = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    after = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    given = before.get_inputs()[0]
    x = {given.name: np.random.default_rng(0).random(given.shape, dtype=np.float32)}
    if not np.allclose(before.run(None, x)[0], after.run(None, x)[0], rtol=1e-4, atol=1e-3):
        raise ValueError(f"{path}: the rewritten DFL decode gives other boxes")
    onnx.save(model, str(path))
