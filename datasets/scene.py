"""One synthetic photo of a winning hand on a table, with a tight box per visible face.

Tiles are laid out on the table plane (units: one tile is 1 wide, 1.33 deep),
drawn top-down with their thickness showing on the camera side, then the plane is
warped into a tilted camera view; every tile's corners go through the same warp,
so each box is the tile's face as the camera sees it (its thickness left out, as the
real photos are labelled).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from scoring.random_hands import random_hand
from scoring.tiles import code, parse_flowers, parse_tiles
from vision.classes import INDEX

TILE_W, TILE_H, THICK = 1.0, 1.33, 0.45
BACK_COLOURS = [(40, 130, 60), (160, 90, 30), (40, 170, 210), (200, 200, 190), (215, 225, 235), (60, 60, 170)]  # BGR
FRONT_COLOURS = [(236, 244, 248), (214, 232, 242), (245, 245, 245), (200, 228, 240)]


@dataclass(frozen=True)
class Placed:
    code: str  # a class code; "back" for a face-down tile
    x: float
    y: float
    turned: bool = False  # lying sideways (a claimed tile)
    labelled: bool = True

    @property
    def size(self) -> tuple[float, float]:
        return (TILE_H, TILE_W) if self.turned else (TILE_W, TILE_H)


@dataclass(frozen=True)
class Photo:
    image: np.ndarray
    boxes: list[tuple[int, float, float, float, float]]  # class, x1, y1, x2, y2 in pixels
    hand: dict
    masks: np.ndarray | None = None  # instance ids (box index + 1), for tests


def meld_tiles(meld: str, rng: random.Random) -> list[tuple[str, bool]]:
    kind, tiles = meld.split()
    codes = [code(k) for k in parse_tiles(tiles)]
    if kind == "ankong":
        return [("back", False)] * 4 if rng.random() < 0.3 else [("back", False), (codes[1], False), (codes[2], False), ("back", False)]
    turned = rng.randrange(len(codes)) if kind == "chi" or rng.random() < 0.6 else -1
    return [(c, i == turned) for i, c in enumerate(codes)]


def _row(items: list[tuple[str, bool]], x: float, y: float, gap: float = 0.04) -> tuple[list[Placed], float]:
    out = []
    for c, turned in items:
        p = Placed(c, x, y + (TILE_H - TILE_W if turned else 0), turned)
        out.append(p)
        x += p.size[0] + gap
    return out, x


def layout(hand: dict, rng: random.Random) -> list[Placed]:
    """The winner's tiles: concealed row, winning tile apart, melds, flowers aside."""
    kinds = list(parse_tiles(hand["concealed"]))
    kinds.remove(parse_tiles(hand["winning_tile"])[0])
    row = [(code(k), False) for k in sorted(kinds)]
    melds = [meld_tiles(m, rng) for m in hand["melds"]]
    flowers = [(f"{f}f", False) for f in parse_flowers(hand.get("flowers"))]
    placed: list[Placed] = []
    if melds and rng.random() < 0.5:  # melds to the left on the same row
        x = 0.0
        for m in melds:
            tiles, x = _row(m, x, 0.0)
            placed += tiles
            x += rng.uniform(0.4, 0.9)
    else:  # melds on a row beyond the hand
        x = rng.uniform(0, 2)
        for m in melds:
            tiles, x = _row(m, x, -TILE_H - rng.uniform(0.5, 1.2))
            placed += tiles
            x += rng.uniform(0.4, 0.9)
        x = 0.0
    tiles, x = _row(row, x, 0.0)
    placed += tiles
    tiles, x = _row([(hand["winning_tile"], False)], x + rng.uniform(0.5, 1.0), 0.0)
    placed += tiles
    if flowers:
        fy = rng.choice([-2 * TILE_H - 1.2, -TILE_H - 0.8]) if not melds else -2 * TILE_H - 1.5
        tiles, _ = _row(flowers, rng.uniform(0, 6), fy)
        placed += tiles
    return placed


