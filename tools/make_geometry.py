"""Build render/data/us_states.json: simplified, projected U.S. state outlines.

Source: U.S. Census Bureau, 2016 cartographic boundary file for states at
1:500,000 (cb_2016_us_state_500k), a U.S. Government work in the public domain,
as shipped in the PyPI package plotly-geo (_plotly_geo/package_data).

Run from the repository root (needs the `tools` extra: pyshp, plotly-geo):

    .venv/bin/python tools/make_geometry.py [output.json]

The output is deterministic (same input -> byte-identical file). The bot reads
only the JSON; it never needs the shapefile. See docs/maps.md.
"""
from __future__ import annotations

import heapq
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

import shapefile  # pyshp

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "render" / "data" / "us_states.json"

CANVAS_WIDTH = 1000       # output coordinates are integers in this pixel space
PAD = 8                   # blank border around the lower 48, canvas px
SIMPLIFY_TOLERANCE = 0.4  # Douglas–Peucker tolerance, canvas px
MIN_RING_AREA = 1.5       # drop islands smaller than this, canvas px^2
KEY_DIGITS = 6            # lon/lat rounding (~0.1 m) that identifies a shared vertex
MIN_SHARED_KM = 0.1       # a common border shorter than this is a point contact

EARTH_RADIUS = 6_371_000.0

# Albers equal-area conic parameters: (lon0, lat0, parallel1, parallel2).
# Lower 48: the usual USGS parameters. Alaska and Hawaii get their own cones
# so their shapes are not distorted, then are shrunk/moved into insets.
CONUS = (-96.0, 37.5, 29.5, 45.5)
ALASKA = (-154.0, 50.0, 55.0, 65.0)
HAWAII = (-157.0, 13.0, 8.0, 18.0)

# Inset placement: scale relative to the lower 48 and where the inset's
# bounding-box top-left corner goes, in canvas px (lower-left, under CA/AZ).
ALASKA_SCALE = 0.35
ALASKA_AT = (10, 478)
HAWAII_SCALE = 1.0
HAWAII_AT = (260, 561)
# Islands west of these longitudes are left out: the far Aleutians and the
# Northwestern Hawaiian Islands would stretch the insets across half the map
# for a few specks of land.
WEST_LIMIT = {"AK": -178.5, "HI": -161.0}

# Label points chosen by hand (lon, lat) where the computed one reads badly:
# Massachusetts' widest spot is the Berkshires, but its callout leader reads
# better from the centre-east, clear of Connecticut and Rhode Island; Maryland's
# is moved off its western neck so its leader does not run beside DC's.
LABEL_AT = {"MA": (-71.75, 42.4), "MD": (-76.6, 39.45)}

STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas",
    "CA": "California", "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware",
    "DC": "District of Columbia", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii",
    "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas",
    "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
    "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi",
    "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
    "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
    "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina",
    "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah",
    "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
    "WI": "Wisconsin", "WY": "Wyoming",
}


def shapefile_path() -> Path:
    import _plotly_geo

    return Path(_plotly_geo.__file__).parent / "package_data" / "cb_2016_us_state_500k.shp"


# ---------------------------------------------------------------- reading

def read_states() -> dict[str, list[list[tuple[float, float]]]]:
    """Postal code -> outer rings in lon/lat (territories dropped)."""
    reader = shapefile.Reader(str(shapefile_path()))
    states: dict[str, list[list[tuple[float, float]]]] = {}
    for rec in reader.iterShapeRecords():
        code = rec.record["STUSPS"]
        if code not in STATES:
            continue  # PR, GU, VI, AS, MP
        pts = rec.shape.points
        bounds = list(rec.shape.parts) + [len(pts)]
        rings = []
        for a, b in zip(bounds, bounds[1:]):
            ring = [(x, y) for x, y in pts[a:b]]
            if code == "AK":
                # The Aleutians cross the antimeridian; bring them west of it.
                ring = [(x - 360.0 if x > 0 else x, y) for x, y in ring]
            if code in WEST_LIMIT and max(x for x, _ in ring) < WEST_LIMIT[code]:
                continue
            # Shapefile outer rings run clockwise; the state file has no holes,
            # and the renderer relies on that (every ring is filled).
            assert _signed_area(ring) < 0, f"{code}: unexpected hole"
            rings.append(ring)
        states[code] = rings
    assert sorted(states) == sorted(STATES), "missing states in the shapefile"
    return states


