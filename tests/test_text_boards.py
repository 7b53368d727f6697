"""Text boards (render/text/): a player who can't see the images plays from text.

For random states of every game: the board built from the public view names every
seat with its score, is plain text, shows nothing a seat keeps secret, and its alt-text
summary fits Discord's 1,024 characters."""
from __future__ import annotations

import json
import re
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bot.service import Request
from engines import SYSTEM, Seat, all_games, get_game
from engines.rng import Rng
from render.text import ALT_TEXT_LIMIT, alt_text, clip, get_text_board, text_board
from testkit.leakcheck import snapshot

GAMES = sorted(all_games())


def players(game_id: str) -> int:
    """A full table, up to four seats: every seat's line must show."""
    return min(get_game(game_id).max_players, 4)

HIDDEN_HANDS = {"primary-general", "politics-1952", "politics-trivia"}  # secret cards in every state
assert HIDDEN_HANDS <= set(GAMES)
MARKUP = re.compile(r"\*\*|`|<@|<#|<t:|\|\|")


def states_along_a_game(game_id: str, seed: int, every: int, max_moves: int = 1500):
    """(state, view) every `every` moves of one seeded game: seat 0 plays the AI (so games
    get somewhere), the others pick random legal moves; clocks run out when nobody can act."""
    game = get_game(game_id)
    n = players(game_id)
    state = game.setup([Seat(name=f"Seat{i} Name", bot=False) for i in range(n)], game.options({}), seed)
    pick, rng = Random(seed), Rng(seed)
    for move in range(max_moves):
        if move % every == 0:
            yield state, game.view(state, None)
        if game.result(state).finished:
            yield state, game.view(state, None)
            return
        acting = [s for s in game.to_act(state) if s >= 0]
        seat = pick.choice(acting) if acting else None
        legal = game.legal_actions(state, seat) if seat is not None else []
        if not legal:
            timer = game.timer(state)
            game.apply_in_place(state, SYSTEM, game.parse_action(timer.action_text))
        elif seat == 0:
            game.apply_in_place(state, seat, game.ai_action(state, seat, rng))
        else:
            game.apply_in_place(state, seat, pick.choice(legal))


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


# The numbers a player needs about each seat, as each game's board prints them; a game not listed
# here is still checked for every seat's name on the board.
SEAT_CELLS = {
    "primary-general": lambda p: [_signed(p["electability"]), _signed(p["affiliation"])],
    "us-president": lambda p: [str(p["electors"])],
    "politics-1952": lambda p: [str(p["votes"]), str(p["counties"])],
    "race-white-house": lambda p: [p["home"] or "-"],
    "politics-trivia": lambda p: [str(p["ev"]), f"{p['pv']}M",
                                  f"${p['cash']}M" if p["cash"] >= 0 else f"-${-p['cash']}M"],
}
assert set(SEAT_CELLS) <= set(GAMES)


def score_cells(game_id: str, view: dict) -> list[tuple[str, list[str]]]:
    """Each seat's name with the numbers a player needs about them, as the board prints them."""
    cells = SEAT_CELLS.get(game_id, lambda p: [])
    out = [(p["name"], cells(p)) for p in view["players"]]
    if game_id == "race-white-house":  # the score is the party's: electoral votes and money left
        for party, label in (("D", "Democrats"), ("R", "Republicans")):
            totals = view["parties"][party]
            out.append((f"{label}:", [f"{totals['ev']} EV", f"${totals['funds']:,}"]))
    return out


def test_every_game_has_a_text_board_and_a_summary():
    for game_id in GAMES:
        assert get_text_board(game_id) is not None, game_id
    assert get_text_board("no-such-game") is None and text_board("no-such-game", {}) == ""


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**20))
def test_text_board_shows_scores_and_no_secret(game_id, seed):
    game = get_game(game_id)
    seen, secrets = 0, 0
    for state, view in states_along_a_game(game_id, seed, every=11):
        board = text_board(game_id, view)
        assert board == text_board(game_id, json.loads(json.dumps(view))), "a pure function of the view"
        assert not MARKUP.search(board), board
        for name, cells in score_cells(game_id, view):
            rows = [line for line in board.splitlines() if name in line]
            assert rows, f"{name} missing from the board"
            for cell in cells:
                assert any(re.search(rf"(?<![\w$+-]){re.escape(cell)}(?!\w)", row) for row in rows), \
                    f"{name}'s {cell} not on their line:\n{board}"
        secret = set().union(*snapshot(game, state).secret.values())  # every seat's secret tokens
        secrets += len(secret)
        leaked = [s for s in secret if s in board]
        assert leaked == [], f"secret text on the board: {leaked}"
        alt = alt_text(game_id, view)
        assert 0 < len(alt) <= ALT_TEXT_LIMIT and not MARKUP.search(alt)
        assert not [s for s in secret if s in alt]
        seen += 1
    assert seen >= 2
    if game_id in HIDDEN_HANDS:
        assert secrets, "the test found no secret to look for"


def test_the_board_says_whose_turn_it_is_and_what_is_open():
    # politics-trivia with a question open: the question and its four choices are on the board
    for state, view in states_along_a_game("politics-trivia", 3, every=1):
        if view["question"] and view["question"].get("choices"):
            board = text_board("politics-trivia", view)
            assert view["question"]["text"] in board
            for k, choice in enumerate(view["question"]["choices"], 1):
                assert f"{k}. {choice}" in board
            assert f"{state.seats[view['turn']].name}'s turn" in board
            break
    else:
        pytest.fail("no question came up")


