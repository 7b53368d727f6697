"""Primary/General scoreboard: one image drawn from the public view.

Per player: marker (colour + letter + shape), name, role, cards in hand, party
and points in a match; Electability and Affiliation as numbers and as bars
either side of zero; the score of the current phase (E + A in the Primary,
E − A in the General) with a short status. Below: the cards in play with their
c-labels (what Voter ADHD names), then the winner when the game is over.

Speed: Pillow's text rasteriser is the slow part, so everything is stamped from
caches: the frame (header band, headings, names, markers, bar tracks) per
game layout, each text as a cached mask, each card-in-play tile as a cached
image. A render then costs well under the PNG encode of the same image.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

if TYPE_CHECKING:  # the view's shape only: a render worker never imports the engines
    from engines.primary_general.view import PGPlayerView, PGView

from .core import INK, INK_MUTED, PAPER, WHITE, draw_marker, ellipsize, encode_png, font, mix, player
from .glance import Glance, GlanceSeat, with_glance

WIDTH = 1200
MARGIN = 24
HEADER_H = 92
PARTY_H = 50
ROW_H = 132
PLAY_ROW_H = 36
PLAY_COLS = 3
FOOTER_PAD = 20

# Player-row columns (x positions) and bar geometry.
NAME_X = MARGIN + 76
BAR_LABEL_X = 400
BAR_VALUE_X = 588   # right edge of the number
BAR_X0, BAR_X1 = 604, 904
SCORE_X0, SCORE_X1 = 930, WIDTH - MARGIN
BAR_ROWS = (38, 88)  # y offsets of the Electability and Affiliation bars in a row
BAR_HALF_H = 13

GOOD = (0, 114, 178)     # Okabe–Ito blue: the winner
ACCENT = (213, 94, 0)    # Okabe–Ito vermillion: whose turn
GRID = (214, 214, 208)
TRACK = (236, 236, 231)
SOFT = (220, 220, 214)   # secondary text on the dark header
PARTY_COLORS = {"Blue": (0, 114, 178), "Red": (213, 94, 0)}
PARTY_MARK = {"Blue": "■", "Red": "▲"}  # a second cue besides the colour
PHASE_TITLE = {"primary": "Primary Election", "general": "General Election", "over": "Election over"}
PHASE_RULE = {"primary": "ranked by Electability + Affiliation — top two become Candidates",
              "general": "ranked by Electability − Affiliation — best positive Candidate wins",
              "over": "final totals: Electability − Affiliation"}


def render(view: PGView, previous: PGView | None = None) -> list[tuple[str, bytes]]:
    if previous is not None and previous == view:
        return []
    return [("primary-general.png", encode_png(with_glance(draw_board(view), glance(view))))]


def glance(view: PGView) -> Glance:
    """The phone band: whose turn, each seat's score in this phase, the newest card in play.

    Drawn from the view alone, like the rest of the board: the same view is the same picture,
    however many boards the bot merged before posting it."""
    players = view["players"]
    phase = view["phase"]
    scores = [_score(phase, p) for p in players]
    notes = _notes(view)  # "1st of 4", "leading", "President": the star follows the rules' own ranking
    seats = tuple(GlanceSeat(i, p["name"], _signed(scores[i]),
                             leading=notes[i] in ("leading", "President") or notes[i].startswith("1st"))
                  for i, p in enumerate(players))
    turn = view["turn"]
    if phase == "over":
        winner = view.get("winner")
        head = f"{players[winner]['name']} is President" if winner is not None else "Game over: no President"
    else:
        head = f"{players[turn]['name']} to play" if turn is not None else PHASE_TITLE[phase]
    status = {"primary": "Primary: E + A", "general": "General: E − A", "over": "E − A"}[phase]
    names = [p["name"] for p in players]
    changed = tuple(f"{c['card']} on {names[c['target']]} {c['effect']}" for c in view["in_play"][-1:])
    return Glance(turn=head, turn_seat=turn if phase != "over" else view.get("winner"), seats=seats, status=status,
                  changed=changed or (f"{PHASE_TITLE[phase]}: no card in play yet",), changed_title="Last card")


# ---------------------------------------------------------------- cached stamps

@lru_cache(maxsize=2048)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """A text's coverage mask and its offset from the anchor point."""
    fnt = font(size, bold=bold)
    left, top, right, bottom = map(int, fnt.getbbox(text, anchor=anchor))  # whole pixels for a TrueType face
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255, anchor=anchor)
    return mask, left, top


