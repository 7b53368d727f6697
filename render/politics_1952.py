"""Politics (1952): the board of 48 states, cut into county strips, with pins.

The map is the shared Census geometry (render/core.py) without Alaska, Hawaii
or a separate D.C. (D.C. is drawn as part of Maryland: it had no electoral
votes in 1952). Every state is filled with a muted tint of its dice group and
cut west to east into its 7 (or 4) county strips, in two alternating shades;
each strip's centre is its county line. Pins stand on the lines in priority
order from the north end down: each pin is its player's colour *and* shape
(and, when big enough, letter). At the state's label point sits its electoral
vote in a square, a tag with its group number and a small star for the
capital. A controlled state gets a thick inner outline in the controller's
colour and its vote square filled with that colour plus the controller's
letter; a state won outright shows the winner's marker on a filled star.

The eight small north-eastern states (VT NH MA RI CT NJ DE MD) have callout
boxes in the Atlantic with the same content at a readable size. The lower
left (where Alaska and Hawaii usually go) holds the group legend. The side
panel shows each player's votes if counted now, speech cards left and states
held, the last throw (the coloured die in its group's colour, two white dice),
whether the board is closed, the tabulations so far and the last moves.

Speed: the whole canvas without pins and controllers is cached; per-state
masks (fill, inner outline) are cached; a render stamps only what changed on
a copy, well under the PNG encode of the image.
"""
from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from PIL import Image, ImageChops, ImageDraw

if TYPE_CHECKING:  # the view's shape only: a render worker never imports the engines
    from engines.politics_1952.view import P52PlayerView, P52StateView, P52TabulationView, P52View

from .core import (
    INK, INK_MUTED, LEADER, PANEL, PAPER, WHITE, MapStyle, USMap, draw_marker, ellipsize, font, mix, player,
    shape_points, stamp_text, text_color_on, wrap_text,
)
from .glance import Glance, GlanceSeat, record_box, with_glance

# ---- the 1952 board (kept here: renderers read the public view only; the
# states' groups, votes and lines come from the view itself)
MAP_W = 1300
OX, OY = 12, 64
CALLOUT_STATES = ("NH", "VT", "MA", "RI", "CT", "NJ", "DE", "MD")
BOX_W, BOX_H, BOX_GAP = 262, 80, 8
BOX_X = OX + MAP_W + 28
PANEL_X = BOX_X + BOX_W + 18
PANEL_W = 440
WIDTH = PANEL_X + PANEL_W + 12
NAME_W = 196  # px: a player's name in the panel, shortened with '…' only past this


def _fit(name: str, size: int, width: int = NAME_W, bold: bool = False) -> str:
    """A player's name whole if it fits `width` px, else cut with '…' (never by characters:
    'AI-Roosevelt' fits where a character cut made it 'AI-Roose')."""
    return ellipsize(name, font(size, bold), width)

# Muted group tints (group 6 green as on the original board); light enough for
# every player colour, the outlines and black text to stand out on them.
GROUP_TINT = {
    1: (236, 226, 198),  # sand
    2: (214, 226, 240),  # pale blue
    3: (242, 210, 224),  # pale pink
    4: (244, 220, 200),  # pale peach
    5: (218, 212, 238),  # pale lavender
    6: (204, 230, 206),  # pale green
}
_STYLE = MapStyle(labels=False, callouts=False, inset_frames=False)
_SS = 3  # supersampling for the static line work


def _map() -> USMap:
    return USMap(MAP_W, _STYLE)


# ---------------------------------------------------------------- cached text



# ---------------------------------------------------------------- per-state geometry

