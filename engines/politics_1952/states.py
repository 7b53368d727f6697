"""The 48 states of 1952: electoral votes (1950 census), county lines and dice groups.

Electoral votes are facts of public record (the ev_1952 column of the shared
data file; tests/test_politics_1952_data.py checks every value and the 531
total). Groups are this project's design; docs/games/politics-1952.md explains
how they were chosen.
"""
from __future__ import annotations

# (code, name, electoral votes, group)
STATES: tuple[tuple[str, str, int, int], ...] = (
    # group 1: the small states, 3-8 votes (18 states, 79 votes)
    ("DE", "Delaware", 3, 1),
    ("NV", "Nevada", 3, 1),
    ("VT", "Vermont", 3, 1),
    ("WY", "Wyoming", 3, 1),
    ("AZ", "Arizona", 4, 1),
    ("ID", "Idaho", 4, 1),
    ("MT", "Montana", 4, 1),
    ("NH", "New Hampshire", 4, 1),
    ("NM", "New Mexico", 4, 1),
    ("ND", "North Dakota", 4, 1),
    ("RI", "Rhode Island", 4, 1),
    ("SD", "South Dakota", 4, 1),
    ("UT", "Utah", 4, 1),
    ("ME", "Maine", 5, 1),
    ("CO", "Colorado", 6, 1),
    ("NE", "Nebraska", 6, 1),
    ("OR", "Oregon", 6, 1),
    ("AR", "Arkansas", 8, 1),
    # group 2: 8-10 votes (10 states, 86 votes)
    ("CT", "Connecticut", 8, 2),
    ("KS", "Kansas", 8, 2),
    ("MS", "Mississippi", 8, 2),
    ("OK", "Oklahoma", 8, 2),
    ("SC", "South Carolina", 8, 2),
    ("WV", "West Virginia", 8, 2),
    ("MD", "Maryland", 9, 2),
    ("WA", "Washington", 9, 2),
    ("FL", "Florida", 10, 2),
    ("IA", "Iowa", 10, 2),
    # group 3: 10-12 votes (8 states, 89 votes)
    ("KY", "Kentucky", 10, 3),
    ("LA", "Louisiana", 10, 3),
    ("AL", "Alabama", 11, 3),
    ("MN", "Minnesota", 11, 3),
    ("TN", "Tennessee", 11, 3),
    ("GA", "Georgia", 12, 3),
    ("VA", "Virginia", 12, 3),
    ("WI", "Wisconsin", 12, 3),
    # group 4: 13-20 votes (6 states, 92 votes)
    ("IN", "Indiana", 13, 4),
    ("MO", "Missouri", 13, 4),
    ("NC", "North Carolina", 14, 4),
    ("MA", "Massachusetts", 16, 4),
    ("NJ", "New Jersey", 16, 4),
    ("MI", "Michigan", 20, 4),
    # group 5: the big three outside group 6 (3 states, 88 votes); the rulebook does not place California
    # or Pennsylvania, so putting them below Ohio and Illinois is our choice (docs/games/politics-1952.md)
    ("TX", "Texas", 24, 5),
    ("CA", "California", 32, 5),
    ("PA", "Pennsylvania", 32, 5),
    # group 6: the three states the rulebook's example names in group 6 (3 states, 97 votes)
    ("OH", "Ohio", 25, 6),
    ("IL", "Illinois", 27, 6),
    ("NY", "New York", 45, 6),
)

CODES: tuple[str, ...] = tuple(sorted(c for c, _, _, _ in STATES))
NAMES: dict[str, str] = {c: n for c, n, _, _ in STATES}
EV: dict[str, int] = {c: v for c, _, v, _ in STATES}
GROUP: dict[str, int] = {c: g for c, _, _, g in STATES}
GROUPS: dict[int, tuple[str, ...]] = {
    g: tuple(c for c, _, _, gg in STATES if gg == g) for g in range(1, 7)
}

# Seven county lines, west to east; four in the three smallest-drawn states.
FOUR_LINE_STATES: frozenset[str] = frozenset({"DE", "NJ", "RI"})
LINES: dict[str, int] = {c: (4 if c in FOUR_LINE_STATES else 7) for c in CODES}

TOTAL_VOTES = sum(EV.values())  # 531
MAJORITY = TOTAL_VOTES // 2 + 1  # 266
