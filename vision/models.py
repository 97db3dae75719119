"""Where the shipped networks lie, in a module that imports nothing heavy: the command
line names them as defaults without loading OpenCV or onnxruntime, so a ledger command
starts as fast as Python can."""

from pathlib import Path

MODELS = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODELS / "taiscore-tiles.onnx"  # the detector
DEFAULT_FACES = MODELS / "taiscore-faces.onnx"  # the face reader
DEFAULT_FLOWERS = MODELS / "taiscore-flowers.onnx"  # the flower reader
