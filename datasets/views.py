"""Photos from where a player sits, for training: solid tiles seen through a pinhole camera.

`scene.py` draws the tiles flat and tilts the whole table at once, so no tile is ever
farther than another. Here every tile is a box in space, one tile wide and 1.33 tall,
its thickness an ivory face layer over a coloured back layer, standing or lying, seen
by a camera low at the table's edge: far tiles shrink, their thickness and backs show
on the camera side, they cast shadows, their glossy faces catch a specular spot. Nearer
tiles are drawn over farther ones, and a tile's box is the pixels of its face (or of its
back, face down) the camera sees, as the real photos are labelled: its sides and
thickness are left out. A face cut to a sliver (by the photo's edge or a nearer tile)
is unlabelled. Faces are never mirrored: a face's width and height axes turn like the
table's own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from scoring.random_hands import random_hand
from scoring.tiles import code, parse_flowers, parse_tiles
from vision.classes import INDEX

from .scene import BACK_COLOURS, FRONT_COLOURS, TILE_H, Photo, hand_codes, mask_boxes, meld_tiles, photo_size, table_top

SLIVER_PX, SLIVER_SHARE = 12, 0.15  # a face showing less (pixels, share of the whole face) is unlabelled

Vec = tuple[float, float, float]


@dataclass(frozen=True)
class Solid:
    """One tile in space: the corner `origin` + a*u + b*v + c*n (a, b, c in 0..1) spans it;
    `u` runs along the face's width, `v` down it, `n` from back to face (its thickness),
    with u x v pointing into the tile, so the face reads as printed. `code` "back": its face
    is hidden (face down, or its back to the camera); "rack": a holder, not a tile."""

    code: str
    origin: Vec
    u: Vec
    v: Vec
    n: Vec
    labelled: bool = True

    def corners(self) -> np.ndarray:
        """The eight corners, (2, 2, 2, 3): [a, b, c] the corner at a, b, c (each 0 or 1)."""
        k = np.array([0.0, 1.0])
        return self.origin + k[:, None, None, None] * self.u + k[None, :, None, None] * self.v + k[None, None, :, None] * self.n

    def centre(self) -> np.ndarray:
        return np.add(self.origin, np.add(np.add(self.u, self.v), self.n) / 2)


def lying(code: str, x: float, y: float, yaw: float = 0.0, thick: float = 0.6, z: float = 0.0) -> Solid:
    """A tile lying on the table centred on (x, y), its top toward +y turned by `yaw`
    (radians, counter-clockwise seen from above); `code` "back": face down."""
    u = np.array([np.cos(yaw), np.sin(yaw), 0.0])
    down = np.array([np.sin(yaw), -np.cos(yaw), 0.0]) * TILE_H  # the face's down: toward the player at yaw 0
    centre = np.array([x, y, z])
    if code == "back":  # face on the table: seen from below its down runs away
        face = centre - u / 2 + down / 2
        return Solid(code, tuple(face + [0, 0, thick]), tuple(u), tuple(-down), (0.0, 0.0, -thick))
    face = centre - u / 2 - down / 2 + [0, 0, thick]
    return Solid(code, tuple(face - [0, 0, thick]), tuple(u), tuple(down), (0.0, 0.0, thick))


def standing(code: str, x: float, y: float, yaw: float = 0.0, thick: float = 0.6) -> Solid:
    """A tile standing on its end centred on (x, y), its face toward -y (the player) turned by
    `yaw`; `code` "back" for one whose back is toward the camera."""
    u = np.array([np.cos(yaw), np.sin(yaw), 0.0])
    n = np.array([np.sin(yaw), -np.cos(yaw), 0.0]) * thick
    origin = np.array([x, y, TILE_H]) - u / 2 - n / 2
    return Solid(code, tuple(origin), tuple(u), (0.0, 0.0, -TILE_H), tuple(n))


# A solid's six sides: corners (a, b, c) in texture order (top left, top right, bottom right,
# bottom left) and what is painted on them; on the four edges the face layer is on top.
SIDES = [
    ([(0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)], "face"),
    ([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)], "back"),
    ([(0, 0, 1), (1, 0, 1), (1, 0, 0), (0, 0, 0)], "layers"),
    ([(0, 1, 1), (1, 1, 1), (1, 1, 0), (0, 1, 0)], "layers"),
    ([(0, 0, 1), (0, 1, 1), (0, 1, 0), (0, 0, 0)], "layers"),
    ([(1, 0, 1), (1, 1, 1), (1, 1, 0), (1, 0, 0)], "layers"),
]


@dataclass(frozen=True)
class Camera:
    """A pinhole camera at `at`, rows of `axes` its right, down and forward, `focal` pixels."""

    at: np.ndarray
    axes: np.ndarray
    focal: float
    centre: tuple[float, float]

    def project(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Photo pixels of world points (N, 3), and their depth in front of the camera."""
        cam = (np.atleast_2d(pts) - self.at) @ self.axes.T
        z = cam[:, 2]
        safe = np.where(z > 1e-6, z, 1e-6)
        return np.stack([self.focal * cam[:, 0] / safe + self.centre[0], self.focal * cam[:, 1] / safe + self.centre[1]], 1), z

    def ray(self, w: int, h: int) -> np.ndarray:
        """The direction of every pixel's ray, (h, w, 3)."""
        xx = ((np.arange(w, dtype=np.float32) + 0.5 - self.centre[0]) / self.focal)[None, :, None]
        yy = ((np.arange(h, dtype=np.float32) + 0.5 - self.centre[1]) / self.focal)[:, None, None]
        axes = self.axes.astype(np.float32)
        return xx * axes[0] + yy * axes[1] + axes[2]


