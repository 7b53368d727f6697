"""U.S. President: the campaign map, and one panel per recount step.

The board image is a real U.S. map (render/core.py's USMap) where every state
but the eleven swing states is muted. Each swing state is filled with its card
holder's colour tint and hatch (a second cue besides colour), labelled with its
postal code and electors, and carries the holder's marker (shape + letter).
Every swing state also has an info box beside the map, tied to it by a leader
line: a header band in the holder's colour ("PA 20 · B"), then one row per
player — their letter and shape, their pyramids as triangles in three sizes in
their colour, and their points there. To the right a side panel lists each
player (colour, letter, shape, name, electors, pyramids left as L/M/S, and
whether they have picked this round — never what), the round, the cards set
aside and the last revealed round.

After round 12 with no majority, each recount step gets its own image: the map
with the holders after that step, players who have left greyed out, and the
step's departures, card moves and electors in the side panel.

Speed: the canvas with the muted map, box frames and leader lines is cached per
player count; per-state fill/hatch/outline masks and every piece of text are
cached as masks, so a render costs well under the PNG encode of the image.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageChops, ImageDraw

if TYPE_CHECKING:  # the view's shape only: a render worker never imports the engines
    from engines.us_president.view import USPPlayerView, USPRecountStep, USPStateView, USPView

from .core import (
    INK, INK_MUTED, LAND_DIM, LEADER, PANEL, PAPER, WHITE, MapStyle, USMap, draw_marker, draw_shape, encode_on_palette,
    font, mix, palette_from, player, stamp_text, stripe_mask, text_color_on, text_mask,
)
from .glance import Glance, GlanceSeat, record_box, with_glance

CODES = ("MT", "NV", "IA", "CO", "WI", "VA", "NC", "MI", "OH", "PA", "FL")
ELECTORS = {"MT": 3, "NV": 6, "IA": 6, "CO": 9, "WI": 10, "VA": 13, "NC": 15, "MI": 16, "OH": 18, "PA": 20, "FL": 29}
SIZE_LETTER = {"large": "L", "medium": "M", "small": "S"}

MAP_W = 1000                 # the map is drawn 1000 px wide (scale 1.0 of the geometry canvas)
OX = 16                      # map offset in the canvas (x)
BOX_W, BOX_GAP = 196, 9
HEADER_H, ROW_H, BOX_PAD = 30, 25, 6
RIGHT_X = OX + MAP_W + 24    # the right column of boxes
PANEL_X = RIGHT_X + BOX_W + 16
PANEL_W = 470
WIDTH = PANEL_X + PANEL_W + 12

SWING_LAND = (226, 218, 196)   # a swing state nobody holds: warm sand, clearly not muted
MUTED = LAND_DIM
OUTLINE = (60, 60, 66)
TOP_ROW = ("NV", "MT", "IA", "WI", "MI")
RIGHT_COL = ("OH", "PA", "VA", "NC", "FL")
# Leader lines that would cross another swing state (or box) leave their box
# from a corner and bend at these points (map px): Ohio's comes down over Lake
# Erie between Michigan and Pennsylvania; Wisconsin's passes west of Michigan's
# Upper Peninsula.
WAYPOINTS = {"OH": ((766, 172),), "WI": ((588, 96),)}
PORT_CORNER = {"OH", "WI"}
SIDE_BY_SIDE = {"VA", "NC"}
BOTTOM = ("CO",)
TRI = {3: (26, 22), 2: (20, 17), 1: (14, 12)}  # points -> (base, height) in px


def _box_h(n: int) -> int:
    return HEADER_H + n * ROW_H + BOX_PAD


@lru_cache(maxsize=8)
def _layout(n: int) -> dict:
    """Canvas size, map offset and each state's box for n players."""
    bh = _box_h(n)
    oy = 10 + bh + 16
    m = USMap(MAP_W, _MAP_STYLE)
    map_bottom = oy + m.height
    height = max(map_bottom + 20 + bh + 10, 10 + len(RIGHT_COL) * (bh + BOX_GAP) + 10, 760)
    assert OX + len(TOP_ROW) * (BOX_W + BOX_GAP) - BOX_GAP < RIGHT_X
    boxes: dict[str, tuple[int, int, int, int]] = {}
    x = OX
    for code in TOP_ROW:
        boxes[code] = (x, 10, x + BOX_W, 10 + bh)
        x += BOX_W + BOX_GAP
    # right column: spread evenly over the whole height
    k = len(RIGHT_COL)
    step = (height - 20 - bh) / (k - 1)
    for i, code in enumerate(RIGHT_COL):
        y = round(10 + i * step)
        boxes[code] = (RIGHT_X, y, RIGHT_X + BOX_W, y + bh)
    # Colorado: below the map, under New Mexico (clear of the Alaska/Hawaii insets)
    cx = OX + round(m.label_xy("CO")[0]) + 30
    boxes["CO"] = (cx - BOX_W // 2, height - 10 - bh, cx + BOX_W // 2, height - 10)
    return {"width": WIDTH, "height": height, "oy": oy, "boxes": boxes, "map": m}


_MAP_STYLE = MapStyle(land=MUTED, labels=False, callouts=False, inset_frames=False)


def _anchor(code: str, n: int) -> tuple[float, float]:
    lay = _layout(n)
    x, y = lay["map"].label_xy(code)
    return OX + x, lay["oy"] + y


def _box_port(code: str, n: int) -> tuple[float, float]:
    """Where the leader line leaves the box: the side facing the state."""
    x0, y0, x1, y1 = _layout(n)["boxes"][code]
    if code in PORT_CORNER:
        return x0 + 16, y1
    if code in TOP_ROW:
        return (x0 + x1) / 2, y1
    if code in RIGHT_COL:
        return x0, (y0 + y1) / 2
    return (x0 + x1) / 2, y0


def leader_lines(n: int = 4) -> dict[str, list[tuple[float, float]]]:
    """Each swing state's leader line (board px, before the glance band): box, bends, state."""
    lines = {}
    for code in CODES:
        bends = [(OX + x, _layout(n)["oy"] + y) for x, y in WAYPOINTS.get(code, ())]
        lines[code] = [_box_port(code, n), *bends, _anchor(code, n)]
    return lines


# ---------------------------------------------------------------- cached pieces



@lru_cache(maxsize=64)
def _state_masks(code: str) -> tuple[tuple[int, int], Image.Image, Image.Image]:
    """(top-left in map px, fill mask, outline mask) of a swing state."""
    m = USMap(MAP_W, _MAP_STYLE)
    x0, y0, x1, y1 = m.bbox(code)
    x0, y0 = max(0, x0 - 3), max(0, y0 - 3)
    w, h = x1 - x0 + 4, y1 - y0 + 4
    ss = 3
    fill = Image.new("L", (w * ss, h * ss), 0)
    line = Image.new("L", (w * ss, h * ss), 0)
    fd, ld = ImageDraw.Draw(fill), ImageDraw.Draw(line)
    for ring in m.polygon(code):
        pts = [((x - x0) * ss, (y - y0) * ss) for x, y in ring]
        fd.polygon(pts, fill=255)
        ld.line(pts + pts[:1], fill=255, width=round(2.2 * ss), joint="curve")
    fill = fill.resize((w, h), Image.Resampling.LANCZOS)
    line = line.resize((w, h), Image.Resampling.LANCZOS)
    return (x0, y0), fill, line


@lru_cache(maxsize=128)
def _hatch_mask(code: str, kind: str) -> Image.Image:
    """The holder's stripe pattern clipped to a state: a second cue besides colour."""
    (x0, y0), fill, _ = _state_masks(code)
    w, h = fill.size
    return ImageChops.multiply(fill, stripe_mask(kind, x0, y0, w, h))


@lru_cache(maxsize=8)
def _base(n: int) -> Image.Image:
    """The canvas: muted map, swing states in sand, box frames, leader lines, legend."""
    lay = _layout(n)
    img = Image.new("RGB", (lay["width"], lay["height"]), PAPER)
    m = lay["map"]
    img.paste(m.base(), (OX, lay["oy"]))
    draw = ImageDraw.Draw(img)
    for code in CODES:
        (x0, y0), fill, line = _state_masks(code)
        img.paste(SWING_LAND, (OX + x0, lay["oy"] + y0), fill)
    # leader lines, then box frames
    for code in CODES:
        draw.line(leader_lines(n)[code], fill=LEADER, width=2, joint="curve")
    for code in CODES:
        x0, y0, x1, y1 = lay["boxes"][code]
        draw.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=WHITE, outline=LEADER, width=2)
    # the side panel background
    draw.rounded_rectangle((PANEL_X, 10, PANEL_X + PANEL_W, lay["height"] - 10), radius=10, fill=PANEL)
    return img


