"""Politics: The Game: the U.S. map of electoral-vote chips, the pawns, and the scoreboard.

One image, `politics-trivia.png`, 1480 px wide:

- The map (left). A state whose EV chip a candidate holds is filled with that
  candidate's tint and striped with their own pattern, so the owner never
  depends on colour alone; unclaimed states stay neutral. Every state shows its
  postal code and electoral votes; the small north-eastern states and D.C. sit
  in callout boxes in the Atlantic. D.C. (where debts are paid and turns are
  missed) has a dark frame. Pawns are the candidates' markers (colour, shape and
  letter) on the state where they stand; a small star in a candidate's colour
  marks their home state.
- The race to 270 (under the map): one bar per candidate with a tick at 270.
- The scoreboard (right): round, whose turn or which runoff, then one row per
  candidate: marker, name, cash, Popular Votes, electoral votes, Gerrymander
  cards in hand (a count: the cards themselves are private), where they stand
  and any debt or missed turns in D.C.; the last roll and path; the question
  on the table (category, state, text and the choices as shown to everyone,
  never which is right); the Wildcard being performed (its kind, never the
  secret word); an offer on the table; and the last lines of the log.

Speed: the canvas with the map, the EV numbers, the D.C. frame and the panel
background is cached per player count; each state's fill and each
(state, pattern) stripe mask is cached, and text is stamped from cached masks.
A render pastes those and encodes on a fixed palette.
"""
from __future__ import annotations

import re
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engines.politics_trivia.views import PlayerView, TriviaView

from .core import _base_layers  # the map's cached line work (borders, callout outlines)
from .core import (
    INK, INK_MUTED, LEADER, PANEL, PAPER, WHITE, MapStyle, USMap, draw_marker, draw_shape, encode_on_palette, mix,
    palette_from, player, stamp_text, state_codes, stripe_mask, text_mask,
)
from .glance import Glance, GlanceSeat, clear_below, record_box, with_glance

PREFIX = "politics-trivia"
MAP_W = 1000
OX, OY = 12, 64             # the map's top-left on the canvas (a title band above it)
BAR_Y = OY + 610            # the race to 270 starts here
PANEL_X = OX + MAP_W + 14
PANEL_W = 450
WIDTH = PANEL_X + PANEL_W + 12
ROW_H = 34                  # one candidate in the race to 270


def _height(n: int) -> int:
    return max(860, BAR_Y + 56 + n * ROW_H + 16)
DC_FRAME = (40, 40, 48)
TO_WIN = 270
TOTAL_EV = 538
_MAP_STYLE = MapStyle()

_EMOJI = re.compile("[\U0001F000-\U0001FFFF\u2600-\u27BF\uFE0F\u200D]")


def _plain(text: str) -> str:
    """Chat text as drawn: no Markdown marks, no emoji (the shipped fonts have none)."""
    text = _EMOJI.sub("", text.replace("**", "").replace("`", "").replace("__", ""))
    return " ".join(text.split())


def _m(n: int) -> str:
    return f"${n}M" if n >= 0 else f"-${-n}M"


@lru_cache(maxsize=1)
def _map() -> USMap:
    return USMap(MAP_W, _MAP_STYLE)


@lru_cache(maxsize=64)
def _state_mask(code: str) -> tuple[tuple[int, int], Image.Image]:
    """(top-left in map px, anti-aliased fill mask) of a state and its callout box."""
    m = _map()
    x0, y0, x1, y1 = m.bbox(code)
    boxes = [(x0, y0, x1, y1)]
    callout = m.callouts.get(code)
    if callout:
        bx = callout.box
        boxes.append((int(bx[0]) - 1, int(bx[1]) - 1, int(bx[2]) + 2, int(bx[3]) + 2))
    x0 = max(0, min(b[0] for b in boxes) - 2)
    y0 = max(0, min(b[1] for b in boxes) - 2)
    x1 = max(b[2] for b in boxes) + 2
    y1 = max(b[3] for b in boxes) + 2
    ss = 2
    big = Image.new("L", ((x1 - x0) * ss, (y1 - y0) * ss), 0)
    d = ImageDraw.Draw(big)
    for ring in m.polygon(code):
        d.polygon([((x - x0) * ss, (y - y0) * ss) for x, y in ring], fill=255)
    if callout:
        bx = callout.box
        d.rounded_rectangle(((bx[0] - x0) * ss, (bx[1] - y0) * ss, (bx[2] - x0) * ss, (bx[3] - y0) * ss),
                            radius=4 * ss, fill=255)
    return (x0, y0), big.resize((x1 - x0, y1 - y0), Image.Resampling.BOX)


