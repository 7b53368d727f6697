"""The 15 cards of Primary/General: counts and effects are the game's facts;
the flavour lines are our own."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Card:
    slug: str
    name: str
    count: int
    electability: int
    affiliation: int
    flavour: str
    removes: bool = False  # Voter ADHD: takes a card out of play instead

    def effect_text(self) -> str:
        if self.removes:
            return "Remove one card from play (its effect is undone)"
        parts = []
        if self.electability:
            parts.append(f"{self.electability:+d} Electability")
        if self.affiliation:
            parts.append(f"{self.affiliation:+d} Affiliation")
        return ", ".join(parts)

    def short(self) -> str:
        if self.removes:
            return "remove a card"
        parts = []
        if self.electability:
            parts.append(f"{self.electability:+d}E")
        if self.affiliation:
            parts.append(f"{self.affiliation:+d}A")
        return " ".join(parts)


CARDS: tuple[Card, ...] = (
    Card("tack-center", "Tack Center", 8, 4, -3, "\"What I said, clearly, was that I oppose whatever you oppose.\""),
    Card("toe-the-line", "Toe the Line", 8, -3, 5, "\"Our side gets the goodies; their side gets the bill.\""),
    Card("steal-their-position", "Steal Their Position", 4, 6, -5,
         "\"My voting record proudly opposes everything you dislike, probably.\""),
    Card("slam-your-fellows", "Slam Your Fellows", 4, 3, -3, "\"I look around this stage and see only amateurs.\""),
    Card("negative-ad", "Targeted by a Negative Ad", 4, -3, 0,
         "A grainy photo, ominous music, and a very selective quote."),
    Card("sister-souljah", "Sister Souljah Moment", 2, 7, -7, "\"Some people in my own party are simply wrong.\""),
    Card("gaffe", "Gaffe", 2, -3, -3, "\"I stand before you as the only candidate against dragons.\""),
    Card("true-blue", "True Blue", 2, 0, 5, "\"The platform? I'd have written every word of it.\""),
    Card("civil-debate", "Civil Debate", 2, 0, 3, "\"Honestly, I admire everyone up here.\""),
    Card("uncivil-debate", "Uncivil Debate", 2, -3, 0, "\"My opponent has never once petted a puppy.\""),
    Card("strange-pronouncement", "Strange Pronouncement", 2, 0, 2, "\"Yes, I have seen lights in the sky.\""),
    Card("party-endorsement", "Party Endorsement", 2, 0, 5, "\"The party is proud to stand behind its finest.\""),
    Card("newspaper-endorsement", "Newspaper Endorsement", 3, 3, 0,
         "\"Our editorial board is, frankly, impressed.\" — a small-town weekly"),
    Card("policy-proposal", "Policy Proposal", 3, 0, 3, "\"Free shiny things for every household.\""),
    Card("voter-adhd", "Voter ADHD", 8, 0, 0, "Voters forget everything the moment something new shows up.",
         removes=True),
)

BY_SLUG = {c.slug: c for c in CARDS}
# One line per card for the hand shown by DM (built once: the hand is shown after every move).
HAND_LINES = {c.slug: f"• {c.name} — {c.effect_text()}" for c in CARDS}
# The label of a card on a button or in a menu.
MENU_LABELS = {c.slug: f"{c.name} ({c.short()})" for c in CARDS}
# The short effect ("+4E -3A") named in the channel log after every play.
SHORT = {c.slug: c.short() for c in CARDS}
DECK_SIZE = sum(c.count for c in CARDS)
assert DECK_SIZE == 56
