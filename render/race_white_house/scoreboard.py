"""The U.S. map with the score sheet (`race-white-house-map.png`).

Won states in the party colour (Republican states also striped, so colour is never the only cue),
leaning states not yet won in a light tint (striped likewise), each state's electoral votes under
its postal code; the score bar towards 270 and the score sheet (each candidate's name, role and
home state, funds spent and left, the states won in order with their electoral votes).

The map's five colourings are cached; a render pastes each coloured state out of its layer.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from ..core import (INK, INK_MUTED, LEADER, PANEL, PAPER, WHITE, MapStyle, USMap, _base_layers, ellipsize, font, mix,
                    stamp_text, text_color_on)
from .style import (MARGIN, PARTIES, PARTY_INDEX, PARTY_NAME, ROLE_NAME, TO_WIN, W, draw_pawn, money, party_view,
                    pcolor, pdark, players_of)

if TYPE_CHECKING:
    from engines.race_white_house.views import PlayerView, RWHView


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
        bx0, by0, bx1, by1 = c.box
        boxes.append((round(bx0), round(by0), round(bx1), round(by1)))
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


def _map_struct(view: RWHView) -> tuple:
    return tuple(sorted((c, int(s["ev"])) for c, s in view["states"].items()))


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


def _won_list(view: RWHView, party: str) -> list[str]:
    pv = party_view(view, party)
    won = pv["won"] if pv else None
    if won is None:
        won = [c for c, s in view["states"].items() if s["won"] == party]
    return [c for c in won if c in view["states"]]


def _score_h(view: RWHView) -> int:
    players = players_of(view)
    per_party = max([sum(1 for p in players if p["party"] == party) for party in PARTIES] + [1])
    chips = max(_chip_rows([f"{c} {view['states'][c]['ev']}" for c in _won_list(view, party)])
                for party in PARTIES)
    return 56 + per_party * 54 + (48 if per_party > 1 else 34) + 32 + max(2, chips) * (CHIP_H + CHIP_GAP) + 8


def draw_map(view: RWHView) -> Image.Image:
    evs = _map_struct(view)
    top = _map_top(evs)
    img = Image.new("RGB", (W, top.size[1] + SCORE_TOP_PAD + _score_h(view) + MARGIN), PAPER)
    img.paste(top, (0, 0))
    states = view["states"]
    for code, _ in evs:
        st = states[code]
        won, lean = st["won"], st["lean"]
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


def _party_ev(view: RWHView, party: str) -> int:
    pv = party_view(view, party)
    if pv is not None and "ev" in pv:
        return int(pv["ev"])
    return sum(int(s["ev"]) for s in view["states"].values() if s["won"] == party)


def _score_header(img: Image.Image, view: RWHView) -> None:
    draw = ImageDraw.Draw(img)
    total = sum(int(s["ev"]) for s in view["states"].values()) or 538
    to_win = int((view["to_elect"] if "to_elect" in view else None) or TO_WIN)  # the palette's sample has none
    stamp_text(img, (MARGIN, 28), "Race for the White House", 28, INK, bold=True)
    winner = view["winner"]
    if winner in PARTY_INDEX:
        head = f"{PARTY_NAME[winner]} win the White House!"
    elif view["phase"] == "home":
        head = "Choosing home states"
    elif view["phase"] == "over":
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


def _party_spent(view: RWHView, party: str) -> int:
    pv = party_view(view, party)
    return pv["spent"] if pv else 0


def _party_funds(view: RWHView, party: str, mine: list[PlayerView]) -> int:
    """Funds left: the party's (running mates share one purse) when the view
    says so, else the sum over its candidates."""
    pv = party_view(view, party)
    funds = pv["funds"] if pv is not None and "funds" in pv else None  # the palette's sample has none
    if isinstance(funds, int):
        return funds
    return sum(int(p["funds"]) for p in mine)


def _score_sheet(img: Image.Image, view: RWHView, top: int) -> None:
    """Score sheet: per party its candidates, funds spent, states won in order."""
    draw = ImageDraw.Draw(img)
    players = players_of(view)
    col_w = SCORE_COL_W
    height = _score_h(view)
    for i, party in enumerate(PARTIES):
        x = MARGIN + i * (col_w + 16)
        winner = view["winner"] == party
        draw.rounded_rectangle((x, top, x + col_w, top + height), radius=10, fill=PANEL,
                               outline=pcolor(party) if winner else None, width=4)
        draw.rounded_rectangle((x, top, x + col_w, top + 44), radius=10, fill=pcolor(party))
        draw.rectangle((x, top + 30, x + col_w, top + 44), fill=pcolor(party))
        stamp_text(img, (x + 14, top + 22), PARTY_NAME[party] + (" win!" if winner else ""), 22, WHITE, bold=True)
        stamp_text(img, (x + col_w - 14, top + 22), f"{_party_ev(view, party)} EV", 22, WHITE, bold=True,
                   anchor="r")
        y = top + 56
        mine = [p for p in players if p["party"] == party]
        for p in mine:
            draw_pawn(img, (x + 26, y + 14), p, 30)
            role = ROLE_NAME.get(p["role"], "")
            home = p["home"]
            if home:
                st = view["states"].get(home)
                homes = st["name"] if st is not None else home
            else:
                homes = "not chosen yet"
            stamp_text(img, (x + 50, y + 4), ellipsize(p["name"], font(19, bold=True), col_w - 70), 19, INK,
                       bold=True)
            stamp_text(img, (x + 50, y + 26), f"{role} · home state: {homes}", 16, INK_MUTED)
            y += 54
        if not mine:
            y += 54
        spent = sum(int(p["spent"]) for p in mine) or int(_party_spent(view, party))
        funds = _party_funds(view, party, mine)
        stamp_text(img, (x + 14, y + 10), "Campaign funds spent", 16, INK_MUTED, bold=True)
        stamp_text(img, (x + col_w - 14, y + 10), f"{money(spent)} · {money(funds)} left", 18, INK, bold=True,
                   anchor="r")
        if len(mine) > 1:
            per = " · ".join(f"{ellipsize(p['name'], font(15), 140)} {money(int(p['spent']))}"
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
            text = f"{code} {view['states'][code]['ev']}"
            w = _chip_w(text)
            if cx > x + 14 and cx + w > x + col_w - 14:
                cx, y = x + 14, y + CHIP_H + CHIP_GAP
            draw.rounded_rectangle((cx, y, cx + w, y + CHIP_H), radius=6, fill=pcolor(party))
            stamp_text(img, (cx + w / 2, y + CHIP_H / 2), text, 16, WHITE, bold=True, anchor="m")
            cx += w + CHIP_GAP
