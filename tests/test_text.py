"""bot/text.py: untrusted text shown as text on Discord, and display names that can't pass for another."""
from __future__ import annotations

import re
import unicodedata

from hypothesis import given, strategies as st

from bot.text import display_name, plain, readable
from testkit.fakediscord.markup import live_markup, shows
from testkit.fakediscord.stored import pings_of

EVIL = "@everyone @here <@&123> <@456> **x** [x](https://e.x)"
# Text made of what markup is made of, and ordinary letters.
markupish = st.lists(st.sampled_from(list("@<>&#!:/[]()*_~|`\\-+. \nax19") + ["everyone", "here", "https://e.x"]),
                     max_size=40).map("".join)


def test_the_issue_example_is_inert():
    shown = plain(EVIL)
    assert not live_markup(shown) and not pings_of(shown, None)  # not even with Discord's default mentions
    assert "**" not in shown
    assert shows(shown) == "@everyone @here <@&123> <@456> x [x](https://e.x)"


@given(markupish)
def test_nothing_in_plain_text_is_live(text):
    shown = plain(text)
    assert not live_markup(shown)
    assert not pings_of(shown, None)
    # no line of it starts a heading, a quote or a list
    assert not re.search(r"^\s*(#|>|-#|[-+*] |\d+\. )", shown, re.M)


@given(st.text(max_size=80))
def test_the_reader_sees_what_was_written(text):
    """Apart from emphasis runs (dropped) and invisible characters (stripped), the text reads as typed."""
    visible = "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch)[0] != "C" or ch == "\u200d")
    if re.search(r"\*\*|__|~~|\|\||`", visible):
        return
    assert readable(plain(text)) == visible


def test_display_names_lose_invisible_characters_and_fold_lookalikes():
    assert display_name("alice\u200b") == "alice"
    assert display_name("\u202eecila") == "ecila"  # no right-to-left override
    assert display_name("ａｌｉｃｅ") == "alice"  # fullwidth letters
    assert display_name("a\nb\tc") == "a b c"
    assert display_name("@everyone") == "everyone"
    assert display_name("\u200b\u200b") == "player"
    assert len(display_name("x" * 100)) == 32
