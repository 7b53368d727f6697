"""The eighteen Speech Cards (designed for this project; the rulebook prints no texts).

Each card is a campaign theme - one of a candidate's qualifications - and names
the counties it wins, state by state, in the order they are played. Every one
of the 48 states appears on at least one card.
"""
from __future__ import annotations

from typing import NamedTuple


class SpeechCard(NamedTuple):
    slug: str
    title: str
    text: str
    counties: tuple[tuple[str, int], ...]  # (state, counties), played in this order

    @property
    def total(self) -> int:
        return sum(k for _, k in self.counties)

    def listing(self) -> str:
        return ", ".join(f"{code} {k}" for code, k in self.counties)


CARDS: tuple[SpeechCard, ...] = (
    SpeechCard("farm", "Fair Prices for the Farmer",
               "You grew up behind a plough and promise parity prices for grain and hogs.",
               (("IA", 2), ("KS", 2), ("NE", 2), ("MN", 1), ("ND", 1), ("SD", 1))),
    SpeechCard("labor", "A Friend of the Working Man",
               "Union halls cheer your pledge to protect collective bargaining.",
               (("MI", 2), ("PA", 2), ("OH", 1), ("IL", 1), ("NY", 1))),
    SpeechCard("veterans", "Veterans First",
               "You served overseas and speak for the G.I.s coming home from Korea.",
               (("TX", 1), ("CA", 1), ("NY", 1), ("PA", 1), ("OH", 1), ("IL", 1), ("VA", 1), ("WA", 1))),
    SpeechCard("business", "Sound Money, Free Enterprise",
               "Bankers and factory owners like your balanced budget.",
               (("NY", 2), ("NJ", 2), ("DE", 2), ("CT", 1), ("IL", 1))),
    SpeechCard("south", "Voice of the South",
               "Courthouse squares from Atlanta to Baton Rouge hear a native son.",
               (("GA", 2), ("AL", 2), ("MS", 2), ("SC", 1), ("LA", 1))),
    SpeechCard("water", "Water for the Desert",
               "New dams and irrigation canals for the dry Southwest.",
               (("AZ", 3), ("NV", 2), ("UT", 2), ("CO", 2), ("NM", 1), ("ID", 1))),
    SpeechCard("cattle", "Cattle, Oil and Open Range",
               "Ranchers and wildcatters trust a candidate who can sit a horse.",
               (("TX", 2), ("OK", 2), ("WY", 1), ("MT", 1), ("NM", 1))),
    SpeechCard("yankee", "Yankee Thrift",
               "Town meetings across New England like plain talk and a tight purse.",
               (("ME", 3), ("NH", 2), ("VT", 2), ("MA", 1), ("RI", 1))),
    SpeechCard("steel", "Steel Mills and Coal Mines",
               "You stood with the miners and the mill hands during the strikes.",
               (("PA", 2), ("WV", 2), ("OH", 1), ("KY", 1), ("AL", 1))),
    SpeechCard("seaway", "Open the St. Lawrence Seaway",
               "Ocean ships to the Great Lakes ports: jobs on every dock.",
               (("WI", 2), ("MI", 1), ("MN", 1), ("OH", 1), ("NY", 1), ("IL", 1))),
    SpeechCard("pacific", "Guarding the Pacific Coast",
               "Shipyards and aircraft plants welcome your defence programme.",
               (("CA", 2), ("WA", 2), ("OR", 2), ("NV", 1))),
    SpeechCard("tobacco", "Tobacco Road and Cotton Mill",
               "Growers and textile towns of the upper South rally to you.",
               (("NC", 2), ("VA", 2), ("SC", 1), ("KY", 1), ("TN", 1))),
    SpeechCard("power", "Power Lines to Every Farm",
               "Rural electrification and the TVA brought light to the hollows.",
               (("TN", 2), ("AR", 2), ("MO", 1), ("KY", 1), ("MS", 1))),
    SpeechCard("timber", "Mines and Timber of the Rockies",
               "Lumber camps and silver towns back a friend of the mountain West.",
               (("MT", 3), ("ID", 2), ("OR", 2), ("WA", 1), ("CO", 1), ("UT", 1))),
    SpeechCard("cities", "The Big-City Machine",
               "The ward bosses get out the vote in every precinct.",
               (("NY", 1), ("IL", 1), ("PA", 1), ("MA", 1), ("NJ", 1), ("MD", 1), ("MO", 1))),
    SpeechCard("pensions", "Pensions and Social Security",
               "Retired folks in the sunshine states count on your pension plan.",
               (("FL", 2), ("CA", 1), ("AZ", 1), ("LA", 1), ("GA", 1))),
    SpeechCard("mainstreet", "Main Street, U.S.A.",
               "Small-town merchants of the heartland see one of their own.",
               (("IN", 2), ("IA", 1), ("MO", 1), ("KS", 1), ("NE", 1), ("OK", 1))),
    SpeechCard("peace", "Peace Through Strength",
               "Seaboard cities that build ships and planes trust your foreign policy.",
               (("MD", 2), ("MA", 1), ("CT", 1), ("RI", 1), ("NJ", 1), ("DE", 1))),
)

BY_SLUG: dict[str, SpeechCard] = {c.slug: c for c in CARDS}
SLUGS: tuple[str, ...] = tuple(c.slug for c in CARDS)
