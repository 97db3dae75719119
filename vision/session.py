"""One way to open an ONNX model for reading photos on the CPU."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort


def open_session(model: Path, threads: int, what: str = "model") -> ort.InferenceSession:
    """An onnxruntime session on `threads` cores. Its threads spin between the nodes of a
    run but stop when the run ends: left spinning, they take the cores from the next
    network (the detector and the face reader run one after the other on every photo:
    49 -> 43 ms a 640 px photo on 2 cores, alternating blocks of 20 photos)."""
    if not Path(model).is_file():
        raise ValueError(f"no {what} file at {model}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.force_spinning_stop", "1")
    try:
        return ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own types for a corrupt file
        raise ValueError(f"{model} is not a loadable ONNX model: {e}") from None
