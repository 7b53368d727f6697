"""U.S. President renderer: sizes, speed, recount panels, public view only."""
from __future__ import annotations

import io

from PIL import Image

from engines.core import Seat
from engines.rng import Rng
from engines.us_president import GAME
from render import us_president as R


def played(n, seed, actions=None):
    state = GAME.setup([Seat(name=f"Player {i + 1}") for i in range(n)], GAME.options({}), seed)
    rng = Rng(seed)
    k = 0
    while GAME.to_act(state) and (actions is None or k < actions):
        acting = GAME.to_act(state)
        s = acting[rng.below(len(acting))]
        GAME.apply_in_place(state, s, GAME.ai_action(state, s, rng))
        k += 1
    return state


def recount_game(n=4):
    for seed in range(200):
        state = played(n, seed)
        if len(state.recount) >= 2:
            return state
    raise AssertionError("no recount found")


def test_board_image_is_phone_sized_and_small():
    for n in (2, 4, 6):
        out = R.render(GAME.view(played(n, n, actions=5 * n + 1), None))
        assert [name for name, _ in out] == ["us-president.png"]
        data = out[0][1]
        assert len(data) <= 400_000
        img = Image.open(io.BytesIO(data))
        assert img.size[0] >= 1200


def test_every_recount_step_gets_its_own_image():
    state = recount_game()
    view = GAME.view(state, None)
    out = R.render(view)
    names = [name for name, _ in out]
    assert names[0] == "us-president.png"
    assert names[1:] == [f"us-president-recount-{k + 1}.png" for k in range(len(state.recount))]
    assert all(len(data) <= 400_000 for _, data in out)
    # the recount images are not repeated once shown
    assert R.render(view, previous=view) == []


def test_render_uses_only_the_public_view_and_hides_picks():
    state = played(3, 7, actions=4)
    waiting = GAME.to_act(state)
    seat = waiting[0]
    legal = GAME.legal_actions(state, seat)
    a, b = GAME.clone(state), GAME.clone(state)
    GAME.apply_in_place(a, seat, legal[0])
    GAME.apply_in_place(b, seat, legal[-1])
    if GAME.to_act(a):  # the round is still open: the images must be identical
        assert R.render(GAME.view(a, None)) == R.render(GAME.view(b, None))




def test_fixed_palette_keeps_player_colours_exact():
    from render.core import player
    pal = R._palette().getpalette()[:768]
    colours = {tuple(pal[i:i + 3]) for i in range(0, 768, 3)}
    for i in range(6):
        style = player(i)
        for c in (style.color, style.light):
            best = min(sum((a - b) ** 2 for a, b in zip(c, q)) for q in colours)
            assert best <= 12, (i, c)


def test_a_pick_alone_does_not_repost_the_map():
    from engines.core import Seat
    state = GAME.setup([Seat(name="a"), Seat(name="b")], GAME.options({}), 1)
    before = GAME.view(state, None)
    GAME.apply_in_place(state, 0, GAME.legal_actions(state, 0)[0])
    after_one = GAME.view(state, None)
    assert R.render(after_one, before) == []  # only "a has picked" changed
    GAME.apply_in_place(state, 1, GAME.legal_actions(state, 1)[0])  # the reveal
    assert R.render(GAME.view(state, None), after_one)  # the board changed: a new map
