"""The shared map geometry (render/data/us_states.json) and render/core.py."""
from __future__ import annotations

import importlib.util
import io
import itertools
import json
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from render import core
from render.core import (
    CALLOUT_STATES, PLAYERS, Hatch, MapStyle, PanelRow, USMap, adjacency, are_adjacent,
    contrast_ratio, draw_marker, draw_panel, encode_png, font, geometry, label_point,
    player, state_codes, state_polygon_pixels, wrap_text,
)

ROOT = Path(__file__).resolve().parent.parent
STATES_AND_DC = {
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN",
    "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH",
    "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT",
    "VT", "VA", "WA", "WV", "WI", "WY",
}


def point_in_rings(x: float, y: float, rings) -> bool:
    inside = False
    for ring in rings:
        for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
            if (ay > y) != (by > y) and x < (bx - ax) * (y - ay) / (by - ay) + ax:
                inside = not inside
    return inside


def segments_cross(p1, p2, q1, q2) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (orient(p1, p2, q1) * orient(p1, p2, q2) < 0) and (orient(q1, q2, p1) * orient(q1, q2, p2) < 0)


def boxes_overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# ---------------------------------------------------------------- geometry file

def test_geometry_has_exactly_the_50_states_and_dc():
    assert set(state_codes()) == STATES_AND_DC
    assert not {"PR", "GU", "VI", "AS", "MP"} & set(geometry()["states"])


def test_geometry_file_is_compact():
    assert (ROOT / "render" / "data" / "us_states.json").stat().st_size < 400_000


def test_rings_are_valid_and_inside_the_canvas():
    width, height = geometry()["meta"]["canvas"]
    for code in state_codes():
        entry = geometry()["states"][code]
        assert entry["rings"], code
        xs, ys = [], []
        for flat in entry["rings"]:
            assert len(flat) % 2 == 0 and len(flat) >= 6, code
            assert all(isinstance(v, int) for v in flat), code
            ring = list(zip(flat[0::2], flat[1::2]))
            assert len(set(ring)) >= 3, code
            xs += [x for x, _ in ring]
            ys += [y for _, y in ring]
        assert 0 <= min(xs) and max(xs) <= width, code
        assert 0 <= min(ys) and max(ys) <= height, code
        assert entry["bbox"] == [min(xs), min(ys), max(xs), max(ys)], code


def test_label_points_are_inside_their_state():
    for code in state_codes():
        x, y = label_point(code)
        assert point_in_rings(x, y, state_polygon_pixels(code, 1.0)), code


def test_big_states_have_room_for_a_label():
    clearance = {c: geometry()["states"][c]["clearance"] for c in state_codes()}
    assert clearance["TX"] > 60 and clearance["MT"] > 40
    assert all(clearance[c] >= 8 for c in state_codes() if c not in CALLOUT_STATES), clearance


def test_insets_are_in_the_lower_left_and_clear_of_the_lower_48():
    insets = geometry()["meta"]["insets"]
    ak, hi = insets["AK"], insets["HI"]
    width, height = geometry()["meta"]["canvas"]
    assert ak[0] < width / 3 and ak[1] > height / 2
    assert hi[0] < width / 2 and hi[1] > height / 2
    assert not boxes_overlap(ak, hi)
    # No lower-48 vertex falls inside an inset frame (padded as drawn).
    for code in state_codes():
        if code in ("AK", "HI"):
            continue
        for ring in state_polygon_pixels(code, 1.0):
            for x, y in ring:
                for x0, y0, x1, y1 in (ak, hi):
                    assert not (x0 - 5 <= x <= x1 + 5 and y0 - 5 <= y <= y1 + 5), code


# ---------------------------------------------------------------- adjacency

@pytest.mark.parametrize("a, b", [
    ("CA", "OR"), ("CA", "NV"), ("CA", "AZ"), ("NY", "PA"), ("ME", "NH"), ("MI", "WI"),
    ("MI", "OH"), ("MI", "IN"), ("MD", "DC"), ("VA", "DC"), ("KY", "TN"), ("DE", "NJ"),
    ("MO", "TN"), ("TX", "OK"),
])
def test_known_neighbours(a, b):
    assert are_adjacent(a, b) and are_adjacent(b, a)


@pytest.mark.parametrize("a, b", [
    ("AZ", "CO"), ("UT", "NM"),  # Four Corners: they touch at a single point
    ("MI", "IL"), ("MI", "MN"), ("NY", "RI"),  # water boundaries only
    ("CA", "WA"), ("MD", "NJ"),
])
def test_not_neighbours(a, b):
    assert not are_adjacent(a, b) and not are_adjacent(b, a)


