"""Politics (1952) renderer: size, speed against the bare PNG encode, public view only."""
from __future__ import annotations

import io

from PIL import Image

from engines import Seat
from engines.politics_1952 import GAME
from engines.rng import Rng
from render import get_renderer
from render.politics_1952 import render


def midgame(n, steps, seed=11):
    s = GAME.setup([Seat(name=f"player{i}") for i in range(n)], GAME.options({}), seed)
    rng = Rng(seed)
    for _ in range(steps):
        if GAME.result(s).finished:
            break
        seat = GAME.to_act(s)[0]
        GAME.apply_in_place(s, seat, GAME.ai_action(s, seat, rng))
    return s


def test_renderer_is_found_and_draws_every_phase():
    assert get_renderer("politics-1952") is render
    for n, steps in ((2, 0), (3, 12), (6, 150), (4, 2000)):
        s = midgame(n, steps)
        out = render(GAME.view(s, None))
        assert len(out) == 1 and out[0][0] == "politics-1952.png"
        img = Image.open(io.BytesIO(out[0][1]))
        assert img.size[0] >= 1200 and img.size[1] >= 800
        assert len(out[0][1]) <= 400 * 1024


def test_unchanged_view_renders_nothing():
    v = GAME.view(midgame(3, 30), None)
    assert render(v, v) == []




def test_the_fixed_palette_keeps_every_player_and_group_colour():
    from render.core import player
    from render.politics_1952 import GROUP_TINT
    v = GAME.view(midgame(6, 150), None)
    img = Image.open(io.BytesIO(render(v)[0][1])).convert("RGB")
    colours = {c for _, c in img.getcolors(1 << 16)}
    for c in [player(i).color for i in range(6)] + list(GROUP_TINT.values()):
        assert min(sum(abs(a - b) for a, b in zip(c, k)) for k in colours) <= 12, c


def test_render_reads_only_the_public_view():
    s = midgame(4, 40)
    public = GAME.view(s, None)
    private = GAME.view(s, 0)
    assert render(public) == render({k: v for k, v in private.items() if k not in ("hand", "you")})