def look_at(target: Vec, distance: float, elevation: float, heading: float, roll: float) -> tuple[np.ndarray, np.ndarray]:
    """Camera position and axes looking at `target` from `distance`, `elevation` radians above
    the table, `heading` turned from +y, `roll` about its view."""
    h = np.array([np.sin(heading), np.cos(heading), 0.0])
    right = np.array([np.cos(heading), -np.sin(heading), 0.0])
    at = np.asarray(target, float) - distance * np.cos(elevation) * h + [0, 0, distance * np.sin(elevation)]
    forward = (np.asarray(target, float) - at) / distance
    down = np.cross(forward, right)
    return at, np.stack([np.cos(roll) * right + np.sin(roll) * down, -np.sin(roll) * right + np.cos(roll) * down, forward])


def _fit(solids: list[Solid], at: np.ndarray, axes: np.ndarray, size: tuple[int, int], fill: float, shift: np.ndarray) -> Camera:
    """The camera at `at` zoomed so that `solids` fill `fill` of the photo, centred (plus `shift`, shares)."""
    pts = np.concatenate([s.corners().reshape(-1, 3) for s in solids])
    unit, _ = Camera(at, axes, 1.0, (0.0, 0.0)).project(pts)
    lo, hi = unit.min(0), unit.max(0)
    w, h = size
    focal = fill * min(w / max(hi[0] - lo[0], 1e-6), h / max(hi[1] - lo[1], 1e-6))
    centre = np.array([w / 2, h / 2]) - focal * (lo + hi) / 2 + shift * [w, h]
    return Camera(at, axes, focal, (float(centre[0]), float(centre[1])))


def face_texture(face: np.ndarray | None, front: tuple) -> np.ndarray:
    """The printed face on the ivory layer, a slightly darker rim round it; `face` None: blank."""
    tex = np.empty((160, 120, 3), np.float32)
    tex[:] = front
    if face is not None:
        face = cv2.resize(face, (120, 160), interpolation=cv2.INTER_AREA).astype(np.float32)
        a = face[:, :, 3:4] / 255.0
        tex = face[:, :, :3] * a + tex * (1 - a)
    tex[:4] *= 0.9
    tex[-4:] *= 0.9
    tex[:, :4] *= 0.9
    tex[:, -4:] *= 0.9
    return tex.astype(np.uint8)