def _signed_area(ring) -> float:
    """Shoelace area; positive when counter-clockwise in a y-up frame."""
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1])) / 2


def vkey(p: tuple[float, float]) -> tuple[float, float]:
    return (round(p[0], KEY_DIGITS), round(p[1], KEY_DIGITS))


# ---------------------------------------------------------------- adjacency

def compute_adjacency(states) -> dict[str, list[str]]:
    """States whose full-resolution outlines share edges of positive length.

    The Census files are built from one topology, so a shared border is the
    same vertex sequence in both states; rounding to ~0.1 m absorbs float
    noise. A lone shared vertex (Four Corners) contributes no edge, and
    water-only boundaries (Lake Michigan, Block Island Sound) are not in the
    shoreline-clipped outlines at all.
    """
    edge_owners: dict[tuple, set[str]] = defaultdict(set)
    for code, rings in states.items():
        for ring in rings:
            keys = [vkey(p) for p in ring]
            for p, q in zip(keys, keys[1:] + keys[:1]):
                if p != q:
                    edge_owners[(min(p, q), max(p, q))].add(code)
    shared_km: dict[tuple[str, str], float] = defaultdict(float)
    for (p, q), owners in edge_owners.items():
        owners_sorted = sorted(owners)
        for i, a in enumerate(owners_sorted):
            for b in owners_sorted[i + 1:]:
                shared_km[(a, b)] += _great_circle_km(p, q)
    adjacency: dict[str, list[str]] = {code: [] for code in STATES}
    for (a, b), km in shared_km.items():
        if km >= MIN_SHARED_KM:
            adjacency[a].append(b)
            adjacency[b].append(a)
    return {code: sorted(n) for code, n in sorted(adjacency.items())}


def _great_circle_km(p, q) -> float:
    lon1, lat1, lon2, lat2 = map(math.radians, (*p, *q))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS / 1000 * math.asin(min(1.0, math.sqrt(h)))


# ---------------------------------------------------------------- projection

def albers(params):
    """Spherical Albers equal-area conic: (lon, lat) degrees -> metres, y up."""
    lon0, lat0, p1, p2 = map(math.radians, params)
    n = (math.sin(p1) + math.sin(p2)) / 2
    c = math.cos(p1) ** 2 + 2 * n * math.sin(p1)
    rho0 = EARTH_RADIUS * math.sqrt(c - 2 * n * math.sin(lat0)) / n

    def project(lon: float, lat: float) -> tuple[float, float]:
        rho = EARTH_RADIUS * math.sqrt(c - 2 * n * math.sin(math.radians(lat))) / n
        theta = n * (math.radians(lon) - lon0)
        return rho * math.sin(theta), rho0 - rho * math.cos(theta)

    return project


def build_projections(states):
    """Postal code -> function (lon, lat) -> canvas px (y down), and the insets' frames."""
    conus_proj = albers(CONUS)
    conus_pts = [conus_proj(*p) for code, rings in states.items()
                 if code not in ("AK", "HI") for ring in rings for p in ring]
    x0 = min(x for x, _ in conus_pts)
    x1 = max(x for x, _ in conus_pts)
    y1 = max(y for _, y in conus_pts)
    scale = (CANVAS_WIDTH - 2 * PAD) / (x1 - x0)  # px per metre

    def conus(lon, lat):
        x, y = conus_proj(lon, lat)
        return PAD + (x - x0) * scale, PAD + (y1 - y) * scale

    frames = {}

    def inset(code, params, factor, at):
        proj = albers(params)
        pts = [proj(*p) for ring in states[code] for p in ring]
        ix0 = min(x for x, _ in pts)
        iy1 = max(y for _, y in pts)
        s = scale * factor
        w = (max(x for x, _ in pts) - ix0) * s
        h = (iy1 - min(y for _, y in pts)) * s
        frames[code] = [at[0], at[1], round(at[0] + w), round(at[1] + h)]

        def f(lon, lat):
            x, y = proj(lon, lat)
            return at[0] + (x - ix0) * s, at[1] + (iy1 - y) * s

        return f

    projections = {code: conus for code in states}
    projections["AK"] = inset("AK", ALASKA, ALASKA_SCALE, ALASKA_AT)
    projections["HI"] = inset("HI", HAWAII, HAWAII_SCALE, HAWAII_AT)
    return projections, frames


# ---------------------------------------------------------------- simplification

