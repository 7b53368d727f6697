"""Coin Count: the toy game of docs/adding-a-game.md, small enough to read in one sitting.

Two candidates canvass one town. On your turn you win over 1 to `max_canvass` of the undecided
voters (`canvass 2`). Each candidate also holds one secret endorsement, worth 1 to 3 votes, dealt
at the start and shown to everyone when the last voter is won. Most votes (endorsement included)
wins; a tie goes to the candidate who won the last voter.

It has everything the contract asks of a game, once: settings, a typed action, a secret in a seat's
view only, an AI, a result with scores, a public view declared as a TypedDict (render and text board
read it), and the renderer, text board and doc it names.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict

from pydantic import BaseModel, Field

from engines.core import Action, Event, Game, Options, Result, RuleError, Seat
from engines.rng import Rng

ENDORSEMENTS = {"Teachers Union": 1, "Farm Bureau": 2, "Veterans League": 3, "Chamber of Commerce": 2}


class CoinCountOptions(Options):
    voters: int = Field(15, ge=3, le=61, description="Undecided voters in the town at the start")
    max_canvass: int = Field(3, ge=1, le=5, description="Most voters one turn may win over")
    endorsements: Literal["on", "off"] = Field("on", description="Deal each candidate a secret endorsement")


class Canvass(Action):
    """Win over this many undecided voters (1 to the max_canvass setting)."""
    verb = "canvass"
    voters: int


class CoinCountState(BaseModel):
    seats: list[Seat]
    options: CoinCountOptions
    rng: int
    undecided: int
    votes: list[int]
    endorsements: list[str]  # a seat's secret until the count ends ("" with endorsements off)
    turn: int = 0
    last_won_by: int | None = None
    moves: int = 0


class PlayerView(TypedDict):
    name: str
    votes: int
    endorsement: str | None  # None while it is secret (in the public view, and other seats')


class CoinCountView(TypedDict):
    """The public view (and a seat's, which adds that seat's own endorsement): what the renderer
    and the text board read. A renamed key fails their type check, not a render."""
    game: str
    undecided: int
    max_canvass: int
    turn: int | None
    finished: bool
    winner: int | None
    players: list[PlayerView]


class CoinCount(Game[CoinCountState]):
    id = "coin-count"
    title = "Coin Count"
    min_players = 2
    max_players = 2
    renderer_module = "tests.coin_count.render"
    text_board_module = "tests.coin_count.text"
    doc = "tests/coin_count/coin-count.md"
    short_settings = {"voters": "7"}
    State = CoinCountState
    OptionsModel = CoinCountOptions
    actions = (Canvass,)
    summary = "A toy for contributors: two candidates canvass a town, 1 to 3 voters a turn. 2 players."
    rules_text = ("**Coin Count** — take turns winning over 1 to 3 undecided voters (`canvass 2`). Each of you "
                  "holds a secret endorsement worth 1 to 3 votes, shown when the last voter is won. Most votes "
                  "wins; a tie goes to whoever won the last voter.")
    endings = ("count",)

    def setup(self, seats: list[Seat], options: Options, seed: int, server: dict | None = None) -> CoinCountState:
        opts = options if isinstance(options, CoinCountOptions) else CoinCountOptions(**options.model_dump())
        if not self.min_players <= len(seats) <= self.max_players:
            raise RuleError(f"{self.title} takes exactly 2 players, not {len(seats)}.")
        rng = Rng(seed)
        dealt = rng.sample(sorted(ENDORSEMENTS), len(seats)) if opts.endorsements == "on" else [""] * len(seats)
        return CoinCountState(seats=list(seats), options=opts, rng=rng.state, undecided=opts.voters,
                              votes=[0] * len(seats), endorsements=dealt)

    def to_act(self, state: CoinCountState) -> list[int]:
        return [] if state.undecided == 0 else [state.turn]

    def legal_actions(self, state: CoinCountState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [Canvass(voters=n) for n in range(1, min(state.options.max_canvass, state.undecided) + 1)]

    def _apply(self, state: CoinCountState, seat: int, action: Action) -> list[Event]:
        if not isinstance(action, Canvass):
            raise RuleError("The only move is canvass.")
        most = min(state.options.max_canvass, state.undecided)
        if not 1 <= action.voters <= most:
            raise RuleError(f"You can win over 1 to {most} voters this turn.")
        state.undecided -= action.voters
        state.votes[seat] += action.voters
        state.last_won_by, state.turn, state.moves = seat, 1 - seat, state.moves + 1
        events = [Event(f"**{self.seat_name(state, seat)}** wins over {action.voters}; {state.undecided} undecided.")]
        if state.undecided == 0:
            events.append(Event(self.result(state).summary))
        return events

    def _total(self, state: CoinCountState, seat: int) -> int:
        return state.votes[seat] + ENDORSEMENTS.get(state.endorsements[seat], 0)

    def view(self, state: CoinCountState, seat: int | None) -> Mapping[str, Any]:
        over = state.undecided == 0
        result = self.result(state)
        view: CoinCountView = {
            "game": self.id, "undecided": state.undecided, "max_canvass": state.options.max_canvass,
            "turn": None if over else state.turn, "finished": over,
            "winner": result.winners[0] if result.winners else None,
            "players": [{"name": s.name, "votes": state.votes[i],
                         "endorsement": state.endorsements[i] if over or i == seat else None}
                        for i, s in enumerate(state.seats)],
        }
        return view

    def result(self, state: CoinCountState) -> Result:
        if state.undecided:
            return Result()
        totals = [self._total(state, i) for i in range(len(state.seats))]
        best = max(totals)
        leaders = [i for i, t in enumerate(totals) if t == best]
        winner = leaders[0] if len(leaders) == 1 else state.last_won_by or 0
        return Result(finished=True, winners=[winner], scores=[float(t) for t in totals], ending="count",
                      summary=f"{self.seat_name(state, winner)} wins the count, "
                              + " to ".join(str(t) for t in sorted(totals, reverse=True)) + ".")

    def status_text(self, state: CoinCountState) -> str:
        if state.undecided == 0:
            return self.result(state).summary
        return f"{state.undecided} undecided; {self.seat_name(state, state.turn)} to canvass."

    def private_text(self, state: CoinCountState, seat: int) -> str:
        held = state.endorsements[seat]
        return f"Your secret endorsement: {held} (+{ENDORSEMENTS[held]})." if held else ""

    def ai_action(self, state: CoinCountState, seat: int, rng: Rng) -> Action:
        """Leave the rival a multiple of max_canvass + 1 undecided voters when it can (then the last
        voter, the tie-breaker, is ours); otherwise win over as many as allowed."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise RuleError("There is nothing to do right now.")
        step = state.options.max_canvass + 1
        for action in legal:
            if isinstance(action, Canvass) and (state.undecided - action.voters) % step == 0:
                return action
        return legal[-1]


GAME = CoinCount()
