"""Photo loading with the checks a phone upload needs: a real image, a sane size, upright.

Decoding is strict: a stream corrupted in the middle or cut short is an error, where
OpenCV fills the rest grey and prints a libjpeg line. JPEG goes through simplejpeg
(libjpeg-turbo, strict mode: its warnings are errors; the same pixels as OpenCV),
every other format through Pillow, HEIC/HEIF photos too (pillow-heif). The size is
checked twice before anything is decoded: the file's bytes before it is read whole,
the pixels from the header. A library warning becomes the one message, never a line
of its own.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import cv2
import numpy as np
import pillow_heif
import simplejpeg
from PIL import Image, ImageOps, UnidentifiedImageError

from scoring.inputs import InputError, read_bytes

MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000  # a 12 MP phone photo is far below; a 200 MP scan is refused
LIMITS = f"at most {MAX_BYTES // 2**20} MB and {MAX_PIXELS // 1_000_000} megapixels"  # the one statement of the limits, for the uploader

ORIENTATION = 0x0112  # the EXIF tag

pillow_heif.register_heif_opener()


class ImageError(ValueError):
    """A photo we cannot read; the message says why."""


def load(source: str | Path | bytes, name: str = "photo") -> np.ndarray:
    """Decode to an upright BGR array, or raise ImageError naming the problem."""
    if isinstance(source, (str, Path)):
        name = str(source)
        try:
            data = read_bytes(name, MAX_BYTES)
        except InputError as e:
            raise ImageError(str(e)) from None
    else:
        data = source
    if not data:
        raise ImageError(f"{name}: empty file")
    if len(data) > MAX_BYTES:
        raise ImageError(f"{name}: {len(data) / 2**20:.0f} MB is larger than the {MAX_BYTES // 2**20} MB limit")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the pixels are checked below, with the numbers
        try:
            photo = Image.open(io.BytesIO(data))  # reads the header only
        except Image.DecompressionBombError:
            raise ImageError(
                f"{name}: more than {2 * Image.MAX_IMAGE_PIXELS // 1_000_000} MP, above the {MAX_PIXELS // 1_000_000} MP limit"
            ) from None
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Warning):
            raise ImageError(f"{name}: not an image taiscore can read (JPEG, PNG, WebP, HEIC)") from None
        with photo:
            w, h = photo.size
            if w * h > MAX_PIXELS:
                raise ImageError(f"{name}: {w}x{h} is {w * h / 1e6:.0f} MP, above the {MAX_PIXELS // 1_000_000} MP limit")
            try:
                if photo.format in ("JPEG", "MPO") and photo.mode in ("RGB", "L"):
                    return _upright(simplejpeg.decode_jpeg(data, colorspace="BGR", strict=True), photo.getexif().get(ORIENTATION, 1))
                rgb = ImageOps.exif_transpose(photo).convert("RGB")
            except (OSError, SyntaxError, ValueError, EOFError, Warning) as e:
                reason = " ".join(str(e).split())  # libheif's messages run over lines
                raise ImageError(f"{name}: the image data is corrupt or cut short ({reason})") from None
    return cv2.cvtColor(np.asarray(rgb), cv2.COLOR_RGB2BGR)


def _upright(img: np.ndarray, orientation: int) -> np.ndarray:
    """Turn a decoded array as its EXIF orientation (1-8) says, as Pillow and OpenCV do."""
    turned = {
        2: img[:, ::-1],
        3: img[::-1, ::-1],
        4: img[::-1],
        5: img.transpose(1, 0, 2),
        6: np.rot90(img, -1),
        7: img[::-1, ::-1].transpose(1, 0, 2),
        8: np.rot90(img, 1),
    }.get(orientation, img)
    return np.ascontiguousarray(turned)
