"""`python -m vision.training.margins`: how the generator's boxes differ from the detector's,
and how a face reader trained on the generator's boxes must cut its crops at run time.

Until session 20 the generator boxed a tile as the camera sees it, its visible side and
back too, while the real photos' labels, and so the detector trained on them, box its
face. A reader trained on crops of those boxes learnt a tile smaller in its crop, its
back below the face, than the detector's box gives it when reading: the reader that
never saw a Hong Kong photo (`models/unseen/`, trained on those renders) read 38 % of
their labelled tiles cut the usual way (session 19, `models/README.md`). The generator
now boxes the face alone, so the label's centre lies where the detector's does; the
detector's box is still a little tighter than a rendered face. Measured here on
rendered photos of the trained art styles alone, so the Hong Kong photos stay unseen:
for each generator label and the detector's box it matches, the ratio of their sizes
across and down and how far the label's centre lies from the box's, in box widths and
heights; the medians give the cut (`faces.Cut`) that shows the reader a tile as it was
trained: the box grown `MARGIN` over each ratio, about its centre moved as far.
`--write READER` stamps that cut into the reader's ONNX metadata (`crop_margin`,
`crop_shift`) and that its box head learnt the generator's edges (`box_labels`:
rendered), so that reading keeps the detector's box. A reader's stamp is measured on the
renders it was trained on: the shipped unseen reader keeps the cut of the old boxes.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

SEED = 90_000  # rendered photos measured: seeds SEED .. SEED + n, apart from every training set's
CLOSE_UP_SIDE = 640  # close-ups are rendered as the reader's training set was (`--max-side 640`), hands at 1280
MATCH_IOU = 0.3  # a label and a box of one tile: the old renders' boxes were loose, and 0.5 kept only the nearest


def ratios(n: int, max_side: int = 1280) -> np.ndarray:
    """(detector width / label width, detector height / label height, label centre right
    of the box's in box widths, lower in box heights) for every label of `n` rendered
    top-down hands and close-ups (as the reader was trained on) whose best match with
    the shipped detector's boxes is mutual, at IoU `MATCH_IOU` or more."""
    from datasets.faces import TRAINED, build
    from datasets.generate import close_up
    from datasets.scene import render
    from vision.detections import box_iou
    from vision.detector import Detector

    detector, faces = Detector(faces=None), build(list(TRAINED))
    out = []
    for i in range(n):
        photo = render(faces, SEED + i, max_side) if i % 2 else close_up(faces, SEED + i, CLOSE_UP_SIDE)
        labels = np.array([b[1:] for b in photo.boxes], np.float64).reshape(-1, 4)
        found = detector.boxes(photo.image).boxes
        if not len(labels) or not len(found):
            continue
        iou = box_iou(labels, found)
        best, back = iou.argmax(1), iou.argmax(0)
        for i_label, j in enumerate(best):
            if iou[i_label, j] >= MATCH_IOU and back[j] == i_label:
                (lx1, ly1, lx2, ly2), (fx1, fy1, fx2, fy2) = labels[i_label], found[j]
                fw, fh = fx2 - fx1, fy2 - fy1
                out.append((fw / (lx2 - lx1), fh / (ly2 - ly1), (lx1 + lx2 - fx1 - fx2) / 2 / fw, (ly1 + ly2 - fy1 - fy2) / 2 / fh))
    return np.array(out).reshape(-1, 4)


def cut_from(r: np.ndarray):
    """The cut (`faces.Cut`) that undoes the medians of `ratios`: the box grown `MARGIN`
    over each size ratio, about its centre moved as far as the label's lies from it."""
    from vision.faces import MARGIN, Cut

    if not len(r):
        raise SystemExit("the detector matched no rendered tile")
    across, down, right, lower = np.median(r, axis=0)
    return Cut(round(float(MARGIN / across), 2), round(float(MARGIN / down), 2), round(float(right), 2), round(float(lower), 2))


def rendered_cut(n: int = 60):
    """`cut_from` `n` rendered photos: the cut a reader trained on the generator's boxes needs."""
    return cut_from(ratios(n))


def stamp(reader: Path, cut) -> None:
    """Write `cut` (`faces.Cut`) and `box_labels` into a reader's metadata; its graph stays as it is."""
    import onnx

    from vision.faces import MARGIN_KEY, RENDERED_BOXES_KEY, SHIFT_KEY, cut_of
    from vision.models import HONG_KONG_KEY

    model = onnx.load(str(reader))
    meta = {p.key: p.value for p in model.metadata_props}
    if meta.get(HONG_KONG_KEY) != "never seen":
        raise SystemExit(f"{reader}: not a reader trained on rendered photos alone ({HONG_KONG_KEY}: {meta.get(HONG_KONG_KEY)})")
    meta.update({MARGIN_KEY: f"{cut.across:.2f} {cut.down:.2f}", SHIFT_KEY: f"{cut.right:.2f} {cut.lower:.2f}", RENDERED_BOXES_KEY: "rendered"})
    cut_of(meta)  # a cut the reader would refuse is not written
    del model.metadata_props[:]
    for key, value in meta.items():
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(reader))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, default=60, help="rendered photos to measure (half top-down hands, half close-ups)")
    p.add_argument("--write", type=Path, help="a face reader trained on rendered photos: stamp the cut into it")
    args = p.parse_args(argv)
    r = ratios(args.n)
    cut = cut_from(r)
    across, down, right, lower = np.median(r, axis=0)
    q1, q3 = np.percentile(r, 25, axis=0), np.percentile(r, 75, axis=0)
    print(
        f"{len(r)} tiles of {args.n} rendered photos: the detector's box is {across:.3f} of the generator's across "
        f"(quartiles {q1[0]:.3f}-{q3[0]:.3f}) and {down:.3f} down ({q1[1]:.3f}-{q3[1]:.3f}); the label's centre lies "
        f"{right:.3f} box widths right ({q1[2]:.3f}-{q3[2]:.3f}) and {lower:.3f} box heights lower ({q1[3]:.3f}-{q3[3]:.3f})\n"
        f"cut: crop_margin {cut.across:.2f} {cut.down:.2f}, crop_shift {cut.right:.2f} {cut.lower:.2f}"
    )
    if args.write:
        stamp(args.write, cut)
        print(f"{args.write}: stamped, box_labels rendered")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
