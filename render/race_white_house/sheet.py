"""The tally sheets (`race-white-house-sheet-1.png`, `-sheet-2.png`) as on the table.

Each sheet holds two regions in two columns. A state is a row group: a label box (name, electoral
votes, each party's filled blocks against the number needed to win) and five category rows (UN LIB
CON MIN FARM) with the Democratic blocks on the left, filled from the left edge, and the Republican
blocks on the right, filled from the right edge (the players face each other across the sheet). A
Democratic vote is a blue block with a white ring, a Republican vote a vermillion block with a white
cross (Okabe–Ito colours: the side, the colour and the mark each tell the party). The pre-marked
block is darker with a white star. A won state's label box takes the winner's colour with "WON" and
its empty blocks are crossed through in the winner's colour.

The empty grid of a sheet (labels, blocks, pre-marks) is cached by what fixes it; a render pastes
the votes' block sprites onto a copy.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from ..core import INK, INK_MUTED, PANEL, PAPER, WHITE, draw_marker, draw_shape, ellipsize, font, stamp_text, wrap_text
from .style import (CAT_ABBR, MARGIN, PARTIES, PARTY_INDEX, PARTY_ONE, PREMARK_CAT, ROLE_NAME, RULE, ZEBRA, W, pcolor,
                    pdark, players_of)

if TYPE_CHECKING:
    from engines.race_white_house.views import RWHView


COL_GAP = 22
COL_W = (W - 2 * MARGIN - COL_GAP) // 2
MIN_PITCH = 13            # px from one block to the next: the smallest that still shows a vote's mark
LB_W = 150                # the label box of a state
CAT_W = 52
ROW_H = 22
STATE_GAP = 10
REGION_H = 36
SHEET_TOP = 150           # title, players, legend


def sheet_struct(view: RWHView, k: int) -> tuple:
    """Everything that fixes a sheet's grid: its regions and states with their
    capacities, pre-marks and names, the categories and the players on it."""
    cats = tuple(view["categories"] or CAT_ABBR)
    regions = []
    sheets = view["sheets"]
    for region in (sheets[k] if k < len(sheets) else []):
        codes = []
        for code in view["regions"].get(region, []):
            st = view["states"].get(code)
            if st is None:
                continue
            caps = tuple(tuple(int((st["blocks"].get(c) or {}).get(p, [0, 0])[0]) for p in PARTIES) for c in cats)
            codes.append((code, st["name"], int(st["ev"]), int(st["to_win"]), st["lean"], caps))
        regions.append((region, tuple(codes)))
    players = tuple((p["name"], p["party"], p["role"], p["sheet"], p["home"]) for p in players_of(view))
    return (k, cats, tuple(regions), players)


def _state_h(n_cats: int) -> int:
    return max(5, n_cats) * ROW_H


@lru_cache(maxsize=8)
def sheet_layout(struct: tuple) -> dict:
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


def cell_x(layout: dict, x: int, party: str, i: int) -> int:
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
    layout = sheet_layout(struct)
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
    for _name, party, _role, _sheet, home in players:
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
                        img.paste(empty, (cell_x(layout, x, party, i), ry + 2))
                    if lean == party and cat == PREMARK_CAT[party] and caps[r][pi] > 0:
                        img.paste(_cell_sprite(party + "*", cw, ch), (cell_x(layout, x, party, 0), ry + 2))
    return img


def draw_sheet(view: RWHView, k: int) -> Image.Image:
    struct = sheet_struct(view, k)
    layout = sheet_layout(struct)
    img = _sheet_base(struct).copy()
    draw = ImageDraw.Draw(img)
    _, cats, regions, players = struct
    cw, ch = _cell_size(layout)
    sprites = {p: _cell_sprite(p, cw, ch) for p in PARTIES}
    sh = _state_h(len(cats))
    homes: dict[str, list] = {}
    for _name, party, _role, _sheet, home in players:
        if home and party in PARTY_INDEX:
            homes.setdefault(home, []).append((party, "⌂"))
    won_ev = {"D": [0, 0], "R": [0, 0]}
    open_states = 0
    for _region, states in regions:
        for st in states:
            code, name, ev, to_win, lean, caps = st
            x, y = layout["boxes"][code]
            sv = view["states"][code]
            blocks = sv["blocks"]
            won = sv["won"]
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
                        img.paste(sprites[party], (cell_x(layout, x, party, i), ry + 2))
                    if won in PARTY_INDEX and filled < caps[r][pi]:
                        # cross the empty blocks through in the winner's colour
                        a = cell_x(layout, x, party, filled)
                        b = cell_x(layout, x, party, caps[r][pi] - 1)
                        x0, x1 = min(a, b) - 2, max(a, b) + cw + 1
                        draw.line([(x0, ry + ROW_H / 2 - 1), (x1, ry + ROW_H / 2 - 1)], fill=pcolor(won), width=3)
            if won in PARTY_INDEX:
                won_ev[won][0] += ev
                won_ev[won][1] += 1
                _label_box(img, st, x, y, sh, won, tuple(homes.get(code, ())))
                _won_tag(img, x, y + sh - 16, won, to_win, sv["declared"])
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
