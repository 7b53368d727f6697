"""Race for the White House: two tally sheets, the U.S. map with the score sheet, and the board.

Four images, each drawn only when what feeds it changed:

- `race-white-house-sheet-1.png`, `-sheet-2.png` — the tally sheets as on the table (sheet.py);
- `race-white-house-map.png` — the U.S. map, the score bar and the score sheet (scoreboard.py);
- `race-white-house-board.png` — the circuit, the side tracks, the pawns and the last roll (board.py).

Speed: the grids, labels, board layout and the map's five colourings are cached at module level
keyed by what determines them; a render pastes cached block sprites and map pieces and stamps cached
text, then encodes on a fixed palette (mapping onto it costs a few ms where an adaptive quantizer
costs as much as the compression).

Every function takes the engine's public view, `RWHView` (engines/race_white_house/views.py).
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from PIL import Image

from ..core import encode_on_palette, palette_from, state_codes
from ..glance import Glance, GlanceSeat, with_glance
from .board import KIND_TINT, TRACK_ORDER, draw_board
from .scoreboard import draw_map
from .sheet import draw_sheet
from .style import CAT_ABBR, PARTIES, PARTY_INDEX, PREFIX, W, players_of

if TYPE_CHECKING:
    from engines.race_white_house.views import RWHView


def _sample_view() -> RWHView:
    """A made-up game that uses every colour the renderer draws (both parties'
    votes, pre-marks, won and leaning states, every track and space tint), to
    derive the fixed PNG palette from. It is a partial view, as it always was
    (the palette, and so every image's bytes, depends on what it draws): it
    leaves out what its images must not show (the round line, the entry costs)
    and what no image reads, and the drawings read those parts with .get."""
    cats = list(CAT_ABBR)
    names = ("Alabama", "Alaska", "New Hampshire", "Texas", "Ohio", "Oregon", "Iowa", "Utah")
    codes = ("AL", "AK", "NH", "TX", "OH", "OR", "IA", "UT", "CA", "NY", "FL", "PA", "MA", "RI", "DC")
    states: dict[str, dict[str, Any]] = {}
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
    sample = {"game": PREFIX, "phase": "play", "turn": 0, "players": players, "parties": parties,
              "regions": regions, "sheets": [["NE"], ["W"]], "categories": cats, "states": states,
              "board": {"circuit": circuit, "tracks": tracks, "entries": entries}, "dice": [3, 6],
              "pending": {"seat": 0, "kind": "votes", "text": "3 votes", "remaining": 2}, "last": "", "winner": None}
    return cast("RWHView", sample)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed 256-colour palette derived once from sample images."""
    v = _sample_view()
    band = with_glance(draw_sheet(v, 0), glance(v)).crop((0, 0, W, 400))  # the glance band's colours
    samples = [band, draw_sheet(v, 0), draw_map(v), draw_board(v)]
    # keep the sample small: a horizontal band from each is plenty of every colour
    return palette_from([im.crop((0, 0, W, min(im.size[1], 900))) for im in samples])


def encode(image: Image.Image) -> bytes:
    return encode_on_palette(image, _palette())


# What each image is drawn from: an image is redrawn only when its inputs changed since the
# previous view (a previous view of another shape raises here, and then everything is redrawn).
# Every image's band shows the parties' electoral votes, so they are an input of every image: an
# edit that keeps the unchanged images (bot/discord_send.py) never keeps a stale score. The band's
# step line ("place 2 votes", the last move) is not: a kept image may show an earlier step of the
# same turn, as the message's text and the redrawn images show the newest.

def _scores(view: RWHView) -> dict:
    return {p: party["ev"] for p, party in view["parties"].items()}


def sheet_inputs(view: RWHView, k: int) -> dict:
    """What sheet k is drawn from: its states, whose sheet it is, home states."""
    sheets = view["sheets"]
    regions = sheets[k] if k < len(sheets) else []
    codes = [c for r in regions for c in view["regions"].get(r, [])]
    return {"regions": [(r, view["regions"].get(r)) for r in regions],
            "categories": view["categories"], "scores": _scores(view),
            "states": {c: view["states"].get(c) for c in codes},
            "players": [{"name": p["name"], "party": p["party"], "role": p["role"], "sheet": p["sheet"],
                         "home": p["home"]} for p in players_of(view)]}


def map_inputs(view: RWHView) -> dict:
    return {"states": {c: (s["ev"], s["name"], s["won"], s["lean"]) for c, s in view["states"].items()},
            "parties": view["parties"], "winner": view["winner"], "phase": view["phase"],
            "to_elect": view["to_elect"],
            "players": [{"name": p["name"], "party": p["party"], "role": p["role"], "home": p["home"],
                         "funds": p["funds"], "spent": p["spent"]} for p in players_of(view)]}


def board_inputs(view: RWHView) -> dict:
    pending = view["pending"]
    choice = view["choice"]
    return {"board": view["board"], "dice": view["dice"], "turn": view["turn"],
            "phase": view["phase"], "winner": view["winner"], "outcome": view["outcome"],
            "round": view["round"], "max_rounds": view["max_rounds"], "scores": _scores(view),
            "pending": (pending["seat"], pending["text"]) if pending else None,
            "choice": (choice["seat"], choice["text"]) if choice else None,
            "players": [{"seat": p["seat"], "name": p["name"], "party": p["party"], "role": p["role"],
                         "space": p["space"]} for p in players_of(view)]}


def render(view: RWHView, previous: RWHView | None = None) -> list[tuple[str, bytes]]:
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

    band = glance(view)  # every image opens with it: each may be the one a phone shows
    if changed(map_inputs):
        out.append((f"{PREFIX}-map.png", encode(with_glance(draw_map(view), band))))
    for k in range(len(view["sheets"])):
        if changed(lambda v, k=k: sheet_inputs(v, k)):
            out.append((f"{PREFIX}-sheet-{k + 1}.png", encode(with_glance(draw_sheet(view, k), band))))
    if view["board"] and changed(board_inputs):
        out.append((f"{PREFIX}-board.png", encode(with_glance(draw_board(view), band))))
    return out


def glance(view: RWHView) -> Glance:
    """The phone band: whose move (and what it is), each pawn's party electoral votes with the
    party's colour and shape, and the last move's line. Drawn from the view alone, like the rest
    of the board."""
    players = players_of(view)
    parties = view["parties"]
    evs = {p: party["ev"] for p in PARTIES if (party := parties.get(p)) is not None}
    best = max(evs.values()) if evs else 0
    seats = tuple(GlanceSeat(p["seat"], p["name"] + (" (VP)" if p["role"] == "VP" else ""),
                             str(evs.get(p["party"], 0)), style=PARTY_INDEX.get(p["party"], 7),
                             mark=p["party"] if p["role"] != "VP" else "VP",
                             leading=(view.get("winner") == p["party"]) or (bool(best) and evs.get(p["party"]) == best))
                  for p in players)
    turn_seat = view.get("turn")
    names = {p["seat"]: p["name"] for p in players}
    pending, choice = view.get("pending"), view.get("choice")
    if view["phase"] == "over":
        turn = view.get("outcome") or "Game over"
        turn_seat = None
    elif pending:
        turn_seat = pending["seat"]  # the placement's long text is on the board; the count fits here
        left = pending["remaining"]
        turn = (f"{names.get(pending['seat'], '?')}: place {left} vote{'s' if left != 1 else ''}" if left
                else f"{names.get(pending['seat'], '?')} to finish")
    elif choice:
        turn_seat = choice["seat"]
        turn = f"{names.get(choice['seat'], '?')}: {choice['text']}"
    elif view["phase"] == "home":
        turn = "Choosing Home States"
    elif turn_seat is not None:
        turn = f"{names.get(turn_seat, '?')} to roll"
    else:
        turn = "Race for the White House"
    status = f"Round {view.get('round', 0)}/{view.get('max_rounds', 0)} · to {view.get('to_elect', 270)}"
    last = view.get("last") or ""
    changed, title = ((last.replace("**", ""),) if last else ()), "Last move"
    return Glance(turn=turn, turn_seat=turn_seat, seats=seats, status=status, changed=changed, changed_title=title)