def _triangle(draw: ImageDraw.ImageDraw, x: float, base_y: float, points: int, color, outline=INK) -> float:
    """A pyramid seen from the side; returns its width."""
    w, h = TRI[points]
    draw.polygon([(x, base_y), (x + w, base_y), (x + w / 2, base_y - h)], fill=color, outline=outline, width=2)
    return w


# ---------------------------------------------------------------- the board

def _paint_states(img: Image.Image, n: int, holders: Mapping[str, int | None], florida_pays: bool) -> None:
    lay = _layout(n)
    oy = lay["oy"]
    for code in CODES:
        (x0, y0), fill, line = _state_masks(code)
        pos = (OX + x0, oy + y0)
        h = holders.get(code)
        if h is not None:
            style = player(h)
            img.paste(style.light, pos, fill)
            img.paste(style.color, pos, _hatch_mask(code, style.hatch))
        img.paste(OUTLINE, pos, line)
    draw = ImageDraw.Draw(img)
    for code in CODES:
        ax, ay = _anchor(code, n)
        h = holders.get(code)
        bg = player(h).light if h is not None else SWING_LAND
        label = f"{code} {ELECTORS[code]}"
        if code == "FL" and h is not None and not florida_pays:
            label = "FL 0/29"
        w = text_mask(label, 17, True, True, 0)[0].size[0]
        # Virginia and North Carolina are short and stacked: label and marker side by side.
        side = h is not None and code in SIDE_BY_SIDE
        lx, ly = (ax - 20, ay) if side else (ax, ay - 14 if h is not None else ay)
        # a pill under the label hides the end of the leader line
        draw.rounded_rectangle((lx - w / 2 - 4, ly - 11, lx + w / 2 + 4, ly + 11), radius=6, fill=bg)
        stamp_text(img, (lx, ly), label, 17, fill=text_color_on(bg), bold=True, anchor="m", condensed=True)
        record_box("label", code, (lx - w / 2 - 4, ly - 11, lx + w / 2 + 4, ly + 11))
        if h is not None:
            mx, my = (lx + w / 2 + 22, ay) if side else (ax, ay + 16)
            draw_marker(img, (mx, my), h, size=34)
            record_box("pin", code, (mx - 16, my - 16, mx + 16, my + 16))