@lru_cache(maxsize=64)
def _state_masks(code: str) -> tuple[tuple[int, int], Image.Image, Image.Image, Image.Image]:
    """(top-left in map px, fill mask, border mask, inner-outline mask)."""
    m = _map()
    codes = (code, "DC") if code == "MD" else (code,)
    boxes = [m.bbox(c) for c in codes]
    x0 = max(0, min(b[0] for b in boxes) - 3)
    y0 = max(0, min(b[1] for b in boxes) - 3)
    x1 = max(b[2] for b in boxes) + 3
    y1 = max(b[3] for b in boxes) + 3
    w, h = x1 - x0, y1 - y0
    fill = Image.new("L", (w * _SS, h * _SS), 0)
    line = Image.new("L", (w * _SS, h * _SS), 0)
    fd, ld = ImageDraw.Draw(fill), ImageDraw.Draw(line)
    for c in codes:
        for ring in m.polygon(c):
            pts = [((x - x0) * _SS, (y - y0) * _SS) for x, y in ring]
            fd.polygon(pts, fill=255)
            if c != "DC":
                ld.line(pts + pts[:1], fill=255, width=round(1.6 * _SS), joint="curve")
    thick = Image.new("L", fill.size, 0)
    td = ImageDraw.Draw(thick)
    for ring in m.polygon(code):
        pts = [((x - x0) * _SS, (y - y0) * _SS) for x, y in ring]
        td.line(pts + pts[:1], fill=255, width=round(11 * _SS), joint="curve")
    inner = ImageChops.multiply(thick, fill)
    shrink = lambda im: im.resize((w, h), Image.Resampling.LANCZOS)  # noqa: E731
    return (x0, y0), shrink(fill), shrink(line), shrink(inner)


@lru_cache(maxsize=64)
def _strips(code: str, lines: int) -> tuple[list[float], list[tuple[float, float]], float]:
    """The county strips of a state in map px: boundaries x (lines + 1 values),
    the (top, bottom) of the state along each strip's centre line, and the pin size."""
    (x0, y0), fill, _, _ = _state_masks(code)
    bb = fill.point(lambda v: 255 if v > 127 else 0).getbbox() or (0, 0, fill.size[0], fill.size[1])
    left, right = x0 + bb[0], x0 + bb[2]
    step = (right - left) / lines
    bounds = [left + k * step for k in range(lines + 1)]
    extents: list[tuple[float, float]] = []
    for k in range(lines):
        cx = round(left + (k + 0.5) * step) - x0
        col = fill.crop((cx, 0, cx + 1, fill.size[1])).point(lambda v: 255 if v > 127 else 0).getbbox()
        if col is None:
            extents.append((y0 + bb[1], y0 + bb[3]))
        else:
            extents.append((y0 + col[1], y0 + col[3]))
    size = max(7.0, min(16.0, step - 2))
    return bounds, extents, size


def _crosses(p1: tuple[float, float], p2: tuple[float, float], q1: tuple[float, float],
             q2: tuple[float, float]) -> bool:
    def orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return orient(p1, p2, q1) * orient(p1, p2, q2) < 0 and orient(q1, q2, p1) * orient(q1, q2, p2) < 0


@lru_cache(maxsize=1)
def _callout_boxes() -> dict[str, tuple[int, int, int, int]]:
    """Callout boxes stacked top to bottom in an order whose leader lines do not cross.

    Sorting by the label point's height alone crossed New Jersey's, Delaware's and Maryland's
    leaders (Maryland's label is west of Delaware's): sort instead by where each leader would
    meet the box column at a slope, trying gentle slopes first, and keep the first order with
    no crossing."""
    def stack(order: list[str]) -> dict[str, tuple[int, int, int, int]]:
        top = OY + 40
        return {code: (BOX_X, top + i * (BOX_H + BOX_GAP), BOX_X + BOX_W, top + i * (BOX_H + BOX_GAP) + BOX_H)
                for i, code in enumerate(order)}

    best: dict[str, tuple[int, int, int, int]] = {}
    for slope in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, -0.1, -0.2, -0.3):
        order = sorted(CALLOUT_STATES, key=lambda c: _anchor(c)[1] + slope * (BOX_X - _anchor(c)[0]))
        boxes = stack(order)
        lines = [(_anchor(c), (float(b[0]), (b[1] + b[3]) / 2)) for c, b in boxes.items()]
        if not any(_crosses(*a, *b) for i, a in enumerate(lines) for b in lines[i + 1:]):
            return boxes
        best = best or boxes
    return best


