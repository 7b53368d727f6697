"""How the menus of Politics: The Game are laid out: which verb leads each phase's first menu
(so item 1 keeps its meaning from one prompt to the next) and how a list of states is grouped
(by census region) so no menu lists the map's 50 states at once.

A list of states (home, fly, move) is always chosen region first, however short: a roll of 2
reaches three states, a roll of 12 almost all of them, and item 1 after a roll must mean the same
either way (open a region; it never moves you by itself)."""
from __future__ import annotations

from .board import CODES
from .legal import legal_actions
from .models import TriviaState

# The verbs that lead their phase's first menu with their choices listed at once: `move` to a
# state after a roll, `ask` a kind of question, `answer` 1–4, `discard` a card, `home` a state,
# `perform` (naming the actor of a directed scene), `help` at a price. Legal moves list a phase's
# main verb first.
LEADS = ("move", "ask", "answer", "discard", "home", "perform", "suggest", "help")

# The U.S. Census Bureau's four regions; D.C. is in the South.
REGIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Northeast", ("CT", "MA", "ME", "NH", "NJ", "NY", "PA", "RI", "VT")),
    ("Midwest", ("IA", "IL", "IN", "KS", "MI", "MN", "MO", "ND", "NE", "OH", "SD", "WI")),
    ("South", ("AL", "AR", "DC", "DE", "FL", "GA", "KY", "LA", "MD", "MS", "NC", "OK", "SC", "TN", "TX", "VA",
               "WV")),
    ("West", ("AK", "AZ", "CA", "CO", "HI", "ID", "MT", "NM", "NV", "OR", "UT", "WA", "WY")),
)
STATE_VERBS = ("home", "fly", "move")
LABEL = 80  # the longest menu label a front end shows whole (views.MENU_LABEL)


def menu_lead(state: TriviaState, seat: int) -> str | None:
    legal = legal_actions(state, seat)
    if not legal:
        return None
    verb = legal[0].verb
    if verb == "fly":
        return None  # flying is never first (rolling is), and never leads: 50 states behind one item
    return verb if verb in LEADS else None


def menu_groups(state: TriviaState, seat: int, prefix: tuple[str, ...],
                tokens: list[str]) -> list[tuple[str, str, list[str]]] | None:
    if prefix[-1:] not in [(v,) for v in STATE_VERBS] or not set(tokens) <= set(CODES):
        return None
    groups = []
    for region, codes in REGIONS:
        members = [t for t in tokens if t in codes]
        if members:
            # the region's states by code when they fit, else how many
            listed = f"{region}: {', '.join(members)}"
            counted = f"{region} ({len(members)} {'state' if len(members) == 1 else 'states'})"
            groups.append((region, listed if len(listed) <= LABEL else counted, members))
    return groups
