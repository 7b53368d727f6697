"""Gerrymander cards and Wildcards (texts written for this project).

Gerrymanders trade a handful of neighbouring chips (plus some cash or Popular
Votes) for a bigger prize nearby. Counting 1 electoral vote = $1M = 1M Popular
Votes (the rule book's own exchange rate for debts), every card gives back
between 1.15x and 2x what it asks for, so playing one is always a gain but never
a game-winner on its own. No card hands out D.C.'s chip: the rulebook gives it only
to a right Government answer (a card may still ask for it, which puts it back up
for grabs).

Wildcards: charades, drawing and direct cards carry a `secret` for the performer
(DM'd, never shown in the channel) and `accept` forms for the guessers; sing cards
use public-domain songs, poems and speeches only; campaign events use only the
Effect vocabulary. Effect amounts are signed: + is a gain, - a loss; `ev_lose`
amounts are therefore negative (-5 = give back at least 5 electoral votes).
"""
# ruff: noqa: E501  (the card tables: one card a row, as long as its text, so a row reads and diffs as one)
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Gerrymander(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    title: str
    need_chips: tuple[str, ...] = ()
    need_cash: int = 0
    need_pv: int = 0
    reward_chips: tuple[str, ...] = ()
    reward_cash: int = 0
    reward_pv: int = 0
    text: str

    def need_text(self) -> str:
        return _things(self.need_chips, self.need_cash, self.need_pv)

    def reward_text(self) -> str:
        return _things(self.reward_chips, self.reward_cash, self.reward_pv)


def _things(chips: tuple[str, ...], cash: int, pv: int) -> str:
    parts = []
    if chips:
        parts.append(", ".join(chips) + (" chip" if len(chips) == 1 else " chips"))
    if cash:
        parts.append(f"${cash}M")
    if pv:
        parts.append(f"{pv}M Popular Votes")
    return " + ".join(parts)


def _g(id: int, title: str, need: tuple[str, ...], cash: int, pv: int,
       reward: tuple[str, ...], rcash: int, rpv: int, flavour: str) -> Gerrymander:
    text = f"{flavour} Turn in {_things(need, cash, pv)} \u2192 take {_things(reward, rcash, rpv)}."
    return Gerrymander(id=id, title=title, need_chips=need, need_cash=cash, need_pv=pv,
                       reward_chips=reward, reward_cash=rcash, reward_pv=rpv, text=text)


GERRYMANDERS: tuple[Gerrymander, ...] = (
    _g(1, "Sunshine Swap", ("AL", "AR", "MS"), 5, 0, ("FL",), 0, 20, "Trade the Deep South for the Sunshine State."),
    _g(2, "Everything's Bigger", ("LA", "OK", "NM"), 10, 0, ("TX",), 0, 0, "Three neighbours make one Lone Star."),
    _g(3, "Go West", ("OR", "NV", "AZ"), 10, 0, ("CA",), 0, 0, "Your western friends open the Golden Gate."),
    _g(4, "Empire Builder", ("CT", "NJ", "VT"), 5, 0, ("NY",), 0, 10, "The suburbs deliver the big city."),
    _g(5, "Keystone Deal", ("DE", "MD"), 5, 0, ("PA",), 0, 5, "Small neighbours, big swing state."),
    _g(6, "Rust Belt Revival", ("IN", "WV"), 5, 0, ("OH",), 0, 10, "Factory towns rally in the Buckeye State."),
    _g(7, "Great Lakes Ferry", ("WI",), 5, 0, ("MI",), 0, 5, "Cross the lake and carry Michigan."),
    _g(8, "Land of Lincoln", ("IA", "MO"), 3, 0, ("IL",), 0, 8, "The farm belt hands you Chicago."),
    _g(9, "Peach Cobbler", ("SC",), 5, 0, ("GA",), 0, 5, "Lowcountry support spills over into Georgia."),
    _g(10, "Tar Heel Handshake", ("TN",), 5, 0, ("NC",), 0, 5, "Music City vouches for you in Raleigh."),
    _g(11, "Old Dominion", ("WV", "KY"), 3, 0, ("VA",), 0, 5, "Mountain votes roll down into Virginia."),
    _g(12, "Town Meeting", ("ME", "NH", "VT", "RI"), 0, 0, ("MA",), 0, 8, "New England's small states unite behind you."),
    _g(13, "Rocky Mountain High", ("UT", "WY"), 3, 0, ("CO",), 0, 5, "The high country climbs aboard."),
    _g(14, "Pacific Northwest", ("ID", "MT"), 3, 0, ("WA",), 0, 5, "Big Sky friends carry the Evergreen State."),
    _g(15, "North Star", ("ND", "SD"), 2, 0, ("MN",), 0, 2, "The Dakotas light the way to Minnesota."),
    _g(16, "Dairy Country", ("IA",), 4, 0, ("WI",), 0, 5, "Corn for cheese: a fair trade."),
    _g(17, "Desert Caucus", ("NM", "NV"), 2, 0, ("AZ",), 0, 5, "Southwest voters cross the state line."),
    _g(18, "Bluegrass Boost", ("WV",), 5, 0, ("KY",), 0, 6, "Coal country opens the road to Louisville."),
    _g(19, "Music City Tour", ("AR", "MS"), 2, 0, ("TN",), 0, 8, "A Delta road trip ends in Nashville."),
    _g(20, "Chesapeake Bay", ("DE", "DC"), 4, 0, ("MD",), 0, 5, "From the Beltway to the Bay."),
    _g(21, "First State Favour", (), 5, 0, ("DE",), 0, 5, "A Wilmington lobbyist owes you a favour."),
    _g(22, "Super PAC", (), 10, 0, (), 0, 15, "Pour money into attack ads."),
    _g(23, "Small-Dollar Donors", (), 0, 10, (), 15, 0, "Turn enthusiasm into cash."),
    _g(24, "Swing-State Blitz", (), 12, 5, ("GA",), 0, 5, "A late ad blitz flips Georgia."),
    _g(25, "Sun Belt Strategy", ("GA", "SC"), 5, 0, ("FL",), 0, 10, "Ride the sunshine down I-95."),
    _g(26, "Prairie Fire", ("KS", "NE"), 4, 0, ("MO",), 0, 10, "The plains set the Show-Me State alight."),
    _g(27, "Aloha Airlift", (), 6, 0, ("HI",), 0, 4, "Charter a flight to the islands."),
    _g(28, "North to Alaska", (), 5, 0, ("AK",), 0, 5, "A frontier endorsement for a modest fee."),
    _g(29, "Yankee Doodle", ("CT", "RI"), 2, 0, ("MA",), 0, 6, "Southern New England marches on Boston."),
    _g(30, "Jersey Shore", ("DE",), 8, 0, ("NJ",), 0, 2, "Cross the Delaware and take the Garden State."),
    _g(31, "Silver Lining", ("ID",), 3, 0, ("NV",), 0, 3, "Potato farmers vouch for you in Las Vegas."),
    _g(32, "Heartland Harvest", ("IA", "NE", "KS"), 5, 0, ("IL",), 0, 10, "Three farm states bring in the harvest."),
    _g(33, "Lone Star Oil", ("OK", "LA"), 10, 10, ("TX",), 0, 5, "Oil money flows to Austin."),
    _g(34, "Bayou Bargain", ("MS",), 3, 0, ("LA",), 0, 4, "Cross the Pearl River into Cajun country."),
    _g(35, "Cascade Crossing", ("ID",), 4, 0, ("OR",), 0, 3, "Mountain passes lead to the Beaver State."),
)


class Effect(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["cash", "pv", "ev_lose", "go_dc", "move_to", "skip_turn", "extra_question"]
    amount: int = 0
    who: Literal["you", "each_other", "all", "pv_leader", "ev_leader", "poorest"] = "you"
    state: str | None = None
    from_others: bool = False


class Wildcard(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    kind: Literal["charades", "drawing", "physical", "sing", "direct", "event"]
    text: str
    secret: str | None = None
    accept: tuple[str, ...] = ()
    seconds: int = 120
    effects: tuple[Effect, ...] = ()


_CHARADES_TEXT = ("Charades! Act out the phrase sent to you privately - no talking, humming, mouthing words, "
                  "writing or pointing at things. Tug your ear for \"sounds like\"; fingers up for the "
                  "number of words. If someone guesses within 2 minutes, you and the guesser each gain "
                  "10M Popular Votes; if nobody does, you lose 5M.")
_DRAWING_TEXT = ("Drawing! Sketch the thing sent to you privately - no letters or numbers. If another candidate "
                 "guesses it, you and the guesser each collect $5M; if nobody does, pay each other "
                 "candidate $1M.")
_DIRECT_TEXT = ("Direct a scene! Pick another candidate and, using words only, tell them how to move to act "
                "out the activity sent to you privately - never name it, never demonstrate. If anyone guesses "
                "it, you and the guesser each collect $5M (the actor collects $10M for guessing their own "
                "scene); if not, you and the actor each pay the bank $2M.")
_PHYSICAL_TEXT = ("Physical challenge! The other candidates judge (simple majority): succeed and gain 10M "
                  "Popular Votes, fail and lose 5M. Anyone may ask for a fair modification.")
_SING_TEXT = ("Perform! The other candidates judge (simple majority): pull it off and collect $5M; "
              "flop and pay each other candidate $1M.")


def _secret(kind: str, n: int, secret: str, accept: tuple[str, ...] = ()) -> Wildcard:
    text = {"charades": _CHARADES_TEXT, "drawing": _DRAWING_TEXT, "direct": _DIRECT_TEXT}[kind]
    return Wildcard(id=f"{kind}-{n}", kind=kind, text=text, secret=secret, accept=accept, seconds=120)


def _phys(n: int, task: str, seconds: int = 120) -> Wildcard:
    return Wildcard(id=f"physical-{n}", kind="physical", text=f"{_PHYSICAL_TEXT} Your challenge: {task}",
                    seconds=seconds)


def _sing(n: int, task: str) -> Wildcard:
    return Wildcard(id=f"sing-{n}", kind="sing", text=f"{_SING_TEXT} Your performance: {task}", seconds=120)


def _event(n: int, text: str, *effects: Effect) -> Wildcard:
    return Wildcard(id=f"event-{n}", kind="event", text=text, seconds=0, effects=tuple(effects))


E = Effect

WILDCARDS: tuple[Wildcard, ...] = (
    # Charades
    _secret("charades", 1, "Kissing babies", ("kissing a baby", "kiss babies", "baby kissing")),
    _secret("charades", 2, "Statue of Liberty", ("lady liberty",)),
    _secret("charades", 3, "Filibuster", ("filibustering",)),
    _secret("charades", 4, "Shaking hands", ("handshake", "shaking hands with voters", "shake hands")),
    _secret("charades", 5, "Taking the oath of office", ("oath of office", "swearing in", "taking the oath", "inauguration")),
    _secret("charades", 6, "Casting a ballot", ("voting", "casting your vote", "cast a ballot")),
    _secret("charades", 7, "Crossing the Delaware", ("washington crossing the delaware",)),
    _secret("charades", 8, "Riding a campaign bus", ("campaign bus", "bus tour", "campaign bus tour")),
    _secret("charades", 9, "Ringing the Liberty Bell", ("liberty bell",)),
    _secret("charades", 10, "Throwing the first pitch", ("first pitch", "ceremonial first pitch")),
    _secret("charades", 11, "Mount Rushmore", ("rushmore",)),
    _secret("charades", 12, "Press conference", ("news conference",)),
    # Drawing
    _secret("drawing", 1, "White House", ()),
    _secret("drawing", 2, "Bald eagle", ("eagle",)),
    _secret("drawing", 3, "Liberty Bell", ()),
    _secret("drawing", 4, "Capitol dome", ("capitol", "us capitol", "capitol building")),
    _secret("drawing", 5, "Ballot box", ()),
    _secret("drawing", 6, "American flag", ("us flag", "flag", "stars and stripes")),
    _secret("drawing", 7, "Uncle Sam", ()),
    _secret("drawing", 8, "Donkey", ("democratic donkey",)),
    _secret("drawing", 9, "Elephant", ("republican elephant",)),
    _secret("drawing", 10, "Golden Gate Bridge", ()),
    _secret("drawing", 11, "Gavel", ("judge's gavel",)),
    _secret("drawing", 12, "Log cabin", ()),
    _secret("drawing", 13, "Campaign button", ("button", "pin", "campaign pin")),
    # Direct
    _secret("direct", 1, "Hitting a home run", ("home run", "batting", "hitting a baseball")),
    _secret("direct", 2, "Pardoning a turkey", ("turkey pardon", "pardoning the turkey")),
    _secret("direct", 3, "Cutting a ribbon", ("ribbon cutting", "cutting the ribbon")),
    _secret("direct", 4, "Waving from a parade float", ("parade", "waving in a parade", "parade float")),
    _secret("direct", 5, "Signing a bill into law", ("signing a bill", "bill signing", "signing a law")),
    _secret("direct", 6, "Banging a gavel", ("gavel", "using a gavel")),
    _secret("direct", 7, "Saluting the flag", ("salute", "saluting")),
    _secret("direct", 8, "Eating corn on the cob", ("corn on the cob", "eating corn")),
    _secret("direct", 9, "Rowing a boat", ("rowing",)),
    _secret("direct", 10, "Giving a speech at a podium", ("giving a speech", "making a speech", "speech")),
    _secret("direct", 11, "Milking a cow at the state fair", ("milking a cow", "milking")),
    _secret("direct", 12, "Flipping pancakes at a diner", ("flipping pancakes", "making pancakes")),
    # Physical
    _phys(1, "stand on one foot with your eyes closed for 20 seconds."),
    _phys(2, "pat your head and rub your stomach at the same time for 30 seconds, then switch hands."),
    _phys(3, "balance a book on your head and walk across the room and back without touching it."),
    _phys(4, "hold both arms straight out to your sides for 60 seconds."),
    _phys(5, "stack five coins on the back of your hand, toss them up and catch at least three."),
    _phys(6, "keep a straight face for 30 seconds while the other candidates try to make you laugh."),
    _phys(7, "touch your toes ten times in 20 seconds."),
    _phys(8, "crumple a sheet of paper and toss it into a cup or bin from three big steps away (three tries)."),
    _phys(9, "balance a pen on one finger for 10 seconds."),
    _phys(10, "write your full name in the air with your elbow while the others guess the letters."),
    _phys(11, "snap your fingers on both hands in a steady rhythm for 30 seconds."),
    _phys(12, "wave like a candidate on a parade float - both hands - without stopping for 60 seconds."),
    # Sing / recite (public domain only)
    _sing(1, "sing the first verse of \"America the Beautiful\" in your best opera voice."),
    _sing(2, "recite the Pledge of Allegiance from memory, hand on heart."),
    _sing(3, "recite the opening of the Gettysburg Address (\"Four score and seven years ago ...\") to the end of its first sentence."),
    _sing(4, "sing \"Yankee Doodle\" while marching in place."),
    _sing(5, "sing the first verse of \"The Star-Spangled Banner\" without skipping a line."),
    _sing(6, "recite the Preamble to the Constitution (\"We the People ...\") from memory."),
    _sing(7, "sing the chorus of \"The Battle Hymn of the Republic\" (\"Glory, glory, hallelujah!\") like a gospel choir."),
    _sing(8, "sing \"My Country, 'Tis of Thee\" (first verse) in a whisper."),
    _sing(9, "sing \"Take Me Out to the Ball Game\" as a stadium announcer would."),
    _sing(10, "sing the chorus of \"Home on the Range\" like a cowboy by the campfire."),
    _sing(11, "recite \"We hold these truths to be self-evident ...\" from the Declaration of Independence up to \"the pursuit of Happiness\"."),
    _sing(12, "sing \"You're a Grand Old Flag\" (first lines) while waving an imaginary flag."),
    _sing(13, "recite the first two lines of \"Paul Revere's Ride\" (\"Listen, my children ...\") as a dramatic news anchor."),
    # Campaign events
    _event(1, "Your campaign video goes viral overnight. Gain 10M Popular Votes.", E(kind="pv", amount=10)),
    _event(2, "A fundraising dinner sells out. Collect $5M.", E(kind="cash", amount=5)),
    _event(3, "Your campaign manager's emails leak. Lose 8M Popular Votes.", E(kind="pv", amount=-8)),
    _event(4, "A recount goes against you. Give back 5 electoral votes.", E(kind="ev_lose", amount=-5)),
    _event(5, "A government shutdown is blamed on you. Go to D.C. to patch things up.", E(kind="go_dc")),
    _event(6, "The Iowa State Fair wants you on a hay bale. Move to Iowa.", E(kind="move_to", state="IA")),
    _event(7, "You catch the flu on the trail. Skip your next turn.", E(kind="skip_turn")),
    _event(8, "A debate moderator gives you a bonus round. Answer an extra question now.", E(kind="extra_question")),
    _event(9, "Every rival chips in for your joint charity gala: each other candidate pays you $1M.",
           E(kind="cash", amount=1, from_others=True)),
    _event(10, "The frontrunner's gaffe dominates the news. The Popular Vote leader loses 5M Popular Votes.",
           E(kind="pv", amount=-5, who="pv_leader")),
    _event(11, "A grassroots surge lifts the underdog. The candidate with the least cash collects $5M.",
           E(kind="cash", amount=5, who="poorest")),
    _event(12, "The economy booms. Every candidate collects $2M.", E(kind="cash", amount=2, who="all")),
    _event(13, "Opposition research pays off: take 3M Popular Votes from each other candidate.",
           E(kind="pv", amount=3, from_others=True)),
    _event(14, "A hurricane cancels rallies everywhere. Every candidate pays the bank $1M.",
           E(kind="cash", amount=-1, who="all")),
    _event(15, "Faithless electors defect from the leader. The Electoral Vote leader gives back 3 electoral votes.",
           E(kind="ev_lose", amount=-3, who="ev_leader")),
    _event(16, "A celebrity endorsement! Gain 6M Popular Votes and $2M.", E(kind="pv", amount=6), E(kind="cash", amount=2)),
    _event(17, "Your super PAC is fined. Pay the bank $4M.", E(kind="cash", amount=-4)),
    _event(18, "Primary night in New Hampshire: move to New Hampshire.", E(kind="move_to", state="NH")),
    _event(19, "Your rivals all get a lucky news cycle. Each other candidate gains 3M Popular Votes.",
           E(kind="pv", amount=3, who="each_other")),
    _event(20, "A hot-mic moment. Lose 4M Popular Votes and skip your next turn.", E(kind="pv", amount=-4), E(kind="skip_turn")),
    _event(21, "A Florida recount drags on: move to Florida and answer an extra question.",
           E(kind="move_to", state="FL"), E(kind="extra_question")),
    _event(22, "A flawless debate performance. Gain 8M Popular Votes.", E(kind="pv", amount=8)),
)
