"""Reading a flower tile again, larger (花牌辨識), where the face reader says it may be one.

The four seasons (春夏秋冬, 1f-4f) share one painting in most sets, and so do the four
flowers (梅蘭菊竹, 5f-8f) of some: what tells them apart is a numeral and a character
in a corner, a few pixels of the face reader's 64 px crop. On the held-out training
flowers the face reader reads 91.8 % right among the eight, the flower reader, seeing
them at 96 px, 93.7 %. A hand shows a few flowers at most, so reading them again at
96 px costs little: about 1.5 ms a flower on two cores.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from .classes import INDEX
from .faces import FACES, blob, crops_of, softmax
from .models import DEFAULT_FLOWERS
from .session import open_session

SIZE = 96  # the crop side: the median tile of the real photos is 75 px, grown 1.2 times
FLOWER_FACES = slice(INDEX["1f"], INDEX["8f"] + 1)  # where the flowers lie among the faces
FLOWERS = FACES[FLOWER_FACES]


class FlowerReader:
    """Loads the flower model once; `reread` joins its reading of which flower a tile is
    with the face reader's, keeping how likely the face reader thinks a flower at all."""

    def __init__(self, model: Path = DEFAULT_FLOWERS, threads: int = 2):
        self.session = open_session(model, threads, "flower model")
        meta = self.session.get_modelmeta().custom_metadata_map
        if tuple(ast.literal_eval(meta.get("flowers", "()"))) != FLOWERS:
            raise ValueError(f"{model}: its classes are not the 8 flowers")
        self.size = int(self.session.get_inputs()[0].shape[2])
        self.input = self.session.get_inputs()[0].name

    def read(self, img: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """N x 8 probabilities over `FLOWERS`, one row per box given."""
        if not len(boxes):
            return np.zeros((0, len(FLOWERS)), np.float32)
        (logits,) = self.session.run(["logits"], {self.input: blob(crops_of(img, boxes, self.size))})
        return softmax(logits)

    def reread(self, img: np.ndarray, boxes: np.ndarray, probs: np.ndarray, may_be_a_flower: float) -> np.ndarray:
        """The face reader's `probs` (N x 42) with, for each tile it thinks at least
        `may_be_a_flower` likely a flower, its share on the flowers spread over them by
        both readers: the geometric mean of the face reader's reading among the flowers
        and the flower reader's. Each reader errs apart; on the held-out flowers the mean
        reads more right than either (95.0 % against 93.7 % and 91.8 %) and is surer of
        them (log loss 0.168 against 0.194 and 0.220), so a flower read right keeps its
        confidence."""
        share = probs[:, FLOWER_FACES].sum(1)
        again = np.nonzero(share >= may_be_a_flower)[0]
        if not len(again):
            return probs
        # the floor: two readings that each rule out the other's flower still leave one
        both = np.sqrt(probs[again, FLOWER_FACES] / share[again, None] * self.read(img, boxes[again])) + 1e-12
        probs = probs.copy()
        probs[again, FLOWER_FACES] = share[again, None] * both / both.sum(1, keepdims=True)
        return probs