@lru_cache(maxsize=512)
def _hatch_mask(code: str, kind: str) -> Image.Image:
    (x0, y0), fill = _state_mask(code)
    w, h = fill.size
    return ImageChops.multiply(fill, stripe_mask(kind, x0, y0, w, h, s=9))


def _label_spot(code: str) -> tuple[tuple[float, float], bool]:
    """Where a state's code and EV go on the canvas, and whether it is a callout box."""
    m = _map()
    callout = m.callouts.get(code)
    if callout:
        return (OX + callout.code_xy[0], OY + callout.code_xy[1]), True
    x, y = m.label_xy(code)
    return (OX + x, OY + y), False


def _ev_spot(code: str) -> tuple[float, float]:
    m = _map()
    callout = m.callouts.get(code)
    if callout:
        x0, y0, x1, y1 = callout.content
        return OX + x0 + 3, OY + (y0 + y1) / 2  # left in the box: the pawns stand right of it
    x, y = m.label_xy(code)
    if m.clearance(code) <= 14:  # Hawaii: no room under its code, so the number stands beside it
        return OX + x + 24, OY + y
    return OX + x, OY + y + 15


def _ev_box(code: str, ev: int) -> tuple[float, float, float, float]:
    """The drawn electoral number's box (canvas px), for keeping pawns and stars off it."""
    ex, ey = _ev_spot(code)
    w = text_mask(str(ev), 14, False, False, 0)[0].size[0]
    x0 = ex if code in _map().callouts else ex - w / 2
    return x0 - 2, ey - 8, x0 + w + 2, ey + 8


def _stamp_state_text(img: Image.Image, code: str, ev: int, fill_color) -> None:
    (x, y), boxed = _label_spot(code)
    text_col = INK
    halo = mix(fill_color, WHITE, 0.25) if fill_color is not None else None
    stamp_text(img, (x, y), code, 16, text_col, bold=True, anchor="m", condensed=True, halo=halo)
    ex, ey = _ev_spot(code)
    stamp_text(img, (ex, ey), str(ev), 14, text_col, bold=False, anchor="m" if not boxed else "l", halo=halo)


@lru_cache(maxsize=16)
def _base(n: int, evs: tuple[tuple[str, int], ...]) -> Image.Image:
    """The canvas: title band, neutral map with codes and EV, D.C. frame, panel and bar backgrounds."""
    height = _height(n)
    img = Image.new("RGB", (WIDTH, height), PAPER)
    m = _map()
    img.paste(m.base(), (OX, OY))
    for code, ev in evs:
        ex, ey = _ev_spot(code)
        boxed = code in m.callouts
        stamp_text(img, (ex, ey), str(ev), 14, INK_MUTED, anchor="m" if not boxed else "l",
                   halo=None if boxed else PAPER)
    draw = ImageDraw.Draw(img)
    dc = m.callouts.get("DC")
    if dc:
        bx = dc.box
        draw.rounded_rectangle((OX + bx[0] - 3, OY + bx[1] - 3, OX + bx[2] + 3, OY + bx[3] + 3), radius=6,
                               outline=DC_FRAME, width=3)
        stamp_text(img, (OX + bx[2] + 3, OY + bx[3] + 16), "D.C.: debts, missed turns", 13, INK, anchor="r",
                   halo=PAPER)
    stamp_text(img, (OX + 4, 24), "Politics: The Game", 30, INK, bold=True)
    draw.rounded_rectangle((OX, BAR_Y, OX + MAP_W, height - 10), radius=10, fill=PANEL)
    stamp_text(img, (OX + 14, BAR_Y + 20), f"The race to {TO_WIN} electoral votes", 19, INK, bold=True)
    stamp_text(img, (OX + MAP_W - 14, BAR_Y + 20), "to win: 270 EV and the most Popular Votes", 15, INK_MUTED,
               anchor="r")
    draw.rounded_rectangle((PANEL_X, 10, PANEL_X + PANEL_W, height - 10), radius=10, fill=PANEL)
    return img


