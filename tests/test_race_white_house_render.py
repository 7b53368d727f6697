"""Race for the White House renderer: four phone-readable images (map, two
tally sheets, board), each redrawn only when what feeds it changed; 2- and
4-player games from the real engine, every phase, a finished game."""
from __future__ import annotations

import copy
import io

from PIL import Image

from engines import Seat
from engines.race_white_house import GAME
from engines.rng import Rng
from render import get_renderer
from render.text import alt_text, text_board
from render import race_white_house as R
from render.race_white_house import sheet as S

MAP, SHEET1, SHEET2, BOARD = (f"race-white-house-{x}.png" for x in ("map", "sheet-1", "sheet-2", "board"))
NAMES = ["Alice", "Bob", "Charlotte", "Dmitri"]


def new_game(n, seed):
    return GAME.setup([Seat(name=NAMES[i]) for i in range(n)], GAME.options({}), seed)


def step(state, rng, ai=True):
    seat = GAME.to_act(state)[0]
    if ai:
        action = GAME.ai_action(state, seat, rng)
    else:
        legal = GAME.legal_actions(state, seat)
        action = legal[rng.below(len(legal))]
    GAME.apply_in_place(state, seat, action)


def played(n, steps, seed=5, ai=True):
    state, rng = new_game(n, seed), Rng(seed)
    for _ in range(steps):
        if GAME.result(state).finished:
            break
        step(state, rng, ai)
    return state


def check_images(out):
    assert [name for name, _ in out] == [MAP, SHEET1, SHEET2, BOARD]
    for name, data in out:
        assert len(data) <= 400 * 1024, (name, len(data))
        img = Image.open(io.BytesIO(data))
        img.load()
        w, h = img.size
        assert w == 1200 and 800 <= h <= 2400, (name, img.size)


def sheet_of(view, code):
    region = view["states"][code]["region"]
    return next(k for k, regions in enumerate(view["sheets"]) if region in regions)


def test_renderer_is_found_and_draws_every_phase_for_two_and_four_players():
    assert get_renderer("race-white-house") is R.render
    for n in (2, 4):
        for steps, phase in ((0, "home"), (30, "play"), (10_000, "over")):
            view = GAME.view(played(n, steps, seed=n), None)
            assert view["phase"] == phase
            check_images(R.render(view))


def test_unchanged_view_renders_nothing():
    view = GAME.view(played(2, 40), None)
    assert R.render(view, copy.deepcopy(view)) == []
    # keys the renderer does not draw (the move log, the last line) change nothing either
    other = {**copy.deepcopy(view), "last": "something else", "log": ["x"], "something_new": 1}
    assert R.render(other, view) == []


def _progress(item):
    """A pending placement without its running counts (those are told in text)."""
    return None if item is None else {k: v for k, v in item.items() if k not in ("remaining", "placed", "total")}


def test_a_whole_game_renders_step_by_step_and_only_what_changed():
    """Every move of a 4-player game: the render never raises, and votes that
    win nothing while the turn goes on redraw exactly the tally sheet holding
    their states."""
    state, rng = new_game(4, 11), Rng(11)
    plain_votes = 0
    before = GAME.view(state, None)
    while not GAME.result(state).finished:
        step(state, rng)
        after = GAME.view(state, None)
        out = R.render(after, before)
        changed = [c for c in after["states"] if after["states"][c] != before["states"][c]]
        sheets = {sheet_of(after, c) for c in changed}
        if (len(sheets) == 1 and not any(after["states"][c]["won"] for c in changed) and after["phase"] == "play"
                and _progress(before["pending"]) == _progress(after["pending"])
                and before["choice"] == after["choice"] and after["parties"] == before["parties"]
                and after["dice"] == before["dice"] and after["turn"] == before["turn"]
                and after["players"] == before["players"]):
            plain_votes += 1
            assert [name for name, _ in out] == [(SHEET1, SHEET2)[sheets.pop()]]
        for _name, data in out:
            assert len(data) <= 400 * 1024
        before = after
    assert plain_votes >= 3
    final = GAME.view(state, None)
    assert final["winner"] in ("D", "R")
    check_images(R.render(final))


