"""Coin Count as text: each candidate's votes (and endorsement once shown), the undecided voters,
whose turn it is. Plain text from the public view only, as render/text's boards are."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from render.text import LETTERS, name_of, table

from .game import ENDORSEMENTS, CoinCountView


def board(view: Mapping[str, Any]) -> str:
    v = cast(CoinCountView, view)
    lines = [f"Coin Count · {v['undecided']} undecided · 1 to {v['max_canvass']} a turn"]
    rows = []
    for seat, p in enumerate(v["players"]):
        shown = p["endorsement"]
        extra = f"+{ENDORSEMENTS.get(shown, 0)} {shown}" if shown else "endorsement secret"
        rows.append([f"{LETTERS[seat]} {p['name']}", f"{p['votes']} votes", extra])
    lines += table(rows, align="llr")
    if v["finished"]:
        lines.append(f"The count is over: {name_of(v, v['winner'])} wins.")
    else:
        lines.append(f"{name_of(v, v['turn'])} to canvass.")
    return "\n".join(lines)


def summary(view: Mapping[str, Any]) -> str:
    v = cast(CoinCountView, view)
    votes = ", ".join(f"{p['name']} {p['votes']}" for p in v["players"])
    return f"Coin Count board: {votes}; {v['undecided']} undecided."
