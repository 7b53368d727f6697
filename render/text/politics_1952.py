"""Politics (1952) as text: votes, states, counties and Speech Cards per player; the dice;
and every state's pins (how many counties deep each player is, the first to arrive first),
capital and controller, grouped by the coloured die's groups."""
from __future__ import annotations

from typing import TYPE_CHECKING

from engines.wording import opening

from . import LETTERS, listing, name_of, plain, table

if TYPE_CHECKING:
    from engines.politics_1952.view import P52StateView, P52View

# The shared helper name_of() takes a plain dict: dict(view) hands it one.


def _pins(s: P52StateView) -> str:
    """'A3 C1 -> A': each pin with the counties it stands for, east to west, and within a
    line in arrival order (the first there holds a tie). A won capital is said first."""
    bits = []
    capital = s.get("capital")
    if capital is not None:
        bits.append(f"capital {LETTERS[capital]}")
    lines = s.get("pins", [])
    for k in range(len(lines) - 1, -1, -1):
        bits += [f"{LETTERS[seat]}{k + 1}" for seat in lines[k]]
    if not bits:
        return "-"
    ctrl = s.get("controller")
    return " ".join(bits) + (f" -> {LETTERS[ctrl]}" if ctrl is not None else "")


def _turn_line(view: P52View) -> str:
    phase = view.get("phase")
    if phase == "opening":
        waiting = [name_of(dict(view), s) for s in view.get("contenders", [])
                   if view["players"][s].get("opening") is None]
        thrown = [f"{p['name']} {p['opening']}" for p in view["players"] if p.get("opening") is not None]
        return (f"Throwing for first player (highest begins): waiting for {listing(waiting)} to throw"
                + (f"; thrown: {listing(thrown)}." if thrown else "."))
    if phase == "over":
        return plain(view.get("outcome", "")) or "Game over."
    who = opening(name_of(dict(view), view.get("turn")))  # "You to roll." at the table
    dice = view.get("dice")
    if phase == "roll" or not dice:
        return f"{who} to roll."
    a, b = dice["white"]
    speech = "speech made" if view.get("speech_done") else "may still make a speech"
    return (f"{who} rolled group {dice['group']} with {a}+{b}: {view.get('remaining', 0)} of {a + b} "
            f"counties left to place in group {dice['group']}; {speech}; then end.")


def board(view: P52View) -> str:
    players = view.get("players", [])
    board_state = ("closed: doubles now count the votes" if view.get("board_closed")
                   else f"open, {view.get('pinned', 0)}/48 states pinned")
    turn = f"turn {view['turns']} · " if view.get("turns") else ""
    lines = [f"Politics (1952) · {turn}board {board_state} · "
             f"{view.get('majority')} of {view.get('total_votes')} votes wins",
             _turn_line(view)]
    if view.get("log") and view.get("phase") != "over":
        lines.append(f"Last: {plain(view['log'][-1])}")
    rows = [["", "votes", "states", "counties", "in hand", "speeches played"]]
    for seat, p in enumerate(players):
        out = "" if p.get("active", True) else " (out)"
        rows.append([f"{LETTERS[seat]} {p['name']}{out}", str(p.get("votes", 0)), str(p.get("states", 0)),
                     str(p.get("counties", 0)), str(p.get("cards_left", 0)), listing(p.get("played", []), "-")])
    lines += table(rows, align="lrrrrl")
    lines.append("States by die group: votes, then pins east to west (A3 = A's pin on county line 3 of 7, "
                 "DE/NJ/RI have 4; on one line the first there is listed first and holds a tie) -> who takes the vote.")
    groups: dict[int, list[P52StateView]] = {}
    for s in view.get("states", []):
        groups.setdefault(int(s.get("group", 0)), []).append(s)
    for g in sorted(groups):
        pins = [(s, _pins(s)) for s in groups[g]]
        empty = [f"{s['code']} {s['ev']}" for s, p in pins if p == "-"]
        total = sum(int(s["ev"]) for s in groups[g])
        lines.append(f"Group {g} ({total} votes):")
        lines += [f"  {s['code']} {s['ev']}: {p}" for s, p in pins if p != "-"]
        if empty:
            lines.append(f"  no pins: {listing(empty)}")
    for t in view.get("tabulations", []):
        votes = [f"{name_of(dict(view), k)} {v}" for k, v in enumerate(t.get("votes", [])) if v is not None]
        gone = [name_of(dict(view), k) for k in t.get("eliminated", [])]
        lines.append(f"Tabulation on turn {t.get('turn')}: {listing(votes)}"
                     + (f"; out: {listing(gone)}" if gone else "") + ".")
    return "\n".join(lines)


def summary(view: P52View) -> str:
    players = view.get("players", [])
    who = [f"{LETTERS[k]} {p['name']} {p.get('votes', 0)} votes in {p.get('states', 0)} states"
           + ("" if p.get("active", True) else " (out)") for k, p in enumerate(players)]
    closed = "closed" if view.get("board_closed") else f"open ({view.get('pinned', 0)} of 48 states pinned)"
    held: dict[int, list[str]] = {k: [] for k in range(len(players))}
    for s in view.get("states", []):
        controller = s.get("controller")
        if controller is not None:
            held[controller].append(s["code"])
    states = [f"{LETTERS[k]}: {listing(codes)}" for k, codes in held.items() if codes]
    return (f"Politics (1952) map, turn {view.get('turns', 0)}, board {closed}, "
            f"{view.get('majority')} votes win. {_turn_line(view)} {'; '.join(who)}. "
            f"States taken: {'; '.join(states) or 'none'}.")