def _draw_boxes(img: Image.Image, view: USPView, holders: Mapping[str, int | None], florida_pays: bool,
                out: set[int]) -> None:
    n = len(view["players"])
    lay = _layout(n)
    draw = ImageDraw.Draw(img)
    for st in view["states"]:
        code = st["code"]
        x0, y0, x1, y1 = lay["boxes"][code]
        h = holders.get(code)
        band = player(h).color if h is not None else (200, 200, 194)
        draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y0 + HEADER_H), radius=5, fill=band)
        tc = text_color_on(band)
        stamp_text(img, (x0 + 10, y0 + HEADER_H / 2 + 1), f"{code} {ELECTORS[code]}", 19, fill=tc, bold=True)
        if h is None:
            right = "set aside"
        else:
            right = player(h).letter + (" · lead<2: 0" if code == "FL" and not florida_pays else " holds")
        stamp_text(img, (x1 - 10, y0 + HEADER_H / 2 + 1), right, 16, fill=tc, bold=True, anchor="r", condensed=True)
        for s, pyr in enumerate(st["pyramids"]):
            ry = y0 + HEADER_H + 2 + s * ROW_H
            mid = ry + ROW_H / 2
            style = player(s)
            muted = s in out
            ink = INK_MUTED if muted else INK
            stamp_text(img, (x0 + 8, mid), style.letter, 17, fill=ink, bold=True)
            draw_shape(draw, style.shape, (x0 + 34, mid), 16, mix(style.color, WHITE, 0.55) if muted else style.color,
                       outline=INK, width=1)
            x = x0 + 50
            for p in pyr:
                x += _triangle(draw, x, ry + ROW_H - 3, p, mix(style.color, WHITE, 0.55) if muted else style.color) + 5
            total = sum(pyr)
            stamp_text(img, (x1 - 10, mid), str(total) if pyr else "–", 17, fill=ink, bold=bool(pyr), anchor="r")


