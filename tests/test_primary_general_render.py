"""Primary/General board image: drawn from the public view, phone-sized, small and fast."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from engines import Seat
from engines.primary_general import GAME
from engines.rng import Rng
from render import get_renderer
from render.primary_general import draw_board, render

NAMES = ["alice", "Bob the Builder", "carol", "dave"]


def state_after(n: int, steps: int, seed: int = 3, **opts):
    s = GAME.setup([Seat(name=NAMES[i], bot=i == 1) for i in range(n)], GAME.options(opts), seed)
    r = Rng(seed)
    for _ in range(steps):
        if GAME.result(s).finished:
            break
        legal = GAME.legal_actions(s, s.turn)
        GAME.apply_in_place(s, s.turn, legal[r.below(len(legal))])
    return s


CASES = {
    "2p-primary": (2, 5, {}),
    "3p-general": (3, 30, {}),
    "4p-primary": (4, 12, {}),
    "4p-general": (4, 40, {}),
    "4p-over": (4, 999, {}),
    "2p-over": (2, 999, {}),
    "4p-game-scope": (4, 54, {"adhd_scope": "game"}),
    "party-mid": (4, 96, {"party_match": True}),
    "party-over": (4, 9999, {"party_match": True}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_board_is_a_phone_readable_png_under_300kb(case):
    n, steps, opts = CASES[case]
    view = GAME.view(state_after(n, steps, **opts), None)
    out = render(view)
    assert len(out) == 1
    name, data = out[0]
    assert name.endswith(".png") and data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 300_000
    img = Image.open(io.BytesIO(data))
    assert img.width >= 1200 and 500 <= img.height <= 1600


def test_the_bot_finds_this_renderer():
    assert get_renderer("primary-general") is render


def test_unchanged_view_renders_nothing_and_changes_redraw():
    s = state_after(3, 4)
    before = GAME.view(s, None)
    assert render(before, previous=before) == []
    GAME.apply_in_place(s, s.turn, GAME.legal_actions(s, s.turn)[0])
    after = GAME.view(s, None)
    assert render(after, previous=before)[0][1] != render(before)[0][1]


def test_private_parts_of_a_seat_view_are_not_drawn():
    s = state_after(4, 10)
    public = draw_board(GAME.view(s, None))
    seat_view = draw_board(GAME.view(s, 2))  # has "hand" and "you": both ignored
    assert public.tobytes() == seat_view.tobytes()


def test_winner_banner_and_turn_marking_change_the_picture():
    s = state_after(2, 27, seed=5)
    assert s.phase == "general" and sum(map(len, s.hands)) == 1
    last = draw_board(GAME.view(s, None))
    GAME.apply_in_place(s, s.turn, GAME.legal_actions(s, s.turn)[0])
    over = draw_board(GAME.view(s, None))
    assert over.height > last.height  # the President banner is added




def test_the_board_caches_hold_at_most_64_mb_in_a_render_worker():
    """Every render worker keeps these caches for as long as it runs: filled with the largest
    frame (four players, the party strip) and tiles, they stay within 64 MB. They were 32 frames
    and 1,024 tiles: up to 170 MB a worker."""
    from render import primary_general as pg
    held = 4  # bytes a pixel: Pillow holds an RGB image as RGBX
    frame = pg.WIDTH * pg._heights(GAME.max_players, 1, True, False)["plays_body"] * held
    tile = pg._play_tile("c12", "Targeted by a Negative Ad", "−3 E", 1, True)
    assert tile.mode == "RGB"
    total = (pg._frame.cache_info().maxsize * frame
             + pg._play_tile.cache_info().maxsize * tile.width * tile.height * held)
    assert total <= 64 * 2**20