def test_adjacency_is_symmetric_and_complete():
    adj = adjacency()
    assert set(adj) == STATES_AND_DC
    for a, neighbours in adj.items():
        assert a not in neighbours
        for b in neighbours:
            assert a in adj[b]
    assert adj["ME"] == ("NH",)
    assert adj["AK"] == () and adj["HI"] == ()
    assert set(adj["DC"]) == {"MD", "VA"}
    # 105 land borders among the lower 48 (water-only ones excluded) + DC's two.
    assert sum(len(n) for n in adj.values()) // 2 == 107


@pytest.mark.skipif(
    importlib.util.find_spec("shapefile") is None or importlib.util.find_spec("_plotly_geo") is None,
    reason="regenerating needs the tools extra (pyshp, plotly-geo)",
)
def test_generator_reproduces_the_committed_file(tmp_path):
    spec = importlib.util.spec_from_file_location("make_geometry", ROOT / "tools" / "make_geometry.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path / "us_states.json")
    committed = (ROOT / "render" / "data" / "us_states.json").read_bytes()
    assert (tmp_path / "us_states.json").read_bytes() == committed


# ---------------------------------------------------------------- palette

def test_palette_has_eight_distinct_players():
    assert len(PLAYERS) == 8
    for attr in ("color", "letter", "shape", "hatch", "name"):
        values = [getattr(p, attr) for p in PLAYERS]
        assert len(set(values)) == 8, attr
    assert [p.letter for p in PLAYERS] == list("ABCDEFGH")
    for a, b in itertools.combinations(PLAYERS, 2):
        assert sum((x - y) ** 2 for x, y in zip(a.color, b.color)) ** 0.5 > 60, (a.name, b.name)
    assert player(9) == PLAYERS[1]


def test_marker_text_and_labels_contrast():
    # Bold text: WCAG AA asks 3:1.
    for p in PLAYERS:
        assert contrast_ratio(p.text, p.color) >= 3.0, p.name
    assert contrast_ratio(core.INK, core.PAPER) >= 7
    assert contrast_ratio(core.INK, core.LAND) >= 7
    assert contrast_ratio(core.INK_MUTED, core.PAPER) >= 4.5


def test_markers_are_drawn_in_the_player_colour():
    for p in PLAYERS:
        img = Image.new("RGB", (100, 100), core.PAPER)
        draw_marker(img, (50, 50), p.index, size=40)
        counts = sorted(img.getcolors(10_000), reverse=True)
        colours = [c for _, c in counts if c != core.PAPER]
        assert colours[0] == p.color, p.shape  # the body, not the outline or letter
        assert img.getbbox() is not None and img.getpixel((5, 5)) == core.PAPER


# ---------------------------------------------------------------- fonts and text

def test_fonts_are_shipped_and_cached():
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "LICENSE"):
        assert (ROOT / "render" / "fonts" / name).is_file()
    assert font(18) is font(18)
    assert font(18, bold=True).size == 18
    assert font(18).getlength("MM") > font(18, bold=True, condensed=True).getlength("MM") * 0.9


def test_wrap_text_fits_the_width():
    f = font(18)
    text = "The campaign swings through Pennsylvania, Ohio and Michigan before Election Day. " * 3
    lines = wrap_text(text, f, 300)
    assert len(lines) > 3
    assert all(f.getlength(line) <= 300 for line in lines)
    assert " ".join(lines).split() == text.split()
    assert all(f.getlength(line) <= 100 for line in wrap_text("Supercalifragilistic", f, 100))


def test_panel_rows_stack_and_stop_at_the_box():
    img = Image.new("RGB", (400, 300), core.PAPER)
    rows = [PanelRow(f"Player {i}", (i, 10 * i), player=i) for i in range(8)]
    bottom = draw_panel(img, (0, 0, 400, 300), rows, title="Votes", headers=("a", "b"))
    assert 0 < bottom <= 300
    short = draw_panel(img, (0, 0, 400, 1000), rows[:2])
    assert short < bottom


# ---------------------------------------------------------------- the map

def test_base_map_png_size_and_weight():
    m = USMap(1400)
    img = m.base()
    assert img.size == (1400, m.height) and 700 < m.height < 1000
    data = encode_png(img)
    assert data.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(data)).size == img.size
    assert len(data) < 400_000
    assert m.label_size >= 16 and USMap(1200).label_size >= 16