def _panel_players(img: Image.Image, view: USPView, y: int, electors: Sequence[int | None], out: set[int],
                   show_picks: bool) -> int:
    """One row per player: marker, name, electors and, while the game runs,
    pyramids left (L/M/S) and whether they have picked (never what)."""
    draw = ImageDraw.Draw(img)
    x0, x1 = PANEL_X + 14, PANEL_X + PANEL_W - 14
    if show_picks:
        cols = {"EV": x1 - 150, "L": x1 - 108, "M": x1 - 76, "S": x1 - 44}
        stamp_text(img, (x1, y), "pick", 16, fill=INK_MUTED, bold=True, anchor="r")
    else:  # after round 12 every pyramid is on the map: electors only
        cols = {"electors": x1}
    for k, xx in cols.items():
        stamp_text(img, (xx, y), k, 16, fill=INK_MUTED, bold=True, anchor="r")
    y += 22
    row = 40
    ev_x = cols.get("EV", x1)
    for s, p in enumerate(view["players"]):
        mid = y + row / 2
        muted = s in out
        thinking = show_picks and p.get("picked") is False
        if thinking:
            draw.rounded_rectangle((x0 - 6, y + 1, x1 + 6, y + row - 1), radius=6, fill=WHITE)
        draw_marker(img, (x0 + 15, mid), s, size=30)
        label = p["name"] + (" (out)" if muted else "")
        limit = ev_x - 50 - (x0 + 38)
        fnt = font(18, bold=not muted)
        while len(label) > 3 and fnt.getlength(label) > limit:
            label = label[:-2] + "…"
        ink = INK_MUTED if muted else INK
        stamp_text(img, (x0 + 38, mid), label, 18, fill=ink, bold=not muted)
        ev = electors[s]
        stamp_text(img, (ev_x, mid), "–" if ev is None else str(ev), 20, fill=ink, bold=True, anchor="r")
        if show_picks:
            sup = p["supply"]
            for key, size in (("L", "large"), ("M", "medium"), ("S", "small")):
                stamp_text(img, (cols[key], mid), str(sup[size]), 18, fill=ink, anchor="r")
            stamp_text(img, (x1, mid), "✓" if p.get("picked") else "…", 20, fill=INK, bold=True, anchor="r")
        y += row
    return y


def _wrapped(img: Image.Image, x: int, y: int, text: str, size: int = 17, width: int = PANEL_W - 28,
             fill=INK, bold: bool = False, max_lines: int = 6) -> int:
    fnt = font(size, bold=bold)
    words, line, lines = text.split(), "", []
    for w in words:
        cand = f"{line} {w}" if line else w
        if fnt.getlength(cand) <= width:
            line = cand
        else:
            lines.append(line)
            line = w
    if line:
        lines.append(line)
    for ln in lines[:max_lines]:
        stamp_text(img, (x, y + size * 0.7), ln, size, fill=fill, bold=bold)
        y += round(size * 1.35)
    return y


def _legend(img: Image.Image, y: int) -> int:
    draw = ImageDraw.Draw(img)
    x: float = PANEL_X + 14
    stamp_text(img, (x, y + 10), "Pyramids:", 16, fill=INK_MUTED, bold=True)
    x += 90
    for pts, label in ((3, "large 3"), (2, "medium 2"), (1, "small 1")):
        x += _triangle(draw, x, y + 20, pts, (150, 150, 150)) + 5
        x += stamp_text(img, (x, y + 10), label, 16, fill=INK) + 14
    return y + 30


