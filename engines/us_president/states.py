"""The eleven swing states of U.S. President and their electors.

The elector counts are the 2012 apportionment (2010 census), as printed on the
game's State cards; tests cross-check them against the shared data file.
"""
from __future__ import annotations

# (code, name, electors), in the order of the rulebook (fewest electors first).
SWING_STATES: tuple[tuple[str, str, int], ...] = (
    ("MT", "Montana", 3),
    ("NV", "Nevada", 6),
    ("IA", "Iowa", 6),
    ("CO", "Colorado", 9),
    ("WI", "Wisconsin", 10),
    ("VA", "Virginia", 13),
    ("NC", "North Carolina", 15),
    ("MI", "Michigan", 16),
    ("OH", "Ohio", 18),
    ("PA", "Pennsylvania", 20),
    ("FL", "Florida", 29),
)

CODES: tuple[str, ...] = tuple(c for c, _, _ in SWING_STATES)
NAMES: dict[str, str] = {c: n for c, n, _ in SWING_STATES}
ELECTORS: dict[str, int] = {c: e for c, _, e in SWING_STATES}
TOTAL_ELECTORS = sum(ELECTORS.values())  # 145
MAJORITY = TOTAL_ELECTORS // 2 + 1  # 73

FLORIDA = "FL"
FLORIDA_MARGIN = 2  # Florida's holder must lead every rival there by this many points

# Pyramid sizes: name -> points. Every player owns four of each.
SIZES: tuple[str, ...] = ("large", "medium", "small")
POINTS: dict[str, int] = {"large": 3, "medium": 2, "small": 1}
PER_SIZE = 4
ROUNDS = 12
MAX_PER_STATE = 3