def split_into_arcs(states):
    """Cut every ring at its junctions so shared borders become shared arcs.

    A vertex is a junction when the set of states using it differs from a
    neighbouring vertex's set (a border starts or ends there). Simplifying each
    arc once and reusing it in both states keeps neighbours gap-free.
    Returns {code: [[arc refs of ring]]} and the arcs (lists of lon/lat keys);
    an arc ref is (arc index, reversed?).
    """
    users: dict[tuple, set[str]] = defaultdict(set)
    for code, rings in states.items():
        for ring in rings:
            for p in ring:
                users[vkey(p)].add(code)

    arcs: list[list[tuple]] = []
    arc_index: dict[tuple, int] = {}
    refs: dict[str, list[list[tuple[int, bool]]]] = {}
    for code in sorted(states):
        refs[code] = []
        for ring in states[code]:
            keys = [vkey(p) for p in ring]
            keys = [k for i, k in enumerate(keys) if i == 0 or k != keys[i - 1]]
            if keys[0] == keys[-1]:
                keys.pop()  # work on the open cycle
            n = len(keys)
            cuts = [i for i in range(n)
                    if users[keys[i]] != users[keys[i - 1]] or users[keys[i]] != users[keys[(i + 1) % n]]]
            if not cuts:
                # An island or a ring shared whole: start at its smallest vertex
                # so every state that has it cuts it the same way.
                cuts = [min(range(n), key=lambda i: keys[i])]
            ring_refs = []
            for j, start in enumerate(cuts):
                end = cuts[(j + 1) % len(cuts)]
                span = end - start if end > start else end + n - start
                arc = tuple(keys[(start + t) % n] for t in range(span + 1))
                if arc in arc_index:
                    ring_refs.append((arc_index[arc], False))
                elif arc[::-1] in arc_index:
                    ring_refs.append((arc_index[arc[::-1]], True))
                else:
                    arc_index[arc] = len(arcs)
                    arcs.append(list(arc))
                    ring_refs.append((len(arcs) - 1, False))
            refs[code].append(ring_refs)
    return refs, arcs


