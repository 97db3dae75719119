"""Photo loading with the checks a phone upload needs: real image, sane size, EXIF upright."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000  # a 12 MP phone photo is far below; a 200 MP scan is refused


class ImageError(ValueError):
    """A photo we cannot read; the message says why."""


def load(source: str | Path | bytes, name: str = "photo") -> np.ndarray:
    """Decode to an upright BGR array, or raise ImageError naming the problem."""
    if isinstance(source, (str, Path)):
        name = str(source)
        try:
            data = Path(source).read_bytes()
        except OSError as e:
            raise ImageError(f"{name}: cannot read ({e.strerror})") from None
    else:
        data = source
    if not data:
        raise ImageError(f"{name}: empty file")
    if len(data) > MAX_BYTES:
        raise ImageError(f"{name}: {len(data) / 2**20:.0f} MB is too large (limit {MAX_BYTES // 2**20} MB)")
    try:
        with Image.open(io.BytesIO(data)) as header:  # reads the header only
            w, h = header.size
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError):
        raise ImageError(f"{name}: not an image OpenCV or Pillow can read") from None
    if w * h > MAX_PIXELS:
        raise ImageError(f"{name}: {w}x{h} is {w * h / 1e6:.0f} MP, above the {MAX_PIXELS // 1_000_000} MP limit")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)  # applies EXIF orientation
    if img is None or img.size == 0:
        raise ImageError(f"{name}: the image data is corrupt")
    return img