def distractors(rng: random.Random, extent: tuple[float, float, float, float]) -> list[Placed]:
    """Other players' discards and melds, and a wall of backs, around the hand."""
    x0, y0, x1, y1 = extent
    out: list[Placed] = []
    pool = [c for c in INDEX if c != "back" and not c.endswith("f")]  # flowers lie by their owners
    above, below = min(y0, -4.2 * TILE_H), y1  # the middle of the table lies beyond the hand's own area
    for _ in range(rng.randrange(0, 3)):
        if rng.random() < 0.6:
            above -= TILE_H + THICK + rng.uniform(0.5, 2.0)
            y = above
        else:
            y = below + rng.uniform(1.0, 2.5)
            below = y + TILE_H + THICK
        items = [("back", False)] * rng.randrange(5, 14) if rng.random() < 0.3 else [(rng.choice(pool), False) for _ in range(rng.randrange(3, 10))]
        tiles, _ = _row(items, rng.uniform(x0 - 2, x0 + 4), y)
        out += tiles
    return out


def table_top(h: int, w: int, rng: np.random.Generator, kind: str | None = None) -> np.ndarray:
    """Felt, cloth or wood in many colours (`kind` None: any of them), or a white or a
    glass table, which the hands' photos never show."""
    kind = kind or rng.choice(["felt", "cloth", "wood"])
    base = rng.integers(20, 200, 3).astype(np.float32)
    if kind == "wood":
        base = np.array([rng.uniform(30, 80), rng.uniform(70, 120), rng.uniform(110, 180)], np.float32)
    elif kind == "white":
        base = np.full(3, rng.uniform(215, 250), np.float32) * rng.uniform(0.95, 1.0, 3).astype(np.float32)
    elif kind == "glass":  # dark, with a smooth reflection across it
        base = np.full(3, rng.uniform(15, 60), np.float32) + rng.uniform(0, 20, 3).astype(np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    noise = rng.normal(0, 1, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
    noise = cv2.resize(noise, (w, h))
    if kind == "wood":
        yy = np.arange(h, dtype=np.float32)[:, None]
        grain = np.sin(yy / rng.uniform(3, 9) + noise * 2.5) * 18
        img += grain[..., None]
    elif kind == "cloth":
        xx, yy = np.meshgrid(np.arange(w), np.arange(h))
        img += (((xx // 3 + yy // 3) % 2) * 10 - 5)[..., None].astype(np.float32)
    elif kind == "glass":
        xx, yy = np.meshgrid(np.linspace(0, 1, w, dtype=np.float32), np.linspace(0, 1, h, dtype=np.float32))
        band = np.exp(-(((xx + yy * rng.uniform(0.3, 1.5)) - rng.uniform(0.3, 1.2)) ** 2) / rng.uniform(0.005, 0.05))
        img += (band * rng.uniform(60, 160))[..., None]
    img += noise[..., None] * (rng.uniform(1, 3) if kind in ("white", "glass") else rng.uniform(3, 10))
    return np.clip(img, 0, 255).astype(np.uint8)


def _rounded(w: int, h: int, r: int) -> np.ndarray:
    """A w x h mask of a rectangle with corners rounded to radius r."""
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return mask


def tile_picture(
    p: Placed, faces: dict[str, np.ndarray], px: float, front: tuple, back: tuple, standing: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top-down picture of one tile (face plus the thickness on the camera side), its
    alpha and the rows of its face (or back, face down); of a `standing` tile, its face
    with its top above it."""
    w, h = p.size
    fw, fh, th = max(4, round(w * px)), max(4, round(h * px)), max(2, round(THICK * px))
    r = max(2, fw // 8)
    alpha = _rounded(fw, fh + th, r)
    img = np.zeros((fh + th, fw, 3), np.uint8)
    img[alpha > 0] = back
    if p.code != "back":
        face = faces[p.code]
        if p.turned:
            face = cv2.rotate(face, cv2.ROTATE_90_COUNTERCLOCKWISE)
        face = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA)
        top = np.zeros((fh, fw, 3), np.uint8)
        top[:] = front
        a = face[:, :, 3:4] / 255.0
        top = (face[:, :, :3] * a + top * (1 - a)).astype(np.uint8)
        sel = _rounded(fw, fh, r) > 0
        img[:fh][sel] = top[sel]
        shade = (np.array(back, np.float32) * 0.75).astype(np.uint8)
        edge = img[fh:].copy()
        edge[alpha[fh:] > 0] = shade
        img[fh:] = edge
    else:
        img[:fh][alpha[:fh] > 0] = np.clip(np.array(back) * 1.05, 0, 255).astype(np.uint8)
        img[fh:][alpha[fh:] > 0] = (np.array(back) * 0.75).astype(np.uint8)
    face_rows = np.zeros(fh + th, bool)
    face_rows[:fh] = True
    if standing:
        img, alpha, face_rows = (np.concatenate([a[fh:], a[:fh]]) for a in (img, alpha, face_rows))
    return img, alpha, face_rows


def _turn(degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    return np.float64([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])


def _camera(
    centre: tuple[float, float], px: float, unit: float, out_w: int, out_h: int, rng: np.random.Generator, flat: bool, side: bool = False,
    turn: float = 0.0,
) -> np.ndarray:
    """Plane -> photo: tilt up to about 45 degrees (the far side shrinks), turn, shift;
    the hand's centre lands near the photo's centre. From the `side`: the plane (standing
    tiles' faces) turned 20 to 55 degrees away about its upright axis. `turn`: degrees
    more in the photo's plane, the rows lying across it as a player's phone sees them."""
    cx, cy = centre
    to_origin = np.float64([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
    scale = unit / px
    if side:
        yaw = np.radians(rng.uniform(20, 55)) * rng.choice([-1, 1])
        depth = max(out_w, out_h) * rng.uniform(1.0, 2.0) / scale
        view = np.float64([[scale, 0, 0], [0, scale, 0], [0, 0, 1]]) @ np.float64([[np.cos(yaw), 0, 0], [0, 1, 0], [np.sin(yaw) / depth, 0, 1]])
    elif flat:
        view = np.float64([[scale, 0, 0], [0, scale, 0], [0, 0, 1]]) @ _turn(turn)
    else:
        tilt = np.radians(rng.uniform(0, 45))
        depth = max(out_w, out_h) * rng.uniform(1.0, 2.5) / scale  # camera distance, in plane pixels
        # a pinhole camera looking at the plane tilted by `tilt` about the horizontal axis
        view = np.float64([[1, 0, 0], [0, np.cos(tilt), 0], [0, np.sin(tilt) / depth, 1]])
        view = np.float64([[scale, 0, 0], [0, scale, 0], [0, 0, 1]]) @ _turn(rng.uniform(-12, 12) + turn) @ view
    jitter = (rng.uniform(-0.06, 0.06, 2) if not flat else np.zeros(2)) * [out_w, out_h]
    to_photo = np.float64([[1, 0, out_w / 2 + jitter[0]], [0, 1, out_h / 2 + jitter[1]], [0, 0, 1]])
    return to_photo @ view @ to_origin


def lit(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`img` as a phone sees it: tinted, unevenly lit, glare, a shadow, blur or shake, noise."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    tint = np.array([rng.uniform(0.8, 1.1), 1.0, rng.uniform(0.85, 1.15)], np.float32)  # cool to warm
    gx = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.9, 1.25), w, dtype=np.float32)
    gy = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.9, 1.2), h, dtype=np.float32)
    out *= (gy[:, None] * gx[None, :])[..., None] * tint
    for _ in range(rng.integers(0, 3)):  # glare spots, drawn at a quarter size: they are smooth
        cx, cy, r = rng.uniform(0, w) / 4, rng.uniform(0, h) / 4, rng.uniform(0.03, 0.15) * w / 4
        yy, xx = np.ogrid[: h // 4 + 1, : w // 4 + 1]
        spot = (np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * rng.uniform(40, 140)).astype(np.float32)
        out += cv2.resize(spot, (w, h))[..., None]
    if rng.random() < 0.4:  # a shadow across part of the photo
        pts = rng.uniform(0, 1, (4, 2)) * [w, h]
        mask = np.zeros((h, w), np.float32)
        cv2.fillPoly(mask, [pts.astype(np.int32)], 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), max(2, w / 60))
        out *= (1 - mask * rng.uniform(0.2, 0.5))[..., None]
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.6))
    elif rng.random() < 0.3:
        k = int(rng.integers(3, 9))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1.0 / k
        out = cv2.filter2D(out, -1, cv2.warpAffine(kernel, cv2.getRotationMatrix2D((k / 2, k / 2), rng.uniform(0, 180), 1), (k, k)))
    out += rng.normal(0, rng.uniform(1, 8), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def _props(img: np.ndarray, rng: np.random.Generator) -> None:
    """Phones, chips and a hand on the table around the tiles."""
    h, w = img.shape[:2]
    for _ in range(rng.integers(0, 5)):
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        kind = rng.choice(["chip", "phone", "hand"])
        if kind == "chip":
            cv2.circle(img, (x, y), int(w * rng.uniform(0.01, 0.025)), tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
        elif kind == "phone":
            pw, ph = int(w * 0.06), int(w * 0.12)
            cv2.rectangle(img, (x, y), (x + pw, y + ph), (20, 20, 25), -1)
        else:
            cv2.ellipse(img, (x, y), (int(w * 0.06), int(w * 0.035)), rng.uniform(0, 180), 0, 360, (120, 150, 200), -1)


def _extent(placed: list[Placed]) -> tuple[list[float], list[float]]:
    return [p.x for p in placed] + [p.x + p.size[0] for p in placed], [p.y for p in placed] + [p.y + p.size[1] + THICK for p in placed]


def photo_size(rng: np.random.Generator, max_side: int) -> tuple[int, int]:
    """A phone photo's width and height (1 to 12 MP, one of four aspects), shrunk to `max_side`."""
    megapixels = rng.uniform(1, 12)
    aspect = rng.choice([4 / 3, 16 / 9, 3 / 4, 1.0])
    out_w = int(np.sqrt(megapixels * 1e6 * aspect))
    out_h = int(out_w / aspect)
    shrink = min(1.0, max_side / max(out_w, out_h))
    return int(out_w * shrink), int(out_h * shrink)


def render(
    faces_by_style: dict[str, dict[str, np.ndarray]], seed: int, max_side: int = 1280, clean: bool = False, table: str | None = None,
    turn: float = 0.0, zoom: float = 1.0,
) -> Photo:
    """One photo for `seed`. `clean`: no distractors, lighting or noise (for label tests);
    `table`: one of `TABLES` (None: felt, cloth or wood); `turn`: degrees the hand lies
    turned in the photo, fitted to it turned; `zoom`: times closer than a photo that
    holds the whole hand, so that its rows run off the edges. A style without flowers
    (given alone) shows a hand without them."""
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    hand = random_hand(prng)
    hand = {k: hand[k] for k in ("concealed", "melds", "flowers", "winning_tile")}
    full = [s for s, f in faces_by_style.items() if len(f) == 42]
    faces = faces_by_style[prng.choice(full or list(faces_by_style))]
    if any(c not in faces for c in hand_codes(hand)):
        if full:
            faces = faces_by_style[prng.choice(full)]
        else:
            hand = {**hand, "flowers": ""}
    placed = layout(hand, prng)
    xs, ys = _extent(placed)
    if not clean:
        placed += distractors(prng, (min(xs), min(ys), max(xs), max(ys)))
        xs, ys = _extent(placed)
    out_w, out_h = photo_size(rng, max_side)
    span_x, span_y = _turned_span(max(xs) - min(xs), max(ys) - min(ys), turn)
    fill = rng.uniform(0.55, 0.95) * zoom if not clean else 0.9
    unit = min(fill * out_w / span_x, fill * out_h / span_y)  # output pixels per tile width
    front = FRONT_COLOURS[prng.randrange(len(FRONT_COLOURS))]
    back = BACK_COLOURS[prng.randrange(len(BACK_COLOURS))]
    photo, boxes, masks = _shoot(placed, faces, unit, (out_w, out_h), (front, back), rng, clean, table, turn=turn)
    return Photo(photo, boxes, hand, masks if clean else None)


def _turned_span(span_x: float, span_y: float, turn: float) -> tuple[float, float]:
    """The width and height a span_x x span_y rectangle covers turned by `turn` degrees."""
    c, s = abs(np.cos(np.radians(turn))), abs(np.sin(np.radians(turn)))
    return c * span_x + s * span_y, s * span_x + c * span_y


SCENES = ("lone", "close-up", "standing")
TABLES = ("felt", "cloth", "wood", "white", "glass")


def render_scene(faces_by_style: dict[str, dict[str, np.ndarray]], seed: int, scene: str, table: str | None = None, max_side: int = 1280) -> Photo:
    """A photo players take that the hands' photos never show: `lone`, one tile 10-50 % of
    the photo's height; `close-up`, one to four tiles 10-70 % of its height; `standing`, a
    row of 8 to 17 standing tiles seen from the side; on `table` (one of `TABLES`; None:
    felt, cloth or wood), lit like the others. Its `hand` is no hand: {"tiles": the codes shown}."""
    if scene not in SCENES:
        raise ValueError(f"no scene {scene!r}: one of {', '.join(SCENES)}")
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    faces = faces_by_style[prng.choice(sorted(faces_by_style))]
    codes = sorted(faces)
    out_w, out_h = photo_size(rng, max_side)
    n = {"lone": 1, "close-up": prng.randint(1, 4), "standing": prng.randint(8, 17)}[scene]
    placed, _ = _row([(prng.choice(codes), False) for _ in range(n)], 0.0, 0.0)
    xs, ys = _extent(placed)
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    if scene == "standing":
        unit = rng.uniform(0.8, 1.1) * out_w / span_x  # the turn away shrinks the row
    else:
        height = rng.uniform(0.1, 0.5 if scene == "lone" else 0.7)
        unit = min(height * out_h / span_y, 0.9 * out_w / span_x)
    front = FRONT_COLOURS[prng.randrange(len(FRONT_COLOURS))]
    back = BACK_COLOURS[prng.randrange(len(BACK_COLOURS))]
    photo, boxes, _ = _shoot(placed, faces, unit, (out_w, out_h), (front, back), rng, False, table, standing=scene == "standing")
    return Photo(photo, boxes, {"tiles": [p.code for p in placed]})


def mask_boxes(masks: np.ndarray, n: int) -> list[tuple[int, tuple[float, float, float, float]]]:
    """Each of `n` tiles in an instance mask (tile i drawn as i + 1): the pixels of it
    seen and their box (x1, y1, x2, y2); a tile not seen at all, 0 and an empty box."""
    ys, xs = np.nonzero(masks)
    ids = masks[ys, xs]
    sort = np.argsort(ids, kind="stable")
    ids, ys, xs = ids[sort], ys[sort], xs[sort]
    starts = np.searchsorted(ids, np.arange(1, n + 2))
    out = []
    for a, b in zip(starts[:-1], starts[1:]):
        box = (float(xs[a:b].min()), float(ys[a:b].min()), float(xs[a:b].max() + 1), float(ys[a:b].max() + 1)) if b > a else (0.0, 0.0, 0.0, 0.0)
        out.append((int(b - a), box))
    return out


def _shoot(
    placed: list[Placed],
    faces: dict[str, np.ndarray],
    unit: float,
    size: tuple[int, int],
    colours: tuple[tuple, tuple],
    rng: np.random.Generator,
    clean: bool,
    table: str | None = None,
    standing: bool = False,
    turn: float = 0.0,
) -> tuple[np.ndarray, list[tuple[int, float, float, float, float]], np.ndarray]:
    """The tiles `placed` drawn on their plane at `unit` photo pixels per tile width, seen
    by the camera on a table in a photo of `size` (w, h), its boxes and its instance mask
    of faces. A box is a tile's face (or back, face down) as the camera sees it, as the
    real photos are labelled; the thickness hides what lies under it but is no part of it.
    `clean`: flat, grey, unlit; `standing`: the tiles' faces upright, seen from the side;
    `turn`: degrees the camera turns the plane in the photo."""
    out_w, out_h = size
    front, back = colours
    xs, ys = _extent(placed)
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    px = unit * 1.25  # the plane is drawn a little finer than the photo, then warped down
    margin = 0.5
    cw, ch = int((span_x + 2 * margin) * px), int((span_y + 2 * margin) * px)
    ox, oy = (margin - min(xs)) * px, (margin - min(ys)) * px
    plane = np.zeros((ch, cw, 3), np.uint8)  # tiles only; the table is drawn at photo size
    cover = np.zeros((ch, cw), np.uint8)
    ids = np.zeros((ch, cw), np.int32)
    order = sorted(placed, key=lambda p: p.y)
    for n, p in enumerate(order):
        img, alpha, face_rows = tile_picture(p, faces, px, front, back, standing)
        x, y = int(round(p.x * px + ox)), int(round(p.y * px + oy))
        th, tw = img.shape[:2]
        region = plane[y : y + th, x : x + tw]
        sel = alpha[: region.shape[0], : region.shape[1]] > 0
        region[sel] = img[: region.shape[0], : region.shape[1]][sel]
        cover[y : y + th, x : x + tw][sel] = 255
        marks = np.where(face_rows[: len(sel), None], n + 1, 0)  # the face is tile n + 1; its thickness hides what is under it
        ids[y : y + th, x : x + tw][sel] = np.broadcast_to(marks, sel.shape)[sel]
    centre = ((min(xs) + max(xs)) / 2 * px + ox, (min(ys) + max(ys)) / 2 * px + oy)
    cam = _camera(centre, px, unit, out_w, out_h, rng, clean, side=standing, turn=turn)
    photo = np.full((out_h, out_w, 3), 128, np.uint8) if clean else table_top(out_h, out_w, rng, table)
    if not clean:
        _props(photo, rng)  # under the tiles: phones, chips and a hand lie on the table too
    tiles_img = cv2.warpPerspective(plane, cam, (out_w, out_h), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(cover, cam, (out_w, out_h), flags=cv2.INTER_LINEAR)[..., None].astype(np.float32) / 255.0
    photo = (tiles_img * alpha + photo * (1 - alpha)).astype(np.uint8)
    masks = cv2.warpPerspective(ids, cam, (out_w, out_h), flags=cv2.INTER_NEAREST)
    boxes = []
    for p, (seen, box) in zip(order, mask_boxes(masks, len(order))):
        if seen > 30:  # a tile cut off by the photo's edge down to a sliver is not labelled
            boxes.append((INDEX[p.code], *box))
    if not clean:
        photo = lit(photo, rng)
    return photo, boxes, masks


def hand_codes(hand: dict) -> set[str]:
    out = {code(k) for k in parse_tiles(hand["concealed"])}
    for m in hand["melds"]:
        out |= {code(k) for k in parse_tiles(m.split()[1])}
    return out | {f"{f}f" for f in parse_flowers(hand.get("flowers"))}
