"""Prompts worded for whoever reads them (issue #26): a count says what it counts, a pick is not
called changeable once the round is revealed, and a trivia prompt names no control that only one
front end has ("type it with the button" at a table without buttons)."""
from __future__ import annotations

from engines.core import Seat
from engines.politics_trivia import GAME as TRIVIA
from engines.politics_trivia import runoff
from engines.us_president import GAME as USP


def _usp(n: int = 3):
    return USP.setup([Seat(name=f"P{i}") for i in range(n)], USP.options({}), 7)


def test_the_change_your_pick_sentence_only_while_someone_still_thinks():
    state = _usp()
    seen = []
    for seat in range(3):
        pick = USP.legal_actions(state, seat)[0]
        state, events = USP.apply(state, seat, pick)
        seen.append([e.text for e in events if e.to == [seat]])
    assert any("change it until everyone has picked" in t for t in seen[0])
    assert any("change it until everyone has picked" in t for t in seen[1])
    # the last pick reveals the round: no promise that it can still change
    assert seen[2] and not any("change it" in t for t in seen[2])


def test_the_pyramid_count_of_a_state_says_what_it_counts():
    state = _usp()
    code = USP.legal_actions(state, 0)[0].tokens()[1]
    label = USP.token_label(state, 0, ("pick",), code)
    assert "/3" not in label
    assert "your pyramids here: 0 of 3" in label


def test_the_runoff_prompt_names_no_control_only_one_front_end_has():
    state = TRIVIA.setup([Seat(name="Ann"), Seat(name="Bob")], TRIVIA.options({}), 3)
    runoff.start_speed(state, [], "speed")
    assert state.phase == "h2h"
    text = TRIVIA.private_text(state, 0)
    assert "not answered this question yet" in text
    assert "button" not in text
    assert "Type your answer" in text and "guess <answer>" in text
    assert TRIVIA.text_prompts(state, 0)[0].label == "Type your answer"  # the name the prompt uses
