"""What Discord would make of a message's content: live mentions, links and
formatting, read independently of the bot's escaping code."""
from __future__ import annotations

import re
from collections.abc import Set

# Discord reads a backslash before punctuation as "show this character as is".
_LIVE = {
    "user mention": re.compile(r"(?<!\\)<@!?\d+>"),
    "role mention": re.compile(r"(?<!\\)<@&\d+>"),
    "@everyone/@here": re.compile(r"(?<!\\)@(?:everyone|here)"),
    "masked link": re.compile(r"(?<!\\)\[[^\]\n]*(?<!\\)\]\("),
}


def live_markup(content: str, allowed_users: Set[str] = frozenset()) -> list[str]:
    """Every live mention, mass mention and masked link, except mentions of `allowed_users`."""
    found = []
    for kind, pattern in _LIVE.items():
        for m in pattern.finditer(content):
            if kind == "user mention" and re.sub(r"\D", "", m.group(0)) in allowed_users:
                continue
            found.append(f"{kind}: {m.group(0)}")
    return found


def shows(content: str) -> str:
    """The text a reader sees: escapes resolved, zero-width spaces gone."""
    return re.sub(r"\\([^A-Za-z0-9\s])", r"\1", content).replace("\u200b", "")