def _paint(img: Image.Image, chips: dict, evs: dict) -> None:
    for code, owner in sorted(chips.items()):
        if owner is None or owner < 0:
            continue
        style = player(owner)
        (x0, y0), fill = _state_mask(code)
        pos = (OX + x0, OY + y0)
        img.paste(style.light, pos, fill)
        img.paste(style.color, pos, _hatch_mask(code, style.hatch))
    # borders and callout outlines back over the fills, then codes and EV on the owned states
    _, lines, ink = _base_layers(MAP_W, _MAP_STYLE)
    img.paste(_MAP_STYLE.border, (OX, OY), lines)
    img.paste(LEADER, (OX, OY), ink)
    for code, owner in sorted(chips.items()):
        if owner is not None and owner >= 0:
            _stamp_state_text(img, code, evs.get(code, 0), player(owner).light)


@lru_cache(maxsize=4)
def _label_zones(evs: tuple[tuple[str, int], ...]) -> tuple[tuple[str, tuple[float, float, float, float]], ...]:
    """Every state's postal code and electoral number, as drawn (canvas px)."""
    zones = []
    for code, ev in evs:
        (x, y), _boxed = _label_spot(code)
        w = text_mask(code, 16, True, True, 0)[0].size[0]
        zones.append((f"{code} code", (x - w / 2 - 1, y - 8, x + w / 2 + 1, y + 8)))
        zones.append((f"{code} {ev}", _ev_box(code, ev)))
    return tuple(zones)


def _pawns(img: Image.Image, players: list[PlayerView], evs: dict) -> None:
    """Home stars and pawns, placed clear of every state's code and electoral number (a pawn
    used to stand on Texas's 40, Alaska's 3 and Washington's 12)."""
    m = _map()
    by_state: dict[str, list[int]] = {}
    for p in players:
        at = p["at"]
        if at and not p["out"]:
            by_state.setdefault(at, []).append(p["seat"])
    zones = _label_zones(tuple(sorted(evs.items())))
    for key, box in zones:
        record_box("label", key, box)
    boxes = [b for _k, b in zones]
    for p in players:
        home = p.get("home")
        if home:
            (x, y), boxed = _label_spot(home)
            if boxed:
                cx, cy = x - 26, y
            elif _map().clearance(home) <= 14:  # Hawaii: its number stands right of the code, the star left
                cx, cy = x - 20, y - 8
            else:
                cx, cy = clear_below((x + 22, y - 12), 7, boxes)
            draw_shape(ImageDraw.Draw(img), "star", (cx, cy), 15, player(p["seat"]).color, INK, 1)
            record_box("pin", f"{home} home", (cx - 7, cy - 7, cx + 7, cy + 7))
    for code, seats in by_state.items():
        callout = m.callouts.get(code)
        size = 24 if callout else 28
        if callout:
            x0, y0, x1, y1 = callout.content
            cx, cy = OX + x1 - 4 - size / 2, OY + (y0 + y1) / 2
            # overlap closer rather than reach back over the box's number
            room = cx - size / 2 - (_ev_box(code, evs.get(code, 0))[2] + 2)
            if room < size * 0.75 * (len(seats) - 1):
                size = 20 if len(seats) == 1 else 17
                cx = OX + x1 - 3 - size / 2
                room = cx - size / 2 - (_ev_box(code, evs.get(code, 0))[2] + 1)
            step = -max(0.0, min(size * 0.75, room / max(1, len(seats) - 1)))
        else:
            (x, y) = m.label_xy(code)
            # under the electoral number (beside it for Hawaii), never on it
            number_bottom = _ev_box(code, evs.get(code, 0))[3]
            cx, cy = OX + x - (len(seats) - 1) * size * 0.4, max(OY + y + 8, number_bottom) + size / 2 + 2
            step = size * 0.8
        r = size * 0.42
        for i, seat in enumerate(seats):
            px, py = (cx + i * step, cy) if callout else clear_below((cx + i * step, cy), r, boxes)
            draw_marker(img, (px, py), seat, size)
            record_box("pin", code, (px - r, py - r, px + r, py + r))


