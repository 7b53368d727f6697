"""Untrusted text, made safe to show.

The service writes its own messages in Discord Markdown (`**bold**`, `<@id>` when it
means to ping). Everything else it puts into a message is *plain text* and goes
through `plain()` first: what users wrote (names, typed answers, settings values,
what an error repeats) and everything an engine returns (events, status, private
text, rule errors, upload reports), because engine text echoes user text that the
bot cannot pick out. So no user text ever pings, links or formats anything, whatever
an engine does with it. Labels of buttons, menus, forms and autocomplete choices are
never rendered by Discord and stay as they are.

Front ends that are not Discord (the terminal table, transcripts) show `readable()`.
"""
from __future__ import annotations

import re
import unicodedata

ZWSP = "\u200b"
ZWJ = "\u200d"  # joins emoji sequences; kept in ordinary text

# Runs Discord reads as formatting on their own: they are dropped, not escaped, so
# an engine written with **bold** or `code` still reads cleanly (just unformatted).
_EMPHASIS = re.compile(r"\*\*|__|~~|\|\||`+")
# Single characters that can open formatting or a masked link: escaped.
_ESCAPE = re.compile(r"([\\*_~|\[\]])")
# '<' that would open a mention, channel link, command, emoji or timestamp.
_MENTION_OPEN = re.compile(r"<(?=[@#/:]|a:|t:)")
_MASS_MENTION = re.compile(r"@(everyone|here)", re.IGNORECASE)
# Line starts that make a heading, quote, subtext or list.
_LINE_START = re.compile(r"^(\s*)(#|>|-#|[-+] )", re.MULTILINE)
_NUMBERED = re.compile(r"^(\s*\d+)\.(?= )", re.MULTILINE)


def _strip_invisible(text: str) -> str:
    """Drop control and format characters (zero-width spaces, bidi overrides),
    keeping line breaks, tabs and the emoji joiner."""
    return "".join(ch for ch in text if ch in "\n\t" or ch == ZWJ
                   or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))


def plain(text: str) -> str:
    """`text` as Discord shows it literally: no ping, no link, no formatting."""
    text = _EMPHASIS.sub("", _strip_invisible(str(text)))
    text = _ESCAPE.sub(r"\\\1", text)
    text = _MENTION_OPEN.sub(r"\\<", text)
    text = _MASS_MENTION.sub(lambda m: "@" + ZWSP + m.group(1), text)
    text = _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
    return _NUMBERED.sub(r"\1\\.", text)


# Characters a display name loses (as before names were escaped): an '@' would read
# as a mention in move words, '*' and '`' are never part of a name worth keeping.
_NAME_DROP = set("@`*")


def display_name(name: str) -> str:
    """A Discord display name as the games show it: one line, at most 32 characters,
    no invisible characters (`alice\\u200b` is `alice`, so it can't pass for a second
    alice), compatibility forms folded (fullwidth letters). Shown through plain()."""
    folded = unicodedata.normalize("NFKC", str(name))
    kept = "".join(" " if ch in "\n\r\t" or unicodedata.category(ch).startswith("Z") else ch for ch in folded
                   if ch not in _NAME_DROP and (ch in "\n\r\t" or not unicodedata.category(ch).startswith("C")))
    cleaned = " ".join(kept.split())[:32].strip()
    return cleaned or "player"


_UNESCAPE = re.compile(r"\\([^A-Za-z0-9\s])")


def readable(text: str) -> str:
    """The text a Discord client would show, for front ends that don't render
    Markdown escapes (the bot's own **bold** stays as written)."""
    return _UNESCAPE.sub(r"\1", text.replace("@" + ZWSP, "@"))

