"""The detector's 43 classes, in the fixed order every dataset and model uses:
the 42 tile codes of RULINGS (suits, honours, flowers), then `back`."""

CLASSES: tuple[str, ...] = tuple(
    [f"{n}{s}" for s in "mps" for n in range(1, 10)]
    + [f"{n}z" for n in range(1, 8)]
    + [f"{n}f" for n in range(1, 9)]
    + ["back"]
)
INDEX = {c: i for i, c in enumerate(CLASSES)}
BACK = INDEX["back"]