def _race(img: Image.Image, players: list[PlayerView]) -> None:
    x0, x1 = OX + 170, OX + MAP_W - 30
    scale = (x1 - x0) / TOTAL_EV
    draw = ImageDraw.Draw(img)
    row_h = ROW_H
    y = BAR_Y + 46
    tick = x0 + TO_WIN * scale
    for p in players:
        style = player(p["seat"])
        cy = y + row_h / 2
        draw_marker(img, (OX + 26, cy), p["seat"], min(26, row_h - 4))
        name = _fit(p["name"], 16, 120)
        stamp_text(img, (OX + 44, cy), name, 16, INK_MUTED if p.get("out") else INK, bold=True)
        draw.rectangle((x0, cy - row_h * 0.32, x1, cy + row_h * 0.32), fill=WHITE, outline=LEADER)
        w = p["ev"] * scale
        if w > 0:
            draw.rectangle((x0, cy - row_h * 0.32, x0 + w, cy + row_h * 0.32), fill=style.color, outline=INK)
        label = f"{p['ev']} EV"
        if w > 80:
            stamp_text(img, (x0 + w - 6, cy), label, 15, style.text, bold=True, anchor="r")
        else:
            stamp_text(img, (x0 + w + 6, cy), label, 15, INK, bold=True)
        y += row_h
    draw.line((tick, BAR_Y + 40, tick, y + 2), fill=INK, width=3)
    stamp_text(img, (tick, BAR_Y + 20), "270", 17, INK, bold=True, anchor="m")


def _fit(text: str, size: int, width: int, bold: bool = True) -> str:
    if text_mask(text, size, bold, False, 0)[0].size[0] <= width:
        return text
    while len(text) > 1 and text_mask(text + "…", size, bold, False, 0)[0].size[0] > width:
        text = text[:-1]
    return text + "…"


