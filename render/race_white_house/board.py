"""The board (`race-white-house-board.png`): the circuit as a loop of labelled spaces, clockwise from
Start at the top left, the four campaign side tracks inside it (each entry space is tagged with its
track), the pawns (party colour and shape, letter D/R, smaller "VP" pawns for running mates), the
last roll, whose turn it is and what is being placed.

The spaces and tracks are drawn once per board layout (cached); a render adds pawns and status.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from ..core import INK, INK_MUTED, PANEL, PAPER, WHITE, ellipsize, font, mix, stamp_text, wrap_text
from .style import (CAT_ABBR, MARGIN, PARTY_INDEX, PARTY_NAME, PARTY_ONE, ROLE_NAME, RULE, W, draw_pawn, money, pcolor,
                    players_of)

if TYPE_CHECKING:
    from engines.race_white_house.views import RWHView


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


def _board_struct(view: RWHView) -> tuple:
    b = view["board"]
    circuit = tuple((s["kind"], s["label"]) for s in b["circuit"])
    tracks = tuple((t, tuple((s["kind"], s["label"]) for s in spaces))
                   for t, spaces in b["tracks"].items())  # the board's own order
    entries = tuple(sorted(b["entries"].items()))
    costs = tuple(sorted((k, int(v)) for k, v in (b["costs"] if "costs" in b else {}).items()))  # none in the sample
    return circuit, tracks, entries, costs


Box = tuple[float, float, float, float]  # x, y, width, height


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
    cells: list[Box] = []
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
    track_rows: dict[str, Box | list[Box]] = {}  # track: its spaces; track + ":head": its header band
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
        for (_kind, label), (x, y, w, h) in zip(spaces, boxes):
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


def draw_board(view: RWHView) -> Image.Image:
    struct = _board_struct(view)
    lay = _board_layout(struct)
    img = _board_base(struct).copy()
    players = players_of(view)
    entry_cells = {i for _, i in struct[2]}
    # pawns, grouped by the space they stand on
    at: dict[tuple, list] = {}
    for p in players:
        sp = p["space"]
        at.setdefault((sp["track"], int(sp["index"])), []).append(p)
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
            draw_pawn(img, (x + 3 + step * (j + 0.5), y + h - size / 2 - lift), p, size)
    _board_status(img, view, lay)
    return img


def _plain(text: str) -> str:
    return " ".join(str(text).replace("`", "").replace("**", "").split())


def _board_status(img: Image.Image, view: RWHView, lay: dict) -> None:
    x0, _, x1, y1 = lay["inner"]
    y = lay["status_top"]
    players = players_of(view)
    by_seat = {p["seat"]: p for p in players}
    left_w = 440
    # the last roll
    dice = [int(v) for v in (view["dice"] or [])][:2]
    stamp_text(img, (x0, y + 25), "Last roll", 18, INK, bold=True)
    dx = x0 + 96
    if dice:
        for k, v in enumerate(dice):
            _die(img, dx + k * 60, y, v)
        stamp_text(img, (dx + 60 * len(dice) + 2, y + 25), f"= {sum(dice)}", 24, INK, bold=True)
    else:
        stamp_text(img, (dx, y + 25), "none yet", 18, INK_MUTED)
    rnd = view["round"] if "round" in view else None  # the palette's sample has no round line
    if isinstance(rnd, int) and view["phase"] == "play":
        text = f"Round {rnd} (a stalled race ends after {view['max_rounds']})"
        stamp_text(img, (x0, y + 70), text, 15, INK_MUTED)
    # whose turn, what is being placed or decided, or the result
    ty = y + 100
    winner = view["winner"]
    turn = view["turn"]
    if winner in PARTY_INDEX:
        stamp_text(img, (x0, ty), f"{PARTY_NAME[winner]} win!", 26, pcolor(winner), bold=True)
        ty += 30
        lines = wrap_text(_plain(view["outcome"] or ""), font(16), left_w)[:3]
    else:
        if view["phase"] == "home":
            stamp_text(img, (x0, ty), "Choosing home states", 22, INK, bold=True)
        elif view["phase"] == "over":
            stamp_text(img, (x0, ty), "Game over", 22, INK, bold=True)
        elif turn in by_seat:
            p = by_seat[turn]
            draw_pawn(img, (x0 + 15, ty), p, 30)
            stamp_text(img, (x0 + 38, ty), ellipsize(f"{p['name']}'s turn", font(22, bold=True),
                                                     left_w - 40), 22, INK, bold=True)
        ty += 30
        lines = []
        for item in (view["pending"], view["choice"] if "choice" in view else None):  # the sample has no choice
            if item and item["text"]:
                acting = by_seat.get(item["seat"])
                who = acting["name"] if acting else "?"
                lines += wrap_text(f"{who} now: {_plain(item['text'])}", font(16), left_w)
        lines = lines[:4]
    for i, line in enumerate(lines):
        stamp_text(img, (x0, ty + 21 * i), line, 16, INK)
    # the players and where they are
    px = x0 + left_w + 30
    ImageDraw.Draw(img).line([(px - 16, y), (px - 16, y1 - 24)], fill=RULE, width=2)
    for i, p in enumerate(players):
        cy = y + 18 + i * 50
        draw_pawn(img, (px + 16, cy + 6), p, 30)
        name = ellipsize(p["name"], font(18, bold=True), x1 - px - 44)
        stamp_text(img, (px + 40, cy - 3), name, 18, INK, bold=True)
        party = PARTY_ONE.get(p["party"], "")
        track = p["space"]["track"]
        where = f" · on the {CAT_ABBR.get(track, track)} track" if track else ""
        stamp_text(img, (px + 40, cy + 18), f"{party} · {ROLE_NAME.get(p['role'], '')}{where}", 15, INK_MUTED)
