"""Race for the White House's menus say what each choice does, whole (issue #26): every label the
bot builds from a race's legal actions fits Discord (a button's label at most 80 characters, a select
option's at most 100) without being cut, over random games; an Issues position's choice names what
it ADDs and what the opponent places, on the menu and on the text board within 100 columns."""
from __future__ import annotations

from random import Random

import pytest

from bot.messages import Button, Select
from bot.service.boards import Boards
from bot.store import GameRecord, Player
from engines import Seat
from engines.race_white_house import GAME
from engines.race_white_house.data import CODES, ISSUES, REGIONS
from engines.race_white_house.rules import position_text
from render.text import text_board
from tests.helpers import menu_items

BUTTON, OPTION, LINE = 80, 100, 100  # Discord's button and select-option label limits; the table's width


def menus(seed: int, players: int, moves: int = 300):
    """(state, prefix, item kind, label) for every menu step of every decision of a random race:
    half AI moves, half random legal ones."""
    state = GAME.setup([Seat(name="you")] + [Seat(name=f"AI-{i}", bot=True) for i in range(1, players)],
                       GAME.options({}), seed)
    record = GameRecord(game=GAME.id, status="playing", host="u0", seed=seed, acted=[0] * players,
                        players=[Player(id=f"u{i}", name=s.name) for i, s in enumerate(state.seats)])
    boards, pick = Boards(render=False), Random(seed)
    for n in range(moves):
        if GAME.result(state).finished:
            return
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        prefixes = {()} | {tuple(a.tokens()[:k]) for a in legal for k in range(1, len(a.tokens()))}
        for prefix in sorted(prefixes)[:60]:  # a placement has hundreds: the first states' steps suffice
            for row in boards.controls("c", record, GAME, state, seat, prefix):
                for item in row:
                    if isinstance(item, Button):
                        yield state, prefix, "button", item.label
                    else:
                        yield from ((state, prefix, "option", label) for label, _value in item.options)
        action = GAME.ai_action(state, seat, GAME.ai_rng(state, seat, n)) if pick.random() < 0.5 \
            else legal[int(pick.random() * len(legal))]
        GAME.apply_in_place(state, seat, action)


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 2), (3, 4), (4, 2)])
def test_every_menu_label_fits_without_being_cut(seed, players):
    seen = 0
    for _state, prefix, kind, label in menus(seed, players):
        seen += 1
        assert len(label) <= (BUTTON if kind == "button" else OPTION), (prefix, label)
        assert not label.endswith("…"), (prefix, label)  # the bot cut it (_clip): what it does was lost
    assert seen > 100


def test_every_issues_position_fits_a_button_and_says_what_it_does():
    for _slug, _title, positions in ISSUES:
        for pos in positions:
            text = position_text(pos)
            assert len(text) <= BUTTON - 2, text  # room for the bot's "✓ " on a move that can end there
            assert text.startswith(pos[1]) and f"opponent places {pos[3]}" in text
            assert all(f"{n} {cat}" in text for cat, n in
                       [(["UNION", "LIBERAL", "CONSERVATIVE", "MINORITY", "FARM"][k], n) for k, n in pos[2]])


def test_a_drawn_issues_card_offers_both_positions_whole():
    found = 0
    for seed in range(1, 8):
        for state, prefix, _kind, label in menus(seed, 2, moves=200):
            if state.steps and state.steps[0].kind == "issue" and prefix == ():
                found += 1
                assert "ADD" in label and "opponent places" in label, label
                board = text_board(GAME.id, dict(GAME.view(state, None)))
                offered = [line for line in board.split("\n") if line.startswith("  take ")]
                assert len(offered) == 2 and all("ADD" in x and len(x) <= LINE for x in offered), offered
                explained = [line for line in board.split("\n") if line.startswith("  (ADD n:")]
                assert len(explained) == 1 and len(explained[0]) <= LINE
        if found:
            break
    assert found, "no Issues card was drawn in these games"


def test_the_home_state_is_chosen_region_first_and_every_state_is_offered_once():
    """51 states were one list (two selects on Discord, a wall at the table): now four regions, each
    one select of at most 25, then the state; placements keep their single step."""
    game = GAME
    state = game.setup([Seat(name="A"), Seat(name="B")], game.options({}), 3)
    chooser = next(s for s in (0, 1) if game.may_act(state, s))
    record = GameRecord(game=game.id, status="playing", host="p0", seed=3, acted=[0, 0],
                        players=[Player(id=f"p{i}", name=f"P{i}") for i in range(2)])
    boards = Boards(render=False)


    regions = menu_items(boards.controls("c", record, game, state, chooser))
    assert [label.split(":")[0].split(" (")[0] for label, _ in regions] == list(REGIONS)
    offered = []
    for _label, path in regions:
        listed = menu_items(boards.controls("c", record, game, state, chooser, tuple(path.split())))
        assert listed[-1][0] == "← Back"
        assert all(len(item.options) <= 25 for row in boards.controls("c", record, game, state, chooser,
                                                                       tuple(path.split()))
                   for item in row if isinstance(item, Select))
        offered += [p.split()[-1] for _l, p in listed[:-1]]
    assert sorted(offered) == sorted(CODES)
    game.apply_in_place(state, chooser, game.parse_action(f"home {offered[0]}"))  # a listed state is a move
    assert any(p.home == offered[0] for p in state.pawns)
