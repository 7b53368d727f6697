"""Boards a phone can read (issue 25): every renderer, found through the game registry, starts
each image with a glance band whose texts (whose turn, every seat's score, what changed) are at
least 9 px tall when the image is scaled to 400 px wide, and places no label under a pin and no
crossing leader lines. The sizes are measured as the renderers draw them (render.glance.measuring)."""
from __future__ import annotations

import functools
import io
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from engines import all_games
from engines.core import Seat
from engines.rng import Rng
from render import get_renderer
from render.core import font
from render.glance import GLANCE_MIN_PX, PHONE_WIDTH, Glance, GlanceSeat, glance_band, measuring

GAMES = sorted(g for g in all_games() if get_renderer(g) is not None)


def views_of_a_random_game(game_id: str, players: int, seed: int, stops: tuple[int, ...]):
    """(previous view, view) at a few points of a random game: the public views a bot renders."""
    game = all_games()[game_id]
    state = game.setup([Seat(name=f"Player {i + 1}") for i in range(players)], game.options({}), seed)
    rng = Rng(seed)
    previous = game.view(state, None)
    out = [(None, previous)]
    for k in range(max(stops) + 1):
        if not game.random_step(state, rng):
            break
        view = game.view(state, None)
        if k in stops:
            out.append((previous, view))
        previous = view
    out.append((None, previous))
    return out


@functools.cache
def _warm(game_id: str) -> None:
    """One render before measuring: a renderer's first call derives its fixed PNG palette from
    sample boards (bands included), which would be counted as this board's texts."""
    game = all_games()[game_id]
    state = game.setup([Seat(name=f"P{i}") for i in range(game.min_players)], game.options({}), 0)
    get_renderer(game_id)(game.view(state, None))  # type: ignore[misc]


def check_board(game_id: str, previous, view) -> list[float]:
    """Render one view, measuring; returns each glance text's height at 400 px."""
    renderer = get_renderer(game_id)
    assert renderer is not None
    _warm(game_id)
    with measuring() as (texts, boxes):
        images = renderer(view, previous)
    if not images:
        return []
    widths = [Image.open(io.BytesIO(data)).size[0] for _name, data in images]
    glance = [t for t in texts if t.role.startswith("glance:")]
    # one band per image, each as wide as its image, each saying whose turn and every score
    assert sorted({t.image_w for t in glance}) == sorted(set(widths)), (game_id, widths)
    assert sum(t.role == "glance:turn" for t in glance) == len(images)
    seats = len(view["players"])
    assert sum(t.role == "glance:score" for t in glance) >= seats * len(images)
    assert sum(t.role == "glance:changed" for t in glance) >= len(images)
    heights = [t.size_px * PHONE_WIDTH / t.image_w for t in glance]
    small = [(t.role, t.text, round(h, 1)) for t, h in zip(glance, heights) if h < GLANCE_MIN_PX]
    assert not small, f"{game_id}: glance texts under {GLANCE_MIN_PX} px at 400 px wide: {small}"
    # stricter than the font size: the capitals and digits of what a player must read (whose turn,
    # the scores, what changed) are themselves 9 px tall at 400 px wide
    caps = [(t.role, t.text, round(_cap_height(t.size_px) * PHONE_WIDTH / t.image_w, 1)) for t in glance
            if t.role != "glance:status" and _cap_height(t.size_px) * PHONE_WIDTH / t.image_w < GLANCE_MIN_PX]
    assert not caps, f"{game_id}: capitals under {GLANCE_MIN_PX} px at 400 px wide: {caps}"
    # the band, like the board, is drawn from the view alone: the bot may merge several boards
    # into one post, and the picture must not depend on which view it compared against
    if previous is not None:
        alone = dict(renderer(view))
        assert all(alone.get(name) == data for name, data in images), game_id
    # no label under (or over) a pin: the boxes the renderer placed do not overlap
    labels = [b for b in boxes if b.role == "label"]
    pins = [b for b in boxes if b.role == "pin"]
    hits = [(lab.key, pin.key) for lab in labels for pin in pins
            if lab.image == pin.image and _overlap(lab.box, pin.box)]
    assert not hits, f"{game_id}: pins over labels: {hits[:10]}"
    return heights


def _cap_height(size_px: int) -> int:
    left, top, right, bottom = font(size_px).getbbox("H", anchor="ls")
    return bottom - top


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_glance_band_is_readable_at_400_px_through_a_game(game_id):
    game = all_games()[game_id]
    for players in sorted({game.min_players, min(game.max_players, 4), game.max_players}):
        for previous, view in views_of_a_random_game(game_id, players, seed=players, stops=(0, 3, 12, 40)):
            check_board(game_id, previous, view)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 120), players=st.integers(2, 8))
def test_random_states_keep_the_glance_readable_and_pins_off_labels(game_id, seed, moves, players):
    game = all_games()[game_id]
    players = max(game.min_players, min(game.max_players, players))
    for previous, view in views_of_a_random_game(game_id, players, seed, stops=(moves,))[-2:]:
        check_board(game_id, previous, view)


@pytest.mark.parametrize("width", [400, 1200, 2072])
def test_the_band_keeps_its_phone_size_at_any_board_width(width):
    g = Glance(turn="A long name to play now", turn_seat=0, status="Round 5/12",
               seats=tuple(GlanceSeat(i, f"Player {i + 1}", str(100 * i), active=i != 2) for i in range(8)),
               changed=tuple(f"TX {k} → B" for k in range(40)))
    with measuring() as (texts, _):
        band = glance_band(width, g)
    assert band.size[0] == width
    # the band is as tall, in phone px, at any width: it is laid out for 400 px and scaled
    assert abs(band.size[1] * PHONE_WIDTH / width - glance_band(400, g).size[1]) <= 3
    assert min(t.size_px * PHONE_WIDTH / t.image_w for t in texts) >= GLANCE_MIN_PX
    # eight seats and forty changes still fit: two changed lines at most, every seat drawn
    assert sum(t.role == "glance:changed" for t in texts) <= 3
    assert sum(t.role == "glance:score" for t in texts) >= 8


def test_measuring_is_off_outside_a_test():
    from render.glance import _Recorder
    glance_band(400, Glance(turn="x", seats=()))
    assert _Recorder.texts is None and _Recorder.boxes is None


@pytest.mark.parametrize("module", ["us_president", "politics_1952", "politics_trivia"])
def test_leader_lines_do_not_cross(module):
    import importlib
    mod = importlib.import_module(f"render.{module}")
    lines_of = getattr(mod, "leader_lines", None)
    if lines_of is None:
        pytest.skip(f"render.{module} draws no leader lines")
    lines = lines_of()
    segments = [(code, a, b) for code, pts in lines.items() for a, b in zip(pts, pts[1:])]
    crossing = [(c1, c2) for (c1, a1, b1), (c2, a2, b2) in itertools.combinations(segments, 2)
                if c1 != c2 and _cross(a1, b1, a2, b2)]
    assert not crossing


def _cross(p1, p2, q1, q2) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return orient(p1, p2, q1) * orient(p1, p2, q2) < 0 and orient(q1, q2, p1) * orient(q1, q2, p2) < 0
