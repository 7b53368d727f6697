"""Politics: The Game's view holds exactly the fields views.TriviaView declares, nested ones
included: mypy checks the code that reads the view; this checks the dicts the game really builds,
in every phase a played game passes through (public and per seat)."""
from __future__ import annotations

import typing

from engines import SYSTEM, Seat
from engines.politics_trivia import GAME
from engines.politics_trivia.views import TriviaView
from engines.rng import Rng


def _typeddicts(annotation) -> list:
    """The TypedDicts inside an annotation: X, list[X], X | None, NotRequired[X]."""
    if typing.is_typeddict(annotation):
        return [annotation]
    return [td for arg in typing.get_args(annotation) for td in _typeddicts(arg)]


def mismatches(value: dict, td, where: str) -> list[str]:
    keys = set(value)
    out = [f"{where}: missing {k}" for k in td.__required_keys__ - keys]
    out += [f"{where}: undeclared {k}" for k in keys - td.__required_keys__ - td.__optional_keys__]
    for key, annotation in typing.get_type_hints(td).items():
        nested = _typeddicts(annotation)
        if key not in value or not nested:
            continue
        items = value[key] if isinstance(value[key], list) else [value[key]]
        for i, item in enumerate(items):
            if isinstance(item, dict):
                out += mismatches(item, nested[0], f"{where}.{key}[{i}]")
    return out


def test_every_view_of_played_games_matches_trivia_view():
    steps: set[str] = set()
    for seed, n in enumerate((2, 3, 5, 8)):
        s = GAME.setup([Seat(name=f"p{i}", bot=True) for i in range(n)], GAME.options({"max_rounds": 3}), seed)
        rng = Rng(seed)
        for k in range(4000):
            for seat in (None, *range(n)):
                view = GAME.view(s, seat)
                assert mismatches(view, TriviaView, f"seed {seed} step {s.phase}") == []
                assert ("you" in view) == (seat is not None)
            steps.add(s.phase)
            if GAME.result(s).finished:
                break
            acting = [x for x in GAME.to_act(s) if x >= 0]
            if not acting or k % 13 == 0:
                GAME.apply_in_place(s, SYSTEM, GAME.parse_action("timeout"))
            else:
                seat = acting[rng.below(len(acting))]
                GAME.apply_in_place(s, seat, GAME.ai_action(s, seat, GAME.ai_rng(s, seat, k)))
        assert GAME.result(s).finished
    # the phases whose views carry the optional parts: a question, a duel and its review, the end
    assert {"homes", "start", "question", "h2h", "review", "over"} <= steps, steps


def test_a_renamed_field_is_reported():
    view = dict(GAME.view(GAME.setup([Seat(name="a"), Seat(name="b")], GAME.options(), 1), 0))
    player = dict(view["players"][0])
    player["votes"] = player.pop("pv")
    view["players"] = [player]
    found = mismatches(view, TriviaView, "v")
    assert "v.players[0]: missing pv" in found and "v.players[0]: undeclared votes" in found


def test_a_gerrymander_menu_label_keeps_the_whole_trade():
    # The label leads with what the card does and stays within a menu label, so a cut never
    # falls in the middle of the trade ("Turn in DE, MD chips + $5M → …").
    from engines.politics_trivia.board import GERRY
    from engines.politics_trivia.views import MENU_LABEL, token_label
    for card in GERRY.values():
        label = token_label(None, 0, ("play",), str(card.id))  # type: ignore[arg-type]
        assert len(label) <= MENU_LABEL and "…" not in label
        assert label.startswith(f"Turn in {card.need_text()}".replace(" Popular Votes", " PV"))
        assert f"take {card.reward_text()}".replace(" Popular Votes", " PV") in label


def test_a_card_given_back_says_so_in_its_menu_label():
    # At the local table the opening's menu lists the three cards beside "choose a home state":
    # a label that only told the trade read as playing the card.
    from engines.politics_trivia.board import GERRY
    from engines.politics_trivia.views import MENU_LABEL, token_label
    for card in GERRY.values():
        label = token_label(None, 0, ("discard",), str(card.id))  # type: ignore[arg-type]
        # whole on the confirm button too, which puts "✓ " before it
        assert label.startswith("↩ return") and len("✓ " + label) <= MENU_LABEL and "…" not in label
        assert card.title in label or f"Turn in {card.need_text()}".replace(" Popular Votes", " PV") in label


def test_the_home_state_line_shows_a_person_a_command_that_works_and_an_ai_none():
    seats = [Seat(name="ann"), Seat(name="bob"), Seat(name="Bot", bot=True)]
    state = next(s for seed in range(100)  # a deal where the AI chooses last
                 if (s := GAME.setup(seats, GAME.options({"gerrymander": False}), seed)).home_order[-1] == 2)
    first, second, _ = state.home_order
    assert GAME.status_text(state).endswith("a home state (`home TX`)")
    GAME.apply_in_place(state, first, GAME.parse_action("home TX"))
    line = GAME.status_text(state)
    assert "`home TX`" not in line and "(`home AK`)" in line  # TX is taken: the first state still free
    GAME.apply_in_place(state, second, GAME.parse_action("home AK"))
    line = GAME.status_text(state)
    assert "a home state" in line and "`" not in line  # an AI is choosing: no command to type
