"""Race for the White House: two tally sheets, the U.S. map with the score sheet, and the board.

Four images, each drawn only when what feeds it changed:

- `race-white-house-sheet-1.png`, `-sheet-2.png` — the tally sheets as on the
  table. Each sheet holds two regions in two columns. A state is a row group:
  a label box (name, electoral votes, each party's filled blocks against the
  number needed to win) and five category rows (UN LIB CON MIN FARM) with the
  Democratic blocks on the left, filled from the left edge, and the Republican
  blocks on the right, filled from the right edge (the players face each other
  across the sheet). A Democratic vote is a blue block with a white ring, a
  Republican vote a vermillion block with a white cross (Okabe–Ito colours: the
  side, the colour and the mark each tell the party). The pre-marked block is
  darker with a white star. A won state's label box takes the winner's colour
  with "WON" and its empty blocks are crossed through in the winner's colour.
- `race-white-house-map.png` — the U.S. map, won states in the party colour
  (Republican states also striped, so colour is never the only cue), leaning
  states not yet won in a light tint (striped likewise), each state's electoral
  votes under its postal code; the score bar towards 270 and the score sheet
  (each candidate's name, role and home state, funds spent and left, the states
  won in order with their electoral votes).
- `race-white-house-board.png` — the circuit as a loop of labelled spaces,
  clockwise from Start at the top left, the four campaign side tracks inside
  it (each entry space is tagged with its track), the pawns (party colour and
  shape, letter D/R, smaller "VP" pawns for running mates), the last roll,
  whose turn it is and what is being placed.

Speed: the grids, labels, board layout and the map's five colourings are
cached at module level keyed by what determines them; a render pastes cached
block sprites and map pieces and stamps cached text, then encodes on a fixed
palette (mapping onto it costs a few ms where an adaptive quantizer costs as
much as the compression).
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from .core import (INK, INK_MUTED, LEADER, PANEL, PAPER, WHITE, MapStyle, USMap, draw_marker, draw_shape, ellipsize,
                   encode_on_palette, font, mix, palette_from, player, stamp_text, text_color_on, wrap_text)

PREFIX = "race-white-house"
PARTIES = ("D", "R")
PARTY_INDEX = {"D": 0, "R": 1}           # render/core palette: blue circle, vermillion square
PARTY_NAME = {"D": "Democrats", "R": "Republicans"}
PARTY_ONE = {"D": "Democrat", "R": "Republican"}
ROLE_NAME = {"P": "President", "VP": "Vice President"}
CAT_ABBR = {"UNION": "UN", "LIBERAL": "LIB", "CONSERVATIVE": "CON", "MINORITY": "MIN", "FARM": "FARM"}
PREMARK_CAT = {"D": "LIBERAL", "R": "CONSERVATIVE"}
TO_WIN = 270

W = 1200                  # every image is 1200 px wide: a phone shows it whole once tapped
MARGIN = 14
RULE = (205, 205, 198)    # light grid lines
ZEBRA = (243, 243, 238)


def pcolor(party: str):
    return player(PARTY_INDEX[party]).color


def plight(party: str):
    return player(PARTY_INDEX[party]).light


def pdark(party: str):
    return mix(pcolor(party), INK, 0.45)


def money(v: int) -> str:
    """$12,500,000 -> '$12.5M'."""
    if v == 0:
        return "$0"
    m = v / 1_000_000
    return f"${m:.1f}M".replace(".0M", "M") if abs(m) >= 1 else f"${v:,}"


def _pawn_label(p: dict) -> str:
    return p.get("party", "?") if p.get("role") != "VP" else "VP"


def _draw_pawn(img: Image.Image, xy, p: dict, size: float) -> None:
    party = p.get("party")
    if party not in PARTY_INDEX:
        draw_marker(img, xy, 7, size=size, label="?")
        return
    draw_marker(img, xy, PARTY_INDEX[party], size=size if p.get("role") != "VP" else size * 0.86,
                label=_pawn_label(p))


def _players(view: dict) -> list[dict]:
    return list(view.get("players") or [])


# ======================================================================= tally sheets

COL_GAP = 22
COL_W = (W - 2 * MARGIN - COL_GAP) // 2
MIN_PITCH = 13            # px from one block to the next: the smallest that still shows a vote's mark
LB_W = 150                # the label box of a state
CAT_W = 52
ROW_H = 22
STATE_GAP = 10
REGION_H = 36
SHEET_TOP = 150           # title, players, legend


def _sheet_struct(view: dict, k: int) -> tuple:
    """Everything that fixes a sheet's grid: its regions and states with their
    capacities, pre-marks and names, the categories and the players on it."""
    cats = tuple(view.get("categories") or CAT_ABBR)
    regions = []
    sheets = view.get("sheets") or []
    for region in (sheets[k] if k < len(sheets) else []):
        codes = []
        for code in (view.get("regions") or {}).get(region, []):
            st = view["states"].get(code)
            if st is None:
                continue
            caps = tuple(tuple(int((st["blocks"].get(c) or {}).get(p, [0, 0])[0]) for p in PARTIES) for c in cats)
            codes.append((code, st.get("name", code), int(st.get("ev", 0)), int(st.get("to_win", 0)),
                          st.get("lean"), caps))
        regions.append((region, tuple(codes)))
    players = tuple((p.get("name", "?"), p.get("party"), p.get("role"), p.get("sheet"), p.get("home"))
                    for p in _players(view))
    return (k, cats, tuple(regions), players)


def _state_h(n_cats: int) -> int:
    return max(5, n_cats) * ROW_H


@lru_cache(maxsize=8)
def _sheet_layout(struct: tuple) -> dict:
    """Column placement: regions flow down column 1 then column 2, split where
    the taller column is shortest; a region cut in two repeats its header."""
    k, cats, regions, players = struct
    sh = _state_h(len(cats)) + STATE_GAP
    items = [(region, st) for region, states in regions for st in states]
    n = len(items)

    def heights(split: int) -> tuple[int, int]:
        h1 = sum(sh for _ in items[:split]) + REGION_H * len({r for r, _ in items[:split]})
        h2 = sum(sh for _ in items[split:]) + REGION_H * len({r for r, _ in items[split:]})
        return h1, h2

    split = min(range(n + 1), key=lambda s: (max(heights(s)), -s)) if n else 0
    maxcap = max([c for _, st in items for row in st[5] for c in row] + [1])
    # The rulebook's sheets (setting blocks=rulebook) have rows of up to 27 blocks: the sheet grows
    # wider rather than shrink a block below MIN_PITCH.
    side_w = max((COL_W - LB_W - 8 - CAT_W) // 2, MIN_PITCH * maxcap)
    col_w = LB_W + 8 + CAT_W + 2 * side_w
    pitch = max(MIN_PITCH, min(30, side_w // maxcap))
    cols: list[list] = [[], []]
    boxes = {}
    for ci, chunk in enumerate((items[:split], items[split:])):
        x = MARGIN + ci * (col_w + COL_GAP)
        y = SHEET_TOP
        last_region = None
        for region, st in chunk:
            if region != last_region:
                cont = any(r == region for r, _ in items[:split]) and ci == 1
                cols[ci].append(("region", region, cont, x, y))
                y += REGION_H
                last_region = region
            boxes[st[0]] = (x, y)
            cols[ci].append(("state", st, x, y))
            y += sh
    height = max([y for col in cols for *_, y in col] + [SHEET_TOP]) + sh + 24
    return {"cols": cols, "boxes": boxes, "pitch": pitch, "side_w": side_w, "height": height,
            "cats": cats, "col_w": col_w, "width": max(W, 2 * MARGIN + 2 * col_w + COL_GAP)}


def _cell_x(layout: dict, x: int, party: str, i: int) -> int:
    """Left edge of block i (0 = the first filled) of a party in a row starting at x."""
    pitch, side_w = layout["pitch"], layout["side_w"]
    if party == "D":
        return x + LB_W + 8 + i * pitch
    return x + LB_W + 8 + 2 * side_w + CAT_W - (i + 1) * pitch + 3


@lru_cache(maxsize=16)
def _cell_sprite(kind: str, w: int, h: int) -> Image.Image:
    """A block: 'empty', 'D', 'R' (a vote), 'D*', 'R*' (pre-marked)."""
    ss = 4
    big = Image.new("RGB", (w * ss, h * ss), WHITE)
    d = ImageDraw.Draw(big)
    if kind == "empty":
        d.rectangle((0, 0, w * ss - 1, h * ss - 1), fill=WHITE, outline=(170, 170, 164), width=ss)
    else:
        party, pre = kind[0], kind.endswith("*")
        fill = pdark(party) if pre else pcolor(party)
        d.rectangle((0, 0, w * ss - 1, h * ss - 1), fill=fill, outline=pdark(party), width=ss)
        cx, cy = w * ss / 2, h * ss / 2
        r = min(w, h) * ss * 0.30
        if pre:
            draw_shape(d, "star", (cx, cy), r * 2.5, WHITE)
        elif party == "D":
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=WHITE, width=round(2.2 * ss))
        else:
            lw = round(2.4 * ss)
            d.line([(cx - r, cy - r), (cx + r, cy + r)], fill=WHITE, width=lw)
            d.line([(cx - r, cy + r), (cx + r, cy - r)], fill=WHITE, width=lw)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def _cell_size(layout: dict) -> tuple[int, int]:
    return layout["pitch"] - 3, ROW_H - 4


@lru_cache(maxsize=128)
def _state_name_lines(name: str, room: int) -> tuple[int, tuple[str, ...]]:
    """(font size, lines): a state's name on one or two lines, never cut mid-word
    unless a single word is too long even at the smaller size."""
    for size in (17, 15):
        fnt = font(size, bold=True, condensed=True)
        if all(fnt.getlength(w) <= room for w in name.split()):
            lines = wrap_text(name, fnt, room)
            if len(lines) <= 2:
                return size, tuple(lines)
    fnt = font(15, bold=True, condensed=True)
    lines = wrap_text(name, fnt, room)
    return 15, (lines[0], ellipsize(" ".join(lines[1:]), fnt, room)) if len(lines) > 1 else tuple(lines)


def _label_box(img: Image.Image, st: tuple, x: int, y: int, h: int, won: str | None = None,
               homes: tuple = ()) -> None:
    """The state's label box: name, electoral votes, blocks to win (drawn once
    in the grid; drawn again in the winner's colour once the state is won)."""
    code, name, ev, to_win, lean, caps = st
    draw = ImageDraw.Draw(img)
    bg = PANEL if won is None else pcolor(won)
    fg = INK if won is None else WHITE
    muted = INK_MUTED if won is None else WHITE
    draw.rounded_rectangle((x, y, x + LB_W, y + h - 2), radius=6, fill=bg,
                           outline=None if won is None else pdark(won), width=2)
    room = LB_W - 16 - 26 * len(homes)
    size, lines = _state_name_lines(name, room)
    for i, line in enumerate(lines):
        stamp_text(img, (x + 8, y + 13 + 18 * i), line, size, fg, bold=True, condensed=True)
    ey = y + 13 + 18 * len(lines) + 13
    w = stamp_text(img, (x + 8, ey), str(ev), 24, fg, bold=True)
    stamp_text(img, (x + 12 + w, ey + 3), "EV", 15, muted, bold=True)
    if won is None:
        stamp_text(img, (x + 8, y + h - 16), f"to win {to_win}", 14, muted)
    for i, (party, label) in enumerate(homes):
        draw_marker(img, (x + LB_W - 15 - 26 * i, y + 14), PARTY_INDEX[party], size=21, label=label)


