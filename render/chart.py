"""A small line chart of one player's rating, game by game (shown by /politics stats)."""
from __future__ import annotations

from PIL import Image, ImageDraw

from .core import encode_png, font, text_size

WIDTH, HEIGHT = 640, 320
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 70, 24, 56, 48
BG, INK, GRID, LINE = (255, 255, 255), (30, 30, 30), (215, 215, 215), (0, 114, 178)


def rating_chart(points: list[float], title: str) -> bytes:
    """PNG bytes: the rating before the first game (`points[0]`) and after each game since."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(image)
    draw.text((PAD_LEFT, 14), title[:60], font=font(24, bold=True), fill=INK)
    lo, hi = min(points + [0.0]), max(points + [0.0])
    if hi - lo < 1:
        hi, lo = hi + 0.5, lo - 0.5
    x0, y0, x1, y1 = PAD_LEFT, PAD_TOP, WIDTH - PAD_RIGHT, HEIGHT - PAD_BOTTOM
    small = font(18)

    def y_of(v: float) -> float:
        return y1 - (v - lo) / (hi - lo) * (y1 - y0)

    def x_of(i: int) -> float:
        return x0 + (i / max(1, len(points) - 1)) * (x1 - x0) if len(points) > 1 else (x0 + x1) / 2

    for v in (lo, (lo + hi) / 2, hi, 0.0):
        y = y_of(v)
        draw.line([(x0, y), (x1, y)], fill=INK if v == 0.0 else GRID, width=1)
        label = f"{v:.0f}" if abs(v) >= 10 or v == 0 else f"{v:.1f}"
        w, h = text_size(label, small)
        draw.text((x0 - 8 - w, y - h / 2 - 2), label, font=small, fill=INK)
    xy = [(x_of(i), y_of(v)) for i, v in enumerate(points)]
    if len(xy) > 1:
        draw.line(xy, fill=LINE, width=4, joint="curve")
    for x, y in xy[-40:]:
        draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=LINE)
    games = len(points) - 1
    caption = f"from the start, then after each of {games} game{'s' if games != 1 else ''} · now {points[-1]:.1f}"
    draw.text((x0, y1 + 12), caption, font=small, fill=INK)
    return encode_png(image)
