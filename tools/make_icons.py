"""Draw the site's icons (the installable web app's and the pages' favicon) into
src/gouji/web/icons/: two cards fanned on the table's felt, a blue back (team A) behind a
white heart (team B's red), in the colours of web/css/style.css; the "your turn" favicon adds
a gold mark. One geometry, written as SVG and rasterised with Pillow (drawn 4x, then scaled
down), so that every icon is the same picture. No font is used: the shapes are polygons.

    .venv/bin/python tools/make_icons.py

The PNGs and SVGs are committed (the server needs nothing at run time); run this again only
to change the picture. Pillow comes with matplotlib (the arena extra of `make test`'s .venv).
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "src" / "gouji" / "web" / "icons"
UNIT = 512  # the geometry's square

# web/css/style.css
FELT = "#17583f"
WOOD = "#5b3a1f"  # the felt's border
TEAM_A = "#2f6fdf"
TEAM_B = "#d8452f"
GOLD = "#e0b43a"
DARK = "#0a2a1f"  # the top bar (the manifest's theme colour)
WHITE = "#fbfaf5"  # a seat's card colour

Point = tuple[float, float]
Shape = tuple[str, list[Point]]  # fill colour, polygon


def _rounded_rect(cx: float, cy: float, w: float, h: float, r: float, deg: float) -> list[Point]:
    """A rounded rectangle centred on (cx, cy), turned ``deg`` degrees clockwise."""
    pts: list[Point] = []
    corners = ((w / 2 - r, -h / 2 + r, -90), (w / 2 - r, h / 2 - r, 0))
    corners += ((-w / 2 + r, h / 2 - r, 90), (-w / 2 + r, -h / 2 + r, 180))
    for x0, y0, start in corners:
        for k in range(9):
            a = math.radians(start + 90 * k / 8)
            pts.append((x0 + r * math.cos(a), y0 + r * math.sin(a)))
    return _turn(pts, cx, cy, deg)


def _turn(pts: list[Point], cx: float, cy: float, deg: float) -> list[Point]:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in pts]


def _heart(cx: float, cy: float, size: float, deg: float) -> list[Point]:
    """The classic heart curve, ``size`` wide, its middle at (cx, cy)."""
    pts: list[Point] = []
    for k in range(120):
        t = 2 * math.pi * k / 120
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        pts.append((x * size / 32, (y + 2) * size / 32))
    return _turn(pts, cx, cy, deg)


def _circle(cx: float, cy: float, r: float) -> list[Point]:
    return [
        (cx + r * math.cos(2 * math.pi * k / 72), cy + r * math.sin(2 * math.pi * k / 72))
        for k in range(72)
    ]


def _scaled(shapes: list[Shape], f: float) -> list[Shape]:
    """The shapes scaled by ``f`` about the square's centre."""
    m = UNIT / 2
    return [(c, [(m + (x - m) * f, m + (y - m) * f) for x, y in pts]) for c, pts in shapes]


def cards() -> list[Shape]:
    """The two fanned cards."""
    back = (200, 300, 36, 280, -13.0)  # cx, cy, width, height … and the turn
    front = (310, 282, 36, 280, 11.0)
    bx, by, r, h, bdeg = back
    fx, fy, _, _, fdeg = front
    w = 200
    return [
        ("#00000055", _rounded_rect(bx + 8, by + 10, w, h, r, bdeg)),  # shadows
        (WHITE, _rounded_rect(bx, by, w, h, r, bdeg)),
        (TEAM_A, _rounded_rect(bx, by, w - 34, h - 34, r - 12, bdeg)),
        ("#5d8ff0", _rounded_rect(bx, by, w - 74, h - 74, r - 20, bdeg)),
        (TEAM_A, _rounded_rect(bx, by, w - 90, h - 90, r - 24, bdeg)),
        ("#00000055", _rounded_rect(fx + 8, fy + 10, w, h, r, fdeg)),
        (WHITE, _rounded_rect(fx, fy, w, h, r, fdeg)),
        (TEAM_B, _heart(fx, fy, 120, fdeg)),
    ]


def table(full_bleed: bool) -> list[Shape]:
    """The felt: a rounded square in its wooden rim, or (maskable) the whole square."""
    if full_bleed:
        return [(FELT, [(0, 0), (UNIT, 0), (UNIT, UNIT), (0, UNIT)])]
    return [
        (WOOD, _rounded_rect(256, 256, 512, 512, 100, 0)),
        (FELT, _rounded_rect(256, 256, 476, 476, 84, 0)),
    ]


def turn_mark() -> list[Shape]:
    """The "your turn" mark: a gold disc with a dark rim, top right."""
    return [(DARK, _circle(414, 98, 92)), (GOLD, _circle(414, 98, 70))]


def svg(shapes: list[Shape]) -> str:
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {UNIT} {UNIT}">',
    ]
    for colour, pts in shapes:
        fill, opacity = colour[:7], ""
        if len(colour) == 9:
            opacity = f' fill-opacity="{int(colour[7:], 16) / 255:.2f}"'
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(f'<polygon fill="{fill}"{opacity} points="{points}"/>')
    out.append("</svg>\n")
    return "\n".join(out)


def png(shapes: list[Shape], size: int) -> Image.Image:
    big = size * 4
    f = big / UNIT
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    for colour, pts in shapes:
        layer = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        ImageDraw.Draw(layer).polygon([(x * f, y * f) for x, y in pts], fill=colour)
        image = Image.alpha_composite(image, layer)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    icon = table(False) + cards()
    maskable = table(True) + _scaled(cards(), 0.78)  # inside the safe circle (40 % radius)
    (OUT / "icon.svg").write_text(svg(icon), encoding="utf-8")
    (OUT / "icon-turn.svg").write_text(svg(icon + turn_mark()), encoding="utf-8")
    for size in (192, 512):
        png(icon, size).save(OUT / f"icon-{size}.png", optimize=True)
        png(maskable, size).convert("RGB").save(OUT / f"maskable-{size}.png", optimize=True)
    print(f"icons written to {OUT}")


if __name__ == "__main__":
    main()
