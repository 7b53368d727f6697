"""Text boards: pure functions from a game's *public* view to plain text.

The board images are the quickest read, but a player who can't see them (a screen
reader, the terminal, a bad connection) must be able to play from text alone. A game
names its text board's module (Game.text_board_module, e.g. "render.text.us_president"),
which exposes

    board(view) -> str     the whole public state a player needs to decide:
                           totals, holdings, whose turn, what is open
    summary(view) -> str   a few sentences for an image's alt text (optional)

Both take the public view (`game.view(state, None)`, a Mapping) and nothing else, so they
can show nothing a seat keeps secret. Output is plain text: no Discord markup, so the
terminal shows it as is (the bot may wrap it in a code block). A new game adds one module
and names it; the bot looks boards up through `get_text_board` / `alt_text` and needs no
change.
"""
from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

from engines import all_games

View = Mapping[str, Any]
TextBoard = Callable[[View], str]

ALT_TEXT_LIMIT = 1024  # Discord's limit for an attachment's description
LETTERS = "ABCDEFGH"  # the images' second cue for seat i (render.core.PLAYERS)


def _module(game_id: str) -> ModuleType | None:
    game = all_games().get(game_id)
    if game is None or not game.text_board_module:
        return None
    return importlib.import_module(game.text_board_module)


def get_text_board(game_id: str) -> TextBoard | None:
    module = _module(game_id)
    board: TextBoard | None = getattr(module, "board", None) if module else None
    return board


def text_board(game_id: str, view: View) -> str:
    """The game's text board, or '' for a game without one."""
    board = get_text_board(game_id)
    return board(view) if board else ""


def alt_text(game_id: str, view: View) -> str:
    """A summary of the board for an image's alt text, at most ALT_TEXT_LIMIT characters
    (a game without its own summary gets the start of its text board)."""
    module = _module(game_id)
    summary: TextBoard | None = getattr(module, "summary", None) if module else None
    text = summary(view) if summary else text_board(game_id, view)
    return clip(" ".join(text.split()), ALT_TEXT_LIMIT)


# ---- helpers the games share ---------------------------------------------------------

def clip(text: str, limit: int) -> str:
    """At most `limit` characters, counted as Discord may (UTF-16 units, so an emoji
    counts two); cut at a word boundary when one is near, and marked with '…'."""
    if _units(text) <= limit:
        return text
    out, used = [], 0
    for ch in text:
        size = _units(ch)
        if used + size > limit - 1:
            break
        out.append(ch)
        used += size
    cut = "".join(out)
    space = cut.rfind(" ")
    if space > limit * 3 // 4:
        cut = cut[:space]
    return cut.rstrip() + "…"


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


_MARKUP = re.compile(r"\*\*|`|__|~~|\|\|")


def plain(text: str | None) -> str:
    """Engine messages carry Discord emphasis (**bold**, `code`); a text board doesn't."""
    return _MARKUP.sub("", text or "")


def names(view: View) -> list[str]:
    return [str(p.get("name", f"Player {i + 1}")) for i, p in enumerate(view.get("players", []))]


def name_of(view: View, seat: int | None, nobody: str = "nobody") -> str:
    players = view.get("players", [])
    if seat is None or not 0 <= seat < len(players):
        return nobody
    return str(players[seat].get("name", f"Player {seat + 1}"))


def listing(items: Sequence[str], empty: str = "none") -> str:
    items = [str(i) for i in items]
    return ", ".join(items) if items else empty


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def table(rows: list[list[str]], align: str = "l", indent: str = "  ") -> list[str]:
    """Rows of cells, each column padded to its widest cell. `align` has one letter a
    column, l or r; columns past its end are right-aligned (names first, then numbers)."""
    if not rows:
        return []
    widths = [max(len(r[k]) for r in rows if k < len(r)) for k in range(max(len(r) for r in rows))]
    out = []
    for r in rows:
        cells = [c.ljust(widths[k]) if align[k:k + 1] == "l" else c.rjust(widths[k]) for k, c in enumerate(r)]
        out.append((indent + "  ".join(cells)).rstrip())
    return out
