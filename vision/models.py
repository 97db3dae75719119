"""Where the shipped networks lie, in a module that imports nothing heavy: the command
line names them as defaults without loading OpenCV or onnxruntime, so a ledger command
starts as fast as Python can."""

from pathlib import Path

MODELS = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODELS / "taiscore-tiles.onnx"  # the detector
DEFAULT_FACES = MODELS / "taiscore-faces.onnx"  # the face reader
DEFAULT_FLOWERS = MODELS / "taiscore-flowers.onnx"  # the flower reader
# Readers trained without the Hong Kong photos (synthetic photos of the trained art styles
# only): not used to read, only by `make eval-generalisation` for its "unseen real set" row.
UNSEEN_FACES = MODELS / "unseen" / "taiscore-faces.onnx"
UNSEEN_FLOWERS = MODELS / "unseen" / "taiscore-flowers.onnx"
HONG_KONG_KEY = "hong_kong_photos"  # ONNX metadata: "trained on" or "never seen"