def douglas_peucker(points: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Keep the endpoints and every point farther than tol from the simplified line."""
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        a, b = stack.pop()
        best, best_d = -1, tol
        for i in range(a + 1, b):
            d = _point_segment_distance(points[i], points[a], points[b])
            if d > best_d:
                best, best_d = i, d
        if best >= 0:
            keep[best] = True
            stack.extend(((a, best), (best, b)))
    return [p for p, k in zip(points, keep) if k]


def _point_segment_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def simplify_states(states, projections):
    """Postal code -> rings of integer canvas points (open, no repeated end point)."""
    refs, arcs = split_into_arcs(states)
    # Every arc belongs to at least one state; any owner's projection will do
    # because arcs never cross between the lower 48 and an inset.
    owner = {}
    for code in sorted(refs):
        for ring_refs in refs[code]:
            for idx, _ in ring_refs:
                owner.setdefault(idx, code)
    simple_arcs = []
    for idx, arc in enumerate(arcs):
        proj = projections[owner[idx]]
        pts = douglas_peucker([proj(*k) for k in arc], SIMPLIFY_TOLERANCE)
        simple_arcs.append([(round(x), round(y)) for x, y in pts])

    result = {}
    for code in sorted(refs):
        proj = projections[code]
        rings = []
        for ring, ring_refs in zip(states[code], refs[code]):
            # Decide on tiny islands by their full-resolution area.
            if abs(_signed_area([proj(*p) for p in ring])) < MIN_RING_AREA:
                continue
            pts: list[tuple[int, int]] = []
            for idx, rev in ring_refs:
                arc = simple_arcs[idx][::-1] if rev else simple_arcs[idx]
                pts.extend(arc[1:] if pts else arc)
            pts = [p for i, p in enumerate(pts) if i == 0 or p != pts[i - 1]]
            if len(pts) > 1 and pts[0] == pts[-1]:
                pts.pop()
            if len(pts) >= 3 and _signed_area(pts) != 0:
                rings.append(pts)
        assert rings, f"{code} vanished"
        result[code] = rings
    return result


# ---------------------------------------------------------------- label points

def _ring_distance(x: float, y: float, rings) -> float:
    """Signed distance from (x, y) to the polygon's outline: > 0 inside."""
    inside = False
    best = math.inf
    for ring in rings:
        for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
            if (ay > y) != (by > y) and x < (bx - ax) * (y - ay) / (by - ay) + ax:
                inside = not inside
            best = min(best, _point_segment_distance((x, y), (ax, ay), (bx, by)))
    return best if inside else -best


def pole_of_inaccessibility(ring, precision: float = 0.25) -> tuple[float, float, float]:
    """The interior point farthest from the outline, by branch-and-bound over cells.

    Returns (x, y, distance). A cell's best possible distance is its centre's
    distance plus its half-diagonal, so cells that cannot beat the current best
    are dropped.
    """
    xs = [p[0] for p in ring]
    ys = [p[1] for p in ring]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    size = min(x1 - x0, y1 - y0)
    if size == 0:
        return x0, y0, 0.0
    h = size / 2
    heap: list[tuple[float, float, float, float, float]] = []

    def push(cx, cy, half):
        d = _ring_distance(cx, cy, [ring])
        heapq.heappush(heap, (-(d + half * math.sqrt(2)), d, cx, cy, half))

    y = y0
    while y < y1:
        x = x0
        while x < x1:
            push(x + h, y + h, h)
            x += size
        y += size
    # Start from the area centroid: often already a good answer.
    cx, cy = _centroid(ring)
    best = (_ring_distance(cx, cy, [ring]), cx, cy)
    while heap:
        bound, d, cx, cy, half = heapq.heappop(heap)
        if d > best[0]:
            best = (d, cx, cy)
        if -bound - best[0] <= precision:
            continue
        half /= 2
        for dx in (-half, half):
            for dy in (-half, half):
                push(cx + dx, cy + dy, half)
    return best[1], best[2], best[0]


def _centroid(ring) -> tuple[float, float]:
    a = _signed_area(ring)
    if a == 0:
        return ring[0]
    cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        cross = x0 * y1 - x1 * y0
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return cx / (6 * a), cy / (6 * a)


def label_point(rings) -> tuple[float, float, float]:
    """Best label spot over a state's larger polygons: (x, y, clearance px)."""
    largest = sorted(rings, key=lambda r: abs(_signed_area(r)), reverse=True)[:8]
    return max((pole_of_inaccessibility(r) for r in largest), key=lambda t: t[2])


# ---------------------------------------------------------------- output

def main(out: Path = OUT) -> None:
    states = read_states()
    adjacency = compute_adjacency(states)
    projections, frames = build_projections(states)
    rings = simplify_states(states, projections)

    height = max(y for rs in rings.values() for r in rs for _, y in r) + PAD
    out_states = {}
    for code in sorted(rings):
        rs = rings[code]
        lx, ly, clearance = label_point(rs)
        if code in LABEL_AT:
            lx, ly = projections[code](*LABEL_AT[code])
            clearance = max(_ring_distance(lx, ly, [r]) for r in rs)
        xs = [x for r in rs for x, _ in r]
        ys = [y for r in rs for _, y in r]
        out_states[code] = {
            "name": STATES[code],
            "label": [round(lx), round(ly)],
            "clearance": round(clearance, 1),
            "bbox": [min(xs), min(ys), max(xs), max(ys)],
            # Each ring flattened to [x0, y0, x1, y1, ...]; all rings are outer rings.
            "rings": [[c for p in r for c in p] for r in rs],
        }

    meta = {
        "source": "U.S. Census Bureau, cb_2016_us_state_500k (public domain), via plotly-geo",
        "canvas": [CANVAS_WIDTH, height],
        "projection": {
            "conus": {"albers": CONUS},
            "AK": {"albers": ALASKA, "scale": ALASKA_SCALE},
            "HI": {"albers": HAWAII, "scale": HAWAII_SCALE},
        },
        "simplify_tolerance_px": SIMPLIFY_TOLERANCE,
        "insets": frames,
    }
    # One line per state keeps the file compact but diffable.
    lines = ["{", f'"meta":{json.dumps(meta, separators=(",", ":"), sort_keys=True)},']
    lines.append(f'"adjacency":{json.dumps(adjacency, separators=(",", ":"), sort_keys=True)},')
    lines.append('"states":{')
    for i, code in enumerate(sorted(out_states)):
        comma = "," if i < len(out_states) - 1 else ""
        lines.append(f'"{code}":{json.dumps(out_states[code], separators=(",", ":"), sort_keys=True)}{comma}')
    lines.append("}}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    points = sum(len(r) for s in rings.values() for r in s)
    pairs = sum(len(v) for v in adjacency.values()) // 2
    print(f"wrote {out}: {out.stat().st_size / 1024:.1f} KB, "
          f"{points} points, canvas {CANVAS_WIDTH}x{height}, {pairs} adjacent pairs")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
