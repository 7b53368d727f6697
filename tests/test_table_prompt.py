"""The table's `> ` prompt shows whenever the game waits for your line (issue #26): also while the
only thing open to you is a performer's `give up`, with the game waiting on the clock alone."""
from __future__ import annotations


import io

from bot.table import run_table, waits_for_you
from bot.transcript import FakeClock
from engines.core import Seat
from engines.politics_trivia import GAME
from engines.politics_trivia.models import WildState


def _performing(card: str, performer: int = 0):
    state = GAME.setup([Seat(name="you"), Seat(name="AI-Ann", bot=True)], GAME.options({}), 5)
    state.phase, state.turn = "wildcard", performer
    state.wild = WildState(card=card, performer=performer, stage="performing")
    return state


def test_a_charade_performer_whose_only_move_is_give_up_is_waited_for():
    state = _performing("charades-1")
    assert GAME.to_act(state) == []  # the game waits on the clock alone
    assert [a.text() for a in GAME.legal_actions(state, 0)] == ["giveup"]
    assert waits_for_you(GAME, state, 0)


def test_a_guesser_is_waited_for_and_a_judged_performer_waits_for_the_judges():
    state = _performing("charades-1", performer=1)
    assert waits_for_you(GAME, state, 0)  # the guess's text box
    judged = _performing("physical-1")
    assert GAME.to_act(judged) == [1]
    assert not waits_for_you(GAME, judged, 0)  # the judge is who the game waits for


def test_nothing_to_do_is_not_waited_for():
    state = _performing("physical-1", performer=1)
    state.wild.votes = [[0, 1]]  # you have judged
    assert not waits_for_you(GAME, state, 0)


async def test_the_table_prompts_the_performer_of_a_directed_scene(tmp_path):
    """At the table (seed 12, you draw a 'direct another' card on your first roll): once the scene
    runs, giving up is your only move, the game waits on the clock, and the table still says it
    waits for you and shows `> ` — so your next line gives up rather than the clock passing."""
    out = io.StringIO()
    script = ("1\n" * 6 + "wait\n") * 6 + "quit\n"
    await run_table("politics-trivia", 2, 12, str(tmp_path / "img"), str(tmp_path / "t.db"), None,
                    stdin=io.StringIO(script), stdout=out, clock=FakeClock())
    text = out.getvalue()
    scene = text.index("🎭 You direct")
    menu = text.index("[1] ✓ give up", scene)
    after = [line for line in text[menu:].split("\n") if not line.lstrip().startswith("image:")]  # the board's path
    assert after[1].startswith("-- Your move: type 1 (the only choice)")
    assert after[2].startswith("> ")
    assert "You give up the Wildcard." in text[menu:]
