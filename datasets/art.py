"""Tile artwork in ../shared/art, mapped to our codes: for synthetic photos and for
the app's tile strip (`assets/tiles/`, built from the CC0 samoheen set)."""

from __future__ import annotations

from pathlib import Path

from vision.classes import CLASSES

ART = Path(__file__).resolve().parents[2] / "shared" / "art"
ASSETS = Path(__file__).resolve().parents[1] / "assets" / "tiles"

# samoheen-hongkong (CC0) file order: dragons white green red, winds E S W N,
# characters 1-9, circles 1-9, bamboos 1-9, seasons 1-4, plum orchid chrysanthemum bamboo.
_SAMOHEEN_ORDER = ["5z", "6z", "7z", "1z", "2z", "3z", "4z"] + [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}f" for n in range(1, 9)]


def samoheen(code: str) -> Path:
    n = _SAMOHEEN_ORDER.index(code) + 1
    found = sorted((ART / "samoheen-hongkong" / "png").glob(f"{n:02d}-*.png"))
    if not found:
        raise FileNotFoundError(f"no samoheen art for {code} under {ART}: ../shared/art must lie beside the checkout")
    return found[0]


def build_strip_assets(height: int = 84) -> list[Path]:
    """Small PNGs of every class for the app's tile strip; `back` is a plain green back."""
    from PIL import Image, ImageDraw

    ASSETS.mkdir(parents=True, exist_ok=True)
    made = []
    width = round(height * 300 / 420)
    for code in CLASSES:
        back = code == "back"
        img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        fill, edge = ((46, 125, 72), (20, 60, 30)) if back else ((250, 246, 232), (150, 140, 120))
        ImageDraw.Draw(img).rounded_rectangle((0, 0, width - 1, height - 1), radius=8, fill=fill, outline=edge, width=2)
        if not back:
            face = Image.open(samoheen(code)).convert("RGBA").resize((width - 8, height - 8), Image.LANCZOS)
            img.alpha_composite(face, (4, 4))
        out = ASSETS / f"{code}.png"
        img.save(out, optimize=True)
        made.append(out)
    (ASSETS / "README.md").write_text(
        "Tile faces for the app's tile strip, downscaled from samoheen/mahjong-tiles (Hong Kong set), "
        "CC0 public domain. Built by `datasets/art.py` (`build_strip_assets`).\n"
    )
    return made


if __name__ == "__main__":
    print(len(build_strip_assets()), "tile images in", ASSETS)
