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


def test_player_names_are_whole_in_the_panel_and_the_tabulations():
    # The bot's AI seats are "AI-Lincoln", "AI-Roosevelt", ...: a cut by
    # characters showed "AI-Linco" and "AI-Roose". Names are cut by width only.
    from render.politics_1952 import NAME_W, _fit, tabulation_line
    from render.core import font
    names = ["AI-Lincoln", "AI-Roosevelt", "AI-Eisenhower", "alice", "Bartholomew Fitzgerald-Longname", "bob"]
    players = [{"name": n} for n in names]
    out = tabulation_line({"turn": 17, "votes": [119, 84, 66, 143, 51, 68], "eliminated": [1, 2, 4, 5],
                           "winner": None}, players)
    assert out.startswith("Turn 17: alice 143, AI-Lincoln 119 stay in; out: AI-Roosevelt 84, bob 68, "
                          "AI-Eisenhower 66, Bartholomew")
    assert "…" in out.split("Bartholomew")[1]  # only a name too wide for the panel is shortened
    won = tabulation_line({"turn": 44, "votes": [294, 237, None, None, None, None], "eliminated": [],
                           "winner": 0}, players)
    assert won == "Turn 44: AI-Lincoln 294 is elected; AI-Roosevelt 237."
    for n in names:
        fitted = _fit(n, 18)
        assert font(18).getlength(fitted) <= NAME_W
        assert fitted == n or len(n) > 20
    # and the whole board draws with such names, eliminated players included
    s = GAME.setup([Seat(name=n) for n in names], GAME.options({}), 5)
    rng = Rng(3)
    while not s.tabulations and not GAME.result(s).finished:
        seat = GAME.to_act(s)[0]
        GAME.apply_in_place(s, seat, GAME.ai_action(s, seat, rng))
    assert s.tabulations and render(GAME.view(s, None))