def test_winning_a_state_redraws_every_picture_and_a_placement_only_its_sheet():
    """Every picture's band shows the parties' electoral votes, and a board edit keeps the pictures
    that did not change (bot/discord_send.py): a won state redraws them all, so none keeps an old
    score; a placement that wins nothing redraws only the sheet it was on."""
    state, rng = new_game(2, 3), Rng(3)
    found, placed = 0, 0
    before = GAME.view(state, None)
    while not GAME.result(state).finished and (found < 3 or not placed):
        step(state, rng)
        after = GAME.view(state, None)
        changed = [c for c in after["states"] if after["states"][c] != before["states"][c]]
        won = [c for c in changed if after["states"][c]["won"] and not before["states"][c]["won"]]
        sheets = {sheet_of(after, c) for c in changed}
        names = [name for name, _ in R.render(after, before)]
        if won:
            assert {MAP, SHEET1, SHEET2, BOARD} <= set(names)
            found += 1
        elif len(sheets) == 1 and after["parties"] == before["parties"] and after["board"] == before["board"] \
                and after["players"] == before["players"]:
            k = sheets.pop()
            assert (SHEET1, SHEET2)[k] in names and (SHEET1, SHEET2)[1 - k] not in names and MAP not in names
            placed += 1
        before = after
    assert found and placed


def test_a_move_redraws_the_board_and_spending_redraws_the_map():
    view = GAME.view(played(2, 40), None)
    moved = copy.deepcopy(view)
    pawn = moved["players"][0]
    pawn["space"] = {"track": None, "index": (pawn["space"]["index"] + 5) % len(moved["board"]["circuit"])}
    moved["dice"] = [2, 3]
    assert [name for name, _ in R.render(moved, view)] == [BOARD]
    paid = copy.deepcopy(view)
    paid["players"][1]["spent"] += 5_000_000
    paid["parties"][paid["players"][1]["party"]]["spent"] += 5_000_000
    assert [name for name, _ in R.render(paid, view)] == [MAP]


def test_one_more_vote_changes_the_sheet_image():
    view = GAME.view(played(2, 40), None)
    more = copy.deepcopy(view)
    cell = next(cell for c in view["regions"]["West"] if view["states"][c]["won"] is None
                for cat in view["categories"] for cell in more["states"][c]["blocks"][cat].values()
                if cell[1] < cell[0])
    cell[1] += 1
    out = R.render(more, view)
    assert [name for name, _ in out] == [SHEET2]
    assert out[0][1] != dict(R.render(view))[SHEET2]


def test_party_colours_survive_the_fixed_palette():
    from render.core import player
    view = GAME.view(played(2, 10_000, seed=2), None)
    imgs = {name: Image.open(io.BytesIO(data)).convert("RGB") for name, data in R.render(view)}
    for name in (MAP, SHEET1):
        colours = {c for _, c in imgs[name].getcolors(1 << 16)}
        for c in (player(0).color, player(1).color):
            assert min(sum(abs(a - b) for a, b in zip(c, k)) for k in colours) <= 12, (name, c)


def test_render_reads_only_the_public_view():
    state = played(4, 50)
    public = GAME.view(state, None)
    assert R.render(public) == R.render(GAME.view(state, 0))


def test_the_rulebook_sheets_grow_wider_instead_of_overlapping_the_two_parties():
    # blocks=rulebook gives California 27 LIBERAL blocks a party: at the short sheets' width the
    # Democratic and Republican rows ran into each other.
    state = GAME.setup([Seat(name=n) for n in NAMES[:2]], GAME.options({"blocks": "rulebook"}), 3)
    view = GAME.view(state, None)
    layout = S.sheet_layout(S.sheet_struct(view, 1))
    x = 0
    widest = 27
    assert layout["pitch"] >= S.MIN_PITCH
    last_d = S.cell_x(layout, x, "D", widest - 1) + layout["pitch"]
    first_r = S.cell_x(layout, x, "R", widest - 1)
    centre = (x + S.LB_W + 8 + layout["side_w"], x + S.LB_W + 8 + layout["side_w"] + S.CAT_W)
    assert last_d <= centre[0] + 3 and first_r >= centre[1] - 3  # each party stays on its side of the labels
    img = Image.open(io.BytesIO(dict(R.render(view))[SHEET2]))
    assert img.size[0] == layout["width"] > 1200 and len(dict(R.render(view))[SHEET2]) <= 400 * 1024
    # the short sheets keep their width
    short = GAME.view(new_game(2, 3), None)
    assert S.sheet_layout(S.sheet_struct(short, 1))["width"] == 1200


def test_the_text_board_names_the_seat_to_act_in_a_three_player_game():
    # With three players seat 2 plays both Republicans: the view lists four pawns, and pawn 1 (the
    # Republican Vice-President) is not seat 1 (the Democratic Vice-President, pawn 3).
    state, rng = new_game(3, 2), Rng(2)
    while not (state.phase == "play" and GAME.to_act(state) == [1] and not state.steps):
        step(state, rng)
    view = GAME.view(state, None)
    assert view["turn"] == 1 and view["players"][1]["seat"] == 2
    assert "Turn: Bob" in text_board("race-white-house", view)
    assert "Bob to act" in alt_text("race-white-house", view)
