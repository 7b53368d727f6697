"""Coin Count's board: a pure function from the public view to one PNG, 400 px wide (a phone's
width). Each candidate's row shows their marker (colour, shape and letter: render.core's three
cues), their votes as filled dots, and once the count is over their endorsement; the undecided
voters are the grey dots below."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from PIL import Image, ImageDraw

from render.core import INK, INK_MUTED, PAPER, draw_marker, draw_text, encode_png, font, player

from .game import ENDORSEMENTS, CoinCountView

WIDTH, ROW, DOT, PER_LINE = 400, 64, 14, 20
UNDECIDED = (200, 200, 196)


def _dots(draw: ImageDraw.ImageDraw, x: int, y: int, count: int, fill: tuple[int, int, int]) -> int:
    """`count` dots in lines of PER_LINE from (x, y); the y below the last line."""
    for k in range(count):
        cx, cy = x + (k % PER_LINE) * (DOT + 2), y + (k // PER_LINE) * (DOT + 2)
        draw.ellipse((cx, cy, cx + DOT, cy + DOT), fill=fill)
    return y + max(1, -(-count // PER_LINE)) * (DOT + 2)


def render(view: Mapping[str, Any], previous: Mapping[str, Any] | None = None) -> list[tuple[str, bytes]]:
    v = cast(CoinCountView, view)
    lines_left = max(1, -(-v["undecided"] // PER_LINE))
    height = 44 + ROW * len(v["players"]) + 30 + lines_left * (DOT + 2) + 16
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = "Coin Count — the count is over" if v["finished"] else "Coin Count"
    draw_text(draw, (WIDTH // 2, 22), title, font(20, bold=True), halo=None)
    y = 44
    for seat, p in enumerate(v["players"]):
        style = player(seat)
        draw_marker(image, (26, y + 20), seat, size=30)
        who = p["name"] + ("  ← to canvass" if v["turn"] == seat else "") + ("  ★ wins" if v["winner"] == seat else "")
        draw_text(draw, (48, y + 12), who[:40], font(15, bold=v["turn"] == seat), anchor="lm", halo=None)
        _dots(draw, 48, y + 26, p["votes"], style.color)
        if p["endorsement"]:
            note = f"+{ENDORSEMENTS.get(p['endorsement'], 0)} {p['endorsement']}"
            draw_text(draw, (WIDTH - 10, y + 12), note, font(13), fill=INK_MUTED, anchor="rm", halo=None)
        draw_text(draw, (WIDTH - 10, y + 34), f"{p['votes']} votes", font(15, bold=True), fill=INK, anchor="rm",
                  halo=None)
        y += ROW
    draw_text(draw, (10, y + 12), f"Undecided: {v['undecided']}", font(15), anchor="lm", halo=None)
    _dots(draw, 10, y + 26, v["undecided"], UNDECIDED)
    return [("coin-count.png", encode_png(image))]
