"""Sentences that fit the person they name.

At the local table the human's seat is named "you", and the same engine sentence reaches Discord, where
every seat has a name. A sentence about a seat is therefore built from these few words, each of which
knows whether the seat's name is the second-person "you": "You play … on yourself", "Alice plays … on
themself", "your rating" / "Alice's rating". An AI seat is never named "you" (AI names start with "AI-").
Nothing downstream fixes grammar: the local table prints these sentences as they are. A card written to
whoever draws it ("Teamsters endorse you") goes through `card_for`, which names a seat other than "you".
"""
from __future__ import annotations

import re

IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}


def is_you(name: str) -> bool:
    """True when the seat's name is the second-person "you" (the local table's player)."""
    return name.strip().lower() == "you"


def base_form(verb: str) -> str:
    """The verb as "you" takes it: plays -> play, is -> are, flies -> fly, passes -> pass."""
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith(("ss", "us", "is")):
        return verb[:-1]
    return verb


def subject(name: str, verb: str = "", start: bool = False) -> str:
    """The seat as the subject of a sentence with its verb agreeing: "Alice plays", "You play"
    (capitalised when `start`, lower case inside a sentence); `verb` is written for a name."""
    who = ("You" if start else "you") if is_you(name) else name
    if not verb:
        return who
    return f"{who} {base_form(verb) if is_you(name) else verb}"


def opening(text: str) -> str:
    """A sentence that starts with a seat's name, its first word "You" when that seat is "you" (a name
    is left as its player wrote it): "you and Alice tie" -> "You and Alice tie"."""
    return "You" + text[3:] if text[:3] == "you" and (len(text) == 3 or not text[3].isalnum()) else text


def verb_for(name: str, verb: str) -> str:
    """The verb alone, agreeing with the seat: ("you", "has") -> "have"; ("Alice", "has") -> "has"."""
    return base_form(verb) if is_you(name) else verb


def possessive(name: str, start: bool = False) -> str:
    """"your" / "Your" for "you", "Alice's" otherwise."""
    if is_you(name):
        return "Your" if start else "your"
    return f"{name}'s"


def reflexive(name: str) -> str:
    """The seat named again as the object of its own act: "yourself" / "themself"."""
    return "yourself" if is_you(name) else "themself"


def them(name: str) -> str:
    """The seat as an object pronoun: "you" / "them" ("the AI moves for you")."""
    return "you" if is_you(name) else "them"


def their(name: str) -> str:
    """The seat's possessive pronoun: "your" / "their" ("an AI plays your seat")."""
    return "your" if is_you(name) else "their"


def third_person(verb: str) -> str:
    """The verb as a name takes it: catch -> catches, carry -> carries, lose -> loses (base_form's inverse)."""
    if verb.endswith(("ch", "sh", "s", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def card_for(text: str, name: str) -> str:
    """A card's own words, written to whoever draws it ("Teamsters endorse you", "Your challenge: …"),
    said of the seat that drew it: unchanged for "you", and naming anyone else ("Teamsters endorse
    AI-Lincoln", "AI-Lincoln's challenge: …", "AI-Lincoln catches the flu"), so no AI is addressed as
    "you". A second mention in the same sentence is a pronoun ("… endorses them", "with their eyes closed")."""
    if is_you(name):
        return text
    out: list[str] = []
    at, last = 0, -1  # where the next piece starts, where the last mention ended
    for match in re.finditer(r"\b(?:[Yy]ourself|[Yy]our|[Yy]ou)\b", text):
        word = match.group(0)
        same_sentence = last >= 0 and not re.search(r"[.!?]", text[last:match.start()])
        end = match.end()
        if word.lower() == "yourself":
            said = "themself"
        elif word.lower() == "your":
            said = "their" if same_sentence else possessive(name)
        elif word == "You" and (verb := re.match(r" ([a-z]+)\b", text[end:])):
            said = f"{name} {third_person(verb.group(1))}"  # "You catch the flu": a sentence about the drawer
            end += verb.end()
        else:
            said = "them" if same_sentence else name
        out += [text[at:match.start()], said]
        at = last = end
    return "".join(out) + text[at:]


def object_of(name: str, by: str) -> str:
    """A seat named as the object of another seat's act (`by` is the actor): itself becomes reflexive."""
    return reflexive(by) if name == by else ("you" if is_you(name) else name)