def _panel_common(img: Image.Image, view: USPView, title: str, subtitle: str) -> int:
    y = 24
    stamp_text(img, (PANEL_X + 14, y + 14), title, 26, bold=True)
    y += 40
    stamp_text(img, (PANEL_X + 14, y + 10), subtitle, 17, fill=INK_MUTED)
    return y + 30


def _florida_pays(view: USPView, holders: Mapping[str, int | None]) -> bool:
    h = holders.get("FL")
    if h is None:
        return False
    pts = next(s["points"] for s in view["states"] if s["code"] == "FL")
    return pts[h] - max((p for i, p in enumerate(pts) if i != h), default=0) >= 2


def draw_board(view: USPView) -> Image.Image:
    n = len(view["players"])
    img = _base(n).copy()
    holders = {s["code"]: s["holder"] for s in view["states"]}
    florida = view.get("florida_counts", False)
    # After round 12 the board shows the count on Election Day, before anyone
    # leaves; the recount images show what happens next.
    count_holders = view.get("count_holders")
    if view["phase"] == "over" and count_holders:
        holders = dict(count_holders)
        florida = _florida_pays(view, holders)
    out: set[int] = set()
    _paint_states(img, n, holders, florida)
    _draw_boxes(img, view, holders, florida, out)
    if view["phase"] == "over":
        sub = f"After round {view['rounds']} · {view['majority']} of {view['total_electors']} electors win"
        y = _panel_common(img, view, "U.S. President — Election Day", sub)
        electors = view["count"] or [p["electors"] for p in view["players"]]
        y = _panel_players(img, view, y, electors, set(), show_picks=False)
    else:
        sub = f"Round {view['round']} of {view['rounds']} · {view['majority']} of {view['total_electors']} electors win"
        y = _panel_common(img, view, "U.S. President", sub)
        y = _panel_players(img, view, y, [p["electors"] for p in view["players"]], set(), show_picks=True)
        waiting = [view["players"][s]["name"] for s in view.get("waiting", [])]
        y = _wrapped(img, PANEL_X + 14, y + 8, ("Still thinking: " + ", ".join(waiting)) if waiting
                     else "Everyone has picked.", 17, fill=INK, bold=True, max_lines=2)
    y = _legend(img, y + 8)
    aside = [c for c in CODES if holders.get(c) is None]
    y = _wrapped(img, PANEL_X + 14, y + 6,
                 "Cards set aside: " + (", ".join(f"{c} {ELECTORS[c]}" for c in aside) or "none"), 17, max_lines=2)
    y = _wrapped(img, PANEL_X + 14, y + 4, "Florida pays its 29 only with a lead of 2 points or more.", 16,
                 fill=INK_MUTED, max_lines=2)
    last = view.get("last_reveal")
    if last and view["phase"] != "over" or (last and not view.get("recount")):
        picks = "; ".join(f"{player(s).letter} {c} {SIZE_LETTER[z]}" for s, (c, z) in enumerate(last["picks"]))
        y = _wrapped(img, PANEL_X + 14, y + 6, f"Round {last['round']} picks: {picks}", 17, max_lines=4)
    if view["phase"] == "over":
        y = _wrapped(img, PANEL_X + 14, y + 10, view.get("outcome") or "", 20, bold=True, max_lines=4)
        if view.get("recount"):
            y = _wrapped(img, PANEL_X + 14, y + 4, f"Recount: {len(view['recount'])} step(s), one image each.", 17,
                         fill=INK_MUTED, max_lines=2)
    return img