@lru_cache(maxsize=8)
def _sheet_base(struct: tuple) -> Image.Image:
    """The empty sheet: title, players, legend, region headers, label boxes,
    category labels, empty blocks and the pre-marked blocks."""
    k, cats, regions, players = struct
    layout = _sheet_layout(struct)
    width, col_w = layout["width"], layout["col_w"]
    img = Image.new("RGB", (width, layout["height"]), PAPER)
    draw = ImageDraw.Draw(img)
    names = " & ".join(r for r, _ in regions)
    stamp_text(img, (MARGIN, 26), f"Tally sheet {k + 1}: {names}", 28, INK, bold=True)
    # who fills this sheet
    on = [p for p in players if p[3] is None or p[3] == k]
    x = MARGIN
    for party in PARTIES:
        people = [p for p in on if p[1] == party]
        if not people:
            continue
        for p in people:
            draw_marker(img, (x + 13, 66), PARTY_INDEX[party], size=26 if p[2] != "VP" else 22,
                        label=party if p[2] != "VP" else "VP")
            label = f"{ellipsize(p[0], font(18, bold=True), 230)} ({PARTY_ONE[party]}"
            label += f" · {ROLE_NAME.get(p[2], '')})" if len(players) > 2 else ")"
            w = stamp_text(img, (x + 32, 66), label, 18, INK, bold=True)
            x += 32 + w + 26
    # legend
    ly = 104
    cw, ch = 22, 18
    x = MARGIN
    for kind, text in (("D", "Democratic vote"), ("R", "Republican vote"), ("pre", "pre-marked"),
                       ("cross", "won: empty blocks crossed out"), ("home", "home state")):
        if kind == "pre":
            img.paste(_cell_sprite("D*", cw, ch), (x, ly - ch // 2))
            img.paste(_cell_sprite("R*", cw, ch), (x + cw + 3, ly - ch // 2))
            x += cw + 3
        elif kind == "cross":
            img.paste(_cell_sprite("empty", cw, ch), (x, ly - ch // 2))
            img.paste(_cell_sprite("empty", cw, ch), (x + cw + 3, ly - ch // 2))
            draw.line([(x - 2, ly), (x + 2 * cw + 5, ly)], fill=pcolor("R"), width=3)
            x += 2 * cw + 3
        elif kind == "home":
            draw_marker(img, (x + 11, ly), 0, size=22, label="⌂")
        else:
            img.paste(_cell_sprite(kind, cw, ch), (x, ly - ch // 2))
        x += cw + 8
        x += stamp_text(img, (x, ly), text, 16, INK_MUTED) + 22
    draw.line([(MARGIN, 128), (width - MARGIN, 128)], fill=RULE, width=2)

    homes: dict[str, list] = {}
    for name, party, role, sheet, home in players:
        if home and party in PARTY_INDEX:
            homes.setdefault(home, []).append((party, "⌂"))
    cw, ch = _cell_size(layout)
    empty = _cell_sprite("empty", cw, ch)
    sh = _state_h(len(cats))
    side_w = layout["side_w"]
    for col in layout["cols"]:
        for item in col:
            if item[0] == "region":
                _, region, cont, x, y = item
                draw.rounded_rectangle((x, y + 2, x + col_w, y + REGION_H - 6), radius=6, fill=INK)
                stamp_text(img, (x + 10, y + REGION_H / 2 - 2), region.upper() + (" (cont.)" if cont else ""),
                           19, WHITE, bold=True)
                cxd = x + LB_W + 8 + side_w / 2
                cxr = x + LB_W + 8 + side_w + CAT_W + side_w / 2
                stamp_text(img, (cxd, y + REGION_H / 2 - 2), "Democrats", 15, WHITE, bold=True, anchor="m")
                stamp_text(img, (cxr, y + REGION_H / 2 - 2), "Republicans", 15, WHITE, bold=True, anchor="m")
                continue
            _, st, x, y = item
            code, name, ev, to_win, lean, caps = st
            for r in range(len(cats)):
                if r % 2 == 1:
                    draw.rectangle((x + LB_W + 4, y + r * ROW_H, x + col_w, y + (r + 1) * ROW_H - 1), fill=ZEBRA)
            draw.line([(x, y + sh + STATE_GAP // 2 - 1), (x + col_w, y + sh + STATE_GAP // 2 - 1)],
                      fill=RULE, width=1)
            _label_box(img, st, x, y, sh, None, tuple(homes.get(code, ())))
            ccx = x + LB_W + 8 + side_w + CAT_W / 2
            for r, cat in enumerate(cats):
                ry = y + r * ROW_H
                stamp_text(img, (ccx, ry + ROW_H / 2), CAT_ABBR.get(cat, cat[:4]), 14, INK_MUTED, bold=True,
                           anchor="m")
                for pi, party in enumerate(PARTIES):
                    for i in range(caps[r][pi]):
                        img.paste(empty, (_cell_x(layout, x, party, i), ry + 2))
                    if lean == party and cat == PREMARK_CAT[party] and caps[r][pi] > 0:
                        img.paste(_cell_sprite(party + "*", cw, ch), (_cell_x(layout, x, party, 0), ry + 2))
    return img


def draw_sheet(view: dict, k: int) -> Image.Image:
    struct = _sheet_struct(view, k)
    layout = _sheet_layout(struct)
    img = _sheet_base(struct).copy()
    draw = ImageDraw.Draw(img)
    _, cats, regions, players = struct
    cw, ch = _cell_size(layout)
    sprites = {p: _cell_sprite(p, cw, ch) for p in PARTIES}
    sh = _state_h(len(cats))
    homes: dict[str, list] = {}
    for name, party, role, sheet, home in players:
        if home and party in PARTY_INDEX:
            homes.setdefault(home, []).append((party, "⌂"))
    won_ev = {"D": [0, 0], "R": [0, 0]}
    open_states = 0
    for region, states in regions:
        for st in states:
            code, name, ev, to_win, lean, caps = st
            x, y = layout["boxes"][code]
            sv = view["states"][code]
            blocks = sv.get("blocks") or {}
            won = sv.get("won")
            totals = {}
            for party in PARTIES:
                totals[party] = sum(int((blocks.get(c) or {}).get(party, [0, 0])[1]) for c in cats)
            for r, cat in enumerate(cats):
                ry = y + r * ROW_H
                row = blocks.get(cat) or {}
                for pi, party in enumerate(PARTIES):
                    cap, filled = (row.get(party) or [0, 0])[:2]
                    filled = max(0, min(int(filled), caps[r][pi]))
                    start = 1 if (lean == party and cat == PREMARK_CAT[party] and filled > 0) else 0
                    for i in range(start, filled):
                        img.paste(sprites[party], (_cell_x(layout, x, party, i), ry + 2))
                    if won in PARTY_INDEX and filled < caps[r][pi]:
                        # cross the empty blocks through in the winner's colour
                        a = _cell_x(layout, x, party, filled)
                        b = _cell_x(layout, x, party, caps[r][pi] - 1)
                        x0, x1 = min(a, b) - 2, max(a, b) + cw + 1
                        draw.line([(x0, ry + ROW_H / 2 - 1), (x1, ry + ROW_H / 2 - 1)], fill=pcolor(won), width=3)
            if won in PARTY_INDEX:
                won_ev[won][0] += ev
                won_ev[won][1] += 1
                _label_box(img, st, x, y, sh, won, tuple(homes.get(code, ())))
                _won_tag(img, x, y + sh - 16, won, to_win, sv.get("declared", True))
            else:
                open_states += 1
                _count_chips(img, x, y + sh - 16, totals, to_win)
    # the tally of this sheet, right of the title
    parts = []
    for party in PARTIES:
        ev, n = won_ev[party]
        parts.append(f"{party} {ev} EV ({n} {'state' if n == 1 else 'states'})")
    line = "Won here: " + " · ".join(parts) + f" · {open_states} open"
    stamp_text(img, (layout["width"] - MARGIN, 26), line, 18, INK, bold=True, anchor="r")
    return img


def _count_chips(img: Image.Image, x: int, y: float, totals: dict, to_win: int) -> None:
    """Right of 'to win N': each party's filled blocks on a chip in its colour."""
    draw = ImageDraw.Draw(img)
    cx = x + LB_W - 6
    for party in ("R", "D"):
        t = str(totals[party])
        w = max(24, 8 + 9 * len(t))
        draw.rounded_rectangle((cx - w, y - 10, cx, y + 10), radius=4, fill=pcolor(party))
        stamp_text(img, (cx - w / 2, y), t, 15, WHITE, bold=True, anchor="m")
        cx -= w + 3


def _won_tag(img: Image.Image, x: int, y: float, won: str, to_win: int, declared: bool) -> None:
    """'WON · D' and the crossed-out blocks-to-win box; a won state not yet
    declared (the manual-declare setting) keeps its box and says so."""
    if not declared:
        stamp_text(img, (x + 8, y - 15), f"WON · {won}", 14, WHITE, bold=True)
        stamp_text(img, (x + 8, y + 2), "not declared yet", 13, WHITE, bold=True, condensed=True)
        return
    draw = ImageDraw.Draw(img)
    stamp_text(img, (x + 8, y), f"WON · {won}", 15, WHITE, bold=True)
    bx = x + LB_W - 32
    draw.rectangle((bx, y - 10, bx + 24, y + 10), outline=WHITE, width=2)
    draw.line([(bx + 3, y - 7), (bx + 21, y + 7)], fill=WHITE, width=3)
    draw.line([(bx + 3, y + 7), (bx + 21, y - 7)], fill=WHITE, width=3)


# ======================================================================= the map and the score sheet

MAP_STYLE = MapStyle(labels=False, callouts=True)
MAP_W = W - 2 * MARGIN
MAP_TOP = 130
FILLS = ("lean-D", "lean-R", "won-D", "won-R")
WATER_LABEL = {"HI": (-72, 8)}   # px from the label point


def _usmap() -> USMap:
    return USMap(MAP_W, MAP_STYLE)


def _fill_of(kind: str):
    """(fill colour, stripe colour or None) for a map state kind."""
    party = kind[-1]
    if kind.startswith("won"):
        return pcolor(party), (mix(pcolor(party), WHITE, 0.35) if party == "R" else None)
    return mix(pcolor(party), WHITE, 0.72), (mix(pcolor(party), WHITE, 0.45) if party == "R" else None)


@lru_cache(maxsize=2)
def _map_layers(evs: tuple) -> dict:
    """The map in each colouring (every state in it), labels included; a render
    pastes each state out of the layer of its kind through the state's mask."""
    m = _usmap()
    layers = {}
    codes = [c for c, _ in evs]
    for kind in ("none",) + FILLS:
        if kind == "none":
            img = m.base()
        else:
            fill, stripe = _fill_of(kind)
            img = m.paint({c: fill for c in codes})
            if stripe is not None:
                for c in codes:
                    m.hatch(img, c, stripe, "diagonal", spacing=9)
                img = _restore_lines(m, img, codes)
        _map_labels(img, m, evs, kind)
        layers[kind] = img
    return layers


def _restore_lines(m: USMap, img: Image.Image, codes) -> Image.Image:
    # hatching covered the borders; paint() with the same fills puts them back
    from .core import _base_layers
    _, lines, ink = _base_layers(m.width, m.style)
    img.paste(m.style.border, (0, 0), lines)
    img.paste(LEADER, (0, 0), ink)
    return img


def _map_labels(img: Image.Image, m: USMap, evs: tuple, kind: str) -> None:
    fill = MAP_STYLE.land if kind == "none" else _fill_of(kind)[0]
    fg = text_color_on(fill)
    for code, ev in evs:
        c = m.callouts.get(code)
        if c:
            stamp_text(img, c.code_xy, code, 16, fg, bold=True, anchor="m", condensed=True, halo=fill)
            x0, y0, x1, y1 = c.content
            stamp_text(img, ((x0 + x1) / 2, (y0 + y1) / 2), str(ev), 16, fg, bold=True, anchor="m", halo=fill)
            continue
        (lx, ly), r = m.label_xy(code), m.clearance(code)
        if code in WATER_LABEL:
            # too small for a label inside: beside it in the water, the same in every layer
            dx, dy = WATER_LABEL[code]
            stamp_text(img, (lx + dx, ly + dy), f"{code} {ev}", 16, INK, bold=True, anchor="m", condensed=True,
                       halo=PAPER)
        elif r >= 20:
            stamp_text(img, (lx, ly - 9), code, 16, fg, bold=True, anchor="m", condensed=True, halo=fill)
            stamp_text(img, (lx, ly + 10), str(ev), 16, fg, bold=False, anchor="m", halo=fill)
        else:
            stamp_text(img, (lx, ly), f"{code} {ev}", 15, fg, bold=True, anchor="m", condensed=True, halo=fill)


@lru_cache(maxsize=512)
def _state_piece(evs: tuple, code: str, kind: str) -> tuple[tuple[int, int], Image.Image, Image.Image]:
    """(top-left, the state's box cut from a layer, its mask) — the state's
    polygon (and callout box) grown a little, so its borders come along."""
    m = _usmap()
    boxes = [m.bbox(code)]
    c = m.callouts.get(code)
    if c:
        boxes.append(tuple(round(v) for v in c.box))
    x0 = max(0, min(b[0] for b in boxes) - 2)
    y0 = max(0, min(b[1] for b in boxes) - 2)
    x1 = min(m.width, max(b[2] for b in boxes) + 2)
    y1 = min(m.height, max(b[3] for b in boxes) + 2)
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    d = ImageDraw.Draw(mask)
    for ring in m.polygon(code):
        d.polygon([(x - x0, y - y0) for x, y in ring], fill=255, outline=255, width=2)
    if c:
        bx = c.box
        d.rounded_rectangle((bx[0] - x0 - 1, bx[1] - y0 - 1, bx[2] - x0 + 1, bx[3] - y0 + 1), radius=5, fill=255)
    piece = _map_layers(evs)[kind].crop((x0, y0, x1, y1))
    return (x0, y0), piece, mask


def _map_struct(view: dict) -> tuple:
    return tuple(sorted((c, int(s.get("ev", 0))) for c, s in view["states"].items()))


SCORE_TOP_PAD = 14
CHIP_H, CHIP_GAP = 28, 6


@lru_cache(maxsize=2)
def _map_top(evs: tuple) -> Image.Image:
    """Title band and the neutral map with its legend (the score sheet below varies in height)."""
    m = _usmap()
    img = Image.new("RGB", (W, MAP_TOP + m.height), PAPER)
    img.paste(_map_layers(evs)["none"], (MARGIN, MAP_TOP))
    _map_legend(img, MAP_TOP + m.height - 138)
    return img


def _map_legend(img: Image.Image, y: int) -> None:
    """Bottom right, in the Atlantic below the callouts: what the fills mean."""
    x = W - MARGIN - 150
    draw = ImageDraw.Draw(img)
    for i, (kind, text) in enumerate((("won-D", "won by D"), ("won-R", "won by R"),
                                       ("lean-D", "leans D"), ("lean-R", "leans R"))):
        cy = y + i * 32
        fill, stripe = _fill_of(kind)
        sw = Image.new("RGB", (34, 22), fill)
        if stripe is not None:
            _stripes(sw, stripe, 9, 3)
        img.paste(sw, (x, cy))
        draw.rectangle((x, cy, x + 33, cy + 21), outline=INK_MUTED, width=1)
        stamp_text(img, (x + 42, cy + 11), text, 16, INK)


def _stripes(im: Image.Image, color, spacing: int, width: int) -> None:
    """Diagonal stripes (lower left to upper right) over a whole small image."""
    d = ImageDraw.Draw(im)
    w, h = im.size
    for k in range(-h - spacing, w + spacing, spacing):
        d.line([(k, h), (k + h, 0)], fill=color, width=width)


SCORE_COL_W = (W - 2 * MARGIN - 16) // 2


def _chip_w(text: str) -> int:
    return round(font(16, bold=True).getlength(text)) + 14


def _chip_rows(entries: list[str]) -> int:
    """How many rows of chips the won states of one party need."""
    rows, x = 1, 0
    room = SCORE_COL_W - 28
    for e in entries:
        w = _chip_w(e)
        if x and x + w > room:
            rows, x = rows + 1, 0
        x += w + CHIP_GAP
    return rows


def _won_list(view: dict, party: str) -> list[str]:
    parties = view.get("parties") or {}
    won = (parties.get(party) or {}).get("won")
    if won is None:
        won = [c for c, s in view["states"].items() if s.get("won") == party]
    return [c for c in won if c in view["states"]]


def _score_h(view: dict) -> int:
    players = _players(view)
    per_party = max([sum(1 for p in players if p.get("party") == party) for party in PARTIES] + [1])
    chips = max(_chip_rows([f"{c} {view['states'][c].get('ev', '')}" for c in _won_list(view, party)])
                for party in PARTIES)
    return 56 + per_party * 54 + (48 if per_party > 1 else 34) + 32 + max(2, chips) * (CHIP_H + CHIP_GAP) + 8


def draw_map(view: dict) -> Image.Image:
    evs = _map_struct(view)
    top = _map_top(evs)
    img = Image.new("RGB", (W, top.size[1] + SCORE_TOP_PAD + _score_h(view) + MARGIN), PAPER)
    img.paste(top, (0, 0))
    states = view["states"]
    for code, _ in evs:
        st = states[code]
        won, lean = st.get("won"), st.get("lean")
        if won in PARTY_INDEX:
            kind = "won-" + won
        elif lean in PARTY_INDEX:
            kind = "lean-" + lean
        else:
            continue
        (x0, y0), piece, mask = _state_piece(evs, code, kind)
        img.paste(piece, (MARGIN + x0, MAP_TOP + y0), mask)
    _score_header(img, view)
    _score_sheet(img, view, top.size[1] + SCORE_TOP_PAD)
    return img


def _party_ev(view: dict, party: str) -> int:
    parties = view.get("parties") or {}
    if party in parties and "ev" in parties[party]:
        return int(parties[party]["ev"])
    return sum(int(s.get("ev", 0)) for s in view["states"].values() if s.get("won") == party)


def _score_header(img: Image.Image, view: dict) -> None:
    draw = ImageDraw.Draw(img)
    total = sum(int(s.get("ev", 0)) for s in view["states"].values()) or 538
    to_win = int(view.get("to_elect") or TO_WIN)
    stamp_text(img, (MARGIN, 28), "Race for the White House", 28, INK, bold=True)
    winner = view.get("winner")
    if winner in PARTY_INDEX:
        head = f"{PARTY_NAME[winner]} win the White House!"
    elif view.get("phase") == "home":
        head = "Choosing home states"
    elif view.get("phase") == "over":
        head = "Game over"
    else:
        head = f"First to {to_win} electoral votes wins"
    stamp_text(img, (W - MARGIN, 28), head, 20, INK if winner is None else pcolor(winner), bold=True, anchor="r")
    # the score bar: D from the left, R from the right, 270 in the middle
    x0, x1, y0, y1 = MARGIN, W - MARGIN, 58, 104
    draw.rounded_rectangle((x0, y0, x1, y1), radius=8, fill=WHITE, outline=INK_MUTED, width=2)
    d, r = _party_ev(view, "D"), _party_ev(view, "R")
    span = x1 - x0 - 4
    dw = round(span * min(d, total) / total)
    rw = round(span * min(r, total) / total)
    if dw:
        draw.rectangle((x0 + 2, y0 + 2, x0 + 2 + dw, y1 - 2), fill=pcolor("D"))
    if rw:
        bar = Image.new("RGB", (rw, y1 - y0 - 3), pcolor("R"))
        _stripes(bar, mix(pcolor("R"), WHITE, 0.3), 12, 4)
        img.paste(bar, (x1 - 1 - rw, y0 + 2))
    draw.rounded_rectangle((x0, y0, x1, y1), radius=8, outline=INK_MUTED, width=2)
    mid = x0 + 2 + span * to_win / total
    draw.line([(mid, y0 - 6), (mid, y1 + 6)], fill=INK, width=3)
    stamp_text(img, (mid, y1 + 16), f"{to_win} to win", 15, INK, bold=True, anchor="m")
    ym = (y0 + y1) / 2
    if dw > 90:
        stamp_text(img, (x0 + 12, ym), f"D {d}", 24, WHITE, bold=True, halo=pcolor("D"))
    else:
        stamp_text(img, (x0 + dw + 12, ym), f"D {d}", 24, pdark("D"), bold=True, halo=WHITE)
    if rw > 90:
        stamp_text(img, (x1 - 12, ym), f"R {r}", 24, WHITE, bold=True, anchor="r", halo=pcolor("R"))
    else:
        stamp_text(img, (x1 - rw - 12, ym), f"R {r}", 24, pdark("R"), bold=True, anchor="r", halo=WHITE)


def _party_funds(view: dict, party: str, mine: list) -> int:
    """Funds left: the party's (running mates share one purse) when the view
    says so, else the sum over its candidates."""
    funds = (view.get("parties") or {}).get(party, {}).get("funds")
    if isinstance(funds, int):
        return funds
    return sum(int(p.get("funds", 0)) for p in mine)


def _score_sheet(img: Image.Image, view: dict, top: int) -> None:
    """Score sheet: per party its candidates, funds spent, states won in order."""
    draw = ImageDraw.Draw(img)
    players = _players(view)
    parties = view.get("parties") or {}
    col_w = SCORE_COL_W
    height = _score_h(view)
    for i, party in enumerate(PARTIES):
        x = MARGIN + i * (col_w + 16)
        winner = view.get("winner") == party
        draw.rounded_rectangle((x, top, x + col_w, top + height), radius=10, fill=PANEL,
                               outline=pcolor(party) if winner else None, width=4)
        draw.rounded_rectangle((x, top, x + col_w, top + 44), radius=10, fill=pcolor(party))
        draw.rectangle((x, top + 30, x + col_w, top + 44), fill=pcolor(party))
        stamp_text(img, (x + 14, top + 22), PARTY_NAME[party] + (" win!" if winner else ""), 22, WHITE, bold=True)
        stamp_text(img, (x + col_w - 14, top + 22), f"{_party_ev(view, party)} EV", 22, WHITE, bold=True,
                   anchor="r")
        y = top + 56
        mine = [p for p in players if p.get("party") == party]
        for p in mine:
            _draw_pawn(img, (x + 26, y + 14), p, 30)
            role = ROLE_NAME.get(p.get("role"), "")
            home = p.get("home")
            homes = view["states"].get(home, {}).get("name", home) if home else "not chosen yet"
            stamp_text(img, (x + 50, y + 4), ellipsize(p.get("name", "?"), font(19, bold=True), col_w - 70), 19, INK,
                       bold=True)
            stamp_text(img, (x + 50, y + 26), f"{role} · home state: {homes}", 16, INK_MUTED)
            y += 54
        if not mine:
            y += 54
        spent = sum(int(p.get("spent", 0)) for p in mine) or int((parties.get(party) or {}).get("spent", 0))
        funds = _party_funds(view, party, mine)
        stamp_text(img, (x + 14, y + 10), "Campaign funds spent", 16, INK_MUTED, bold=True)
        stamp_text(img, (x + col_w - 14, y + 10), f"{money(spent)} · {money(funds)} left", 18, INK, bold=True,
                   anchor="r")
        if len(mine) > 1:
            per = " · ".join(f"{ellipsize(p.get('name', '?'), font(15), 140)} {money(int(p.get('spent', 0)))}"
                             for p in mine)
            stamp_text(img, (x + 14, y + 32), ellipsize(per, font(15), col_w - 28), 15, INK_MUTED)
        y += 48 if len(mine) > 1 else 34
        won = _won_list(view, party)
        stamp_text(img, (x + 14, y + 10), f"States won: {len(won)}", 16, INK_MUTED, bold=True)
        if not won:
            stamp_text(img, (x + 160, y + 10), "none yet", 16, INK_MUTED)
        y += 26
        cx = x + 14
        for code in won:
            text = f"{code} {view['states'][code].get('ev', '')}"
            w = _chip_w(text)
            if cx > x + 14 and cx + w > x + col_w - 14:
                cx, y = x + 14, y + CHIP_H + CHIP_GAP
            draw.rounded_rectangle((cx, y, cx + w, y + CHIP_H), radius=6, fill=pcolor(party))
            stamp_text(img, (cx + w / 2, y + CHIP_H / 2), text, 16, WHITE, bold=True, anchor="m")
            cx += w + CHIP_GAP


# ======================================================================= the board

TRACK_ORDER = ("UNION", "CONSERVATIVE", "MINORITY", "LIBERAL")
TRACK_TINT = {"UNION": (214, 236, 216), "LIBERAL": (222, 218, 242), "CONSERVATIVE": (244, 230, 196),
              "MINORITY": (246, 216, 226)}
TRACK_NAME = {"UNION": "Unions", "LIBERAL": "Liberals", "CONSERVATIVE": "Conservatives", "MINORITY": "Minorities"}
KIND_TINT = {"home": (206, 232, 210), "start": (206, 232, 210), "issues": (250, 242, 200), "spin": (232, 226, 246),
             "debate": (250, 222, 222), "tv": (214, 232, 246), "farm": (232, 240, 208), "latino": (246, 228, 210),
             "rally": (244, 236, 226), "california": (226, 238, 240), "convention": (240, 226, 236),
             "values": (238, 232, 214), "bus": (230, 230, 224), "campaign": (236, 236, 230),
             "advance": (236, 236, 230)}
BOARD_TOP = 12
CELL_H = 108               # the top and bottom rows
SIDE_H = 112               # the spaces of the left and right columns
TRACK_HEAD, TRACK_CELL, TRACK_GAP = 28, 112, 10


def _kind_tint(kind: str, label: str):
    if kind in KIND_TINT:
        return KIND_TINT[kind]
    low = f"{kind} {label}".lower()
    for key, tint in KIND_TINT.items():
        if key in low:
            return tint
    return WHITE


def _board_struct(view: dict) -> tuple:
    b = view.get("board") or {}
    circuit = tuple((s.get("kind", ""), s.get("label", "")) for s in b.get("circuit") or [])
    tracks = tuple((t, tuple((s.get("kind", ""), s.get("label", "")) for s in spaces))
                   for t, spaces in (b.get("tracks") or {}).items())  # the board's own order
    entries = tuple(sorted((b.get("entries") or {}).items()))
    costs = tuple(sorted((k, int(v)) for k, v in (b.get("costs") or {}).items()))
    return circuit, tracks, entries, costs


@lru_cache(maxsize=4)
def _board_layout(struct: tuple) -> dict:
    circuit, tracks, entries, costs = struct
    n = max(4, len(circuit))
    a = n // 4 + 1                      # spaces on the top row (and bottom), corners included
    b = (n - 2 * a) // 2                # spaces on each side, corners excluded
    extra = n - 2 * a - 2 * b           # 0 or 1: one more on the right side
    cw = (W - 2 * MARGIN) / a
    right_n, left_n = b + extra, b
    inner_need = len(tracks) * (TRACK_HEAD + TRACK_CELL + TRACK_GAP) + 230
    side_h = max(SIDE_H, (inner_need + 32) / max(1, right_n, left_n))
    loop_h = 2 * CELL_H + max(right_n, left_n) * side_h
    cells = []
    x0, y0 = MARGIN, BOARD_TOP
    y_bottom = y0 + loop_h - CELL_H
    for i in range(a):                                  # top row, left to right
        cells.append((x0 + i * cw, y0, cw, CELL_H))
    rh = (loop_h - 2 * CELL_H) / max(1, right_n)
    for i in range(right_n):                            # right side, downwards
        cells.append((x0 + (a - 1) * cw, y0 + CELL_H + i * rh, cw, rh))
    for i in range(a):                                  # bottom row, right to left
        cells.append((x0 + (a - 1 - i) * cw, y_bottom, cw, CELL_H))
    lh = (loop_h - 2 * CELL_H) / max(1, left_n)
    for i in range(left_n):                             # left side, upwards
        cells.append((x0, y_bottom - (i + 1) * lh, cw, lh))
    cells = cells[:len(circuit)]
    inner = (x0 + cw + 16, y0 + CELL_H + 14, x0 + (a - 1) * cw - 16, y_bottom - 14)
    # the side tracks: a header band and a row of spaces each, at the top of the interior
    track_rows = {}
    ty = inner[1]
    iw = inner[2] - inner[0]
    for t, spaces in tracks:
        k = max(1, len(spaces))
        tw = iw / k
        track_rows[t + ":head"] = (inner[0], ty, iw, TRACK_HEAD)
        track_rows[t] = [(inner[0] + j * tw, ty + TRACK_HEAD, tw - 5, TRACK_CELL) for j in range(len(spaces))]
        ty += TRACK_HEAD + TRACK_CELL + TRACK_GAP
    return {"cells": cells, "inner": inner, "tracks": track_rows, "status_top": ty + 4,
            "height": round(BOARD_TOP + loop_h + MARGIN)}


def _fits(label: str, size: int, w: float, room_h: float) -> bool:
    """Does the label fit w × room_h px at this size without breaking a word?"""
    fnt = font(size, bold=True, condensed=True)
    width = round(w - 10)
    return (all(fnt.getlength(word) <= width for word in label.split())
            and len(wrap_text(label, fnt, width)) <= max(1, int((room_h - 6) // (size + 2))))


def _fit_size(labels, w: float, room_h: float) -> int:
    """The largest text size (15 → 13 px) at which every label fits its box."""
    for size in (15, 14, 13):
        if all(_fits(lab, size, w, room_h) for lab in labels):
            return size
    return 13


def _space_label(img: Image.Image, box, label: str, room_h: float, sizes=(15, 14, 13)) -> None:
    """A space's text at the top of its box: the largest size (15 → 13 px,
    condensed bold) whose lines fit in room_h px; cut with '…' only when even
    the smallest does not fit."""
    x, y, w, h = box
    width = round(w - 10)
    choice = None
    for size in sizes:
        if _fits(label, size, w, room_h):
            choice = (size, wrap_text(label, font(size, bold=True, condensed=True), width))
            break
    if choice is None:
        size = 13
        fnt = font(size, bold=True, condensed=True)
        lines = wrap_text(label, fnt, width)
        fits = max(1, int((room_h - 6) // (size + 2)))
        choice = (size, lines[:fits - 1] + [ellipsize(" ".join(lines[fits - 1:]), fnt, width)])
    size, lines = choice
    for i, line in enumerate(lines):
        stamp_text(img, (x + w / 2, y + 6 + size / 2 + i * (size + 2)), line, size, INK, bold=True,
                   condensed=True, anchor="m")


@lru_cache(maxsize=4)
def _board_base(struct: tuple) -> Image.Image:
    circuit, tracks, entries, costs = struct
    lay = _board_layout(struct)
    img = Image.new("RGB", (W, lay["height"]), PAPER)
    draw = ImageDraw.Draw(img)
    entry_of: dict[int, list] = {}
    for t, idx in entries:
        entry_of.setdefault(idx, []).append(t)
    for i, ((kind, label), (x, y, w, h)) in enumerate(zip(circuit, lay["cells"])):
        tint = TRACK_TINT.get(entry_of[i][0], PANEL) if i in entry_of else _kind_tint(kind, label)
        draw.rectangle((x, y, x + w, y + h), fill=tint, outline=INK_MUTED, width=2)
        for j, t in enumerate(entry_of.get(i, [])):
            ty = y + h - 12 - 18 * j
            draw.rectangle((x + 4, ty - 9, x + w - 4, ty + 8), fill=WHITE)
            stamp_text(img, (x + w / 2, ty), f"enter the {CAT_ABBR.get(t, t[:3])} track", 13, INK, bold=True,
                       anchor="m", condensed=True)
        if i == 0:
            draw.rectangle((x + 2, y + 2, x + w - 2, y + h - 2), outline=INK, width=4)
        _space_label(img, (x, y, w, h), label, h - 40 - 18 * len(entry_of.get(i, [])))
    inner = lay["inner"]
    stamp_text(img, (inner[2], inner[3] - 2), "clockwise from Start (top left) →", 14, INK_MUTED, anchor="r")
    cost = dict(costs)
    for t, spaces in tracks:
        hx, hy, hw, hh = lay["tracks"][t + ":head"]
        draw.rounded_rectangle((hx, hy, hx + hw - 5, hy + hh - 2), radius=6, fill=mix(TRACK_TINT.get(t, PANEL), INK,
                                                                                     0.12))
        head = f"CAMPAIGN for {TRACK_NAME.get(t, t.title()).upper()}"
        w = stamp_text(img, (hx + 10, hy + hh / 2 - 1), head, 16, INK, bold=True)
        c = cost.get(t)
        if c is not None:
            stamp_text(img, (hx + 22 + w, hy + hh / 2 - 1),
                       f"entry {money(c)} · one die per move" if c else "free entry · one die per move", 15, INK)
        boxes = lay["tracks"][t]
        if boxes:
            size = _fit_size([label for _, label in spaces], boxes[0][2], boxes[0][3] - 28)
        for (kind, label), (x, y, w, h) in zip(spaces, boxes):
            draw.rectangle((x, y, x + w, y + h), fill=TRACK_TINT.get(t, WHITE), outline=INK_MUTED, width=2)
            _space_label(img, (x, y, w, h), label, h - 28, (size,))
    return img


def _die(img: Image.Image, x: float, y: float, value: int, size: int = 50) -> None:
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((x, y, x + size, y + size), radius=9, fill=WHITE, outline=INK, width=3)
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
             5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
    r = size * 0.09
    for gx, gy in spots.get(value, []):
        cx, cy = x + size * (0.25 + 0.25 * gx), y + size * (0.25 + 0.25 * gy)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    if value not in spots:
        stamp_text(img, (x + size / 2, y + size / 2), str(value), 22, INK, bold=True, anchor="m")


def draw_board(view: dict) -> Image.Image:
    struct = _board_struct(view)
    lay = _board_layout(struct)
    img = _board_base(struct).copy()
    players = _players(view)
    entry_cells = {i for _, i in struct[2]}
    # pawns, grouped by the space they stand on
    at: dict[tuple, list] = {}
    for p in players:
        sp = p.get("space") or {}
        at.setdefault((sp.get("track"), int(sp.get("index", 0))), []).append(p)
    for (track, idx), ps in at.items():
        cells = lay["cells"] if track is None else lay["tracks"].get(track, [])
        if not cells:
            continue
        idx = max(0, min(idx, len(cells) - 1))
        x, y, w, h = cells[idx]
        size = min(34.0 if track is None else 30.0, (w - 8) / len(ps) - 2)
        step = (w - 6) / len(ps)
        lift = 24 if track is None and idx in entry_cells else 5 if track is None else 2
        for j, p in enumerate(ps):
            _draw_pawn(img, (x + 3 + step * (j + 0.5), y + h - size / 2 - lift), p, size)
    _board_status(img, view, lay)
    return img


def _plain(text: str) -> str:
    return " ".join(str(text).replace("`", "").replace("**", "").split())


def _board_status(img: Image.Image, view: dict, lay: dict) -> None:
    x0, _, x1, y1 = lay["inner"]
    y = lay["status_top"]
    players = _players(view)
    by_seat = {p.get("seat", i): p for i, p in enumerate(players)}
    left_w = 440
    # the last roll
    dice = [int(v) for v in (view.get("dice") or [])][:2]
    stamp_text(img, (x0, y + 25), "Last roll", 18, INK, bold=True)
    dx = x0 + 96
    if dice:
        for k, v in enumerate(dice):
            _die(img, dx + k * 60, y, v)
        stamp_text(img, (dx + 60 * len(dice) + 2, y + 25), f"= {sum(dice)}", 24, INK, bold=True)
    else:
        stamp_text(img, (dx, y + 25), "none yet", 18, INK_MUTED)
    rnd = view.get("round")
    if isinstance(rnd, int) and view.get("phase") == "play":
        text = f"Round {rnd}" + (f" (a stalled race ends after {view['max_rounds']})"
                                 if isinstance(view.get("max_rounds"), int) else "")
        stamp_text(img, (x0, y + 70), text, 15, INK_MUTED)
    # whose turn, what is being placed or decided, or the result
    ty = y + 100
    winner = view.get("winner")
    turn = view.get("turn")
    if winner in PARTY_INDEX:
        stamp_text(img, (x0, ty), f"{PARTY_NAME[winner]} win!", 26, pcolor(winner), bold=True)
        ty += 30
        lines = wrap_text(_plain(view.get("outcome") or ""), font(16), left_w)[:3]
    else:
        if view.get("phase") == "home":
            stamp_text(img, (x0, ty), "Choosing home states", 22, INK, bold=True)
        elif view.get("phase") == "over":
            stamp_text(img, (x0, ty), "Game over", 22, INK, bold=True)
        elif turn in by_seat:
            p = by_seat[turn]
            _draw_pawn(img, (x0 + 15, ty), p, 30)
            stamp_text(img, (x0 + 38, ty), ellipsize(f"{p.get('name', '?')}'s turn", font(22, bold=True),
                                                     left_w - 40), 22, INK, bold=True)
        ty += 30
        lines = []
        for key in ("pending", "choice"):
            item = view.get(key)
            if item and item.get("text"):
                who = by_seat.get(item.get("seat"), {}).get("name", "?")
                lines += wrap_text(f"{who} now: {_plain(item['text'])}", font(16), left_w)
        lines = lines[:4]
    for i, line in enumerate(lines):
        stamp_text(img, (x0, ty + 21 * i), line, 16, INK)
    # the players and where they are
    px = x0 + left_w + 30
    ImageDraw.Draw(img).line([(px - 16, y), (px - 16, y1 - 24)], fill=RULE, width=2)
    for i, p in enumerate(players):
        cy = y + 18 + i * 50
        _draw_pawn(img, (px + 16, cy + 6), p, 30)
        name = ellipsize(p.get("name", "?"), font(18, bold=True), x1 - px - 44)
        stamp_text(img, (px + 40, cy - 3), name, 18, INK, bold=True)
        party = PARTY_ONE.get(p.get("party"), "")
        sp = p.get("space") or {}
        where = f" · on the {CAT_ABBR.get(sp['track'], sp['track'])} track" if sp.get("track") else ""
        stamp_text(img, (px + 40, cy + 18), f"{party} · {ROLE_NAME.get(p.get('role'), '')}{where}", 15, INK_MUTED)


# ======================================================================= encoding and diffs

def _sample_view() -> dict:
    """A made-up game that uses every colour the renderer draws (both parties'
    votes, pre-marks, won and leaning states, every track and space tint), to
    derive the fixed PNG palette from."""
    cats = list(CAT_ABBR)
    names = ("Alabama", "Alaska", "New Hampshire", "Texas", "Ohio", "Oregon", "Iowa", "Utah")
    codes = ("AL", "AK", "NH", "TX", "OH", "OR", "IA", "UT", "CA", "NY", "FL", "PA", "MA", "RI", "DC")
    states = {}
    from .core import state_codes
    for k, code in enumerate(state_codes()):
        won = ("D", "R", None, None, None)[k % 5]
        lean = ("D", "R", None)[k % 3]
        blocks = {c: {"D": [6, (k + j) % 7], "R": [6, (k + 2 * j) % 7]} for j, c in enumerate(cats)}
        states[code] = {"name": names[k % len(names)], "ev": 3 + k % 30, "region": "NE" if k < 26 else "W",
                        "lean": lean, "to_win": 16, "blocks": blocks, "won": won, "declared": True}
    regions = {"NE": list(state_codes())[:26], "W": list(state_codes())[26:]}
    players = [{"seat": i, "name": f"Player {i}", "party": "DR"[i % 2], "role": "P" if i < 2 else "VP",
                "sheet": i // 2, "home": ("TX", "OH", "CA", "NY")[i], "funds": 1, "spent": 1,
                "space": {"track": (None, "UNION", "LIBERAL", "MINORITY")[i], "index": 1}} for i in range(4)]
    kinds = list(KIND_TINT) + ["votes"]
    circuit = [{"kind": kinds[i % len(kinds)], "label": "Place 3 votes"} for i in range(40)]
    tracks = {t: [{"kind": "votes", "label": "2 votes"}] * 6 for t in TRACK_ORDER}
    entries = {t: 4 + 9 * i for i, t in enumerate(TRACK_ORDER)}
    parties = {p: {"ev": 200, "won": [c for c in codes[:8]], "spent": 2} for p in PARTIES}
    return {"game": PREFIX, "phase": "play", "turn": 0, "players": players, "parties": parties,
            "regions": regions, "sheets": [["NE"], ["W"]], "categories": cats, "states": states,
            "board": {"circuit": circuit, "tracks": tracks, "entries": entries}, "dice": [3, 6],
            "pending": {"seat": 0, "kind": "votes", "text": "3 votes", "remaining": 2}, "last": "", "winner": None}


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed 256-colour palette derived once from sample images."""
    v = _sample_view()
    samples = [draw_sheet(v, 0), draw_map(v), draw_board(v)]
    # keep the sample small: a horizontal band from each is plenty of every colour
    return palette_from([im.crop((0, 0, W, min(im.size[1], 900))) for im in samples])


def encode(image: Image.Image) -> bytes:
    return encode_on_palette(image, _palette())


def _people(view: dict, keys) -> list:
    return [{k: p.get(k) for k in keys} for p in _players(view)]


def sheet_inputs(view: dict, k: int) -> dict:
    """What sheet k is drawn from: its states, whose sheet it is, home states."""
    sheets = view.get("sheets") or []
    regions = sheets[k] if k < len(sheets) else []
    codes = [c for r in regions for c in (view.get("regions") or {}).get(r, [])]
    return {"regions": [(r, (view.get("regions") or {}).get(r)) for r in regions],
            "categories": view.get("categories"),
            "states": {c: view["states"].get(c) for c in codes},
            "players": _people(view, ("name", "party", "role", "sheet", "home"))}


def map_inputs(view: dict) -> dict:
    return {"states": {c: (s.get("ev"), s.get("name"), s.get("won"), s.get("lean")) for c, s in view["states"].items()},
            "parties": view.get("parties"), "winner": view.get("winner"), "phase": view.get("phase"),
            "to_elect": view.get("to_elect"),
            "players": _people(view, ("name", "party", "role", "home", "funds", "spent"))}


def board_inputs(view: dict) -> dict:
    pending = view.get("pending")
    choice = view.get("choice")
    return {"board": view.get("board"), "dice": view.get("dice"), "turn": view.get("turn"),
            "phase": view.get("phase"), "winner": view.get("winner"), "outcome": view.get("outcome"),
            "round": view.get("round"), "max_rounds": view.get("max_rounds"),
            "pending": (pending.get("seat"), pending.get("text")) if pending else None,
            "choice": (choice.get("seat"), choice.get("text")) if choice else None,
            "players": _people(view, ("seat", "name", "party", "role", "space"))}


def render(view: dict, previous: dict | None = None) -> list[tuple[str, bytes]]:
    """The images whose inputs changed since `previous` (all of them without it)."""
    if previous is not None and previous == view:
        return []
    out = []

    def changed(inputs) -> bool:
        if previous is None:
            return True
        try:
            return inputs(previous) != inputs(view)
        except (KeyError, TypeError, AttributeError):
            return True

    if changed(map_inputs):
        out.append((f"{PREFIX}-map.png", encode(draw_map(view))))
    for k in range(len(view.get("sheets") or [])):
        if changed(lambda v, k=k: sheet_inputs(v, k)):
            out.append((f"{PREFIX}-sheet-{k + 1}.png", encode(draw_sheet(view, k))))
    if view.get("board") and changed(board_inputs):
        out.append((f"{PREFIX}-board.png", encode(draw_board(view))))
    return out