def leader_lines() -> dict[str, list[tuple[float, float]]]:
    """Each callout state's leader line (board px, before the glance band): state to box."""
    return {c: [_anchor(c), (float(b[0]), (b[1] + b[3]) / 2)] for c, b in _callout_boxes().items()}


def _label_xy(code: str) -> tuple[float, float]:
    x, y = _map().label_xy(code)
    nudge = {"FL": (16, -18), "LA": (-10, 0), "MI": (10, 18), "KY": (8, 2), "TN": (0, 0), "ID": (-4, 26),
             "CA": (-10, 0), "OK": (18, -6), "VA": (14, 4), "NY": (-6, 8), "WV": (-4, 6)}.get(code, (0, 0))
    return OX + x + nudge[0], OY + y + nudge[1]


def _anchor(code: str) -> tuple[float, float]:
    x, y = _map().label_xy(code)
    return OX + x, OY + y


# ---------------------------------------------------------------- the static canvas

@lru_cache(maxsize=4)
def _base(states_key: tuple) -> Image.Image:
    """Everything that never changes for a board: map, strips, squares, callouts, legend, panel."""
    m = _map()
    height = max(OY + m.height + 56, OY + 40 + len(CALLOUT_STATES) * (BOX_H + BOX_GAP) + 10)
    img = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(img)
    stamp_text(img, (OX + 6, 30), "POLITICS — 1952", 30, INK, bold=True)
    stamp_text(img, (OX + 330, 32), "531 electoral votes · 266 elects a President", 20, INK_MUTED)
    for code, _ev, group, lines in states_key:
        (x0, y0), fill, line, _ = _state_masks(code)
        tint = GROUP_TINT[group]
        img.paste(tint, (OX + x0, OY + y0), fill)
        bounds, _, _ = _strips(code, lines)
        # alternate strips a shade darker, clipped to the state
        shade = mix(tint, INK, 0.07)
        strip = Image.new("L", fill.size, 0)
        sd = ImageDraw.Draw(strip)
        for k in range(1, lines, 2):
            sd.rectangle((bounds[k] - x0, 0, bounds[k + 1] - x0, fill.size[1]), fill=255)
        img.paste(shade, (OX + x0, OY + y0), ImageChops.multiply(strip, fill))
    for code, _ev, _group, _lines in states_key:
        (x0, y0), fill, line, _ = _state_masks(code)
        img.paste(WHITE, (OX + x0, OY + y0), line)
    for code, ev, group, _lines in states_key:
        spot = _tag_spot(code, ev) if code not in CALLOUT_STATES else None
        if spot:
            _group_tag(img, spot, group)
    # callout leaders and boxes
    for _code, leader in leader_lines().items():
        (ax, ay) = leader[0]
        draw.line(leader, fill=LEADER, width=2)
        draw.ellipse((ax - 3, ay - 3, ax + 3, ay + 3), fill=LEADER)
    info = {code: (ev, group, lines) for code, ev, group, lines in states_key}
    for code, box in _callout_boxes().items():
        ev, group, lines = info[code]
        draw.rounded_rectangle(box, radius=8, fill=GROUP_TINT[group], outline=LEADER, width=2)
        stamp_text(img, (box[0] + 10, box[1] + 20), code, 20, INK, bold=True)
        _group_tag(img, (box[0] + 62, box[1] + 20), group)
        x_first = box[0] + 98
        step = (box[2] - 10 - x_first) / lines
        for k in range(lines):
            cx = x_first + (k + 0.5) * step
            draw.line([(cx, box[1] + 8), (cx, box[3] - 8)], fill=mix(GROUP_TINT[group], INK, 0.3), width=1)
    _legend(img, states_key)
    draw.rounded_rectangle((PANEL_X, 10, PANEL_X + PANEL_W, height - 10), radius=10, fill=PANEL)
    return img


