"""Race for the White House renderer: four phone-readable images, each redrawn
only when what feeds it changed; 2- and 4-player views; a finished game."""
from __future__ import annotations

import copy
import csv
import io
import pathlib

from PIL import Image

from render import get_renderer
from render import race_white_house as R

DATA = pathlib.Path("/work/shared/data/electoral_votes.csv")
REGIONS = {
    "Northeast": ["ME", "NH", "VT", "MA", "RI", "CT", "NY", "NJ", "PA"],
    "South": ["DE", "MD", "DC", "VA", "WV", "NC", "SC", "GA", "FL", "KY", "TN", "AL", "MS", "AR", "LA", "OK", "TX"],
    "Midwest": ["OH", "MI", "IN", "IL", "WI", "MN", "IA", "MO", "ND", "SD", "NE", "KS"],
    "West": ["MT", "ID", "WY", "CO", "NM", "AZ", "UT", "NV", "CA", "OR", "WA", "AK", "HI"],
}
CATS = ["UNION", "LIBERAL", "CONSERVATIVE", "MINORITY", "FARM"]
NAMES = ["Alice", "Bob", "Charlotte", "Dmitri"]


def ev_table():
    from render.core import state_codes, state_name
    evs = {}
    if DATA.exists():
        with open(DATA) as fh:
            for row in csv.DictReader(fh):
                evs[row["code"]] = (row["name"], int(row["ev_2004"]))
    return {c: evs.get(c, (state_name(c), 3 + len(c))) for c in state_codes()}