def _wrap(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    words, lines, line = text.split(), [], ""
    for w in words:
        trial = f"{line} {w}".strip()
        if text_mask(trial, size, bold, False, 0)[0].size[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = w
    if line:
        lines.append(line)
    return lines


class _Panel:
    """Stacks text lines down the scoreboard; stops at the bottom edge."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.x = PANEL_X + 16
        self.y = 34
        self.w = PANEL_W - 32
        self.bottom = img.size[1] - 24

    def room(self, h: int) -> bool:
        return self.y + h <= self.bottom

    def line(self, text: str, size: int = 17, bold: bool = False, color=INK, gap: int = 6) -> None:
        if not self.room(size + gap):
            return
        stamp_text(self.img, (self.x, self.y), _fit(text, size, self.w, bold), size, color, bold=bold)
        self.y += size + gap

    def para(self, text: str, size: int = 16, bold: bool = False, color=INK, limit: int = 4) -> None:
        lines = _wrap(text, size, self.w, bold)
        for k, ln in enumerate(lines[:limit]):
            if k == limit - 1 and len(lines) > limit:
                ln = _fit(ln + " …", size, self.w, bold)
            self.line(ln, size, bold, color, gap=4)
        self.y += 4

    def rule(self) -> None:
        if self.room(12):
            ImageDraw.Draw(self.img).line((self.x, self.y + 2, self.x + self.w, self.y + 2), fill=LEADER, width=1)
            self.y += 12


def _headline(view: TriviaView) -> str:
    players = view["players"]
    step = view.get("step")
    if view.get("winner") is not None or step == "over":
        return _plain(view.get("outcome") or "Game over.")
    runoff = view.get("runoff")
    if runoff:
        a, b = runoff["seats"]
        kind = "Runoff" if runoff.get("kind") == "runoff" else "Speed play"
        return (f"{kind}: {players[a]['name']} {runoff['scores'][0]} – {runoff['scores'][1]} "
                f"{players[b]['name']} (question {min(runoff['question'], runoff['questions'])} of "
                f"{runoff['questions']})")
    if step == "homes":
        chooser = view.get("chooser")
        return f"Home states: {players[chooser]['name']} chooses" if chooser is not None else "Home states"
    turn = view.get("turn")
    if turn is not None:
        where = players[turn].get("at")
        return f"{players[turn]['name']}'s turn" + (f" (in {where})" if where else "")
    return ""


def _scoreboard(img: Image.Image, view: TriviaView) -> None:
    pan = _Panel(img)
    players = view["players"]
    rnd = view.get("round") or 0
    pan.line(f"Round {rnd} of {view.get('max_rounds')}", 15, color=INK_MUTED)
    pan.para(_headline(view), 19, bold=True, limit=3)
    pan.rule()
    turn = view.get("turn")
    for p in players:
        if not pan.room(58):
            break
        seat = p["seat"]
        cy = pan.y + 13
        if turn == seat:
            ImageDraw.Draw(img).rounded_rectangle((pan.x - 8, pan.y - 5, pan.x + pan.w + 6, pan.y + 52), radius=8,
                                                  fill=mix(player(seat).color, WHITE, 0.82), outline=player(seat).color,
                                                  width=2)
        draw_marker(img, (pan.x + 13, cy), seat, 26)
        color = INK_MUTED if p.get("out") else INK
        stamp_text(img, (pan.x + 34, cy), _fit(p["name"], 18, 250), 18, color, bold=True)
        stamp_text(img, (pan.x + pan.w, cy), f"{p['ev']} EV", 18, color, bold=True, anchor="r")
        where = [_m(p["cash"]), f"{p['pv']}M PV", f"{p['cards']} card" + ("" if p["cards"] == 1 else "s")]
        if p.get("home"):
            where.append(f"home {p['home']}")
        if p.get("at"):
            where.append(f"at {p['at']}")
        if p.get("out"):
            where.append("out of the race")
        if p.get("dc_turns"):
            where.append(f"{p['dc_turns']} turn(s) missed in D.C.")
        if p.get("debt"):
            where.append(f"owes {_m(p['debt'])}")
        if p.get("skip"):
            where.append(f"skips {p['skip']}")
        stamp_text(img, (pan.x + 34, cy + 23), _fit(" · ".join(where), 14, pan.w - 34, False), 14, INK_MUTED)
        pan.y += 58
    pan.rule()
    d = view["dice"]
    if d:
        path = view.get("path") or []
        roll = f"Last roll {d[0]} + {d[1]}" + (" (doubles)" if len(d) == 2 and d[0] == d[1] else "")
        pan.para(roll + (": " + " → ".join(path) if path else ""), 15, limit=2)
    q = view.get("question")
    if q:
        cat = str(q.get("category", "")).title()
        about = f" · {q['state']}" if q.get("state") else ""
        pan.line(f"{cat} question{about}", 17, bold=True)
        pan.para(_plain(q.get("text") or ""), 16, limit=4)
        for k, choice in enumerate(q.get("choices") or []):
            pan.line(f"{'ABCDEF'[k]}. {_plain(str(choice))}", 15)
    w = view.get("wildcard")
    if w:
        pan.line(f"Wildcard: {w.get('kind', '')}", 17, bold=True)
        pan.para(_plain(w.get("text") or ""), 15, limit=3)
    deal = view.get("deal")
    if deal:
        parts = []
        if deal.get("cash"):
            parts.append(_m(deal["cash"]))
        if deal.get("pv"):
            parts.append(f"{deal['pv']}M PV")
        if deal.get("chips"):
            parts.append(", ".join(deal["chips"]))
        pan.para(f"Offer: {players[deal['buyer']]['name']} offers {players[deal['holder']]['name']} "
                 f"{' + '.join(parts) or 'nothing'} for {deal['state']}", 15, bold=True, limit=2)
    log = [ln for ln in (_plain(x) for x in view.get("log") or []) if ln]
    if log and pan.room(40):
        pan.rule()
        pan.line("Latest", 15, bold=True, color=INK_MUTED)
        for ln in log[-4:]:
            pan.para(ln, 14, color=INK_MUTED, limit=2)


def draw_board(view: TriviaView) -> Image.Image:
    players = view["players"]
    evs = view.get("ev") or {}
    img = _base(len(players), tuple(sorted(evs.items()))).copy()
    _paint(img, view.get("chips") or {}, evs)
    _pawns(img, players, evs)
    _race(img, players)
    _scoreboard(img, view)
    return img


def _sample_view(n: int) -> TriviaView:
    """A made-up board with every colour and pattern the renderer draws, for the fixed palette."""
    codes = sorted(state_codes())
    owners = {c: (k % (n + 1)) - 1 for k, c in enumerate(codes)}
    chips: dict[str, int | None] = {c: (o if o >= 0 else None) for c, o in owners.items()}
    players: list[PlayerView] = [
        {"seat": i, "name": f"Player {i + 1}", "bot": False, "home": codes[i * 5], "at": codes[i * 7 + 1],
         "cash": 10 + i, "pv": 3 * i, "ev": 20 * i, "chips": [], "cards": 2, "played": 0, "played_cards": [],
         "out": i == n - 1, "dc_turns": i % 2, "debt": 0, "skip": 0, "roll": 0, "wrapup": False, "right": 0}
        for i in range(n)]
    return {"game": "politics-trivia", "phase": "question", "step": "question", "turn": 0, "round": 3,
            "max_rounds": 20, "settings": {}, "offer_made": False, "players": players, "chips": chips,
            "ev": {c: 3 for c in codes}, "majority": TO_WIN, "dice": [3, 3], "path": ["OH", "PA"],
            "question": {"category": "state", "state": "OH", "text": "Sample question text?", "choices": ["a", "b"],
                         "seconds_left": 120},
            "runoff": None, "wildcard": None, "deal": None, "chooser": None, "headline": "",
            "log": ["A line of the log."], "winner": None, "outcome": "", "wrapup_votes": 0, "gerrymander_deck": 0}


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    return palette_from([with_glance(draw_board(v), glance(v)) for v in (_sample_view(n) for n in (8, 4, 2))])


def encode(image: Image.Image) -> bytes:
    return encode_on_palette(image, _palette())


def _drawn(view: TriviaView) -> dict[str, object]:
    """What the image shows: a change elsewhere (a vote counted, a timer) needs no new image."""
    keys = ("players", "chips", "turn", "step", "round", "dice", "path", "question", "wildcard", "deal", "runoff",
            "winner", "outcome", "log", "chooser")
    return {k: view.get(k) for k in keys}


def render(view: TriviaView, previous: TriviaView | None = None) -> list[tuple[str, bytes]]:
    if previous is not None and _drawn(previous) == _drawn(view):
        return []
    return [(f"{PREFIX}.png", encode(with_glance(draw_board(view), glance(view))))]


def glance(view: TriviaView) -> Glance:
    """The phone band: whose turn (or the runoff), each candidate's electoral votes, the newest
    line of the log. Drawn from the view alone, like the rest of the board."""
    players = view["players"]
    best = max((p["ev"] for p in players if not p.get("out")), default=0)
    seats = tuple(GlanceSeat(p["seat"], p["name"], f"{p['ev']}", active=not p.get("out"),
                             leading=view.get("winner") == p["seat"] or (bool(best) and p["ev"] == best))
                  for p in players)
    turn_seat = view.get("winner")
    if turn_seat is None:
        turn_seat = view.get("turn") if view.get("step") != "homes" else view.get("chooser")
    log = [ln for ln in (_plain(x) for x in view.get("log") or []) if ln]
    changed, title = tuple(log[-1:]), "Latest"
    turn = _headline(view) or "Politics: The Game"
    status = f"Round {view.get('round') or 0}/{view.get('max_rounds')} · EV"
    runoff = view.get("runoff")
    if runoff and view.get("winner") is None and view.get("step") != "over":
        # the score first, short: the question count moves to the status
        a, b = runoff["seats"]
        kind = "Runoff" if runoff.get("kind") == "runoff" else "Speed play"
        turn = f"{kind}: {players[a]['name']} {runoff['scores'][0]}–{runoff['scores'][1]} {players[b]['name']}"
        status = f"question {min(runoff['question'], runoff['questions'])}/{runoff['questions']}"
    return Glance(turn=turn, turn_seat=turn_seat, seats=seats, status=status, changed=changed, changed_title=title)


def leader_lines() -> dict[str, list[tuple[float, float]]]:
    """The callout boxes' leader lines (board px, before the glance band): state to box."""
    return {c: [(OX + co.anchor[0], OY + co.anchor[1]), (OX + co.box[0], OY + (co.box[1] + co.box[3]) / 2)]
            for c, co in _map().callouts.items()}