def _layers(front: tuple, back: tuple, share: float) -> np.ndarray:
    """A side of the body: the ivory face layer (`share` of the thickness) over the back layer."""
    tex = np.empty((64, 64, 3), np.uint8)
    cut = max(1, min(63, round(64 * share)))
    tex[:cut], tex[cut:] = front, back
    return tex


def _quad(photo: np.ndarray, ids: np.ndarray, gloss: np.ndarray, tex: np.ndarray, pts: np.ndarray, tid: int, shade: float, glossy: bool) -> None:
    """`tex` warped onto the photo's quadrilateral `pts` (4, 2), its pixels given id `tid`."""
    h, w = ids.shape
    x0, y0 = np.floor(pts.min(0)).astype(int)
    x1, y1 = np.ceil(pts.max(0)).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0 or cv2.contourArea(pts.astype(np.float32)) < 0.5:
        return
    th, tw = tex.shape[:2]
    dst = (pts - [x0, y0]).astype(np.float32)
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [tw, 0], [tw, th], [0, th]]), dst)
    warped = cv2.warpPerspective(tex, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(dst * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    sel = mask > 0
    photo[y0:y1, x0:x1][sel] = np.clip(warped[sel] * shade, 0, 255).astype(np.uint8)
    ids[y0:y1, x0:x1][sel] = tid
    gloss[y0:y1, x0:x1][sel] = glossy


@dataclass(frozen=True)
class Look:
    """How one photo's tiles look: face and back colours, the face layer's share of the
    thickness, the light's direction (toward it) and how much the sides darken."""

    front: tuple
    back: tuple
    share: float
    light: np.ndarray
    ambient: float


def draw(
    solids: list[Solid], faces: dict[str, np.ndarray], cam: Camera, photo: np.ndarray, look: Look
) -> tuple[list[tuple[int, float, float, float, float]], np.ndarray, np.ndarray]:
    """Draw `solids` far to near on `photo` (in place); their boxes (class, x1, y1, x2, y2),
    the mask of glossy faces (which catch glare) and each solid's visible face or back
    (index + 1). A side or edge is drawn as minus its solid's number: it hides what lies
    behind it but is no part of the box."""
    h, w = photo.shape[:2]
    ids = np.zeros((h, w), np.int32)
    gloss = np.zeros((h, w), bool)
    textures: dict[str, np.ndarray] = {}
    layers = _layers(look.front, look.back, look.share)
    plain_back = np.full((8, 8, 3), look.back, np.uint8)
    far_first = sorted(range(len(solids)), key=lambda i: -float(np.linalg.norm(solids[i].centre() - cam.at)))
    broad: dict[int, float] = {}  # the area of each solid's face or back seen whole
    for i in far_first:
        s = solids[i]
        cube, middle = s.corners(), s.centre()
        if (cam.project(cube.reshape(-1, 3))[1] < 0.3).any():  # a corner behind or at the lens
            continue
        for abc, paint in SIDES:
            pts3 = cube[tuple(np.array(abc).T)]
            normal = np.cross(pts3[1] - pts3[0], pts3[3] - pts3[0])
            normal /= np.linalg.norm(normal)
            inward = middle - pts3.mean(0)
            if normal @ inward > 0:
                normal = -normal
            if normal @ (cam.at - pts3.mean(0)) <= 0:
                continue
            if s.code == "rack":
                tex = plain_back
            elif paint == "face":
                key = "" if s.code == "back" else s.code  # "": the blank face of a tile face down
                if key not in textures:
                    textures[key] = face_texture(faces.get(s.code) if key else None, look.front)
                tex = textures[key]
            else:
                tex = plain_back if paint == "back" else layers
            shade = look.ambient + (1 - look.ambient) * max(0.0, float(normal @ look.light))
            quad = cam.project(pts3)[0]
            is_broad = paint in ("face", "back")  # of two opposite sides, the camera sees one at most
            if is_broad:
                broad[i] = abs(cv2.contourArea(quad.astype(np.float32)))
            _quad(photo, ids, gloss, tex, quad, i + 1 if is_broad else -(i + 1), shade, paint == "face" or (paint == "back" and s.code == "back"))
    faces_seen = np.maximum(ids, 0)
    boxes = []
    for i, (s, (seen, box)) in enumerate(zip(solids, mask_boxes(faces_seen, len(solids)))):
        if s.labelled and seen > SLIVER_PX and seen >= SLIVER_SHARE * broad.get(i, np.inf):
            boxes.append((INDEX[s.code], *box))
    return boxes, gloss, faces_seen


def shadows(solids: list[Solid], light: np.ndarray, shape: tuple[int, int], to_px: tuple[np.ndarray, np.ndarray], soft: float) -> np.ndarray:
    """Where the tiles' shadows fall on the table texture of `shape` (0..1): each corner cast
    along the light onto the table, `to_px` (scale, offset) taking table x, y to its pixels."""
    mask = np.zeros(shape, np.float32)
    for s in solids:
        pts = s.corners().reshape(-1, 3)
        cast = pts[:, :2] - pts[:, 2:3] / light[2] * light[:2]
        tex = cast * to_px[0] + to_px[1]
        cv2.fillConvexPoly(mask, cv2.convexHull(np.round(tex * 16).astype(np.int32)), 1.0, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(mask, (0, 0), soft) if soft > 0 else mask


def table_photo(
    cam: Camera, size: tuple[int, int], rng: np.random.Generator, table: str | None, solids: list[Solid], light: np.ndarray, clean: bool, near: float
) -> np.ndarray:
    """The table seen by `cam` (x = 0 its middle, y = `near` its near edge, its far edge 30 to
    40 tile widths beyond y = 0), the room past it, the tiles' shadows on it; clean: grey
    everywhere, no shadows."""
    w, h = size
    if clean:
        return np.full((h, w, 3), 128, np.uint8)
    far, res = rng.uniform(30, 40), 16  # tile widths; texture pixels a tile width
    side = far - near
    texture = table_top(int(side * res), int(side * res), rng, table).astype(np.float32)
    to_px = (np.array([res, -res]), np.array([side * res / 2, far * res]))  # table x, y -> texture column, row (far side on top)
    for _ in range(rng.integers(0, 4)):  # chips and a phone lying on it
        centre = (int(rng.uniform(0, side * res)), int(rng.uniform(0, side * res / 2)))
        if rng.random() < 0.7:
            cv2.circle(texture, centre, int(res * rng.uniform(0.6, 1.2)), tuple(float(v) for v in rng.integers(0, 255, 3)), -1)
        else:
            cv2.rectangle(texture, centre, (centre[0] + 3 * res, centre[1] + 6 * res), (25, 22, 20), -1)
    shade = shadows(solids, light, texture.shape[:2], to_px, rng.uniform(0.5, 3) * res / 8)
    texture *= (1 - shade * rng.uniform(0.3, 0.6))[..., None]
    ray = cam.ray(w, h)
    down = ray[..., 2] < -1e-6
    t = np.where(down, -cam.at[2] / np.where(down, ray[..., 2], -1), 0)
    hit = cam.at[:2] + ray[..., :2] * t[..., None]
    map_x = (hit[..., 0] * to_px[0][0] + to_px[1][0]).astype(np.float32)
    map_y = (hit[..., 1] * to_px[0][1] + to_px[1][1]).astype(np.float32)
    on = down & (map_x >= 0) & (map_x < side * res - 1) & (map_y >= 0) & (map_y < side * res - 1)
    map_x[~on], map_y[~on] = -1, -1
    photo = cv2.remap(texture, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    room = np.linspace(rng.uniform(20, 90), rng.uniform(60, 200), h, dtype=np.float32)[:, None, None] * rng.uniform(0.6, 1.0, 3).astype(np.float32)
    photo = np.where(on[..., None], photo, np.broadcast_to(room, (h, w, 3)))
    return np.clip(photo, 0, 255).astype(np.uint8)


def phone(img: np.ndarray, gloss: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`img` as a phone saves it: tinted, unevenly lit, a specular spot across the glossy
    faces, defocus or shake, sensor noise (brighter pixels noisier, colour blotches),
    sharpened, and often a low-quality JPEG."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    tint = np.array([rng.uniform(0.8, 1.1), 1.0, rng.uniform(0.85, 1.15)], np.float32)
    gx = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.9, 1.25), w, dtype=np.float32)
    gy = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.9, 1.2), h, dtype=np.float32)
    out *= (gy[:, None] * gx[None, :])[..., None] * tint
    for _ in range(rng.integers(0, 3)):  # a specular spot, long across the faces the light catches
        yy, xx = np.mgrid[: h // 4 + 1, : w // 4 + 1].astype(np.float32)
        cx, cy, angle = rng.uniform(0, w / 4), rng.uniform(0, h / 4), rng.uniform(0, np.pi)
        rx, ry = rng.uniform(0.05, 0.3) * w / 4, rng.uniform(0.01, 0.06) * w / 4
        along, across = (xx - cx) * np.cos(angle) + (yy - cy) * np.sin(angle), -(xx - cx) * np.sin(angle) + (yy - cy) * np.cos(angle)
        spot = cv2.resize(np.exp(-(along**2) / (2 * rx * rx) - across**2 / (2 * ry * ry)), (w, h))
        shine = cv2.GaussianBlur(gloss.astype(np.float32), (3, 3), 0) * spot * rng.uniform(0.5, 1.0)
        out += (255 - out) * shine[..., None]
    kind = rng.choice(["sharp", "defocus", "shake"], p=[0.45, 0.3, 0.25])
    if kind == "defocus":
        r = int(rng.integers(1, 5))
        disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)).astype(np.float32)
        out = cv2.filter2D(out, -1, disk / disk.sum())
    elif kind == "shake":
        k = int(rng.integers(3, 13))
        line = np.zeros((k, k), np.float32)
        line[k // 2] = 1.0 / k
        out = cv2.filter2D(out, -1, cv2.warpAffine(line, cv2.getRotationMatrix2D((k / 2, k / 2), rng.uniform(0, 180), 1), (k, k)))
    shot = np.sqrt(np.clip(out, 0, 255)) * rng.uniform(0.1, 0.6)
    out += rng.normal(0, 1, out.shape).astype(np.float32) * (shot + rng.uniform(0.5, 3))
    blotch = cv2.resize(rng.normal(0, rng.uniform(0, 6), (h // 8 + 1, w // 8 + 1, 3)).astype(np.float32), (w, h))
    out += blotch - blotch.mean(2, keepdims=True)  # colour noise, no change of brightness
    if rng.random() < 0.5:  # the phone's sharpening
        out += (out - cv2.GaussianBlur(out, (0, 0), 1.5)) * rng.uniform(0.3, 1.0)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        _, jpg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(8, 40))])
        out = cv2.imdecode(jpg, cv2.IMREAD_COLOR)
    return out


def _look(prng: random.Random, rng: np.random.Generator) -> Look:
    elevation, azimuth = rng.uniform(0.6, 1.3), rng.uniform(0, 2 * np.pi)
    light = np.array([np.cos(elevation) * np.cos(azimuth), np.cos(elevation) * np.sin(azimuth), np.sin(elevation)])
    return Look(FRONT_COLOURS[prng.randrange(len(FRONT_COLOURS))], BACK_COLOURS[prng.randrange(len(BACK_COLOURS))], rng.uniform(0.45, 0.75), light, rng.uniform(0.55, 0.8))


def _style(faces_by_style: dict[str, dict[str, np.ndarray]], prng: random.Random, needs: set[str]) -> dict[str, np.ndarray]:
    """A style holding every code in `needs` where one does (the styles without flowers lack some)."""
    fit = [s for s in sorted(faces_by_style) if needs <= set(faces_by_style[s])]
    return faces_by_style[prng.choice(fit or sorted(faces_by_style))]


def hand_solids(hand: dict, prng: random.Random, thick: float, upright: bool) -> tuple[list[Solid], list[Solid]]:
    """The winner's tiles before the camera: the concealed row (standing toward the player,
    or laid down face up), the winning tile apart, melds face up beyond the row, flowers at
    the end of the melds; and the low rack the row may stand behind (unlabelled, in the back colour)."""
    kinds = list(parse_tiles(hand["concealed"]))
    kinds.remove(parse_tiles(hand["winning_tile"])[0])
    row = [code(k) for k in sorted(kinds)] + [None, code(parse_tiles(hand["winning_tile"])[0])]
    width = len(row) - 1 + prng.uniform(0.5, 1.0) + 0.02 * len(row)
    x, y = -width / 2, prng.uniform(1.0, 2.0)
    out, rack = [], []
    for c in row:
        if c is None:
            x += prng.uniform(0.5, 1.0) - 1.02
        else:
            out.append(standing(c, x + 0.5, y + thick / 2, 0.0, thick) if upright else lying(c, x + 0.5, y + TILE_H / 2, 0.0, thick))
        x += 1.02
    if upright and prng.random() < 0.3:  # a low rack in front of the row (drawn unless clean)
        rack = [Solid("rack", (-width / 2 - 0.3, y - 0.5, 0.4), (width + 0.6, 0.0, 0.0), (0.0, 0.0, -0.4), (0.0, 0.4, 0.0), labelled=False)]
    my = y + (thick if upright else TILE_H) + prng.uniform(0.9, 1.6)
    x = -width / 2 + prng.uniform(0, 1.5)
    items = [meld_tiles(m, prng) for m in hand["melds"]] + [[(f"{f}f", False) for f in parse_flowers(hand.get("flowers"))]]
    for meld in items:
        for c, turned in meld:
            w = TILE_H if turned else 1.0
            out.append(lying(c, x + w / 2, my + TILE_H / 2 - (TILE_H - 1.0 if turned else 0) / 2, np.pi / 2 if turned else 0.0, thick))
            x += w + 0.03
        x += prng.uniform(0.4, 0.9)
    return out, rack


def table_solids(prng: random.Random, pool: list[str], near: float, thick: float) -> list[Solid]:
    """The rest of the table beyond the winner's melds: the other three players' standing
    rows (their backs to the camera) with melds before them, a wall, discards in the middle."""
    side = prng.uniform(26, 32)
    out: list[Solid] = []
    far = side - 2.5
    count = prng.randint(10, 17)
    for i in range(count):
        out.append(standing("back", (i - (count - 1) / 2) * 1.02, far, np.pi, thick))
    for sign in (-1, 1):
        x = sign * (side / 2 - 2.5)
        for i in range(prng.randint(8, 17)):
            out.append(standing("back", x, near + 6 + i * 1.02, sign * np.pi / 2, thick))
    for i in range(prng.randint(0, 8)):
        out.append(lying(prng.choice(pool), -6 + i * 1.03, far - 2.5, np.pi, thick))
    if prng.random() < 0.5:  # a wall, two high
        y = far - 5
        for i in range(prng.randint(6, 15)):
            out += [lying("back", -7 + i * 1.02, y, 0.0, thick), lying("back", -7 + i * 1.02, y, 0.0, thick, z=thick)]
    cols, rows = int(12 / 1.1), int(max(0.0, far - 6 - near - 3) / 1.5)
    for r in range(rows):
        for c in range(cols):
            if prng.random() < 0.35:
                out.append(lying(prng.choice(pool), -6 + c * 1.1, near + 3 + r * 1.5, prng.uniform(-0.2, 0.2) + prng.choice([0, 0, 0, np.pi / 2]), thick))
    return out


def seated(faces_by_style: dict[str, dict[str, np.ndarray]], seed: int, max_side: int = 1280, clean: bool = False, table: str | None = None) -> Photo:
    """A seated player's photo of their winning hand: the row standing (or laid down) in
    front of them, melds and flowers face up beyond it; past them (unless `clean`) the
    other players' rows, a wall and the discards, far off and small. `clean`: a grey table,
    no other tiles, no light or noise (for label tests); its `masks` are then given."""
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    hand = random_hand(prng)
    hand = {k: hand[k] for k in ("concealed", "melds", "flowers", "winning_tile")}
    faces = _style(faces_by_style, prng, hand_codes(hand))
    if not hand_codes(hand) <= set(faces):
        hand = {**hand, "flowers": ""}
    thick = rng.uniform(0.55, 0.8)
    mine, rack = hand_solids(hand, prng, thick, upright=prng.random() < 0.55)
    near = max(float(s.corners()[..., 1].max()) for s in mine)
    pool = sorted(c for c in faces if not c.endswith("f"))
    others = [] if clean else table_solids(prng, pool, near, thick)
    size = photo_size(rng, max_side)
    span = max(float(np.abs(s.corners()[..., 0]).max()) for s in mine) * 2
    fov = np.radians(rng.uniform(55, 75))
    fill = 0.9 if clean else rng.uniform(0.6, 0.95)
    distance = span / 2 / np.tan(fov * fill / 2)
    target = (rng.uniform(-1, 1), rng.uniform(1.5, near), 0.5)
    at, axes = look_at(target, distance, np.radians(rng.uniform(20, 55)), np.radians(rng.uniform(-12, 12)), np.radians(rng.uniform(-8, 8)) * (not clean))
    shift = np.zeros(2) if clean else rng.uniform(-0.04, 0.04, 2)
    cam = _fit(mine, at, axes, size, fill, shift)
    look = _look(prng, rng)
    solids = mine + others if clean else mine + rack + others
    photo = table_photo(cam, size, rng, table, solids, look.light, clean, near=-rng.uniform(0, 10))
    boxes, gloss, ids = draw(solids, faces, cam, photo, look)
    return Photo(photo if clean else phone(photo, gloss, rng), boxes, hand, ids if clean else None)


def tiles(faces_by_style: dict[str, dict[str, np.ndarray]], seed: int, max_side: int = 1280, clean: bool = False, table: str | None = None) -> Photo:
    """One to four tiles, lying or standing, close: a tile 5-90 % of the photo's height, seen
    from 25 degrees above the table to straight down, now and then cut by the photo's edge.
    Its `hand` is no hand: {"tiles": the codes shown}."""
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    faces = faces_by_style[prng.choice(sorted(faces_by_style))]
    codes = sorted(faces)
    thick = rng.uniform(0.55, 0.8)
    n = prng.choice([1, 1, 1, 2, 3, 4])
    up = prng.random() < 0.4
    solids = []
    for i in range(n):
        c = prng.choice(codes) if prng.random() > 0.1 or up else "back"
        x = i * (1.1 + prng.uniform(0, 0.6))
        solids.append(standing(c, x, 0.0, prng.uniform(-0.3, 0.3), thick) if up else lying(c, x, prng.uniform(-0.3, 0.3), prng.uniform(-0.5, 0.5), thick))
    size = photo_size(rng, max_side)
    share = float(np.exp(rng.uniform(np.log(0.05), np.log(0.9))))  # as many small tiles as large
    fov = np.radians(rng.uniform(45, 65))
    focal = size[1] / 2 / np.tan(fov / 2)
    centre = np.mean([s.centre() for s in solids], 0)
    reach = max(float(np.linalg.norm(s.corners().reshape(-1, 3) - centre, axis=1).max()) for s in solids)
    distance = max(focal * TILE_H / (share * size[1]), reach + 0.6)  # never inside the tiles
    at, axes = look_at(tuple(centre), distance, np.radians(rng.uniform(25, 89.5)), rng.uniform(-np.pi / 4, np.pi / 4), np.radians(rng.uniform(-15, 15)))
    jitter = np.zeros(2) if clean else rng.uniform(-0.35, 0.35, 2) * share
    cam = Camera(at, axes, focal, (size[0] / 2 + jitter[0] * size[0], size[1] / 2 + jitter[1] * size[1]))
    look = _look(prng, rng)
    photo = table_photo(cam, size, rng, table, solids, look.light, clean, near=-30.0)
    boxes, gloss, ids = draw(solids, faces, cam, photo, look)
    shown = [s.code for s in solids]
    return Photo(photo if clean else phone(photo, gloss, rng), boxes, {"tiles": shown}, ids if clean else None)

