"""Shared drawing helpers for every game's renderer.

- fonts: DejaVu shipped in render/fonts (`font(size, bold, condensed)`);
- colours: a colour-blind-safe player palette (Okabe–Ito) where each player
  also has a letter, a shape and a hatch, so colour is never the only cue;
- text: labels with a halo, wrapping, a side panel of player rows;
- the U.S. map (`USMap`): projected state outlines from render/data/us_states.json
  (built by tools/make_geometry.py), a cached base image per (width, style),
  per-state fills and hatches, and callout boxes for the small north-eastern
  states;
- `encode_png`.

Coordinates: the geometry file uses "canvas units" (the lower 48 are 1000 units
wide); a USMap turns them into pixels with `px = unit * scale + offset`.
"""
from __future__ import annotations

import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
FONT_DIR = HERE / "fonts"
GEOMETRY_PATH = HERE / "data" / "us_states.json"

Color = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Point = tuple[float, float]
Box = tuple[int, int, int, int]

# ---------------------------------------------------------------- fonts

_FONT_FILES = {
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (True, True): "DejaVuSansCondensed-Bold.ttf",
    (False, True): "DejaVuSansCondensed-Bold.ttf",  # the only condensed face we ship
}


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """A DejaVu Sans face from render/fonts; loading a TTF is slow, so cache it."""
    return ImageFont.truetype(str(FONT_DIR / _FONT_FILES[(bold, condensed)]), int(size))


def text_size(text: str, fnt: ImageFont.FreeTypeFont) -> tuple[int, int]:
    left, top, right, bottom = map(int, fnt.getbbox(text))  # whole pixels for a TrueType face
    return right - left, bottom - top


# ---------------------------------------------------------------- colours