@lru_cache(maxsize=64)
def _tag_spot(code: str, ev: int) -> tuple[float, float] | None:
    """Where a state's group tag fits inside it, clear of the controller's
    outline and of the vote square with its markers: the spot nearest to just
    below the square, or nowhere (the tint and the legend still tell the group)."""
    lx, ly = _label_xy(code)
    (x0, y0), fill, _, _ = _state_masks(code)
    w, h = fill.size

    def inside(x: float, y: float) -> bool:
        u, v = round(x - OX - x0), round(y - OY - y0)
        return 0 <= u < w and 0 <= v < h and cast(int, fill.getpixel((u, v))) > 128  # an "L" mask: an int a pixel

    half = (17 if ev >= 10 else 15) + 26  # the square, the star right of it, the marker left of it
    for mx, my in ((17, 15), (14, 12)):  # roomy first, then tighter to the outline
        best, best_d = None, 1e18
        for cy in range(round(ly) - 60, round(ly) + 61, 6):
            for cx in range(round(lx) - 90, round(lx) + 91, 6):
                if abs(cy - ly) < 13 + 15 + 2 and abs(cx - lx) < half + 17:
                    continue  # would cover the vote square
                d = (cx - lx) ** 2 + (cy - ly - 25) ** 2
                if d < best_d and all(inside(cx + dx, cy + dy) for dx in (-mx, 0, mx) for dy in (-my, my)):
                    best, best_d = (float(cx), float(cy)), d
        if best:
            return best
    return None


def _group_tag(img: Image.Image, xy: tuple[float, float], group: int) -> None:
    draw = ImageDraw.Draw(img)
    x, y = xy
    draw.rounded_rectangle((x - 13, y - 11, x + 13, y + 11), radius=5, fill=WHITE, outline=INK_MUTED, width=1)
    stamp_text(img, (x, y), f"g{group}", 16, INK, bold=True, anchor="m")


def _legend(img: Image.Image, states_key: tuple) -> None:
    """The dice groups and their states, where Alaska and Hawaii usually are."""
    m = _map()
    draw = ImageDraw.Draw(img)
    x, y = OX + 10, OY + round(m.height * 0.745)
    stamp_text(img, (x, y), "Coloured die → group", 18, INK, bold=True)
    y += 26
    for g in range(1, 7):
        codes = [c for c, _, gg, _ in states_key if gg == g]
        votes = sum(ev for _, ev, gg, _ in states_key if gg == g)
        draw.rounded_rectangle((x, y - 11, x + 30, y + 11), radius=4, fill=GROUP_TINT[g], outline=INK_MUTED)
        stamp_text(img, (x + 15, y), str(g), 17, INK, bold=True, anchor="m")
        lines = wrap_text(f"{votes} votes: {' '.join(codes)}", font(16), 300)
        for i, line in enumerate(lines):
            stamp_text(img, (x + 40, y + i * 20), line, 16, INK)
        y += 20 * len(lines) + 6


# ---------------------------------------------------------------- dynamic layers

def _pin(img: Image.Image, draw: ImageDraw.ImageDraw, center: tuple[float, float], seat: int, size: float,
         key: str = "") -> None:
    draw_marker(img, center, seat, size=size, label=None if size >= 18 else "")
    r = size / 2
    record_box("pin", key, (center[0] - r, center[1] - r, center[0] + r, center[1] + r))


def _vote_square(img: Image.Image, xy: tuple[float, float], ev: int, holder: int | None, won: bool,
                 small: bool = False) -> None:
    draw = ImageDraw.Draw(img)
    x, y = xy
    half = 15 if ev < 10 else 17
    if holder is None:
        fill, txt = WHITE, INK
    else:
        fill, txt = player(holder).color, player(holder).text
    draw.rectangle((x - half, y - 13, x + half, y + 13), fill=fill, outline=INK, width=2)
    stamp_text(img, (x, y), str(ev), 18, txt, bold=True, anchor="m")
    # the capital: a star right of the square, filled by whoever won the state outright
    sx, sy = x + half + 12, y
    star = shape_points("star", (sx, sy), 19 if not won else 24)
    if won and holder is not None:
        draw.polygon(star, fill=player(holder).color, outline=INK, width=2)
    else:
        draw.polygon(star, fill=WHITE, outline=INK_MUTED, width=1)
    if holder is not None:
        # the controller's marker left of the square: letter and shape, not colour alone
        draw_marker(img, (x - half - 13, y), holder, size=24)