def draw_recount_step(view: USPView, k: int) -> Image.Image:
    """The map and standings after recount step k (0-based)."""
    n = len(view["players"])
    step = view["recount"][k]
    img = _base(n).copy()
    holders = step["holders"]
    active = set(step["active"])
    out = {s for s in range(n) if s not in active}
    _paint_states(img, n, holders, step["florida_counts"])
    _draw_boxes(img, view, holders, step["florida_counts"], out)
    names = [p["name"] for p in view["players"]]
    y = _panel_common(img, view, f"Recount — step {step['step']} of {len(view['recount'])}",
                      f"Nobody had {view['majority']} electors: the weakest leave")
    electors = [step["electors"][s] if s in active else None for s in range(n)]
    y = _panel_players(img, view, y, electors, out, show_picks=False)
    left = " and ".join(names[s] for s in step["leaving"])
    y = _wrapped(img, PANEL_X + 14, y + 8, f"{left} {'leave' if len(step['leaving']) > 1 else 'leaves'} "
                 f"with {step['leaving_electors']} electors.", 18, bold=True, max_lines=3)
    for mv in step["moves"][:8]:
        frm = "beside the map" if mv["from"] is None else names[mv["from"]]
        to = f"→ {names[mv['to']]} ({mv['why']})" if mv["to"] is not None else f"set aside ({mv['why']})"
        y = _wrapped(img, PANEL_X + 14, y + 2, f"{mv['state']} {ELECTORS[mv['state']]} from {frm} {to}", 16,
                     max_lines=2)
    if len(step["moves"]) > 8:
        y = _wrapped(img, PANEL_X + 14, y + 2, f"… and {len(step['moves']) - 8} more cards", 16, max_lines=1)
    waiting = step.get("aside_waiting") or []
    if waiting:
        y = _wrapped(img, PANEL_X + 14, y + 4, f"{', '.join(waiting)} stay beside the map: set-aside cards can "
                     "be claimed from step 2 on.", 16, max_lines=3)
    if step["winner"] is not None:
        y = _wrapped(img, PANEL_X + 14, y + 10, f"{names[step['winner']]} reaches {step['electors'][step['winner']]} "
                     "electors and is President.", 20, bold=True, max_lines=3)
    elif not step["active"]:
        y = _wrapped(img, PANEL_X + 14, y + 10, "Nobody is left: there is no President.", 20, bold=True, max_lines=2)
    elif k == len(view["recount"]) - 1:
        y = _wrapped(img, PANEL_X + 14, y + 10, view.get("outcome", ""), 20, bold=True, max_lines=3)
    else:
        y = _wrapped(img, PANEL_X + 14, y + 10, "Still no majority: the recount goes on.", 18, max_lines=2)
    _legend(img, y + 8)
    return img


# ---------------------------------------------------------------- the phone band

def _holder_label(code: str, holder: int | None) -> str:
    return f"{code} {ELECTORS[code]} → " + (player(holder).letter if holder is not None else "set aside")


def glance(view: USPView) -> Glance:
    """The phone band: the round and who still picks, each seat's electors, and the last revealed
    picks (what changed on the map). Drawn from the view alone, like the rest of the board."""
    players = view["players"]
    over = view["phase"] == "over"
    electors = view.get("count") if over else None
    electors = electors or [p["electors"] for p in players]
    best = max((e or 0) for e in electors) if electors else 0
    seats = tuple(GlanceSeat(s, p["name"], str(electors[s] or 0), leading=bool(best) and electors[s] == best)
                  for s, p in enumerate(players))
    waiting = list(view.get("waiting") or [])
    turn_seat: int | None = None
    if over:
        turn = view.get("outcome") or "Election Day"
        winner = view.get("winner")
        turn_seat = winner if isinstance(winner, int) else None
        status = f"after round {view['rounds']}"
    else:
        if len(waiting) == 1:
            turn_seat = waiting[0]
            turn = f"{players[waiting[0]]['name']} to pick"
        elif waiting:
            turn = f"{len(waiting)} players to pick"
        else:
            turn = "Everyone has picked"
        status = f"Round {view['round']}/{view['rounds']} · {view['majority']} win"
    last = view.get("last_reveal")
    changed: tuple[str, ...] = ()
    title = "Picks"
    if last:
        changed = tuple(f"{player(s).letter} {c} {SIZE_LETTER[z]}" for s, (c, z) in enumerate(last["picks"]))
        title = f"Round {last['round']} picks"
    return Glance(turn=turn, turn_seat=turn_seat, seats=seats, status=status,
                  changed=changed or ("the first picks are revealed together",), changed_title=title)


