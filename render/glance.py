"""The glance band: what a player needs at a glance on a phone, at the top of every board.

Discord shows a board about 400 px wide on a phone before anyone taps it. Every board starts with
a band, drawn from a small typed summary (`Glance`) its renderer provides: whose turn it is, every
seat's score (colour *and* the seat's shape and letter) and the labels of what changed this turn.
Its sizes are in "phone px": the band is laid out for a 400-px-wide picture and scaled to the
board's width, so its smallest text stays GLANCE_MIN_PX tall (font size, px) at 400 px, whatever
the board's width. The full detail below it stays for the tapped image.

`measuring()` lets a test see every glance text drawn and every label and pin a renderer placed
(`record_box`), to check sizes and overlaps; off, rendering stays a pure function.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .core import (INK, INK_MUTED, PANEL, PAPER, Color, Point, draw_marker, ellipsize, font, stamp_text, text_mask,
                   wrap_text)

PHONE_WIDTH = 400
GLANCE_MIN_PX = 9          # the floor (issue 25); the band's own sizes keep a margin above it
GLANCE_TURN_PX = 14        # whose turn: the line read first
GLANCE_SCORE_PX = 13       # each seat's score and name
GLANCE_CHANGED_PX = 13     # what changed this turn
ACCENT: Color = (213, 94, 0)     # Okabe–Ito vermillion, beside a bold outline: whose turn
GLANCE_BG: Color = (255, 255, 255)
GLANCE_RULE: Color = (200, 200, 194)


@dataclass(frozen=True)
class GlanceSeat:
    seat: int            # the seat index: its colour, shape and letter (PLAYERS)
    name: str
    score: str           # as the game says it: "270", "+5", "12 EV"
    active: bool = True  # False: out of the game (greyed)
    leading: bool = False
    style: int | None = None  # draw another seat's style (a party's colour and shape); None: the seat's own
    mark: str | None = None   # the marker's text instead of the style's letter ("VP")


@dataclass(frozen=True)
class Glance:
    """What a board says at a glance. `turn` is one short sentence ("Bob to play",
    "Everyone picks", "Alice wins"); `turn_seat` draws that seat's marker before it.
    `changed` are short labels of this turn's changes ("TX 40 → B"), newest last."""
    turn: str
    seats: tuple[GlanceSeat, ...]
    turn_seat: int | None = None
    status: str = ""               # right of the turn line, muted: "Round 5/12"
    score_label: str = ""          # what the scores count ("electors"), shown after the title
    changed: tuple[str, ...] = ()
    changed_title: str = "This turn"


@dataclass(frozen=True)
class DrawnText:
    """One text a renderer drew, for tests (see `measuring`)."""
    role: str         # "glance:turn", "glance:score", "glance:changed", "glance:status" or "detail"
    text: str
    size_px: int      # the font size in the image's pixels
    ink_h: int        # the ink's height in the image's pixels
    image_w: int      # the width of the board the text ends up in


@dataclass(frozen=True)
class DrawnBox:
    """A label or pin a renderer placed (board pixels), for tests (see `measuring`)."""
    role: str         # "label" or "pin"
    key: str          # e.g. the state's code
    box: tuple[float, float, float, float]
    image: int = 0    # which image of the render (with_glance counts them)


class _Recorder:
    """Off unless a test turns it on with `measuring()`; rendering stays a pure function."""
    texts: list[DrawnText] | None = None
    boxes: list[DrawnBox] | None = None
    image = 0  # boxes recorded before the k-th with_glance belong to image k


class measuring:
    """`with measuring() as (texts, boxes):` records the glance texts the band draws (and the
    labels and pins renderers place), so a test can check sizes and overlaps."""

    def __enter__(self) -> tuple[list[DrawnText], list[DrawnBox]]:
        _Recorder.texts, _Recorder.boxes, _Recorder.image = [], [], 0
        return _Recorder.texts, _Recorder.boxes

    def __exit__(self, *exc: object) -> None:
        _Recorder.texts = _Recorder.boxes = None


def record_box(role: str, key: str, box: Sequence[float]) -> None:
    if _Recorder.boxes is not None:
        _Recorder.boxes.append(DrawnBox(role, key, (box[0], box[1], box[2], box[3]), _Recorder.image))


def clear_below(center: Point, r: float, zones: Sequence[Sequence[float]]) -> Point:
    """The first spot at or below `center` where a marker of radius r covers none of the label
    boxes in `zones` (x0, y0, x1, y1): a pin steps down past a label instead of hiding it."""
    x, y = center
    moved = True
    while moved:
        moved = False
        for x0, y0, x1, y1 in zones:
            if x + r > x0 and x - r < x1 and y + r > y0 and y - r < y1:
                y, moved = y1 + r + 1, True
    return x, y


def _glance_text(img: Image.Image, xy: Point, text: str, size: int, role: str, width: int,
                 fill: Color = INK, bold: bool = False, anchor: str = "lm") -> float:
    """Stamp one glance text from the cached masks (names and scores repeat turn after turn);
    returns its advance width. anchor: "lm" or "rm"."""
    if not text:
        return 0.0
    stamp_text(img, xy, text, size, fill=fill, bold=bold, anchor=anchor[0])
    if _Recorder.texts is not None:
        _Recorder.texts.append(DrawnText(role, text, size, text_mask(text, size, bold, False, 0)[0].size[1], width))
    return font(size, bold=bold).getlength(text)


