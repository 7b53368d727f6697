"""Race for the White House as text: each party's electoral votes, money and won states;
each candidate's sheet, Home State and space; what the player to act is doing (votes to
place, a card's choice); and the tally sheets, state by state and category by category.

Both functions take the engine's public view, `RWHView` (engines/race_white_house/views.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from engines.wording import subject

from . import listing, plain, plural, table

if TYPE_CHECKING:
    from engines.race_white_house.views import PartyView, RWHView, SpaceView, StateView

PARTY = {"D": "Democrats", "R": "Republicans"}
ROLE = {"P": "President", "VP": "Vice-President"}
SHORT = {"UNION": "U", "LIBERAL": "L", "CONSERVATIVE": "C", "MINORITY": "M", "FARM": "F"}


def _money(d: int) -> str:
    return f"${d:,}"


def _name_of(view: RWHView, seat: int | None, nobody: str = "nobody") -> str:
    """A seat's name. The players list has one entry per pawn, and with three players one seat plays
    both Republicans, so a seat is found by its number, not by its place in the list."""
    return next((p["name"] for p in view["players"] if p["seat"] == seat), nobody)


def _space(view: RWHView, space: SpaceView) -> str:
    board = view["board"]
    track, index = space["track"], int(space["index"])
    if track:
        spaces = board["tracks"].get(track, [])
        label = spaces[index]["label"] if 0 <= index < len(spaces) else "?"
        return f"{track} side track, space {index + 1}/{len(spaces)}: {label}"
    circuit = board["circuit"]
    label = circuit[index]["label"] if 0 <= index < len(circuit) else "?"
    return f"space {index + 1}/{len(circuit)}: {label}"


def _sheet_regions(view: RWHView, sheet: int | None) -> str:
    sheets = view["sheets"]
    if sheet is None or not 0 <= sheet < len(sheets):
        return "both sheets"
    return f"sheet {sheet + 1} ({' and '.join(sheets[sheet])})"


def _open_step(view: RWHView) -> list[str]:
    """What the player to act is in the middle of: votes to place, or a choice to make."""
    lines = []
    pending, choice = view["pending"], view["choice"]
    if pending:
        states = pending["states"]
        where = f" in {listing(states)}" if states else ""
        cat = f" {pending['category']}" if pending["category"] else ""
        left = (f"{pending['remaining']} of {pending['total']} left" if pending["remaining"]
                else "nothing left to place: done to confirm, or undo")
        lines.append(f"{subject(_name_of(view, pending['seat']), 'is', start=True)} placing{cat} votes{where}: {left} "
                     f"({plain(pending['text'])}).")
        placed = [f"{n} {cat} in {code}" for code, cat, n in pending["placed"]]
        if placed:
            lines.append(f"  placed so far: {listing(placed)} (undo takes the last back).")
    if choice:
        lines.append(f"{subject(_name_of(view, choice['seat']), 'chooses', start=True)}: {plain(choice['text'])}")
        if choice.get("card"):
            lines.append(f"  Issues card: {plain(choice.get('card'))}")
        options = choice.get("options", [])
        for opt in options:  # as the menu words it, within the table's 100 columns
            adds = ", ".join(f"{n} {cat}" for cat, n in opt["add"])
            them = f"; opponent places {opt['opponent']}" if opt["opponent"] else ""
            lines.append(f"  take {opt['slug']} — {plain(opt['label'])}" + (f": ADD {adds}" if adds else "") + them)
        if options:
            lines.append("  (ADD n: n votes in each state where the chooser leads that category; "
                         "the opponent's go anywhere)")
    return lines


def _state_line(code: str, s: StateView) -> str:
    """'NY 31*D: D 5/10 L1 M3 F1 · R 0/10 · blocks U4 L5 C3 M5 F1': electoral votes and the
    pre-marked lean, each party's votes / blocks to win with its votes by category, then the
    blocks per category (the same for both parties: a category can take no more)."""
    lean = s["lean"]
    head = f"  {code} {s['ev']}{'*' + lean if lean else ''}"
    if s["won"]:
        declared = "" if s["declared"] else " (not yet declared)"
        return f"{head}: won by {s['won']}{declared}"
    blocks = s["blocks"]
    sides = []
    for party in ("D", "R"):
        filled = [f"{SHORT.get(cat, cat)}{parts[party][1]}" for cat, parts in blocks.items() if parts[party][1]]
        sides.append(" ".join([f"{party} {s['count'].get(party, 0)}/{s['to_win']}", *filled]))
    caps = " ".join(f"{SHORT.get(cat, cat)}{parts['D'][0]}" for cat, parts in blocks.items() if parts["D"][0])
    return f"{head}: {sides[0]} · {sides[1]} · blocks {caps}"


def _party(view: RWHView, party: str) -> PartyView | None:
    return view["parties"].get(party)


def board(view: RWHView) -> str:
    phase = view["phase"]
    lines = [f"Race for the White House · round {view['round']}/{view['max_rounds']} · "
             f"{view['to_elect']} electoral votes win"]
    for party in ("D", "R"):
        p = _party(view, party)
        ev, n_states, won, funds, spent = ((p["ev"], p["states"], p["won"], p["funds"], p["spent"]) if p
                                           else (0, 0, [], 0, 0))
        lines.append(f"{PARTY[party]}: {ev} EV in {plural(int(n_states), 'state')}"
                     f" ({listing(won)}) · funds {_money(funds)}, "
                     f"spent {_money(spent)}")
    if phase == "over":
        lines.append(plain(view["outcome"]) or "Game over.")
    rows = []
    turn_pawn = view["turn_pawn"]
    for player in view["players"]:
        mark = "> " if player["pawn"] == turn_pawn else "  "
        role = ROLE.get(player["role"], player["role"])
        rows.append([f"{mark}{player['name']}", f"{PARTY[player['party']][:-1]} {role}",
                     _sheet_regions(view, player["sheet"]), f"home {player['home'] or '-'}",
                     _space(view, player["space"])])
    lines += table(rows, align="lllll", indent="")
    if phase == "play":
        dice = view["dice"]
        lines.append(f"Turn: {_name_of(view, view['turn'])}"
                     + (f" (last roll {'+'.join(map(str, dice))})" if dice else ""))
    lines += _open_step(view)
    if view["last"]:
        lines.append(f"Last: {plain(view['last'])}")
    decks = view["decks"]
    lines.append(f"Decks: {decks['issues']} Issues, {decks['spins']} Spin Doctor cards.")
    lines.append("Tally sheets: state, electoral votes (*D or *R: pre-marked lean), each party's votes / "
                 "blocks to win and its votes by category, then each party's blocks per category "
                 "(U=UNION L=LIBERAL C=CONSERVATIVE M=MINORITY F=FARM).")
    states = view["states"]
    for k, regions in enumerate(view["sheets"]):
        for region in regions:
            lines.append(f"Sheet {k + 1}, {region}:")
            lines += [_state_line(code, states[code]) for code in view["regions"].get(region, [])
                      if code in states]
    return "\n".join(line.rstrip() for line in lines)


def summary(view: RWHView) -> str:
    parts = []
    for k in ("D", "R"):
        p = _party(view, k)
        ev, won, funds = (p["ev"], p["won"], p["funds"]) if p else (0, [], 0)
        parts.append(f"{PARTY[k]} {ev} EV ({listing(won, 'no states')}), {_money(funds)} left")
    score = "; ".join(parts)
    if view["phase"] == "over":
        return f"Race for the White House, final board. {plain(view['outcome'])} {score}."
    close = []
    for code, s in view["states"].items():
        if not s["won"]:
            for party in ("D", "R"):
                if s["count"][party] and s["to_win"] - s["count"][party] <= 1:
                    close.append(f"{party} {code}")
    near = f" One vote from winning: {listing(close)}." if close else ""
    return (f"Race for the White House, round {view['round']}, {view['to_elect']} to win; "
            f"{_name_of(view, view['turn'])} to act. {score}.{near}")