def glance_recount(view: USPView, k: int) -> Glance:
    """The phone band of recount step k: who leaves, each seat's electors after the step
    (the departed greyed out), the cards that moved."""
    players = view["players"]
    step = view["recount"][k]
    active = set(step["active"])
    electors = step["electors"]
    best = max((electors[s] or 0) for s in active) if active else 0
    seats = tuple(GlanceSeat(s, p["name"], str(electors[s] or 0) if s in active else "", active=s in active,
                             leading=s in active and bool(best) and electors[s] == best)
                  for s, p in enumerate(players))
    winner = step["winner"]
    if winner is not None:
        turn = f"{players[winner]['name']} is President"
    else:
        turn = " and ".join(players[s]["name"] for s in step["leaving"]) + (
            " leave" if len(step["leaving"]) > 1 else " leaves")
    changed = tuple(_holder_label(mv["state"], mv["to"]) for mv in step["moves"])
    return Glance(turn=turn, turn_seat=winner, seats=seats, status=f"Recount {step['step']}/{len(view['recount'])}",
                  changed=changed, changed_title="Cards moved")


# ---------------------------------------------------------------- encoding

def _sample_view(n: int) -> USPView:
    """A made-up board that uses every colour the renderer can draw (each
    player's colour, tint, hatch and greyed-out shade, Florida without a
    margin, set-aside states), to derive the fixed PNG palette from."""
    players: list[USPPlayerView] = [
        {"name": f"Player {i + 1}", "bot": False, "electors": 10 * i, "count": None,
         "supply": {"large": i % 5, "medium": 2, "small": 1}, "picked": bool(i % 2), "cards": [], "dealt": [],
         "active": i % 3 != 2} for i in range(n)]
    states: list[USPStateView] = []
    for k, code in enumerate(CODES):
        holder = None if k % 4 == 3 else k % n
        pyramids = [[(k + i) % 3 + 1] * ((k + i) % 4) for i in range(n)]
        states.append({"code": code, "name": code, "electors": ELECTORS[code], "holder": holder,
                       "pyramids": pyramids, "points": [sum(x) for x in pyramids]})
    holders = {s["code"]: s["holder"] for s in states}
    step: USPRecountStep = {
        "step": 1, "leaving": [2], "leaving_electors": 3, "active": [i for i in range(n) if i % 3 != 2],
        "moves": [{"state": "MT", "from": 2, "to": None, "why": "tie between Player 1 and Player 2"}],
        "aside_waiting": [], "holders": holders, "electors": [10 * i if i % 3 != 2 else None for i in range(n)],
        "florida_counts": False, "winner": None, "text": ""}
    return {"game": "us-president", "phase": "play", "round": 5, "rounds": 12, "majority": 73,
            "total_electors": 145, "deal": "equal", "tie_above_holder": "aside", "recount_aside": "second",
            "players": players, "states": states, "aside": [c for c in CODES if holders[c] is None],
            "florida_counts": False, "waiting": [0], "last_reveal": {"round": 4, "picks": [["FL", "large"]] * n},
            "count": None, "count_holders": None, "recount": [step], "winner": None, "outcome": ""}


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    samples = []
    for n in (6, 5, 4):
        view = _sample_view(n)
        samples.append(with_glance(draw_board(view), glance(view)))
        samples.append(with_glance(draw_recount_step(view, 0), glance_recount(view, 0)))
    return palette_from(samples)


def encode(image: Image.Image) -> bytes:
    return encode_on_palette(image, _palette())


def _board_only(view: USPView) -> dict[str, object]:
    """The view without who-has-picked: a pick changes nothing on the map."""
    players = [{k: v for k, v in p.items() if k != "picked"} for p in view.get("players", [])]
    return {**{k: v for k, v in view.items() if k != "waiting"}, "players": players}


def render(view: USPView, previous: USPView | None = None) -> list[tuple[str, bytes]]:
    # Re-post the map only when the board changed; "alice has picked" is said in text.
    if previous is not None and _board_only(previous) == _board_only(view):
        return []
    out = [("us-president.png", encode(with_glance(draw_board(view), glance(view))))]
    steps = view.get("recount") or []
    if steps and (previous is None or previous.get("recount") != steps):
        for k in range(len(steps)):
            out.append((f"us-president-recount-{k + 1}.png",
                        encode(with_glance(draw_recount_step(view, k), glance_recount(view, k)))))
    return out