def glance_band(width: int, glance: Glance) -> Image.Image:
    """The band for a board `width` px wide (see the section's comment)."""
    u = width / PHONE_WIDTH                  # board px per phone px
    px = lambda v: max(1, round(v * u))      # noqa: E731
    pad = px(8)
    turn_h, chip_h, changed_h = px(24), px(22), px(17)
    n = len(glance.seats)
    cols = n if n <= 3 else -(-n // 2)
    rows = -(-n // cols) if n else 0
    label_font, changed_font = font(px(GLANCE_CHANGED_PX)), font(px(GLANCE_CHANGED_PX), bold=True)
    label = f"{glance.changed_title}: "
    changed_text = "; ".join(c.rstrip(". ") for c in glance.changed) if glance.changed else "nothing yet"
    room = width - 2 * pad - round(label_font.getlength(label))
    changed_lines = wrap_text(changed_text, changed_font, room)
    if len(changed_lines) > 2:  # two lines at most: the detail is on the board below
        changed_lines = changed_lines[:2]
        changed_lines[1] = ellipsize(changed_lines[1] + "…", changed_font, room)
    height = pad + turn_h + rows * chip_h + px(4) + len(changed_lines) * changed_h + pad
    img = Image.new("RGB", (width, height), GLANCE_BG)
    draw = ImageDraw.Draw(img)
    # whose turn
    y = pad + turn_h / 2
    x = float(pad)
    if glance.turn_seat is not None:
        who = next((s for s in glance.seats if s.seat == glance.turn_seat), None)
        style = who.style if who is not None and who.style is not None else glance.turn_seat
        draw_marker(img, (x + px(9), y), style, size=px(17), label=who.mark if who is not None else None)
        x += px(22)
    status_w = font(px(GLANCE_CHANGED_PX)).getlength(glance.status) if glance.status else 0
    turn_font = font(px(GLANCE_TURN_PX), bold=True)
    turn = ellipsize(glance.turn, turn_font, width - pad - x - status_w - px(8))
    _glance_text(img, (x, y), turn, px(GLANCE_TURN_PX), "glance:turn", width, bold=True)
    if glance.status:
        _glance_text(img, (width - pad, y), glance.status, px(GLANCE_CHANGED_PX), "glance:status", width,
                     fill=INK_MUTED, anchor="rm")
    # every seat's score
    y0 = pad + turn_h
    chip_w = (width - 2 * pad) / max(1, cols)
    score_font = font(px(GLANCE_SCORE_PX), bold=True)
    name_font = font(px(GLANCE_SCORE_PX))
    for k, s in enumerate(glance.seats):
        r, c = divmod(k, cols)
        cx0, cy0 = pad + c * chip_w, y0 + r * chip_h
        mid = cy0 + chip_h / 2
        if s.seat == glance.turn_seat:
            draw.rounded_rectangle((cx0 + px(1), cy0 + px(1), cx0 + chip_w - px(2), cy0 + chip_h - px(1)),
                                   radius=px(5), fill=PANEL, outline=ACCENT, width=px(2))
        draw_marker(img, (cx0 + px(12), mid), s.seat if s.style is None else s.style, size=px(16), label=s.mark)
        ink = INK if s.active else INK_MUTED
        score = s.score if s.active else f"{s.score} out" if s.score else "out"
        right = cx0 + chip_w - px(6)
        sw = score_font.getlength(score)
        _glance_text(img, (right, mid), score, px(GLANCE_SCORE_PX), "glance:score", width, fill=ink, bold=True,
                     anchor="rm")
        room = right - sw - px(5) - (cx0 + px(23))
        name = ellipsize(("★ " if s.leading else "") + s.name, name_font, room)
        if room > name_font.getlength("Ab…"):
            _glance_text(img, (cx0 + px(23), mid), name, px(GLANCE_SCORE_PX), "glance:score", width, fill=ink)
    # what changed
    y = y0 + rows * chip_h + px(4)
    draw.line((pad, y - px(2), width - pad, y - px(2)), fill=GLANCE_RULE, width=max(1, px(1)))
    for i, line in enumerate(changed_lines):
        mid = y + changed_h / 2
        x = float(pad)
        if i == 0:
            x += _glance_text(img, (x, mid), label, px(GLANCE_CHANGED_PX), "glance:changed", width,
                              fill=INK_MUTED, bold=False)
        else:
            x += label_font.getlength(label)
        _glance_text(img, (x, mid), line, px(GLANCE_CHANGED_PX), "glance:changed", width, bold=True)
        y += changed_h
    draw.line((0, height - max(1, px(1)), width, height - max(1, px(1))), fill=GLANCE_RULE, width=max(1, px(1)))
    return img


def with_glance(board: Image.Image, glance: Glance) -> Image.Image:
    """The board under its glance band, one image as wide as the board."""
    band = glance_band(board.size[0], glance)
    out = Image.new("RGB", (board.size[0], band.size[1] + board.size[1]), PAPER)
    out.paste(band, (0, 0))
    out.paste(board, (0, band.size[1]))
    _Recorder.image += 1
    return out

