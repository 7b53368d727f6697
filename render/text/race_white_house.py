"""Race for the White House as text: each party's electoral votes, money and won states;
each candidate's sheet, Home State and space; what the player to act is doing (votes to
place, a card's choice); and the tally sheets, state by state and category by category."""
from __future__ import annotations

from . import listing, name_of, plain, plural, table

PARTY = {"D": "Democrats", "R": "Republicans"}
ROLE = {"P": "President", "VP": "Vice-President"}
SHORT = {"UNION": "U", "LIBERAL": "L", "CONSERVATIVE": "C", "MINORITY": "M", "FARM": "F"}


def _money(d: int) -> str:
    return f"${d:,}"


def _space(view: dict, space: dict) -> str:
    board = view.get("board", {})
    track, index = space.get("track"), int(space.get("index", 0))
    if track:
        spaces = board.get("tracks", {}).get(track, [])
        label = spaces[index]["label"] if 0 <= index < len(spaces) else "?"
        return f"{track} side track, space {index + 1}/{len(spaces)}: {label}"
    circuit = board.get("circuit", [])
    label = circuit[index]["label"] if 0 <= index < len(circuit) else "?"
    return f"space {index + 1}/{len(circuit)}: {label}"


def _sheet_regions(view: dict, sheet: int | None) -> str:
    sheets = view.get("sheets", [])
    if sheet is None or not 0 <= sheet < len(sheets):
        return "both sheets"
    return f"sheet {sheet + 1} ({' and '.join(sheets[sheet])})"


def _open_step(view: dict) -> list[str]:
    """What the player to act is in the middle of: votes to place, or a choice to make."""
    lines = []
    pending, choice = view.get("pending"), view.get("choice")
    if pending:
        where = f" in {listing(pending['states'])}" if pending.get("states") else ""
        cat = f" {pending['category']}" if pending.get("category") else ""
        left = (f"{pending['remaining']} of {pending.get('total', 0)} left" if pending.get("remaining")
                else "nothing left to place: done to confirm, or undo")
        lines.append(f"{name_of(view, pending.get('seat'))} is placing{cat} votes{where}: {left} "
                     f"({plain(pending.get('text'))}).")
        placed = [f"{n} {cat} in {code}" for code, cat, n in pending.get("placed", [])]
        if placed:
            lines.append(f"  placed so far: {listing(placed)} (undo takes the last back).")
    if choice:
        lines.append(f"{name_of(view, choice.get('seat'))} chooses: {plain(choice.get('text'))}")
        if choice.get("card"):
            lines.append(f"  Issues card: {plain(choice['card'])}")
        for opt in choice.get("options", []):
            adds = listing([f"ADD {n} {cat}" for cat, n in opt.get("add", [])], "")
            them = f"; then your opponent places {opt['opponent']} votes anywhere" if opt.get("opponent") else ""
            lines.append(f"  take {opt.get('slug')}: {plain(opt.get('label'))}"
                         + (f" ({adds})" if adds else "") + them)
    return lines


def _state_line(code: str, s: dict) -> str:
    """'NY 31*D: D 5/10 L1 M3 F1 · R 0/10 · blocks U4 L5 C3 M5 F1': electoral votes and the
    pre-marked lean, each party's votes / blocks to win with its votes by category, then the
    blocks per category (the same for both parties: a category can take no more)."""
    head = f"  {code} {s['ev']}{'*' + s['lean'] if s.get('lean') else ''}"
    if s.get("won"):
        declared = "" if s.get("declared", True) else " (not yet declared)"
        return f"{head}: won by {s['won']}{declared}"
    blocks = s.get("blocks", {})
    sides = []
    for party in ("D", "R"):
        filled = [f"{SHORT.get(cat, cat)}{parts[party][1]}" for cat, parts in blocks.items() if parts[party][1]]
        sides.append(" ".join([f"{party} {s.get('count', {}).get(party, 0)}/{s['to_win']}", *filled]))
    caps = " ".join(f"{SHORT.get(cat, cat)}{parts['D'][0]}" for cat, parts in blocks.items() if parts["D"][0])
    return f"{head}: {sides[0]} · {sides[1]} · blocks {caps}"


def board(view: dict) -> str:
    parties = view.get("parties", {})
    phase = view.get("phase")
    lines = [f"Race for the White House · round {view.get('round')}/{view.get('max_rounds')} · "
             f"{view.get('to_elect')} electoral votes win"]
    for party in ("D", "R"):
        p = parties.get(party, {})
        lines.append(f"{PARTY[party]}: {p.get('ev', 0)} EV in {plural(int(p.get('states', 0)), 'state')}"
                     f" ({listing(p.get('won', []))}) · funds {_money(p.get('funds', 0))}, "
                     f"spent {_money(p.get('spent', 0))}")
    if phase == "over":
        lines.append(plain(view.get("outcome", "")) or "Game over.")
    rows = []
    turn_pawn = view.get("turn_pawn")
    for p in view.get("players", []):
        mark = "> " if p.get("pawn") == turn_pawn else "  "
        rows.append([f"{mark}{p['name']}", f"{PARTY[p['party']][:-1]} {ROLE.get(p.get('role'), p.get('role'))}",
                     _sheet_regions(view, p.get("sheet")), f"home {p.get('home') or '-'}",
                     _space(view, p.get("space", {}))])
    lines += table(rows, align="lllll", indent="")
    if phase == "play":
        lines.append(f"Turn: {name_of(view, view.get('turn'))}"
                     + (f" (last roll {'+'.join(map(str, view['dice']))})" if view.get("dice") else ""))
    lines += _open_step(view)
    if view.get("last"):
        lines.append(f"Last: {plain(view['last'])}")
    decks = view.get("decks", {})
    lines.append(f"Decks: {decks.get('issues', 0)} Issues, {decks.get('spins', 0)} Spin Doctor cards.")
    lines.append("Tally sheets: state, electoral votes (*D or *R: pre-marked lean), each party's votes / "
                 "blocks to win and its votes by category, then each party's blocks per category "
                 "(U=UNION L=LIBERAL C=CONSERVATIVE M=MINORITY F=FARM).")
    states = view.get("states", {})
    for k, regions in enumerate(view.get("sheets", [])):
        for region in regions:
            lines.append(f"Sheet {k + 1}, {region}:")
            lines += [_state_line(code, states[code]) for code in view.get("regions", {}).get(region, [])
                      if code in states]
    return "\n".join(line.rstrip() for line in lines)


def summary(view: dict) -> str:
    parties = view.get("parties", {})
    score = "; ".join(f"{PARTY[k]} {parties.get(k, {}).get('ev', 0)} EV "
                      f"({listing(parties.get(k, {}).get('won', []), 'no states')}), "
                      f"{_money(parties.get(k, {}).get('funds', 0))} left" for k in ("D", "R"))
    if view.get("phase") == "over":
        return f"Race for the White House, final board. {plain(view.get('outcome', ''))} {score}."
    close = []
    for code, s in view.get("states", {}).items():
        if not s.get("won"):
            for party in ("D", "R"):
                if s["count"][party] and s["to_win"] - s["count"][party] <= 1:
                    close.append(f"{party} {code}")
    near = f" One vote from winning: {listing(close)}." if close else ""
    return (f"Race for the White House, round {view.get('round')}, {view.get('to_elect')} to win; "
            f"{name_of(view, view.get('turn'))} to act. {score}.{near}")
