"""U.S. President as text: electors and remaining pyramids per player, each swing state's
pyramids, points and card holder, the cards set aside, the last reveal and the recount."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import LETTERS, listing, names, plain, table

if TYPE_CHECKING:
    from engines.us_president.view import USPStateView, USPView

# The shared helper names() takes a plain dict: dict(view) hands it one.

SIZES = (("large", "L", 3), ("medium", "M", 2), ("small", "S", 1))


def _pyramids(points: list[int]) -> str:
    return "+".join(str(p) for p in points) if points else "-"


def _state_line(view: USPView, s: USPStateView) -> str:
    n = len(view.get("players", []))
    cells = []
    for seat in range(n):
        pyr = s["pyramids"][seat] if seat < len(s.get("pyramids", [])) else []
        if pyr:
            cells.append(f"{LETTERS[seat]} {_pyramids(pyr)}={s['points'][seat]}")
    holder = s.get("holder")
    held = "aside" if holder is None else f"held by {LETTERS[holder]}"
    note = ""
    if s["code"] == "FL":
        note = "  (pays only with a 2-point lead" + ("" if view.get("florida_counts") or holder is None
                                                    else ": pays 0 now") + ")"
    return f"  {s['code']} {s['electors']:>2}  {held:<10}  {' · '.join(cells) or 'no pyramids'}{note}"


def board(view: USPView) -> str:
    players = view.get("players", [])
    phase = view.get("phase")
    lines = [f"U.S. President · round {view.get('round')}/{view.get('rounds')} · "
             f"{view.get('majority')} of {view.get('total_electors')} electors wins"]
    if phase == "play":
        waiting = [p["name"] for p in players if p.get("picked") is False]
        picked = [p["name"] for p in players if p.get("picked")]
        lines.append(f"Secret picks: still thinking {listing(waiting)}; picked {listing(picked)}.")
    elif phase == "over":
        lines.append(plain(view.get("outcome", "")) or "Game over.")
    rows = [["", "electors", "pyramids left", "cards"]]
    for seat, p in enumerate(players):
        left = " ".join(f"{short}{p['supply'].get(size, 0)}" for size, short, _ in SIZES)
        out = "" if p.get("active", True) else " (out of the count)"
        rows.append([f"{LETTERS[seat]} {p['name']}{out}", str(p.get("electors", 0)), left,
                     listing(p.get("cards", []), "-")])
    lines += table(rows, align="lrll")
    lines.append("Pyramid sizes: L=3, M=2, S=1 points; at most 3 pyramids a player in a state. "
                 "More points than everyone else takes a state's card; a tie never takes it away.")
    lines.append("States (electors, card, each player's pyramids = points):")
    lines += [_state_line(view, s) for s in view.get("states", [])]
    if view.get("aside"):
        lines.append(f"Set aside (nobody holds): {listing(view['aside'])}.")
    last = view.get("last_reveal")
    who = names(dict(view))
    if last and last.get("picks"):
        picks = [f"{who[k] if k < len(who) else '?'} {state} {size}"
                 for k, (state, size) in enumerate(last["picks"])]
        lines.append(f"Revealed in round {last.get('round')}: {listing(picks)}.")
    count = view.get("count")
    if count:
        lines.append("Election Day count: " + listing([f"{who[k]} {c}" for k, c in enumerate(count)]) + ".")
    for step in view.get("recount", []):
        lines += ["  " + plain(line) for line in str(step.get("text", "")).splitlines()]
    return "\n".join(lines)


def summary(view: USPView) -> str:
    players = view.get("players", [])
    who = [f"{p['name']} {p.get('electors', 0)} electors ({listing(p.get('cards', []), 'no states')})"
           for p in players]
    if view.get("phase") == "over":
        head = f"U.S. President, final board. {plain(view.get('outcome', ''))}"
    else:
        waiting = [p["name"] for p in players if p.get("picked") is False]
        head = (f"U.S. President map, round {view.get('round')} of {view.get('rounds')}, "
                f"{view.get('majority')} electors win; waiting for {listing(waiting, 'nobody')}.")
    aside = f" Set aside: {listing(view.get('aside', []))}." if view.get("aside") else ""
    return f"{head} {'; '.join(who)}.{aside}"