def test_us_president_board_is_the_same_whatever_a_seat_secretly_picked():
    game = get_game("us-president")
    seats = [Seat(name=n) for n in ("Ann", "Bob", "Cy")]
    a = game.setup(seats, game.options({}), 5)
    b = game.load(game.dump(a))
    game.apply_in_place(a, 0, game.parse_action("pick FL large"))
    game.apply_in_place(b, 0, game.parse_action("pick MT small"))
    board = text_board("us-president", game.view(a, None))
    assert board == text_board("us-president", game.view(b, None))
    assert "still thinking Bob, Cy; picked Ann" in board


def test_politics_1952_pins_read_east_to_west_with_the_first_arrival_first():
    view = {"game": "politics-1952", "phase": "roll", "turn": 1, "turns": 4, "majority": 266, "total_votes": 531,
            "dice": None, "board_closed": False, "pinned": 1,
            "players": [{"name": "Ann", "votes": 25, "states": 1, "counties": 2, "cards_left": 3, "played": []},
                        {"name": "Bob", "votes": 0, "states": 0, "counties": 5, "cards_left": 3, "played": []}],
            "states": [{"code": "OH", "name": "Ohio", "ev": 25, "group": 6, "lines": 7,
                        "pins": [[], [1, 0], [], [], [], [], []], "capital": None, "controller": 1},
                       {"code": "NY", "name": "New York", "ev": 45, "group": 6, "lines": 7,
                        "pins": [[], [], [0], [], [], [], []], "capital": 1, "controller": 1}]}
    board = text_board("politics-1952", view)
    assert "OH 25: B2 A2 -> B" in board
    assert "NY 45: capital B A3 -> B" in board
    assert "Bob to roll." in board


def test_clip_keeps_discords_limit_in_utf16_units():
    assert clip("short", 10) == "short"
    long = "word " * 400
    out = clip(long, ALT_TEXT_LIMIT)
    assert len(out) <= ALT_TEXT_LIMIT and out.endswith("…") and not out[:-1].endswith(" ")
    emoji = "🗳️" * 600  # each ballot box is two UTF-16 units plus a variation selector
    out = clip(emoji, ALT_TEXT_LIMIT)
    assert len(out.encode("utf-16-le")) // 2 <= ALT_TEXT_LIMIT < len(out.encode("utf-16-le")) // 2 + 4


def test_alt_text_is_one_paragraph_naming_every_player():
    view = get_game("us-president").view(get_game("us-president").setup(
        [Seat(name="Ann"), Seat(name="Bob")], get_game("us-president").options({}), 1), None)
    alt = alt_text("us-president", view)
    assert "\n" not in alt and "Ann" in alt and "Bob" in alt


# ---- through the bot: /politics status and the transcript's JSON lines ----------------------

async def _game_in_progress(database, game_id: str, moves: int):
    """A channel where alice plays `game_id` against AI seats, `moves` of her moves in (each the
    first legal move); AI seats move at once. Returns the service and alice's ctx."""
    from tests.helpers import ctx, service_on, user

    svc = await service_on(database, inline_ai=True, ai_delay=0.0)
    alice = user("alice")
    bots = players(game_id) - 1
    await svc.handle(ctx(alice), "new", {"game": game_id, "seed": 11, "bots": bots})
    await svc.handle(ctx(alice), "start", {})
    game = get_game(game_id)
    for _ in range(moves):
        loaded = await svc.load(ctx(alice).channel_id)
        if loaded.record.status != "playing":
            break
        legal = game.legal_actions(loaded.state, 0)
        if not legal:
            timer = game.timer(loaded.state)
            if timer is None:
                break
            await svc.play.apply(Request(), ctx(alice).channel_id, loaded, SYSTEM, timer.action_text)
            continue
        await svc.handle(ctx(alice), "do", {"action": legal[0].text()})
    return svc, ctx(alice)


@pytest.mark.parametrize("game_id", GAMES)
async def test_status_text_lets_a_player_who_cannot_see_images_play(database, game_id):
    svc, asker = await _game_in_progress(database, game_id, moves=12)
    try:
        out = await svc.handle(asker, "status", {})
        loaded = await svc.load(asker.channel_id)
        view = loaded.game.view(loaded.state, None)
        [msg] = [m for m in out if m.to == "channel"]
        assert msg.board == text_board(game_id, view)
        status = msg.text + "\n" + msg.board
        for name, cells in score_cells(game_id, view):
            rows = [line for line in status.splitlines() if name in line]
            assert rows, f"{name} missing from /politics status"
            for cell in cells:
                assert any(cell in row for row in rows), f"{name}'s {cell} not in /politics status:\n{status}"
    finally:
        await svc.store.close()


async def test_transcript_lines_show_each_images_alt_text_and_the_status_board(tmp_path):
    from bot.transcript import TranscriptRunner

    runner = await TranscriptRunner.create(str(tmp_path / "t.db"), render=True)
    try:
        out = []
        for line in ("alice: /politics new game:us-president seed:2 bots:2", "alice: /politics start",
                     "alice: /politics status"):
            out += await runner.run_line(line)
    finally:
        await runner.close()
    with_images = [e for e in out if e["images"]]
    assert with_images
    for entry in with_images:
        assert len(entry["alt"]) == len(entry["images"])
        assert all(alt.startswith("U.S. President map, round 1 of 12") and "alice" in alt for alt in entry["alt"])
    boards = [e for e in out if "board" in e]
    assert len(boards) == 1 and boards[0]["to"] == "channel"
    assert "Secret picks: still thinking alice" in boards[0]["board"]
