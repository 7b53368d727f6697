"""The bot's own sentences about a player fit the person (issue #26): every template of bot/sentences.py
rendered for the local table's "you" and for a name, no name template left outside it in the service,
and the sentences as the service says them."""
from __future__ import annotations

import pathlib
import re

import pytest

from bot.sentences import TEMPLATES
from tests.helpers import said
from tests.test_wording import wrong_for_you

ROOT = pathlib.Path(__file__).resolve().parents[1]
THIRD_PERSON = re.compile(r"\b(?:them|their|themself|theirs)\b")
SECOND_PERSON = re.compile(r"\b(?:you|your|yourself|yours)\b", re.IGNORECASE)


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_a_template_fits_you(template):
    text = TEMPLATES[template]("you").replace("**", "")
    assert not wrong_for_you(text) and not THIRD_PERSON.search(text), text
    assert not re.search(r"(?:^|[.;!?⏰] )you\b", text), text  # a sentence opens with "You"


@pytest.mark.parametrize("name", ["Alice", "AI-Lincoln"])
@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_a_template_names_a_player_and_never_says_you(template, name):
    text = TEMPLATES[template](name)
    assert name in text and not SECOND_PERSON.search(text), text


def test_the_checks_can_fail():
    assert wrong_for_you("You left the game; an AI plays their seat".replace("their", "your")) == []
    assert THIRD_PERSON.search("the AI moves for them") and SECOND_PERSON.search("an AI plays your seat")
    assert re.search(r"(?:^|[.;!?⏰] )you\b", "⏰ you ran out of time")


# A player's name written straight into a sentence, verb after it ("**{plain(name)}** joined"): such a
# sentence belongs in bot/sentences.py, where it is made to fit "you".
NAME_THEN_VERB = re.compile(r"\{plain\((?:display_name\()?[\w.\[\]]*(?:name|host|who)[^}]*\}\**\s+[a-z]+")


def test_no_name_template_is_left_in_the_service():
    sources = sorted((ROOT / "bot" / "service").glob("*.py")) + [ROOT / "bot" / "records.py", ROOT / "bot" / "table.py"]
    found = [f"{path.name}: {m.group(0)}" for path in sources for m in NAME_THEN_VERB.finditer(path.read_text())]
    assert not found, found
    assert NAME_THEN_VERB.search('text=f"**{plain(name)}** joined."')  # the check sees the old form


async def test_the_service_says_them_for_you_and_for_a_name(runner):
    you = await said(runner, "you: /politics new game:us-president seed:2")
    assert "**You** opened a lobby" in you
    assert "**alice** joined." in await said(runner, "alice: /politics join")
    await runner.run_line("you: /politics start")
    gone = await said(runner, "you: /politics leave")
    assert "**You** left the game; an AI plays your seat from now on" in gone
    gone = await said(runner, "alice: /politics leave")
    assert "**alice** left the game; an AI plays their seat from now on" in gone
