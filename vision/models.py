"""Where the shipped networks lie, in a module that imports nothing heavy: the command
line names them as defaults without loading OpenCV or onnxruntime, so a ledger command
starts as fast as Python can."""

from pathlib import Path

MODELS = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODELS / "taiscore-tiles.onnx"  # the detector
DEFAULT_FACES = MODELS / "taiscore-faces.onnx"  # the face reader
DEFAULT_FLOWERS = MODELS / "taiscore-flowers.onnx"  # the flower reader
DEFAULT_FINDER = MODELS / "taiscore-finder.onnx"  # where the tiles lie, one class, trained on renders and the Hong Kong photos
DEFAULT_CHARACTERS = MODELS / "ppocr-rec.onnx"  # PP-OCRv4's text recogniser: the characters on a tile
# A face reader trained without the Hong Kong photos (synthetic photos of the trained art
# styles only): it reads nothing for a player, only the "unseen real set" row of
# `make eval-generalisation` and `python -m vision.training.profiles --unseen-real-set`.
UNSEEN_FACES = MODELS / "unseen" / "taiscore-faces.onnx"
HONG_KONG_KEY = "hong_kong_photos"  # ONNX metadata: "trained on" or "never seen"
