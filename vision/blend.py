"""Where a tile's edges finally lie: the detector's box and the face reader's are off
independently, so a blend of the two is nearer the tile than either."""

from __future__ import annotations

import numpy as np


def blend(detector: np.ndarray, reader: np.ndarray, reader_share: float) -> np.ndarray:
    """Each box `reader_share` the face reader's (`reader`), the rest the detector's."""
    return (1 - reader_share) * detector + reader_share * reader
