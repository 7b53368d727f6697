"""Politics: The Game renderer: real games, owners on the map, pawns, size, only what changed."""
from __future__ import annotations

import io

from PIL import Image

from engines.core import Seat
from engines.politics_trivia import GAME
from engines.rng import Rng
from render import politics_trivia as R
from render.glance import glance_band
from render.core import player

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank"]


def played(n, seed, until=None, limit=4000):
    """AI play (timers fire at once) until `until(state, k)` or the end."""
    state = GAME.setup([Seat(name=nm, bot=True) for nm in NAMES[:n]], GAME.options({}), seed)
    rng = Rng(seed)
    for k in range(limit):
        if GAME.result(state).finished or (until is not None and until(state, k)):
            break
        acting = [s for s in GAME.to_act(state) if s >= 0]
        if not acting:
            t = GAME.timer(state)
            GAME.apply_in_place(state, t.seat, GAME.parse_action(t.action_text))
            continue
        s = acting[rng.below(len(acting))]
        GAME.apply_in_place(state, s, GAME.ai_action(state, s, rng))
    return state


def image(view):
    out = R.render(view)
    assert [name for name, _ in out] == ["politics-trivia.png"]
    data = out[0][1]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) <= 400_000
    # the board below its phone band (render/core.py's glance band), in the renderer's own coordinates
    full = Image.open(io.BytesIO(data)).convert("RGB")
    band = glance_band(R.WIDTH, R.glance(view)).size[1]
    return full.crop((0, band, full.size[0], full.size[1]))


def near(a, b, tol=12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def plain_pixel(code, kind):
    """A canvas pixel well inside `code` that its owner's stripes don't cover."""
    (x0, y0), fill = R._state_mask(code)
    hatch = R._hatch_mask(code, kind)
    w, h = fill.size
    best = None
    for y in range(2, h - 2):
        for x in range(2, w - 2):
            if hatch.getpixel((x, y)) == 0 and all(fill.getpixel((x + dx, y + dy)) == 255
                                                   for dx in (-2, 0, 2) for dy in (-2, 0, 2)):
                best = (R.OX + x0 + x, R.OY + y0 + y)
                break
        if best:
            break
    assert best, code
    return best


def test_every_player_count_renders_a_phone_sized_board():
    for n in (2, 5, 8):
        view = GAME.view(played(n, n, until=lambda s, k, n=n: k > 40 * n), None)
        img = image(view)
        assert img.size[0] == R.WIDTH and 860 <= img.size[1] <= 1100


def test_chips_are_painted_in_their_owners_tint_and_pattern_and_free_states_stay_neutral():
    state = played(4, 3, until=lambda s, k: sum(o is not None for o in s.chips.values()) >= 12)
    view = GAME.view(state, None)
    img = image(view)
    owned = {c: o for c, o in view["chips"].items() if o is not None}
    assert len(owned) >= 12
    big = [c for c in owned if c in ("TX", "CA", "MT", "NV", "AZ", "NM", "CO", "WY", "OR", "UT", "ID", "NE", "KS",
                                     "SD", "ND", "MN", "IA", "MO", "OK", "GA", "AL", "MS", "WI", "IL", "MI")]
    for code in big[:4]:
        style = player(owned[code])
        assert near(img.getpixel(plain_pixel(code, style.hatch)), style.light), code
    free = [c for c in ("TX", "MT", "NV", "CA", "ND", "SD", "NE", "KS") if c not in owned]
    for code in free[:2]:
        px = plain_pixel(code, "diagonal")
        assert near(img.getpixel(px), (212, 212, 206)), code  # the neutral land


def test_pawns_stand_where_the_view_says():
    state = played(3, 11, until=lambda s, k: k > 60)
    view = GAME.view(state, None)
    img = image(view)
    p = view["players"][0]
    assert p["at"]
    moved = dict(view, players=[dict(q) for q in view["players"]])
    other = "MT" if p["at"] != "MT" else "WY"
    moved["players"][0]["at"] = other
    img2 = image(moved)
    # the marker's colour appears around the new state and no longer around the old one
    x, y = R._map().label_xy(other)
    box = (int(R.OX + x - 40), int(R.OY + y), int(R.OX + x + 40), int(R.OY + y + 50))
    colors = {c for _, c in img2.crop(box).getcolors(100000)}
    before = {c for _, c in img.crop(box).getcolors(100000)}
    mine = player(0).color
    assert any(near(c, mine, 8) for c in colors) and not any(near(c, mine, 8) for c in before)


def test_same_view_same_bytes_and_nothing_new_when_nothing_drawn_changed():
    view = GAME.view(played(2, 4, until=lambda s, k: k > 30), None)
    assert R.render(view) == R.render(view)
    assert R.render(view, previous=view) == []
    changed = dict(view, chips=dict(view["chips"]))
    free = next(c for c, o in changed["chips"].items() if o is None)
    changed["chips"][free] = 1
    assert R.render(changed, previous=view)


def test_finished_game_and_runoff_views_render():
    state = played(4, 7)
    assert GAME.result(state).finished
    view = GAME.view(state, None)
    img = image(view)
    assert img.size[0] == R.WIDTH
    headline = R._headline(view)
    assert headline and "**" not in headline


def test_chat_markup_and_emoji_never_reach_the_image():
    assert R._plain("🏛️ **alice** wins `guess`") == "alice wins guess"


def test_public_view_only():
    """The renderer reads the public view: a seat's view adds private keys it never needs."""
    state = played(3, 5, until=lambda s, k: k > 50)
    public = GAME.view(state, None)
    private = GAME.view(state, 0)
    assert R.render(public) == R.render({k: v for k, v in private.items() if k in public})
