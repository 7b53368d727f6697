"""What a player meets in the first hour at the local table (issue #26), where no other test looks:
a sentence that is no longer true (\"You can change it\" after the reveal), menu labels that explain
their numbers, a first menu item that confirms rather than undoes, and the table not scrolling your
whole hand past again at every menu step."""
from __future__ import annotations

import io

from bot.table import run_table
from bot.transcript import FakeClock
from engines import Seat, get_game

USP, P52, RWH = get_game("us-president"), get_game("politics-1952"), get_game("race-white-house")


def private(events, seat: int) -> str:
    return " ".join(e.text for e in events if e.to is not None and seat in e.to)


def test_the_last_pick_of_a_round_does_not_offer_a_change():
    state = USP.setup([Seat(name="you"), Seat(name="Alice")], USP.options({}), 1)
    first = USP.legal_actions(state, 0)[0]
    state, events = USP.apply(state, 0, first)
    assert "You can change it until everyone has picked." in private(events, 0)  # Alice still thinks
    state, events = USP.apply(state, 1, USP.legal_actions(state, 1)[0])
    assert "revealed" in " ".join(e.text for e in events) and "change it" not in private(events, 1)


def test_a_state_in_the_pick_menu_says_what_its_numbers_count():
    state = USP.setup([Seat(name="you"), Seat(name="Alice")], USP.options({}), 1)
    label = USP.token_label(state, 0, ("pick",), "FL")
    assert label.endswith("· your pyramids here: 0 of 3") and "/" not in label


def test_politics_1952_says_what_the_roll_asks_for_and_where_your_pin_is():
    state = P52.setup([Seat(name="you"), Seat(name="Alice")], P52.options({}), 2)
    while state.phase != "move":
        seat = P52.to_act(state)[0]
        state, _ = P52.apply(state, seat, P52.legal_actions(state, seat)[0])
    status = P52.status_text(state)
    g, a, b = state.dice
    assert f"to place {a + b} of {a + b} counties in group {g}" in status
    code = next(t.tokens()[1] for t in P52.legal_actions(state, state.turn) if t.tokens()[0] == "capture")
    assert "· your pin: none · held by" in P52.token_label(state, state.turn, ("capture",), code)


def test_race_confirms_before_it_undoes_and_explains_its_counts():
    state = RWH.setup([Seat(name="you"), Seat(name="Alice")], RWH.options({}), 1)
    state, _ = RWH.apply(state, 0, RWH.parse_action("home TX"))
    assert "of 10 to win" in RWH.token_label(state, 0, ("place",), "TX")
    assert " blocks · them " in RWH.token_label(state, 0, ("place", "TX"), "UNION")
    while state.steps and state.steps[0].remaining > 0:  # place the Home State's votes one by one
        place = next(a for a in RWH.legal_actions(state, 0) if a.tokens()[0] == "place")
        state, _ = RWH.apply(state, 0, place)
    verbs = [a.tokens()[0] for a in RWH.legal_actions(state, 0)]
    assert verbs[:2] == ["done", "undo"]  # "1" confirms; it never takes back the vote just placed


async def test_the_table_shows_your_hand_once_per_change(tmp_path):
    out = io.StringIO()
    await run_table("politics-1952", 1, 5, str(tmp_path / "img"), str(tmp_path / "t.db"), None,
                    stdin=io.StringIO("1\n1\n1\n1\nhand\nquit\n"), stdout=out, clock=FakeClock())
    text = out.getvalue()
    card = "• labor — A Friend of the Working Man"
    assert text.count("(as above; type hand to see it again)") >= 3
    assert text.count(card) == 2  # dealt, and when you asked for it with `hand`


async def test_a_hint_says_the_searchs_estimate_in_a_sentence(tmp_path):
    out = io.StringIO()
    await run_table("us-president", 1, 5, str(tmp_path / "img"), str(tmp_path / "t.db"), None,
                    stdin=io.StringIO("hint\nquit\n"), stdout=out, clock=FakeClock())
    text = out.getvalue()
    assert "Hint (only you see this)" in text and "The search gives " in text and "search's" not in text