def _text(img: Image.Image, xy: tuple[float, float], text: str, size: int, fill=INK, bold: bool = False,
          anchor: str = "lm") -> None:
    if not text:
        return
    mask, left, top = _mask(text, size, bold, anchor)
    img.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


def _fit(text: str, size: int, bold: bool, width: float) -> str:
    return _fit_cached(text, size, bold, int(width))


@lru_cache(maxsize=1024)
def _fit_cached(text: str, size: int, bold: bool, width: int) -> str:
    return ellipsize(text, font(size, bold=bold), width)


# ---------------------------------------------------------------- layout

def _play_rows(count: int) -> int:
    return max(1, -(-count // PLAY_COLS))


def _heights(n: int, rows: int, party: bool, banner: bool) -> dict[str, int]:
    players_y = HEADER_H + (PARTY_H if party else 0) + 44
    plays_y = players_y + n * ROW_H + 18
    plays_body = plays_y + 44
    banner_y = plays_body + rows * PLAY_ROW_H + 16
    height = banner_y + (96 if banner else 0) + FOOTER_PAD
    return {"players_y": players_y, "plays_y": plays_y, "plays_body": plays_body, "banner_y": banner_y,
            "height": height}


# A frame is big (1200 px wide: 2.1–3.6 MB as Pillow holds it) and keyed by the players' names, so
# with many channels nearly every board misses anyway (3 in 100 hits at 1,000 channels with 32 kept):
# 8 keep a few busy channels' frames without holding 32 of them in every render worker.
@lru_cache(maxsize=8)
def _frame(names: tuple[str, ...], bots: tuple[bool, ...], parties: tuple[str | None, ...], phase: str
           ) -> Image.Image:
    """Everything fixed for a game phase: header band, headings, markers and
    names, bar labels, score labels."""
    n = len(names)
    party = any(parties)
    h = _heights(n, 1, party, False)
    img = Image.new("RGB", (WIDTH, h["plays_body"]), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, HEADER_H), fill=INK)
    d.text((MARGIN, HEADER_H / 2), "Primary/General", font=font(36, bold=True), fill=WHITE, anchor="lm")
    d.text((370, HEADER_H / 2 - 14), PHASE_TITLE[phase], font=font(26, bold=True), fill=WHITE, anchor="lm")
    d.text((370, HEADER_H / 2 + 18), PHASE_RULE[phase], font=font(19), fill=SOFT, anchor="lm")
    if party:
        d.rectangle((0, HEADER_H, WIDTH, HEADER_H + PARTY_H), fill=(232, 232, 226))
    y = h["players_y"] - 22
    small = font(18, bold=True)
    d.text((NAME_X, y), "PLAYER", font=small, fill=INK_MUTED, anchor="lm")
    d.text((BAR_LABEL_X, y), "STANDING", font=small, fill=INK_MUTED, anchor="lm")
    d.text((SCORE_X1 - 6, y), "SCORE", font=small, fill=INK_MUTED, anchor="rm")
    name_font = font(28, bold=True)
    score_label = "E + A" if phase == "primary" else "E − A"
    for i in range(n):
        y0 = h["players_y"] + i * ROW_H
        d.line((MARGIN, y0 + ROW_H - 1, WIDTH - MARGIN, y0 + ROW_H - 1), fill=GRID, width=1)
        draw_marker(img, (MARGIN + 30, y0 + 38), i, size=50)
        d.text((NAME_X, y0 + 36), ellipsize(names[i], name_font, BAR_LABEL_X - NAME_X - 16), font=name_font,
               fill=INK, anchor="lm")
        for dy, label in zip(BAR_ROWS, ("Electability", "Affiliation")):
            d.text((BAR_LABEL_X, y0 + dy), label, font=font(19), fill=INK, anchor="lm")
        d.text((SCORE_X0, y0 + 30), score_label, font=font(20, bold=True), fill=INK_MUTED, anchor="lm")
        extra = []
        seat_party = parties[i]
        if seat_party:
            extra.append(f"{PARTY_MARK[seat_party]} {seat_party} party")
        if bots[i]:
            extra.append("AI")
        if extra:
            color = PARTY_COLORS.get(seat_party or "", INK_MUTED)
            d.text((NAME_X, y0 + 108), "  ·  ".join(extra), font=font(19, bold=True), fill=color, anchor="lm")
    d.text((MARGIN, h["plays_y"] + 20), "Cards in play", font=font(24, bold=True), fill=INK, anchor="lm")
    return img


@lru_cache(maxsize=16)
def _track(limit: int) -> Image.Image:
    """An empty bar track with a white tick every 5 points."""
    w, h = BAR_X1 - BAR_X0 + 1, 2 * BAR_HALF_H + 1
    img = Image.new("RGB", (w, h), TRACK)
    d = ImageDraw.Draw(img)
    for k in range(-limit, limit + 1, 5):
        x = (w - 1) / 2 + (w - 1) / 2 * k / limit
        d.line((x, 0, x, h), fill=WHITE, width=1)
    return img


# ---------------------------------------------------------------- drawing

def draw_board(view: PGView) -> Image.Image:
    players = view["players"]
    n = len(players)
    party = bool(view.get("party_match"))
    banner = view["phase"] == "over"
    h = _heights(n, _play_rows(len(view["in_play"])), party, banner)
    limit = _bar_limit(players)
    frame = _frame(tuple(p["name"] for p in players), tuple(bool(p.get("bot")) for p in players),
                   tuple(p.get("party") for p in players), view["phase"])
    img = Image.new("RGB", (WIDTH, h["height"]), PAPER)
    img.paste(frame, (0, 0))
    track = _track(limit)
    for i in range(n):
        for dy in BAR_ROWS:
            img.paste(track, (BAR_X0, h["players_y"] + i * ROW_H + dy - BAR_HALF_H))
    _text(img, (BAR_X1, h["players_y"] - 22), f"BARS: a tick every 5, ends at ±{limit}", 18, INK_MUTED, bold=True,
          anchor="rm")
    d = ImageDraw.Draw(img)
    _header(img, view)
    if party:
        _standings(img, view)
    notes = _notes(view)
    for i, p in enumerate(players):
        _player_row(img, d, view, i, p, h["players_y"] + i * ROW_H, limit, notes[i])
    _plays(img, view, h["plays_y"], h["plays_body"])
    if banner:
        _banner(img, d, view, h["banner_y"])
    return img


def _header(img: Image.Image, view: PGView) -> None:
    mid = HEADER_H / 2
    _text(img, (WIDTH - MARGIN, mid - 14), f"Deck {view['deck']}", 22, WHITE, bold=True, anchor="rm")
    _text(img, (WIDTH - MARGIN, mid + 18), f"Discard {view['discard']}", 20, SOFT, anchor="rm")


def _standings(img: Image.Image, view: PGView) -> None:
    """Party match strip: game number and each party's points with its members'."""
    players = view["players"]
    y = HEADER_H + PARTY_H / 2
    _text(img, (MARGIN, y), f"Party match · game {view['game_number']} of {view['match_games']}", 21, INK,
          bold=True)
    x = 400.0
    for party in ("Blue", "Red"):
        members = [p for p in players if p.get("party") == party]
        label = f"{PARTY_MARK[party]} {party} {sum(p['points'] or 0 for p in members)}"
        _text(img, (x, y), label, 22, PARTY_COLORS[party], bold=True)
        x += font(22, bold=True).getlength(label) + 10
        right = 790 if party == "Blue" else WIDTH - MARGIN
        detail = "(" + ", ".join(f"{p['name']} {p['points']}" for p in members) + ")"
        _text(img, (x, y), _fit(detail, 19, False, right - x), 19, INK_MUTED)
        x = 810.0


def _bar_limit(players: list[PGPlayerView]) -> int:
    biggest = max([abs(p["electability"]) for p in players] + [abs(p["affiliation"]) for p in players] + [10])
    return -(-biggest // 5) * 5


def _score(phase: str, p: PGPlayerView) -> int:
    if phase == "primary":
        return p["electability"] + p["affiliation"]
    return p["electability"] - p["affiliation"]


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def _notes(view: PGView) -> list[str]:
    """One short status per player for the score column."""
    players = view["players"]
    n = len(players)
    phase = view["phase"]
    scores = [_score(phase, p) for p in players]
    if phase == "primary":
        key = [(scores[i], players[i]["electability"]) for i in range(n)]
        out = []
        for i in range(n):
            rank = 1 + sum(1 for j in range(n) if key[j] > key[i])
            tied = sum(1 for j in range(n) if key[j] == key[i]) > 1
            out.append(f"{_ordinal(rank)}{' (tied)' if tied else ''} of {n}")
        return out
    cands = [i for i in range(n) if players[i]["role"] == "candidate"]
    positive = [i for i in cands if scores[i] > 0]
    lead = max(positive, key=lambda i: (scores[i], players[i]["electability"]), default=None)
    spoilers = [i for i in range(n) if players[i]["role"] == "spoiler"]
    best_spoiler = max(spoilers, key=lambda i: (players[i]["electability"], scores[i]), default=None)
    out = []
    for i in range(n):
        if phase == "over":
            out.append("President" if view.get("winner") == i
                       else ("not positive" if i in cands and scores[i] <= 0 else ""))
        elif i in cands:
            out.append("not positive" if scores[i] <= 0 else ("leading" if i == lead else "trailing"))
        elif i == best_spoiler:
            out.append("best Spoiler")
        else:
            out.append("")
    return out


def _signed(v: int) -> str:
    return f"{v:+d}" if v else "0"


def _player_row(img: Image.Image, d: ImageDraw.ImageDraw, view: PGView, i: int, p: PGPlayerView, y0: int, limit: int,
                note: str) -> None:
    style = player(i)
    turn = view["turn"] == i
    winner = view.get("winner") == i and view["phase"] == "over"
    if turn or winner:
        # Outline only, so the cached tracks and names stay visible.
        d.rounded_rectangle((MARGIN - 10, y0 + 3, WIDTH - MARGIN + 10, y0 + ROW_H - 5), radius=12,
                            outline=ACCENT if turn else GOOD, width=4)
    # Second line: role chip and cards in hand.
    role = {"candidate": "Candidate", "spoiler": "Spoiler"}.get(p["role"], "")
    x: float = NAME_X
    if role:
        w = font(18, bold=True).getlength(role) + 20
        filled = role == "Candidate"
        d.rounded_rectangle((x, y0 + 58, x + w, y0 + 86), radius=14, fill=INK if filled else WHITE, outline=INK,
                            width=2)
        _text(img, (x + w / 2, y0 + 72), role, 18, WHITE if filled else INK, bold=True, anchor="mm")
        x += w + 12
    cards = p["cards_in_hand"]
    _text(img, (x, y0 + 72), f"{cards} card{'s' if cards != 1 else ''}" + ("" if role else " in hand"), 19,
          INK_MUTED)
    party = p.get("party")
    if party:
        pts = p["points"]
        label = f"{PARTY_MARK[party]} {party} party" + ("  ·  AI" if p.get("bot") else "")
        x = NAME_X + font(19, bold=True).getlength(label) + 12
        _text(img, (x, y0 + 108), f"·  {pts} point{'s' if pts != 1 else ''}", 19, PARTY_COLORS[party], bold=True)
    if turn:
        _text(img, (MARGIN + 30, y0 + 86), "TO", 18, ACCENT, bold=True, anchor="mm")
        _text(img, (MARGIN + 30, y0 + 108), "PLAY", 18, ACCENT, bold=True, anchor="mm")
    if winner:
        _text(img, (MARGIN + 30, y0 + 98), "★", 34, GOOD, bold=True, anchor="mm")

    _bar(img, d, y0 + BAR_ROWS[0], p["electability"], limit, style.color, solid=True)
    _bar(img, d, y0 + BAR_ROWS[1], p["affiliation"], limit, style.color, solid=False)

    score = _score(view["phase"], p)
    _text(img, (SCORE_X1 - 6, y0 + 40), _signed(score), 46, INK, bold=True, anchor="rm")
    if note:
        _text(img, (SCORE_X1 - 6, y0 + 84), note, 19, INK, bold=note in ("leading", "President"), anchor="rm")
    primary_total = p.get("primary_total")
    if primary_total is not None and view["phase"] != "primary":
        _text(img, (SCORE_X1 - 6, y0 + 110), f"Primary E + A: {_signed(primary_total)}", 18, INK_MUTED,
              anchor="rm")


def _bar(img: Image.Image, d: ImageDraw.ImageDraw, y: float, value: int, limit: int, color, solid: bool) -> None:
    _text(img, (BAR_VALUE_X, y), _signed(value), 24, INK, bold=True, anchor="rm")
    zero = (BAR_X0 + BAR_X1) / 2
    half = (BAR_X1 - BAR_X0) / 2
    top, bottom = y - BAR_HALF_H, y + BAR_HALF_H
    if value:
        x = zero + half * max(-limit, min(limit, value)) / limit
        box = (min(zero, x), top + 2, max(zero, x), bottom - 2)
        if solid:
            d.rectangle(box, fill=color)
        else:  # Affiliation: a tint with an outline, so E and A differ without colour
            d.rectangle(box, fill=mix(color, WHITE, 0.55), outline=color, width=3)
    d.line((zero, top - 5, zero, bottom + 5), fill=INK, width=2)


COL_W = (WIDTH - 2 * MARGIN) // PLAY_COLS
# Used only when a full name does not fit its tile; the effect is shown beside it.
SHORT_NAMES = {
    "Targeted by a Negative Ad": "Negative Ad",
    "Newspaper Endorsement": "Newspaper",
    "Sister Souljah Moment": "Sister Souljah",
    "Strange Pronouncement": "Strange Pronounce.",
    "Steal Their Position": "Steal Position",
    "Party Endorsement": "Party Endorse.",
}


# A tile is 54 KB as Pillow holds it: 512 keep about 9 in 10 of the tiles the boards of 100 to
# 1,000 busy channels draw again (1,024 kept 19 in 20, at 57 MB in every render worker).
@lru_cache(maxsize=512)
def _play_tile(cid: str, card: str, effect: str, target: int, old: bool) -> Image.Image:
    """One card in play: its c-label, the target's marker, the card and its effect."""
    img = Image.new("RGB", (COL_W, PLAY_ROW_H), PAPER)
    d = ImageDraw.Draw(img)
    y = PLAY_ROW_H / 2
    tag = cid + (" P" if old else "")
    tag_font = font(18, bold=True)
    tw = tag_font.getlength(tag) + 12
    d.rounded_rectangle((0, y - 15, tw, y + 15), radius=6, fill=INK_MUTED if old else INK)
    d.text((tw / 2, y), tag, font=tag_font, fill=WHITE, anchor="mm")
    draw_marker(img, (tw + 18, y), target, size=26)
    eff_font, card_font = font(18, bold=True), font(19)
    right = COL_W - 14
    d.text((right, y), effect, font=eff_font, fill=INK, anchor="rm")
    left = tw + 36
    room = right - eff_font.getlength(effect) - 10 - left
    if card_font.getlength(card) > room:
        card = SHORT_NAMES.get(card, card)
    d.text((left, y), ellipsize(card, card_font, room), font=card_font, fill=INK_MUTED if old else INK, anchor="lm")
    return img


def _plays(img: Image.Image, view: PGView, y_title: int, y0: int) -> None:
    plays = view["in_play"]
    if not plays:
        _text(img, (MARGIN, y0 + PLAY_ROW_H / 2),
              "None this phase — a Voter ADHD now is simply discarded: play voter-adhd none", 19, INK_MUTED)
        return
    if view["phase"] == "over":
        hint = "left on the table at the end"
    else:
        hint = "Voter ADHD names one by its label, e.g. play voter-adhd " + plays[-1]["id"]
    if any(c.get("phase") != view["phase"] for c in plays) and view["phase"] == "general":
        hint += "   (P = played in the Primary)"
    _text(img, (230, y_title + 20), hint, 19, INK_MUTED)
    rows = _play_rows(len(plays))
    for k, c in enumerate(plays):
        col, row = divmod(k, rows)
        old = c.get("phase") != view["phase"] and view["phase"] == "general"
        tile = _play_tile(c["id"], c["card"], c["effect"], c["target"], old)
        img.paste(tile, (MARGIN + col * COL_W, y0 + row * PLAY_ROW_H))


def _banner(img: Image.Image, d: ImageDraw.ImageDraw, view: PGView, y0: int) -> None:
    players = view["players"]
    box = (MARGIN, y0 + 6, WIDTH - MARGIN, y0 + 88)
    d.rounded_rectangle(box, radius=14, fill=mix(GOOD, WHITE, 0.85), outline=GOOD, width=3)
    marker = view.get("winner")
    if view.get("party_match"):
        best = max(p["points"] or 0 for p in players)  # points are set throughout a party match
        winners = [i for i, p in enumerate(players) if p["points"] == best]
        totals = {k: sum(p["points"] or 0 for p in players if p["party"] == k) for k in ("Blue", "Red")}
        verb = "wins" if len(winners) == 1 else "share the win"
        head = "Match over: " + " and ".join(players[w]["name"] for w in winners) + f" {verb} with {best} points"
        sub = "Party totals: " + ", ".join(f"{PARTY_MARK[k]} {k} {v}" for k, v in totals.items())
        last = view.get("winner")
        if last is not None:
            sub += f"  ·  last President: {players[last]['name']}"
        marker = winners[0]
    else:
        head = f"★ {players[marker]['name']} is President" if marker is not None else "Game over"
        reason = view.get("winner_reason") or ""
        sub = reason[:1].upper() + reason[1:]
    if marker is not None:
        draw_marker(img, (box[0] + 44, (box[1] + box[3]) / 2), marker, size=48)
    room = box[2] - box[0] - 100
    _text(img, (box[0] + 84, box[1] + 26), _fit(head, 28, True, room), 28, INK, bold=True)
    _text(img, (box[0] + 84, box[1] + 60), _fit(sub, 19, False, room), 19, INK)