def hex_rgb(value: str) -> Color:
    value = value.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def mix(a: Color, b: Color, t: float) -> Color:
    """Blend a toward b by t (0 = a, 1 = b)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def luminance(c: Color) -> float:
    """WCAG relative luminance."""
    def channel(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: Color, b: Color) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


WHITE: Color = (255, 255, 255)
INK: Color = (34, 34, 38)          # body text: ~15:1 on PAPER
INK_MUTED: Color = (92, 92, 98)    # secondary text: > 6:1 on PAPER
PAPER: Color = (250, 250, 247)     # image background / ocean
PANEL: Color = (238, 238, 233)     # side panels, highlighted rows
LAND: Color = (212, 212, 206)      # a state nobody holds
LAND_DIM: Color = (232, 232, 228)  # a state out of play
BORDER: Color = WHITE              # state borders read well over any fill
LEADER: Color = (70, 70, 76)       # callout leader lines and box outlines
FRAME: Color = (180, 180, 174)     # the light boxes around the Alaska and Hawaii insets


def text_color_on(bg: Color) -> Color:
    """INK or white, whichever contrasts more with bg."""
    return INK if contrast_ratio(INK, bg) >= contrast_ratio(WHITE, bg) else WHITE


# ---------------------------------------------------------------- players

SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "triangle_down", "pentagon", "star")
HATCHES = ("diagonal", "back", "horizontal", "cross", "vertical", "dots", "diagonal_wide", "grid")


@dataclass(frozen=True)
class PlayerStyle:
    index: int
    color: Color   # marker and fill colour
    name: str      # colour name, for text ("blue")
    letter: str    # second cue: A, B, C ...
    shape: str     # third cue: see SHAPES
    hatch: str     # pattern for fills that must not rely on colour
    light: Color   # a tint for "leaning" / partial fills
    text: Color    # readable text colour on `color`


# Okabe & Ito (2008), "Color Universal Design": distinguishable under the common
# colour-vision deficiencies. Ordered so 2-player games get blue vs vermillion;
# black comes last because it hides labels when used as a fill.
_OKABE_ITO = (
    ("#0072B2", "blue"), ("#D55E00", "vermillion"), ("#009E73", "green"),
    ("#E69F00", "orange"), ("#CC79A7", "pink"), ("#56B4E9", "sky blue"),
    ("#F0E442", "yellow"), ("#000000", "black"),
)

PLAYERS: tuple[PlayerStyle, ...] = tuple(
    PlayerStyle(
        index=i, color=hex_rgb(h), name=n, letter="ABCDEFGH"[i], shape=SHAPES[i], hatch=HATCHES[i],
        light=mix(hex_rgb(h), WHITE, 0.6), text=text_color_on(hex_rgb(h)),
    )
    for i, (h, n) in enumerate(_OKABE_ITO)
)


def player(index: int) -> PlayerStyle:
    """Style of seat `index` (0-based); wraps after 8, which no game reaches."""
    return PLAYERS[index % len(PLAYERS)]


def shape_points(shape: str, center: Point, size: float) -> list[Point]:
    """Vertices of a polygonal marker of overall size `size` (px) at center."""
    cx, cy = center
    r = size / 2

    def regular(n: int, start_deg: float, radius: float = r) -> list[Point]:
        return [(cx + radius * math.cos(math.radians(start_deg + 360 * k / n)),
                 cy + radius * math.sin(math.radians(start_deg + 360 * k / n))) for k in range(n)]

    if shape == "square":
        s = r * 0.86  # same visual weight as the circle
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "triangle":
        return [(x, y + r * 0.2) for x, y in regular(3, -90, r * 1.22)]
    if shape == "triangle_down":
        return [(x, y - r * 0.2) for x, y in regular(3, 90, r * 1.22)]
    if shape == "diamond":
        return regular(4, -90, r * 1.08)
    if shape == "pentagon":
        return regular(5, -90, r * 1.02)
    if shape == "hexagon":
        return regular(6, 0, r * 1.0)
    if shape == "star":
        outer, inner = regular(5, -90, r * 1.12), regular(5, -54, r * 0.6)
        return [p for pair in zip(outer, inner) for p in pair]
    raise ValueError(f"unknown shape {shape!r}")


def draw_shape(draw: ImageDraw.ImageDraw, shape: str, center: Point, size: float,
               fill: Color | RGBA, outline: Color | RGBA | None = None, width: int = 2) -> None:
    if shape == "circle":
        r = size / 2
        draw.ellipse((center[0] - r, center[1] - r, center[0] + r, center[1] + r),
                     fill=fill, outline=outline, width=width)
    else:
        draw.polygon(shape_points(shape, center, size), fill=fill, outline=outline, width=width)


def draw_marker(image: Image.Image, center: Point, who: int | PlayerStyle, size: float = 30,
                label: str | None = None) -> None:
    """A player's token: their shape in their colour with their letter inside.

    `label` replaces the letter (e.g. a count); size is the marker's width in px.
    """
    style = who if isinstance(who, PlayerStyle) else player(who)
    sprite = marker_sprite(style.index, round(size), style.letter if label is None else label)
    w, h = sprite.size
    image.paste(sprite, (round(center[0] - w / 2), round(center[1] - h / 2)), sprite)


@lru_cache(maxsize=512)
def marker_sprite(index: int, size: int, text: str) -> Image.Image:
    """An anti-aliased RGBA marker (Pillow polygons are not anti-aliased, so the
    shape is drawn 4x larger and shrunk); the text is drawn after, crisp."""
    style = player(index)
    ss = 4
    side = size + 2 * max(2, size // 8)  # room for the outline and pointy shapes
    big = Image.new("RGBA", (side * ss, side * ss), (0, 0, 0, 0))
    draw_shape(ImageDraw.Draw(big), style.shape, (side * ss / 2, side * ss / 2), size * ss,
               style.color + (255,), INK + (255,), max(ss, round(size * ss / 14)))
    sprite = big.resize((side, side), Image.Resampling.LANCZOS)
    # Triangles and stars have their room low (or high): put the text there.
    shift = {"triangle": 0.12, "triangle_down": -0.12, "star": 0.05}.get(style.shape, 0.0) * size
    scale = 0.48 if style.shape in ("triangle", "triangle_down", "star") else 0.56
    fnt = font(max(9, round(size * scale)), bold=True, condensed=len(text) > 1)
    ImageDraw.Draw(sprite).text((side / 2, side / 2 + shift), text, font=fnt, fill=style.text, anchor="mm")
    return sprite


# ---------------------------------------------------------------- text

def draw_text(draw: ImageDraw.ImageDraw, xy: Point, text: str, fnt: ImageFont.FreeTypeFont,
              fill: Color = INK, halo: Color | None = PAPER, halo_width: int | None = None,
              anchor: str = "mm") -> None:
    """Text with an outline ("halo") so it stays legible over borders and fills."""
    if halo is None:
        draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)
        return
    width = halo_width if halo_width is not None else max(2, round(fnt.size / 8))
    draw.text(xy, text, font=fnt, fill=fill, anchor=anchor, stroke_width=width, stroke_fill=halo)


def wrap_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: int) -> list[str]:
    """Greedy word wrap; keeps explicit newlines; breaks words longer than a line."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if fnt.getlength(candidate) <= max_width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while fnt.getlength(word) > max_width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and fnt.getlength(word[:cut]) > max_width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def draw_wrapped(draw: ImageDraw.ImageDraw, box: Box, text: str, fnt: ImageFont.FreeTypeFont,
                 fill: Color = INK, line_spacing: float = 1.25, align: str = "left") -> int:
    """Wrap text into box (x0, y0, x1, y1), dropping lines that do not fit
    (the last shown line gets an ellipsis). Returns the y below the last line."""
    x0, y0, x1, y1 = box
    step = round(fnt.size * line_spacing)
    lines = wrap_text(text, fnt, x1 - x0)
    fits = max(0, (y1 - y0) // step)
    if len(lines) > fits:
        lines = lines[:fits]
        if lines:
            lines[-1] = ellipsize(lines[-1] + "…", fnt, x1 - x0)
    y = y0
    for line in lines:
        if align == "center":
            draw.text(((x0 + x1) / 2, y), line, font=fnt, fill=fill, anchor="ma")
        elif align == "right":
            draw.text((x1, y), line, font=fnt, fill=fill, anchor="ra")
        else:
            draw.text((x0, y), line, font=fnt, fill=fill, anchor="la")
        y += step
    return y


def ellipsize(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """Cut text with '…' so it fits max_width px."""
    if fnt.getlength(text) <= max_width:
        return text
    text = text.rstrip("…")
    while text and fnt.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


@dataclass
class PanelRow:
    """One line of a side panel: a player's marker, name, then value columns."""
    name: str
    values: Sequence[object] = ()
    player: int | None = None  # draws that player's marker; None = no marker
    highlight: bool = False    # e.g. whose turn it is
    muted: bool = False        # e.g. eliminated / passed


def draw_panel(image: Image.Image, box: Box, rows: Sequence[PanelRow],
               title: str | None = None, headers: Sequence[str] = (), size: int = 18,
               column_width: int | None = None) -> int:
    """A table of players: [marker] name ... value columns (right-aligned).

    box is (x0, y0, x1, y1); rows that do not fit are left out. Returns the y
    below the last drawn row, so callers can stack more content under it.
    """
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    pad = round(size * 0.5)
    row_h = round(size * 1.9)
    body, bold = font(size), font(size, bold=True)
    n_cols = max([len(r.values) for r in rows] + [len(headers)] + [0])
    col_w = column_width or round(size * 3.6)
    y = y0
    if title:
        draw.text((x0 + pad, y + pad), title, font=font(round(size * 1.15), bold=True), fill=INK, anchor="la")
        y += round(size * 1.15) + 2 * pad
    if headers:
        for k, head in enumerate(headers):
            cx = x1 - pad - (len(headers) - 1 - k) * col_w
            draw.text((cx, y + size * 0.6), head, font=font(round(size * 0.8), bold=True),
                      fill=INK_MUTED, anchor="rm")
        y += round(size * 1.3)
    name_x = x0 + pad + (round(row_h * 0.8) + pad if any(r.player is not None for r in rows) else 0)
    name_right = x1 - pad - n_cols * col_w - pad
    for row in rows:
        if y + row_h > y1:
            break
        if row.highlight:
            draw.rounded_rectangle((x0, y, x1, y + row_h - 2), radius=round(size * 0.4), fill=PANEL)
        mid = y + (row_h - 2) / 2
        if row.player is not None:
            draw_marker(image, (x0 + pad + row_h * 0.4, mid), row.player, size=row_h * 0.8)
        color = INK_MUTED if row.muted else INK
        draw.text((name_x, mid), ellipsize(row.name, bold if row.highlight else body, name_right - name_x),
                  font=bold if row.highlight else body, fill=color, anchor="lm")
        for k, value in enumerate(row.values):
            cx = x1 - pad - (len(row.values) - 1 - k) * col_w
            draw.text((cx, mid), str(value), font=bold, fill=color, anchor="rm")
        y += row_h
    return y


# ---------------------------------------------------------------- PNG

def encode_png(image: Image.Image, palette: bool = True) -> bytes:
    """PNG bytes. Maps are flat colours plus anti-aliased edges, so a 256-colour
    palette looks the same (flat colours stay within 1/255) at a quarter of the
    RGB size, and quantizing costs less than it saves in compression time.
    Pass palette=False for photos or smooth gradients."""
    if palette and image.mode in ("RGB", "RGBA"):
        image = image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def palette_from(samples: Sequence[Image.Image]) -> Image.Image:
    """A fixed 256-colour palette derived once from sample renders (stacked). Mapping each
    render onto it costs a few ms, where an adaptive quantizer costs about as much as the
    PNG compression itself."""
    width = max(im.size[0] for im in samples)
    sheet = Image.new("RGB", (width, sum(im.size[1] for im in samples)), PAPER)
    y = 0
    for im in samples:
        sheet.paste(im, (0, y))
        y += im.size[1]
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_on_palette(image: Image.Image, palette: Image.Image) -> bytes:
    """PNG bytes on a fixed palette, zlib level 3 (a few KB larger than level 6, at well
    under half the time)."""
    paletted = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    paletted.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def stripe_mask(kind: str, x0: int, y0: int, w: int, h: int, s: int = 10, width: int = 3) -> Image.Image:
    """An L mask of stripes (one of HATCHES) for a w×h box whose top-left is (x0, y0) in map
    coordinates, so the patterns of neighbouring states line up. Cached: do not draw on it."""
    return _pattern(kind, s, width, x0, y0, w, h)


# ---------------------------------------------------------------- geometry

@lru_cache(maxsize=1)
def geometry() -> dict:
    """The parsed render/data/us_states.json (read once per process)."""
    with open(GEOMETRY_PATH, encoding="utf-8") as fh:
        return json.load(fh)


def state_codes() -> tuple[str, ...]:
    """The 50 states and DC, alphabetical by postal code."""
    return tuple(sorted(geometry()["states"]))


def state_name(code: str) -> str:
    return geometry()["states"][code]["name"]


@lru_cache(maxsize=1)
def adjacency() -> dict[str, tuple[str, ...]]:
    """Postal code -> neighbours sharing a land border of positive length."""
    return {code: tuple(n) for code, n in geometry()["adjacency"].items()}


def are_adjacent(a: str, b: str) -> bool:
    return b in adjacency()[a]


def label_point(code: str) -> Point:
    """A good interior point for a state's label, in canvas units."""
    x, y = geometry()["states"][code]["label"]
    return float(x), float(y)


@cache
def _rings(code: str) -> tuple[tuple[Point, ...], ...]:
    flat = geometry()["states"][code]["rings"]
    return tuple(tuple(zip(r[0::2], r[1::2])) for r in flat)


def state_polygon_pixels(code: str, scale: float, offset: Point = (0.0, 0.0)) -> list[list[Point]]:
    """A state's rings (outer rings only: the file has no holes) in pixels."""
    ox, oy = offset
    return [[(x * scale + ox, y * scale + oy) for x, y in ring] for ring in _rings(code)]


# ---------------------------------------------------------------- callouts

# Too small to hold a label or markers at any phone-legible size.
CALLOUT_STATES = ("VT", "NH", "MA", "RI", "CT", "NJ", "DE", "MD", "DC")
_BOX_H, _BOX_W, _BOX_GAP = 24.0, 92.0, 4.0   # canvas units
_COLUMN_GAP = 10.0                           # between the coast and the boxes


@dataclass(frozen=True)
class Callout:
    """A box in the Atlantic standing in for a small state (pixels)."""
    code: str
    box: tuple[float, float, float, float]      # the whole box
    content: tuple[float, float, float, float]  # right part, free for numbers/markers
    code_xy: Point                              # centre of the postal code (left part)
    anchor: Point                               # the point on the state the leader ends at


@lru_cache(maxsize=1)
def _callout_layout() -> tuple[float, dict[str, tuple[float, float, Point]]]:
    """Callout column in canvas units: (column x, {code: (box top, box bottom, anchor)})."""
    anchors = {c: label_point(c) for c in CALLOUT_STATES}
    # Stack the boxes top to bottom in the order the leaders fan out, so they
    # do not cross: sort by where each leader would meet the column if it
    # sloped gently down-right from its state.
    x_guess = 970.0
    order = sorted(CALLOUT_STATES, key=lambda c: anchors[c][1] + 0.45 * (x_guess - anchors[c][0]))
    placed: dict[str, tuple[float, float, Point]] = {}
    y = -math.inf
    for code in order:
        top = max(anchors[code][1] - _BOX_H / 2, y + _BOX_GAP)
        placed[code] = (top, top + _BOX_H, anchors[code])
        y = top + _BOX_H
    # The column starts just right of any land level with it (Maine, Cape Cod).
    top = min(t for t, _, _ in placed.values())
    bottom = max(b for _, b, _ in placed.values())
    column_x = _COLUMN_GAP + max(
        x for code in state_codes() for ring in _rings(code) for x, y in ring if top - 4 <= y <= bottom + 4
    )
    return column_x, placed


# ---------------------------------------------------------------- the map

@dataclass(frozen=True)
class MapStyle:
    background: Color = PAPER
    land: Color = LAND
    border: Color = BORDER
    labels: bool = True           # postal codes on the states
    callouts: bool = True         # boxes for the small north-eastern states
    inset_frames: bool = True     # light boxes around the Alaska and Hawaii insets
    border_width: float = 1.3     # px at scale 1.0 (a 1000-unit-wide map)


DEFAULT_STYLE = MapStyle()
_SUPERSAMPLE = 3  # static line work is drawn 3x larger, then shrunk: smooth edges


@dataclass(frozen=True)
class Hatch:
    color: Color
    kind: str = "diagonal"  # one of HATCHES


class USMap:
    """The U.S. map at one pixel width and style.

    Cheap to construct (the heavy parts are cached per (width, style)); use
    `paint` to get a fresh image with states filled, then draw on it.
    """

    def __init__(self, width: int = 1400, style: MapStyle = DEFAULT_STYLE):
        self.width = int(width)
        self.style = style
        canvas_w, canvas_h = geometry()["meta"]["canvas"]
        layout_w, layout_h = float(canvas_w), float(canvas_h)
        if style.callouts:
            column_x, placed = _callout_layout()
            layout_w = max(layout_w, column_x + _BOX_W + 8)
            layout_h = max(layout_h, max(b for _, b, _ in placed.values()) + 8)
        self.scale = self.width / layout_w
        self.height = math.ceil(layout_h * self.scale)
        # Text sizes follow the map, but never below 16 px (phone legibility).
        self.label_size = max(16, round(13 * self.scale))

    # -- coordinates
    def px(self, point: Point) -> Point:
        """Canvas units -> pixels (the map image's top-left is canvas (0, 0))."""
        return point[0] * self.scale, point[1] * self.scale

    def polygon(self, code: str) -> list[list[Point]]:
        return state_polygon_pixels(code, self.scale)

    def bbox(self, code: str) -> Box:
        x0, y0, x1, y1 = geometry()["states"][code]["bbox"]
        a, b = self.px((x0, y0)), self.px((x1, y1))
        return math.floor(a[0]), math.floor(a[1]), math.ceil(b[0]) + 1, math.ceil(b[1]) + 1

    def label_xy(self, code: str) -> Point:
        return self.px(label_point(code))

    def clearance(self, code: str) -> float:
        """Radius (px) of the largest circle around label_xy inside the state."""
        return geometry()["states"][code]["clearance"] * self.scale

    @property
    def callouts(self) -> dict[str, Callout]:
        return _callouts(self.width, self.style)

    def spot(self, code: str) -> tuple[Point, float]:
        """Where to draw a state's number or markers: (centre, radius px).

        For callout states this is the box's free part, otherwise the label point.
        """
        c = self.callouts.get(code)
        if c:
            x0, y0, x1, y1 = c.content
            return ((x0 + x1) / 2, (y0 + y1) / 2), min(x1 - x0, y1 - y0) / 2
        return self.label_xy(code), self.clearance(code)

    # -- images
    def base(self) -> Image.Image:
        """A fresh copy of the base map (neutral states, borders, labels, callouts)."""
        return _base_layers(self.width, self.style)[0].copy()

    def paint(self, fills: Mapping[str, Color] | None = None,
              hatches: Mapping[str, Hatch] | None = None,
              image: Image.Image | None = None) -> Image.Image:
        """The base map with states filled (and hatched); returns the image.

        Only the listed states are redrawn: fill, hatch, then the cached line
        work over that state's box, then its label.
        """
        img = image if image is not None else self.base()
        _, lines, ink = _base_layers(self.width, self.style)
        draw = ImageDraw.Draw(img)
        fills = dict(fills or {})
        hatches = dict(hatches or {})
        for code in sorted(set(fills) | set(hatches)):
            fill = fills.get(code, self.style.land)
            for ring in self.polygon(code):
                draw.polygon(ring, fill=fill)
            callout = self.callouts.get(code)
            if callout:
                draw.rounded_rectangle(callout.box, radius=self._box_radius(), fill=fill)
            if code in hatches:
                self.hatch(img, code, hatches[code].color, hatches[code].kind)
            # Restore the borders and callout lines that the fill covered.
            boxes = [self.bbox(code)] + ([_int_box(callout.box, 2)] if callout else [])
            for box in boxes:
                box = _clip_box(box, img.size)
                img.paste(self.style.border, box, lines.crop(box))
                img.paste(LEADER, box, ink.crop(box))
            self._draw_label(draw, code, fill)
        return img

    def hatch(self, image: Image.Image, code: str, color: Color, kind: str = "diagonal",
              spacing: int | None = None) -> None:
        """Stripe a state (and its callout box) with a pattern, a second cue to its colour."""
        spacing = spacing or max(6, round(7 * self.scale))
        width = max(2, round(spacing / 3.5))
        areas: list[tuple[Box, list[list[Point]], bool]] = [(self.bbox(code), self.polygon(code), False)]
        callout = self.callouts.get(code)
        if callout:
            areas.append((_int_box(callout.box, 0), [], True))
        for box, rings, is_box in areas:
            box = _clip_box(box, image.size)
            w, h = box[2] - box[0], box[3] - box[1]
            if w <= 0 or h <= 0:
                continue
            mask = Image.new("L", (w, h), 0)
            mdraw = ImageDraw.Draw(mask)
            if is_box:
                bx = callout.box  # type: ignore[union-attr]
                mdraw.rounded_rectangle((bx[0] - box[0], bx[1] - box[1], bx[2] - box[0], bx[3] - box[1]),
                                        radius=self._box_radius(), fill=255)
            for ring in rings:
                mdraw.polygon([(x - box[0], y - box[1]) for x, y in ring], fill=255)
            pattern = _pattern(kind, spacing, width, box[0], box[1], w, h)
            image.paste(color, box, ImageChops.multiply(mask, pattern))

    # -- internals
    def _box_radius(self) -> int:
        return max(3, round(4 * self.scale))

    def _draw_label(self, draw: ImageDraw.ImageDraw, code: str, fill: Color) -> None:
        if not self.style.labels:
            return
        fnt = font(self.label_size, bold=True, condensed=True)
        callout = self.callouts.get(code)
        if callout:
            draw_text(draw, callout.code_xy, code, fnt, fill=text_color_on(fill), halo=fill)
            return
        if self.clearance(code) * 2.6 < text_size(code, fnt)[0]:
            return  # no room (only the callout states, when callouts are off)
        draw_text(draw, self.label_xy(code), code, fnt, fill=text_color_on(fill), halo=fill)


def _int_box(box: Sequence[float], pad: int) -> Box:
    return (math.floor(box[0]) - pad, math.floor(box[1]) - pad,
            math.ceil(box[2]) + pad + 1, math.ceil(box[3]) + pad + 1)


def _clip_box(box: Box, size: tuple[int, int]) -> Box:
    return max(0, box[0]), max(0, box[1]), min(size[0], box[2]), min(size[1], box[3])


@lru_cache(maxsize=64)
def _pattern(kind: str, spacing: int, width: int, x0: int, y0: int, w: int, h: int) -> Image.Image:
    """An 'L' stripe mask for the region at (x0, y0) of size (w, h).

    Stripes are laid out in image coordinates, so neighbouring hatched states
    line up."""
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    s = spacing * (2 if kind == "diagonal_wide" else 1)

    def diagonal(sign: int) -> None:
        # Lines x + sign*y = k*s in image coordinates; in mask coordinates
        # (u, v) that is u + sign*v = d with d = k*s - x0 - sign*y0.
        base = x0 + sign * y0
        lo, hi = (base, base + w + h) if sign > 0 else (base - h, base + w)
        for k in range(math.floor(lo / s) - 1, math.ceil(hi / s) + 2):
            d = k * s - base
            draw.line([(d, 0), (d - sign * h, h)], fill=255, width=width)

    if kind in ("diagonal", "diagonal_wide", "cross"):
        diagonal(+1)
    if kind in ("back", "cross"):
        diagonal(-1)
    if kind in ("horizontal", "grid"):
        for y in range(-(y0 % s), h, s):
            draw.line([(0, y), (w, y)], fill=255, width=width)
    if kind in ("vertical", "grid"):
        for x in range(-(x0 % s), w, s):
            draw.line([(x, 0), (x, h)], fill=255, width=width)
    if kind == "dots":
        r = width * 0.8
        for y in range(-(y0 % s), h + s, s):
            for x in range(-(x0 % s), w + s, s):
                shift = s / 2 if ((y + y0) // s) % 2 else 0
                draw.ellipse((x + shift - r, y - r, x + shift + r, y + r), fill=255)
    if kind not in HATCHES:
        raise ValueError(f"unknown hatch {kind!r}")
    return mask


@lru_cache(maxsize=8)
def _callouts(width: int, style: MapStyle) -> dict[str, Callout]:
    if not style.callouts:
        return {}
    m = USMap(width, style)
    column_x, placed = _callout_layout()
    result = {}
    for code in CALLOUT_STATES:
        top, bottom, anchor = placed[code]
        x0, y0 = m.px((column_x, top))
        x1, y1 = m.px((column_x + _BOX_W, bottom))
        split = x0 + (x1 - x0) * 0.36  # postal code on the left, content on the right
        result[code] = Callout(
            code=code, box=(x0, y0, x1, y1), content=(split, y0, x1 - 3, y1),
            code_xy=((x0 + split) / 2, (y0 + y1) / 2), anchor=m.px(anchor),
        )
    return result


@lru_cache(maxsize=8)
def _base_layers(width: int, style: MapStyle) -> tuple[Image.Image, Image.Image, Image.Image]:
    """(base RGB image, border line mask, callout line mask), cached per width and style.

    The masks let `paint` restore line work over a freshly filled state.
    """
    m = USMap(width, style)
    size = (m.width, m.height)
    ss = _SUPERSAMPLE

    # Land: drawn supersampled so the coast is smooth.
    land = Image.new("L", (size[0] * ss, size[1] * ss), 0)
    ldraw = ImageDraw.Draw(land)
    lines = Image.new("L", land.size, 0)
    bdraw = ImageDraw.Draw(lines)
    border_w = max(1, round(style.border_width * m.scale * ss))
    for code in state_codes():
        for ring in state_polygon_pixels(code, m.scale * ss):
            ldraw.polygon(ring, fill=255)
            bdraw.line(ring + ring[:1], fill=255, width=border_w, joint="curve")

    # Inset frames sit in open water, so no fill ever covers them: they need
    # no restoring and can stay out of the masks that `paint` reuses.
    frames = Image.new("L", land.size, 0)
    if style.inset_frames:
        _draw_inset_frames(ImageDraw.Draw(frames), m, ss)

    ink = Image.new("L", land.size, 0)
    idraw = ImageDraw.Draw(ink)
    line_w = max(1, round(1.1 * m.scale * ss))
    for c in _callouts(width, style).values():
        x0, y0, x1, y1 = (v * ss for v in c.box)
        ax, ay = c.anchor[0] * ss, c.anchor[1] * ss
        idraw.line([(ax, ay), (x0, (y0 + y1) / 2)], fill=255, width=line_w)
        r = 2.2 * m.scale * ss
        idraw.ellipse((ax - r, ay - r, ax + r, ay + r), fill=255)
        idraw.rounded_rectangle((x0, y0, x1, y1), radius=m._box_radius() * ss, outline=255, width=line_w)

    shrink = lambda im: im.resize(size, Image.Resampling.LANCZOS)  # noqa: E731
    land, lines, ink, frames = shrink(land), shrink(lines), shrink(ink), shrink(frames)
    img = Image.new("RGB", size, style.background)
    img.paste(FRAME, (0, 0), frames)
    img.paste(style.land, (0, 0), land)
    draw = ImageDraw.Draw(img)
    for c in _callouts(width, style).values():
        draw.rounded_rectangle(c.box, radius=m._box_radius(), fill=style.land)
    img.paste(style.border, (0, 0), lines)
    img.paste(LEADER, (0, 0), ink)
    for code in state_codes():
        m._draw_label(draw, code, style.land)
    return img, lines, ink


def _draw_inset_frames(draw: ImageDraw.ImageDraw, m: USMap, ss: int) -> None:
    """A light rounded box around the Alaska and Hawaii insets."""
    for x0, y0, x1, y1 in geometry()["meta"]["insets"].values():
        (ax, ay), (bx, by) = m.px((x0 - 5, y0 - 5)), m.px((x1 + 5, y1 + 5))
        draw.rounded_rectangle((ax * ss, ay * ss, bx * ss, by * ss), radius=6 * m.scale * ss,
                               outline=255, width=max(1, round(1.2 * m.scale * ss)))


# ---------------------------------------------------------------- cached text stamps
# Drawing the same label every turn is the slow part of a board; a mask made
# once and pasted is several times faster than ImageDraw.text.

@lru_cache(maxsize=4096)
def text_mask(text: str, size: int, bold: bool, condensed: bool, stroke: int) -> tuple[Image.Image, int, int]:
    """Text rendered once into an L mask; returns (mask, dx, dy) where (dx, dy)
    is the mask's top-left relative to the anchor point 'lm' (left, middle)."""
    fnt = font(size, bold=bold, condensed=condensed)
    left, top, right, bottom = map(int, fnt.getbbox(text, anchor="lm", stroke_width=stroke))  # whole pixels
    w, h = max(1, right - left), max(1, bottom - top)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255, anchor="lm", stroke_width=stroke)
    return mask, left, top


def stamp_text(img: Image.Image, xy: tuple[float, float], text: str, size: int = 18, fill=INK, bold: bool = False,
          anchor: str = "l", condensed: bool = False, halo=None) -> int:
    """Stamp cached text at xy (vertically centred). anchor: l, m or r. Returns the width."""
    if not text:
        return 0
    mask, dx, dy = text_mask(text, size, bold, condensed, 0)
    w = mask.size[0]
    x = xy[0] - (w / 2 if anchor == "m" else w if anchor == "r" else 0)
    if halo is not None:
        sm, sdx, sdy = text_mask(text, size, bold, condensed, max(2, size // 8))
        img.paste(halo, (round(x + sdx - dx), round(xy[1] + sdy)), sm)
    img.paste(fill, (round(x), round(xy[1] + dy)), mask)
    return w
