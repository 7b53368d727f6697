"""The bot's own sentences about a player, grammatical for the local table's "you" and for a name.

At the table the human's seat is named "you"; on Discord every seat has a name. Each sentence the
service says about a player is built here with engines/wording.py (the helper the engines use), so
"You left the game; an AI plays your seat" and "**Alice** left the game; an AI plays their seat" come
from one template, and no front end has to patch the grammar afterwards. The names are untrusted
text: each goes through plain() here. `TEMPLATES` lists them all with sample arguments, so a test
renders every one both ways.
"""
from __future__ import annotations

from collections.abc import Callable

from engines.wording import subject, their, them

from .text import plain


def _who(name: str) -> str:
    """The player at the start of a sentence, in bold: "**You**", "**Alice**"."""
    return f"**{plain(subject(name, start=True))}**"


def opened_lobby(name: str, title: str) -> str:
    return f"{_who(name)} opened a lobby for **{title}**"


def joined(name: str) -> str:
    return f"{_who(name)} joined."


def left_lobby(name: str, closed: bool) -> str:
    return f"{_who(name)} left; the lobby is closed." if closed else f"{_who(name)} left."


def left_game(name: str, level: str) -> str:
    return f"{_who(name)} left the game; an AI plays {their(name)} seat from now on (level {level})."


def ran_out_of_time(name: str) -> str:
    return f"⏰ {plain(subject(name, start=True))} ran out of time; the AI moves for {them(name)} this time."


def cleared_records(name: str, removed: int) -> str:
    return f"{_who(name)} cleared this server's game records ({removed} finished games, every rating)."


def cancelled(title: str, name: str, archived: bool) -> str:
    listed = " It is archived unrated: `/politics history` lists it." if archived else ""
    return f"The game of {title} was cancelled by **{plain(name)}**.{listed}"


# Every template, as a function of the player's name, with sample arguments.
TEMPLATES: dict[str, Callable[[str], str]] = {
    "opened_lobby": lambda name: opened_lobby(name, "Primary/General"),
    "joined": joined,
    "left_lobby": lambda name: left_lobby(name, closed=False),
    "left_lobby closed": lambda name: left_lobby(name, closed=True),
    "left_game": lambda name: left_game(name, "normal"),
    "ran_out_of_time": ran_out_of_time,
    "cleared_records": lambda name: cleared_records(name, 3),
    "cancelled": lambda name: cancelled("Primary/General", name, archived=False),
    "cancelled archived": lambda name: cancelled("Primary/General", name, archived=True),
}
