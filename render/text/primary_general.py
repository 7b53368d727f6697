"""Primary/General as text: everyone's Electability and Affiliation with the score that
decides the current phase, roles, hand sizes, and every card in play with its label."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import listing, name_of, names, plain, plural, signed, table

if TYPE_CHECKING:
    from engines.primary_general.view import PGView

# The shared helpers (names, name_of) take a plain dict: dict(view) hands them one.

PHASES = {"primary": ("Primary", "E+A"), "general": ("General", "E-A")}


def _header(view: PGView) -> str:
    title = "Primary/General"
    if view.get("party_match"):
        title += f" · party match, game {view.get('game_number', 1)} of {view.get('match_games', 1)}"
    phase = view.get("phase")
    if phase == "over":
        return f"{title} · {'match' if view.get('party_match') else 'game'} over"
    label, score = PHASES.get(phase, (str(phase), ""))
    return (f"{title} · the {label} (score {score}) · {name_of(dict(view), view.get('turn'))} to play · "
            f"deck {view.get('deck', 0)}, discard {view.get('discard', 0)}")


def board(view: PGView) -> str:
    players = view.get("players", [])
    phase = view.get("phase")
    lines = [_header(view)]
    if phase == "over":
        reason = plain(view.get("winner_reason", ""))
        lines.append(f"President: {name_of(dict(view), view.get('winner'))}" + (f" — {reason}." if reason else "."))
        if view.get("party_match"):
            points = [int(p.get("points") or 0) for p in players]
            best = max(points, default=0)
            lines.append(f"Match winners (most points, {best}): "
                         f"{listing([n for n, pts in zip(names(dict(view)), points) if pts == best])}.")
    elif phase == "primary":
        lines.append("The two best E+A become the Candidates; the others become Spoilers.")
    else:
        lines.append("The Candidate with the best positive E-A is President; "
                     "if neither is positive, the Spoiler with the most E is.")
    header = ["", "E", "A", "E+A", "E-A", "hand", "role"]
    rows = [header]
    for p in players:
        e, a = int(p.get("electability", 0)), int(p.get("affiliation", 0))
        role = p.get("role") or "-"
        extra = []
        if p.get("primary_total") is not None:
            extra.append(f"Primary total {p['primary_total']}")
        if p.get("general_total") is not None:
            extra.append(f"General total {p['general_total']}")
        if p.get("party"):
            extra.append(f"{p['party']} party")
        match_points = p.get("points")
        if match_points is not None:
            extra.append(plural(int(match_points), "point"))
        row = [str(p.get("name", "?")), signed(e), signed(a), signed(e + a), signed(e - a),
               str(p.get("cards_in_hand", 0)), role]
        if extra:
            row.append(" · ".join(extra))
        rows.append(row)
    lines += table(rows, align="lrrrrrll")
    in_play = view.get("in_play", [])
    if not in_play:
        lines.append("No cards in play.")
    elif phase == "over":
        lines.append(f"Cards in play at the end ({len(in_play)}):")
    else:
        lines.append(f"Cards in play ({len(in_play)}, by label):")
    who = names(dict(view))
    for c in in_play:
        on = who[c["target"]] if 0 <= c.get("target", -1) < len(who) else "?"
        by = who[c["by"]] if 0 <= c.get("by", -1) < len(who) else "?"
        earlier = f" [{c['phase']}]" if phase in PHASES and c.get("phase") not in (None, phase) else ""
        lines.append(f"  {c['id']} {c['card']} ({c['effect']}) on {on}, by {by}{earlier}")
    return "\n".join(lines)


def summary(view: PGView) -> str:
    phase = view.get("phase")
    label, score = PHASES.get(phase, ("", ""))
    bits = []
    for p in view.get("players", []):
        e, a = int(p.get("electability", 0)), int(p.get("affiliation", 0))
        role = f", {p['role']}" if p.get("role") else ""
        bits.append(f"{p.get('name')} E {e}, A {a}{role}")
    if phase == "over":
        head = f"Primary/General, game over: {name_of(dict(view), view.get('winner'))} is President."
    else:
        head = (f"Primary/General board, the {label} (score {score}), "
                f"{name_of(dict(view), view.get('turn'))} to play.")
    cards = [c["card"] for c in view.get("in_play", [])]
    return f"{head} {'; '.join(bits)}. Cards in play: {listing(cards)}."