@lru_cache(maxsize=4)
def _label_zones(evs: tuple[tuple[str, int], ...]) -> tuple[tuple[str, tuple[float, float, float, float]], ...]:
    """Every state's vote square (with its marker and star) and group tag, in board px."""
    zones = []
    for code, ev in evs:
        if code in CALLOUT_STATES:
            continue
        lx, ly = _label_xy(code)
        half = 15 if ev < 10 else 17
        zones.append((f"{code} votes", (lx - half - 27, ly - 15, lx + half + 25, ly + 15)))
        tag = _tag_spot(code, ev)
        if tag:
            zones.append((f"{code} group", (tag[0] - 14, tag[1] - 12, tag[0] + 14, tag[1] + 12)))
    return tuple(zones)


@lru_cache(maxsize=256)
def _keep_clear(code: str, evs: tuple[tuple[str, int], ...]
                ) -> tuple[tuple[str, tuple[float, float, float, float]], ...]:
    """The label zones a pin of this state could reach (its own and its neighbours')."""
    (x0, y0), fill, _, _ = _state_masks(code)
    bx0, by0, bx1, by1 = OX + x0 - 20, OY + y0 - 20, OX + x0 + fill.size[0] + 20, OY + y0 + fill.size[1] + 20
    return tuple((k, b) for k, b in _label_zones(evs) if b[0] < bx1 and bx0 < b[2] and b[1] < by1 and by0 < b[3])


def _draw_state(img: Image.Image, draw: ImageDraw.ImageDraw, st: P52StateView,
                states: list[P52StateView]) -> None:
    code, lines = st["code"], st["lines"]
    holder, won = st["controller"], st["capital"] is not None
    (x0, y0), fill, _, inner = _state_masks(code)
    if holder is not None:
        img.paste(player(holder).color, (OX + x0, OY + y0), inner)
    if code in CALLOUT_STATES:
        _draw_callout(img, draw, st)
        return
    bounds, extents, size = _strips(code, lines)
    lx, ly = _label_xy(code)
    # Pins step down their county line past every vote square (with the controller's marker and
    # the capital's star beside it) and group tag near them: a pin never hides a number.
    keep_clear = _keep_clear(code, tuple((c["code"], c["ev"]) for c in states))
    for key, box in keep_clear:
        if key.startswith(code + " "):
            record_box("label", key, box)
    r = size / 2
    for k, pins in enumerate(st["pins"]):
        if not pins:
            continue
        cx = OX + (bounds[k] + bounds[k + 1]) / 2
        y = OY + extents[k][0] + size * 0.5 + 3
        for seat in pins:
            moved = True
            while moved:
                moved = False
                for _key, (zx0, zy0, zx1, zy1) in keep_clear:
                    if cx + r > zx0 and cx - r < zx1 and y + r > zy0 and y - r < zy1:
                        y, moved = zy1 + r + 1, True
            _pin(img, draw, (cx, y), seat, size, code)
            y += size + 1
    _vote_square(img, (lx, ly), st["ev"], holder, won)


def _draw_callout(img: Image.Image, draw: ImageDraw.ImageDraw, st: P52StateView) -> None:
    box = _callout_boxes()[st["code"]]
    holder, lines = st["controller"], st["lines"]
    if holder is not None:
        draw.rounded_rectangle(box, radius=8, outline=player(holder).color, width=5)
    x_first = box[0] + 98
    step = (box[2] - 10 - x_first) / lines
    size = 12.0
    for k, pins in enumerate(st["pins"]):
        cx = x_first + (k + 0.5) * step
        for i, seat in enumerate(pins):
            _pin(img, draw, (cx, box[1] + 12 + i * (size + 1)), seat, size, st["code"])
    _vote_square(img, (box[0] + 46, box[1] + 56), st["ev"], holder, st["capital"] is not None)