def test_busy_map_stays_under_400_kb():
    m = USMap(1600)
    codes = state_codes()
    fills = {c: PLAYERS[i % 8].color for i, c in enumerate(codes)}
    hatches = {c: Hatch(PLAYERS[(i + 3) % 8].color, PLAYERS[i % 8].hatch) for i, c in enumerate(codes)}
    img = m.paint(fills, hatches)
    for i, c in enumerate(codes):
        draw_marker(img, m.spot(c)[0], i % 8, 28)
    assert len(encode_png(img)) < 400_000


def test_base_is_cached_and_copied():
    m = USMap(1400)
    a, b = m.base(), m.base()
    assert a is not b and a.tobytes() == b.tobytes()
    assert core._base_layers(1400, m.style) is core._base_layers(1400, MapStyle())


def test_paint_fills_only_the_given_states():
    m = USMap(1400)
    base = m.base()
    img = m.paint({"NE": (1, 2, 3)})
    x0, y0, x1, y1 = m.bbox("NE")
    # A point well inside Nebraska, away from its label.
    lx, ly = m.label_xy("NE")
    assert img.getpixel((round(lx), round(ly + 25))) == (1, 2, 3)
    # Texas is untouched.
    tx, ty = m.label_xy("TX")
    assert img.getpixel((round(tx), round(ty + 40))) == base.getpixel((round(tx), round(ty + 40)))


def test_paint_fills_the_callout_box_too():
    m = USMap(1400)
    img = m.paint({"RI": (9, 8, 7)})
    (cx, cy), _ = m.spot("RI")
    assert img.getpixel((round(cx), round(cy))) == (9, 8, 7)


def test_hatch_adds_stripes_of_the_second_colour():
    m = USMap(1400)
    img = m.paint({"KS": (200, 200, 200)}, {"KS": Hatch((10, 20, 30), "diagonal")})
    x0, y0, x1, y1 = m.bbox("KS")
    pixels = [img.getpixel((x, y)) for x in range(x0 + 20, x1 - 20, 3) for y in range(y0 + 20, y1 - 20, 3)]
    share = pixels.count((10, 20, 30)) / len(pixels)
    assert 0.15 < share < 0.6


def test_state_polygon_pixels_scales_and_offsets():
    raw = state_polygon_pixels("CO", 1.0)
    moved = state_polygon_pixels("CO", 2.0, (10, 20))
    assert moved[0][0] == (raw[0][0][0] * 2 + 10, raw[0][0][1] * 2 + 20)


def test_callouts_cover_the_small_states_without_overlap():
    m = USMap(1400)
    callouts = m.callouts
    assert set(callouts) == set(CALLOUT_STATES)
    for a, b in itertools.combinations(callouts.values(), 2):
        assert not boxes_overlap(a.box, b.box), (a.code, b.code)
        leader_a = (a.anchor, (a.box[0], (a.box[1] + a.box[3]) / 2))
        leader_b = (b.anchor, (b.box[0], (b.box[1] + b.box[3]) / 2))
        assert not segments_cross(*leader_a, *leader_b), (a.code, b.code)
    for c in callouts.values():
        x0, y0, x1, y1 = c.box
        assert 0 <= x0 < x1 <= m.width and 0 <= y0 < y1 <= m.height
        assert x0 < c.content[0] < c.content[2] <= x1
        # Each leader starts inside its own state.
        assert point_in_rings(*c.anchor, m.polygon(c.code)), c.code


def test_callout_boxes_sit_in_open_water():
    m = USMap(1400)
    land = Image.new("L", (m.width, m.height), 0)
    draw = ImageDraw.Draw(land)
    for code in state_codes():
        for ring in m.polygon(code):
            draw.polygon(ring, fill=255)
    for c in m.callouts.values():
        assert land.crop(tuple(round(v) for v in c.box)).getbbox() is None, c.code


def test_map_without_callouts_is_narrower_per_pixel():
    plain = USMap(1400, MapStyle(callouts=False, labels=False))
    assert plain.callouts == {}
    assert plain.scale > USMap(1400).scale
    (x, y), r = plain.spot("RI")
    assert r < 10  # no box: renderers should put RI's content elsewhere


def test_geometry_json_is_parsed_once():
    assert geometry() is geometry()
    with open(core.GEOMETRY_PATH, encoding="utf-8") as fh:
        assert json.load(fh)["adjacency"] == geometry()["adjacency"]
