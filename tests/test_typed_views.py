"""Each typed game's view holds exactly the fields its TypedDict declares, nested ones included.

mypy checks the code that builds a view and the renderers that read it; this checks the views
themselves, including the parts copied out of the state as plain dicts (tabulations, recount steps)."""
from __future__ import annotations

import typing
from random import Random

import pytest

from engines import Seat, all_games
from engines.politics_1952.view import P52View
from engines.primary_general.view import PGView
from engines.us_president.view import USPView

VIEWS = {"primary-general": PGView, "us-president": USPView, "politics-1952": P52View}


def _typeddicts(annotation) -> list:
    """The TypedDicts inside an annotation: X, list[X], X | None, dict[str, X]."""
    if typing.is_typeddict(annotation):
        return [annotation]
    return [td for arg in typing.get_args(annotation) for td in _typeddicts(arg)]


def mismatches(value, td, where: str) -> list[str]:
    keys = set(value)
    out = [f"{where}: missing {k}" for k in td.__required_keys__ - keys]
    out += [f"{where}: undeclared {k}" for k in keys - td.__required_keys__ - td.__optional_keys__]
    for key, annotation in typing.get_type_hints(td).items():
        if key not in value:
            continue
        nested = _typeddicts(annotation)
        if not nested:
            continue
        items = value[key] if isinstance(value[key], list) else [value[key]]
        for i, item in enumerate(items):
            if isinstance(item, dict):
                out += mismatches(item, nested[0], f"{where}.{key}[{i}]")
    return out


@pytest.mark.parametrize("game_id", sorted(VIEWS))
def test_every_view_of_a_played_game_matches_its_declared_shape(game_id):
    game, td = all_games()[game_id], VIEWS[game_id]
    for players in range(game.min_players, game.max_players + 1):
        state = game.setup([Seat(name=f"P{i}") for i in range(players)], game.options(), players)
        rnd = Random(players)
        for _ in range(2000):
            for seat in (None, 0):
                view = game.view(state, seat)
                assert mismatches(view, td, game_id) == []
                assert ("you" in view) == (seat is not None)
            if game.result(state).finished:
                break
            seat = rnd.choice([s for s in game.to_act(state) if s >= 0])
            game.apply_in_place(state, seat, rnd.choice(game.legal_actions(state, seat)))
        assert game.result(state).finished


def test_a_renamed_field_is_reported():
    game = all_games()["politics-1952"]
    view = dict(game.view(game.setup([Seat(name="a"), Seat(name="b")], game.options(), 1), None))
    renamed = dict(view["players"][0])
    renamed["vote"] = renamed.pop("votes")
    view["players"] = [renamed]
    assert "politics-1952.players[0]: missing votes" in mismatches(view, P52View, "politics-1952")
    assert "politics-1952.players[0]: undeclared vote" in mismatches(view, P52View, "politics-1952")