def synthetic_view(n=2, step=0, over=False):
    """A view following the public view contract: pseudo-random fills from `step`."""
    evs = ev_table()
    states = {}
    k = 0
    for region, codes in REGIONS.items():
        for code in codes:
            name, ev = evs[code]
            caps = {c: max(2, min(8, ev // 5 + 1 + (k + j) % 3)) for j, c in enumerate(CATS)}
            lean = "D" if k % 3 == 0 else "R" if k % 3 == 1 else None
            blocks = {c: {"D": [caps[c], min(caps[c], (k * 7 + j + step) % (caps[c] + 1))],
                          "R": [caps[c], min(caps[c], (k * 5 + 2 * j + step) % (caps[c] + 1))]}
                      for j, c in enumerate(CATS)}
            if lean:
                cat = "LIBERAL" if lean == "D" else "CONSERVATIVE"
                blocks[cat][lean][1] = max(1, blocks[cat][lean][1])
            total = sum(caps.values())
            won = None
            if over or (k + step) % 4 == 0:
                won = "D" if sum(b["D"][1] for b in blocks.values()) >= sum(b["R"][1] for b in blocks.values()) else "R"
            states[code] = {"name": name, "ev": ev, "region": region, "lean": lean, "to_win": total // 2 + 1,
                            "blocks": blocks, "won": won, "declared": True}
            k += 1
    parties = {p: {"ev": sum(s["ev"] for s in states.values() if s["won"] == p),
                   "won": [c for c, s in states.items() if s["won"] == p], "spent": 0} for p in "DR"}
    players = []
    for i in range(n):
        players.append({"seat": i, "name": NAMES[i], "party": "DR"[i % 2], "role": "P" if i < 2 else "VP",
                        "sheet": None if n == 2 else i // 2, "home": ("NY", "TX", "OH", "CA")[i],
                        "space": {"track": None, "index": (5 * i + step) % 40} if i != 1 else
                        {"track": "UNION", "index": step % 6},
                        "funds": 60_000_000 - 5_000_000 * i, "spent": 5_000_000 * i})
    circuit = [{"kind": ("start", "issues", "spin", "votes", "tv", "debate", "campaign", "farm")[i % 8],
                "label": ("Home state / Start", "Issues", "Spin doctor", "3 UNION votes in the Midwest", "TV",
                          "Debate", "Campaign for union", "Farm vote: 15 FARM votes")[i % 8]} for i in range(40)]
    tracks = {t: [{"kind": "votes", "label": f"{j + 1} {t.lower()} votes"} for j in range(6)]
              for t in ("UNION", "LIBERAL", "CONSERVATIVE", "MINORITY")}
    winner = None
    if over:
        winner = "D" if parties["D"]["ev"] >= parties["R"]["ev"] else "R"
    return {"game": "race-white-house", "phase": "over" if over else "play", "turn": None if over else step % n,
            "players": players, "parties": parties, "regions": copy.deepcopy(REGIONS),
            "sheets": [["Northeast", "South"], ["Midwest", "West"]], "categories": list(CATS), "states": states,
            "board": {"circuit": circuit, "tracks": tracks,
                      "entries": {"UNION": 6, "LIBERAL": 14, "CONSERVATIVE": 22, "MINORITY": 30}},
            "dice": [3, 5] if step else None, "pending": None, "last": "Bob rolled 8.", "winner": winner}


def images(out):
    return {name: Image.open(io.BytesIO(data)) for name, data in out}


def check_images(out):
    names = [n for n, _ in out]
    assert names == ["race-white-house-map.png", "race-white-house-sheet-1.png", "race-white-house-sheet-2.png",
                     "race-white-house-board.png"]
    for name, data in out:
        assert len(data) <= 400 * 1024, (name, len(data))
        img = Image.open(io.BytesIO(data))
        img.load()
        w, h = img.size
        assert w == 1200 and 800 <= h <= 2400, (name, img.size)


def test_renderer_is_found_and_draws_two_and_four_player_games():
    assert get_renderer("race-white-house") is R.render
    for n in (2, 4):
        for step in (0, 3, 11):
            check_images(R.render(synthetic_view(n, step)))


def test_finished_game_renders():
    for n in (2, 4):
        view = synthetic_view(n, 5, over=True)
        check_images(R.render(view))
        assert R.render(view, view) == []


def test_unchanged_view_renders_nothing():
    view = synthetic_view(2, 3)
    assert R.render(view, copy.deepcopy(view)) == []


def test_a_vote_on_one_sheet_redraws_only_that_sheet():
    before = synthetic_view(4, 3)
    after = copy.deepcopy(before)
    # one more Democratic UNION vote in an open Midwest state (sheet 2)
    code = next(c for c in REGIONS["Midwest"] if after["states"][c]["won"] is None
                and after["states"][c]["blocks"]["UNION"]["D"][1] < after["states"][c]["blocks"]["UNION"]["D"][0])
    after["states"][code]["blocks"]["UNION"]["D"][1] += 1
    after["last"] = "Alice places a UNION vote."
    out = R.render(after, before)
    assert [n for n, _ in out] == ["race-white-house-sheet-2.png"]
    # the image really shows the new vote: it differs from the one before
    assert out[0][1] != dict(R.render(before))["race-white-house-sheet-2.png"]


def test_winning_a_state_redraws_its_sheet_and_the_map_only():
    before = synthetic_view(2, 3)
    after = copy.deepcopy(before)
    code = next(c for c in REGIONS["Northeast"] if after["states"][c]["won"] is None)
    after["states"][code]["won"] = "R"
    after["parties"]["R"]["won"].append(code)
    after["parties"]["R"]["ev"] += after["states"][code]["ev"]
    assert [n for n, _ in R.render(after, before)] == ["race-white-house-map.png", "race-white-house-sheet-1.png"]


def test_a_move_redraws_only_the_board():
    before = synthetic_view(2, 3)
    after = copy.deepcopy(before)
    after["players"][0]["space"]["index"] = (after["players"][0]["space"]["index"] + 7) % 40
    after["dice"] = [3, 4]
    after["last"] = "Alice rolled 7."
    assert [n for n, _ in R.render(after, before)] == ["race-white-house-board.png"]
    # the count of votes still to place is said in text, not by a new board image
    a = copy.deepcopy(after)
    a["pending"] = {"seat": 0, "kind": "votes", "text": "5 votes anywhere", "remaining": 5}
    b = copy.deepcopy(a)
    b["pending"]["remaining"] = 4
    assert R.render(b, a) == []


def test_spending_money_redraws_only_the_map():
    before = synthetic_view(2, 3)
    after = copy.deepcopy(before)
    after["players"][0]["spent"] += 5_000_000
    after["players"][0]["funds"] -= 5_000_000
    assert [n for n, _ in R.render(after, before)] == ["race-white-house-map.png"]


def test_won_and_voted_blocks_are_drawn_in_party_colours():
    from render.core import player
    view = synthetic_view(2, 3)
    sheet = images(R.render(view))["race-white-house-sheet-1.png"].convert("RGB")
    colours = {c for _, c in sheet.getcolors(1 << 16)}
    for c in (player(0).color, player(1).color):
        assert min(sum(abs(a - b) for a, b in zip(c, k)) for k in colours) <= 12, c


def test_render_ignores_unknown_keys():
    view = synthetic_view(2, 3)
    extra = {**view, "something_new": {"x": 1}}
    assert R.render(extra) == R.render(view)