def _die(img: Image.Image, x: int, y: int, value: int, fill, size: int = 46) -> None:
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((x, y, x + size, y + size), radius=8, fill=fill, outline=INK, width=2)
    pip = text_color_on(fill)
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
             5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
    r = size * 0.09
    for gx, gy in spots.get(value, []):
        cx, cy = x + size * (0.25 + 0.25 * gx), y + size * (0.25 + 0.25 * gy)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pip)


def _panel(img: Image.Image, view: P52View) -> None:
    draw = ImageDraw.Draw(img)
    x0, x1 = PANEL_X + 16, PANEL_X + PANEL_W - 16
    y = 36
    phase = view["phase"]
    players = view["players"]
    turn = view.get("turn")
    if phase == "over":
        head = "Election decided"
    elif phase == "opening":
        head = "Throwing for first player"
    else:
        assert turn is not None  # a roll or a move always names whose turn it is
        head = f"Turn {view['turns']}: {players[turn]['name']}"
    stamp_text(img, (x0, y), _fit(head, 22, x1 - x0, bold=True), 22, INK, bold=True)
    y += 36
    closed = view["board_closed"]
    badge = "BOARD CLOSED" if closed else f"Board open · {view['pinned']}/48 states pinned"
    bw = 380
    draw.rounded_rectangle((x0, y - 15, x0 + bw, y + 15), radius=6, fill=INK if closed else WHITE,
                           outline=INK, width=2)
    stamp_text(img, (x0 + bw / 2, y), badge, 18, WHITE if closed else INK, bold=True, anchor="m")
    y += 26
    if closed and phase != "over":
        stamp_text(img, (x0, y + 6), "Doubles on the white dice count the votes.", 16, INK_MUTED)
        y += 24
    # the last throw
    y += 12
    dice = view.get("dice")
    stamp_text(img, (x0, y + 23), "Last throw:", 18, INK, bold=True)
    dx = x0 + 124
    if dice:
        g = dice["group"]
        _die(img, dx, y, g, GROUP_TINT[g])
        stamp_text(img, (dx + 23, y + 60), f"group {g}", 16, INK_MUTED, anchor="m")
        _die(img, dx + 64, y, dice["white"][0], WHITE)
        _die(img, dx + 118, y, dice["white"][1], WHITE)
        total = sum(dice["white"])
        stamp_text(img, (dx + 176, y + 14), f"= {total}", 20, INK, bold=True)
        if dice["white"][0] == dice["white"][1]:
            stamp_text(img, (dx + 176, y + 38), "doubles", 16, INK_MUTED)
        if phase == "move":
            stamp_text(img, (dx + 64, y + 60), f"{view['remaining']} left to place", 16, INK_MUTED)
    elif phase == "opening":
        throws = [f"{_fit(p['name'], 16)} {p['opening']}" for p in players if p.get("opening") is not None]
        stamp_text(img, (dx, y + 12), "for first player:", 16, INK_MUTED)
        for i, line in enumerate(wrap_text(", ".join(throws) or "nobody yet", font(16), x1 - dx)[:2]):
            stamp_text(img, (dx, y + 34 + i * 20), line, 16, INK)
    else:
        stamp_text(img, (dx, y + 23), "none yet", 18, INK_MUTED)
    y += 90
    # players
    stamp_text(img, (x0, y), "Player", 16, INK_MUTED, bold=True)
    stamp_text(img, (x1 - 128, y), "votes", 16, INK_MUTED, bold=True, anchor="r")
    stamp_text(img, (x1 - 62, y), "states", 16, INK_MUTED, bold=True, anchor="r")
    stamp_text(img, (x1, y), "cards", 16, INK_MUTED, bold=True, anchor="r")
    y += 24
    for s, p in enumerate(players):
        row_h = 40
        mid = y + row_h / 2
        if s == turn and phase in ("roll", "move"):
            draw.rounded_rectangle((x0 - 8, y + 1, x1 + 8, y + row_h - 1), radius=6, fill=WHITE)
        draw_marker(img, (x0 + 15, mid), s, size=28)
        muted = not p["active"]
        color = INK_MUTED if muted else INK
        bold = s == view.get("winner")
        stamp_text(img, (x0 + 38, mid), _fit(p["name"], 18, bold=bold), 18, color, bold=bold)
        if muted:
            stamp_text(img, (x1 - 128, mid), "out", 18, INK_MUTED, anchor="r")
        else:
            stamp_text(img, (x1 - 128, mid), str(p["votes"]), 20, color, bold=True, anchor="r")
            stamp_text(img, (x1 - 62, mid), str(p["states"]), 18, color, anchor="r")
            stamp_text(img, (x1, mid), str(p["cards_left"]), 18, color, anchor="r")
        y += row_h
    stamp_text(img, (x0, y + 10), "votes = the count if it were held now", 16, INK_MUTED)
    y += 34
    # majority bar
    bar_w = x1 - x0
    draw.rectangle((x0, y, x1, y + 16), fill=WHITE, outline=INK_MUTED)
    cx: float = x0
    for s, p in enumerate(players):
        if p["active"] and p["votes"]:
            w = bar_w * p["votes"] / view["total_votes"]
            draw.rectangle((cx, y + 1, cx + w, y + 15), fill=player(s).color)
            cx += w
    mx = x0 + bar_w * view["majority"] / view["total_votes"]
    draw.line([(mx, y - 5), (mx, y + 21)], fill=INK, width=3)
    stamp_text(img, (mx, y + 32), "266", 16, INK, bold=True, anchor="m")
    y += 52
    # tabulations
    tabs = view.get("tabulations") or []
    if tabs:
        stamp_text(img, (x0, y), f"Tabulations: {len(tabs)}", 18, INK, bold=True)
        y += 24
        for t in tabs[-2:]:
            line = tabulation_line(t, players)
            for wl in wrap_text(line, font(16), x1 - x0)[:4]:
                stamp_text(img, (x0, y), wl, 16, INK)
                y += 21
        y += 6
    # the last moves
    log = view.get("log") or []
    if view.get("outcome"):
        log = [view["outcome"]]
    if log:
        stamp_text(img, (x0, y), "Last moves", 18, INK, bold=True)
        y += 24
        bottom = img.size[1] - 24
        lines: list[str] = []
        for entry in log[-6:]:
            lines.extend(wrap_text(entry.replace("**", ""), font(16), x1 - x0))
        fits = max(0, (bottom - y) // 21)
        for wl in lines[-fits:] if fits else []:
            stamp_text(img, (x0, y), wl, 16, INK)
            y += 21


def tabulation_line(t: P52TabulationView, players: list[P52PlayerView]) -> str:
    """One tabulation for the panel: votes highest first with whole names, the
    two who stay in (or the President) first, then who went out."""
    counted = {s: v for s, v in enumerate(t["votes"]) if v is not None}
    ranked = sorted(counted, key=lambda s: -counted[s])
    listed = {s: f"{_fit(players[s]['name'], 16)} {counted[s]}" for s in ranked}
    winner = t.get("winner")
    if winner is not None:
        rest = [listed[s] for s in ranked if s != winner]
        return f"Turn {t['turn']}: {listed[winner]} is elected" + (f"; {', '.join(rest)}." if rest else ".")
    kept = [listed[s] for s in ranked if s not in t["eliminated"]]
    out = [listed[s] for s in ranked if s in t["eliminated"]]
    return f"Turn {t['turn']}: {', '.join(kept)} stay in; out: {', '.join(out)}."


def draw_board(view: P52View) -> Image.Image:
    img = _base(_states_key(view)).copy()
    draw = ImageDraw.Draw(img)
    for st in view["states"]:
        _draw_state(img, draw, st, view["states"])
    _panel(img, view)
    return img


# ---------------------------------------------------------------- encoding

def _states_key(view: P52View) -> tuple:
    return tuple((s["code"], s["ev"], s["group"], s["lines"]) for s in view["states"])


def _sample_view(states_key: tuple, variant: int) -> P52View:
    """A made-up board using every colour the renderer draws (six players
    holding, pinning and winning states outright, one of them out, dice of
    every group), to derive the fixed PNG palette from."""
    players: list[P52PlayerView] = [
        {"name": f"Player {i + 1}", "bot": False, "active": i != 5, "votes": 40 * i, "cards_left": i % 4,
         "played": [], "counties": 0, "states": i, "opening": None} for i in range(6)]
    states: list[P52StateView] = []
    for k, (code, ev, group, lines) in enumerate(states_key):
        holder = None if (k + variant) % 7 == 6 else (k + variant) % 6
        pins: list[list[int]] = [[] for _ in range(lines)]
        for seat in range(6):
            if (k + seat + variant) % 3:
                pins[(k + seat) % lines].append(seat)
        capital = holder if holder is not None and (k + variant) % 5 == 0 else None
        states.append({"code": code, "name": code, "ev": ev, "group": group, "lines": lines, "pins": pins,
                       "capital": capital, "controller": holder})
    return {"game": "politics-1952", "phase": "move", "turn": variant % 5, "turns": 12, "majority": 266,
            "total_votes": 531, "dice": {"group": variant % 6 + 1, "white": [variant % 6 + 1, 3]},
            "remaining": 3, "speech_done": False, "board_closed": variant % 2 == 0, "pinned": 48,
            "players": players, "states": states, "contenders": [],
            "tabulations": [{"turn": 30, "votes": [40 * i for i in range(6)], "eliminated": [5], "winner": None,
                             "throws": []}],
            "log": ["Player 1 captures 2 in New York → line 3/7, taking control (45 votes)."] * 3,
            "winner": None, "outcome": "", "options": {}}


@lru_cache(maxsize=4)
def _palette(states_key: tuple) -> Image.Image:
    """A fixed 256-colour palette for a board, derived once from sample boards.
    Mapping a render onto it costs a few ms, where an adaptive quantizer costs
    about as much as the PNG compression itself."""
    samples = [with_glance(draw_board(view), glance(view)) for view in (_sample_view(states_key, v) for v in range(6))]
    w, h = samples[0].size
    sheet = Image.new("RGB", (w, h * len(samples)), PAPER)
    for i, im in enumerate(samples):
        sheet.paste(im, (0, i * h))
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode(image: Image.Image, states_key: tuple) -> bytes:
    """PNG bytes on the board's fixed palette, zlib level 3 (a few KB larger
    than level 6 at well under half the time)."""
    paletted = image.quantize(palette=_palette(states_key), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    paletted.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def render(view: P52View, previous: P52View | None = None) -> list[tuple[str, bytes]]:
    if previous is not None and previous == view:
        return []
    return [("politics-1952.png", encode(with_glance(draw_board(view), glance(view)), _states_key(view)))]


def glance(view: P52View) -> Glance:
    """The phone band: whose turn and what they do now, each seat's votes if counted now, and
    the last moves. Drawn from the view alone, like the rest of the board."""
    players = view["players"]
    phase = view["phase"]
    best = max((p["votes"] for p in players if p["active"]), default=0)
    seats = tuple(GlanceSeat(s, p["name"], str(p["votes"]), active=p["active"],
                             leading=view.get("winner") == s if phase == "over" else bool(best) and p["votes"] == best)
                  for s, p in enumerate(players))
    turn_seat = view.get("turn")
    if phase == "over":
        turn = view.get("outcome") or "Election decided"
        turn_seat = view.get("winner")
    elif phase == "opening":
        turn = "Throwing for first player"
    else:
        assert turn_seat is not None  # a roll or a move always names whose turn it is
        doing = "to roll" if phase == "roll" else f"to place {view['remaining']}"
        turn = f"{players[turn_seat]['name']} {doing}"
    status = "board closed" if view["board_closed"] else f"{view['pinned']}/48 pinned"
    status = f"Turn {view['turns']} · {status} · 266 win"
    log = [line.replace("**", "") for line in (view.get("log") or [])]
    changed, title = tuple(log[-2:]), "Last moves"
    return Glance(turn=turn, turn_seat=turn_seat, seats=seats, status=status, changed=changed, changed_title=title)
