"""The one contract every game engine implements.

Engines are pure: no discord, no asyncio, no I/O. A game is a subclass of
`Game` that knows how to set up a state, list the legal actions of a seat,
apply an action (mutating a private copy), and show each seat only what it may
see. The bot, the local table, the transcript runner, the simulator, the AI
and the benchmarks all drive games through this class alone.

Seats are numbered 0..n-1 in table order. `SYSTEM` is the seat used for
actions nobody types (a timer running out).
"""
from __future__ import annotations

import pickle
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from .rng import Rng, derived

SYSTEM = -1


class RuleError(Exception):
    """An action the rules forbid. The message is shown to the player as is:
    one plain sentence naming the rule that stops them."""


class Seat(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    bot: bool = False


# Event and Result are plain dataclasses, not pydantic models: they are made
# on every move (the simulator asks for a Result after each one), never stored,
# and validating them cost a fifth of a random game.
@dataclass(slots=True)
class Event:
    """Something that happened. `to=None` is public (the channel log);
    otherwise only the listed seats may ever see it."""
    text: str
    to: list[int] | None = None


@dataclass(slots=True)
class Result:
    finished: bool = False
    winners: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    summary: str = ""
    ending: str = ""  # how a finished game ended, one of its Game.endings (for simulate's report)


class Timer(BaseModel):
    """An engine-driven deadline (e.g. a 2-minute question). When it runs out
    the bot applies `action` as `seat` (often SYSTEM)."""
    seconds: float
    seat: int
    action_text: str
    key: str  # changes whenever a new deadline starts, so stale timers are ignored


class TextPrompt(BaseModel):
    """An action that needs free text (a trivia answer). Interfaces show a
    text box; the typed text is appended to `verb`."""
    verb: str
    label: str
    placeholder: str = ""


class Action(BaseModel):
    """A typed action. Its text form is `verb field1 field2 ...` in field
    order; `rest_field` (a str field, last) swallows the remaining words."""
    model_config = ConfigDict(frozen=True, extra="forbid")
    verb: ClassVar[str]
    rest_field: ClassVar[str | None] = None
    clock_only: ClassVar[bool] = False  # the bot's clock applies it; no player types it, so no list offers it

    def text(self) -> str:
        cached = _TEXT_CACHE.get(self)
        if cached is not None:
            return cached
        text = self._text()
        if len(_TEXT_CACHE) > 50_000:  # bounded: actions are small and mostly shared
            _TEXT_CACHE.clear()
        _TEXT_CACHE[self] = text
        return text

    def _text(self) -> str:
        parts = [self.verb]
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, bool):
                value = "yes" if value else "no"
            parts.append(str(value))
        return " ".join(p for p in parts if p != "")

    def tokens(self) -> list[str]:
        return self.text().split()


class HandOver(Action):
    """The bot's own move (as SYSTEM) when a player leaves a game in play: from then on the AI
    plays `seat` (0-based). It is logged with the other moves, so a replay makes the same change,
    and it sets `Seat.bot`, which an engine that treats AI seats differently reads (trivia's
    performance house rule) as do the boards' AI marks. No seat can play it: it is never legal."""
    verb: ClassVar[str] = "handover"
    seat: int


# Text forms by action (actions are frozen and hashable by value); the bot asks
# for them for every legal action when it builds menus.
_TEXT_CACHE: dict[Action, str] = {}


class Options(BaseModel):
    """Base for a game's settings; subclasses add fields with defaults and
    a description (shown by `/politics settings`)."""
    model_config = ConfigDict(extra="forbid")


S = TypeVar("S", bound=BaseModel)
OptionsT = TypeVar("OptionsT", bound=Options)


def _coerce(value: str, annotation: Any) -> Any:
    """Turn one word of an action's text form into the field's type."""
    if annotation is bool:
        low = value.lower()
        if low in ("yes", "y", "true", "1", "on"):
            return True
        if low in ("no", "n", "false", "0", "off"):
            return False
        raise ValueError(value)
    return value  # pydantic validates and converts the rest


class Game(ABC, Generic[S]):
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    State: ClassVar[type[BaseModel]]
    OptionsModel: ClassVar[type[Options]] = Options
    actions: ClassVar[tuple[type[Action], ...]]
    summary: ClassVar[str] = ""  # one line for /politics help
    rules_text: ClassVar[str] = ""  # the rules in our words, for /politics rules
    endings: ClassVar[tuple[str, ...]] = ()  # the ways a game can end, counted by `simulate` (Result.ending)
    # Where the rest of the game lives, named (engines never import render/): render/__init__.py and
    # render/text/__init__.py import these modules when they first draw this game; None means none.
    renderer_module: ClassVar[str | None] = None  # render(view, previous=None) -> [(filename, png bytes)]
    text_board_module: ClassVar[str | None] = None  # board(view) -> str, and optionally summary(view) -> str
    doc: ClassVar[str | None] = None  # the players' page, from the repository's root: its settings table is tested
    # Settings for a short game with quick clocks, as a player would type them: what the tests that
    # play every game to its end use (and a demo might). Empty: the defaults are short enough.
    short_settings: ClassVar[dict[str, str]] = {}

    # ---- to implement -------------------------------------------------
    @abstractmethod
    def setup(self, seats: list[Seat], options: Options, seed: int, server: dict | None = None) -> S:
        """`server` is this Discord server's saved data for this game (see
        server_updates), e.g. custom questions and which were already used."""

    @abstractmethod
    def to_act(self, state: S) -> list[int]:
        """Seats that may act now (several while picks are simultaneous)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every legal action of `seat` now (free-text actions excepted:
        see text_prompts)."""

    @abstractmethod
    def _apply(self, state: S, seat: int, action: Action) -> list[Event]:
        """Mutate `state`. Must raise RuleError *before* changing anything."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> Mapping[str, Any]:
        """JSON-able view for `seat`, or the public view for None. Never
        contains another seat's secrets. Each game declares its view's shape as a TypedDict
        (its renderer and text board import it), so a renamed field fails the type check."""

    @abstractmethod
    def result(self, state: S) -> Result: ...

    # ---- optional hooks -----------------------------------------------
    def teams(self, state: S) -> list[list[int]]:
        """Seats that win or lose together (ratings rate them as one team); by default
        every seat plays for itself."""
        return [[seat] for seat in range(len(getattr(state, "seats", [])))]

    def status_text(self, state: S) -> str:
        """Short public status for the channel (whose turn, phase)."""
        return ""

    def private_text(self, state: S, seat: int) -> str:
        """What only `seat` may read (hand, secret pick). Sent by DM or ephemerally."""
        return ""

    def text_prompts(self, state: S, seat: int) -> list[TextPrompt]:
        return []

    def timer(self, state: S) -> Timer | None:
        return None

    def token_label(self, state: S, seat: int, prefix: tuple[str, ...], token: str) -> str:
        """Label of one choice in a button/select menu built from the action tree."""
        return token

    def menu_lead(self, state: S, seat: int) -> str | None:
        """The verb whose choices the first menu lists at once, ahead of the other verbs (which open
        menus of their own), or None. By default a verb is a step of its own and a step with one
        verb is skipped, so item 1 could open the move menu in one prompt and move to Alaska in the
        next: a game whose phases each have a main verb names it here, and item 1 then means the
        same in every prompt of the phase."""
        return None

    def menu_groups(self, state: S, seat: int, prefix: tuple[str, ...],
                    tokens: list[str]) -> list[tuple[str, str, list[str]]] | None:
        """A long step (`tokens` after `prefix`: every state of the map) split into groups to choose
        from first, as (key, label, tokens) with keys of one word, or None for one list. The menus
        keep a group to at most 25 choices, Discord's limit for one select menu."""
        return None

    def describe_action(self, state: S, seat: int, action: Action) -> str:
        """Label for autocomplete; defaults to the text form."""
        return action.text()

    def chat_action(self, state: S, seat: int, text: str) -> Action | None:
        """A plain chat message from a player that counts as a move (a charades
        guess), or None. Only called for games that set listens_to_chat."""
        return None

    listens_to_chat: ClassVar[bool] = False

    # Whether seats hold secrets (a hand of cards, a secret pick): the board then offers a "My hand"
    # button beside "Open my controls". A game with everything on the table sets it False.
    private_info: ClassVar[bool] = True

    def server_updates(self, state: S) -> dict:
        """Per-server data to merge and save after each action (e.g. question
        ids used), handed back to setup() in later games."""
        return {}

    # Per-server data that admins manage with /politics <kind> upload|list|remove.
    server_data_kinds: ClassVar[tuple[str, ...]] = ()

    def server_import(self, kind: str, filename: str, data: bytes, current: dict) -> tuple[dict, str]:
        """Validate an uploaded file; return (new server data, report for the admin).
        Raise RuleError with the first bad row's problem to refuse it whole."""
        raise RuleError("This game has no data to upload.")

    def server_list(self, kind: str, current: dict) -> str:
        return "Nothing stored."

    def server_remove(self, kind: str, ident: str, current: dict) -> tuple[dict, str]:
        raise RuleError("This game has no data to remove.")

    def ai_rng(self, state: S, seat: int, moves: int = 0) -> Rng:
        """The randomness for one AI decision: derived from the game's secret RNG state, the seat
        and the number of moves made so far, never from public counters alone (anyone could
        compute those). The game's own stream is not advanced, so a replay stays the same."""
        return derived(state.rng, seat, moves)  # type: ignore[attr-defined]  # every State has rng; BaseModel can't say

    def ai_action(self, state: S, seat: int, rng: Rng) -> Action:
        """A sensible move for an AI seat; the default picks at random."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise RuleError("There is nothing to do right now.")
        return rng.choice(legal)

    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        """A new state that `seat` could not tell from `state`: everything `seat` has seen is kept,
        everything it has not is drawn afresh from `rng` — other seats' hands dealt again from the
        cards unseen by `seat` (hand sizes kept), their pending secret picks resampled, the draw
        piles shuffled — and, always, the state's random stream replaced from `rng`: that stream is
        a secret too (it decides future dice, shuffles, tie-breaks and AI choices), so a search
        stepping a copy of the real state would see the future. `state` is untouched. The AI's
        search (engines.search) reads other seats only through this hook."""
        raise NotImplementedError(
            f"{self.title} cannot yet build a state from one seat's view, so its AI cannot search.")

    def ai_candidates(self, state: S, seat: int, rng: Rng) -> list[Action] | None:
        """The moves a search should weigh for `seat`, best first by the game's heuristic (the
        first is usually `ai_action`'s; a game may put first a move measured better, as
        race-white-house does at a TV space), or None: every legal move, `ai_action`'s first. A
        game whose legal moves include many a player would never weigh apart (one county of a
        throw in each of a dozen states, a vote placed one block at a time) lists the few that
        matter: the search widens through them in this order, so the heuristic is its prior.
        Read from `seat`'s view only."""
        return None

    def ai_evaluate(self, state: S, seat: int) -> float | None:
        """`seat`'s chance to win an unfinished game, in [0, 1], judged from the public board alone
        (what a search scores a playout it cuts short by), or None: the search reads the public
        standing from the view (electoral votes, else the result's scores)."""
        return None

    def ai_chance(self, state: S, seat: int) -> float | None:
        """`seat`'s chance to win an unfinished game, to show a player (a hint), where `ai_evaluate`
        ranks boards well but is no chance to win (politics-trivia's leads over the best rival at a
        large table); None: `ai_evaluate` is one. Never read to choose a move."""
        return None

    def ai_stops_here(self, state: S, seat: int) -> bool:
        """Whether a search that plays on until `seat` is to move again may stop here and judge the
        board (`ai_evaluate`): `seat` is to move. The default stops wherever it is; a game where a seat
        also acts inside another's turn (politics-trivia: help offered on a rival's question, a vote,
        a deal) stops only at the start of the seat's own turn, so sibling moves are judged at the same
        point of the round, not some before a rival's question is answered and some after."""
        return True

    def ai_fixed_action(self, state: S, seat: int, rng: Rng) -> Action | None:
        """A move every AI level makes the same way, or None: a decision that is knowledge, not
        play (a trivia answer), goes through the `normal` AI's policy so a searching seat's
        edge comes from play alone."""
        return None

    def fair_random_action(self, state: S, seat: int, random: Callable[[], float]) -> Action | None:
        """A random seat's move in a strength test (`simulate --ai-seats`) where a uniform pick among the
        legal moves would make the comparison meaningless (a trivia answer: a random seat should know
        an answer as often as an AI seat). `random()` draws floats in [0, 1). None: pick uniformly."""
        return None

    def not_your_turn(self, state: S, seat: int) -> str:
        waiting = self.to_act(state)
        names = ", ".join(self.seat_name(state, s) for s in waiting if s >= 0)
        return f"It is not your turn: waiting for {names}." if names else "Nobody can act right now."

    def seat_name(self, state: S, seat: int) -> str:
        seats = getattr(state, "seats", None)
        if seats and 0 <= seat < len(seats):
            s = seats[seat]
            return s.name if hasattr(s, "name") else str(s)
        return f"seat {seat}"

    # ---- provided -----------------------------------------------------
    def setup_options(self, seats: list[Seat], options: Options, model: type[OptionsT], name: str = "",
                      seated: str = "players") -> OptionsT:
        """The opening of every `setup`: `options` as the game's own settings `model` (a caller may hand over
        the base Options, or equal settings in another class), and the table's size checked against
        min_players..max_players: "<name or title> takes 2 to 4 <seated>, not 5." (`model` is passed,
        not read from OptionsModel, so the settings come back typed as the game's own class.)"""
        opts = options if isinstance(options, model) else model(**options.model_dump())
        n = len(seats)
        if not self.min_players <= n <= self.max_players:
            raise RuleError(f"{name or self.title} takes {self.min_players} to {self.max_players} {seated}, not {n}.")
        return opts

    def options(self, values: dict | None = None) -> Options:
        try:
            return self.OptionsModel(**(values or {}))
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err.get("loc", ())) or "setting"
            raise RuleError(f"The setting '{field}' is not valid: {err.get('msg', 'bad value')}.") from None

    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """Pure form: returns a new state and the events; `state` is untouched."""
        new = self.clone(state)
        events = self.apply_in_place(new, seat, action)
        return new, events

    def may_act(self, state: S, seat: int) -> bool:
        """May `seat` move now? Usually exactly the seats in to_act; a game with
        simultaneous picks also lets players who have picked change their pick
        while nobody waits for them (no reminders, no timeouts, no AI moves)."""
        return seat in self.to_act(state)

    def apply_in_place(self, state: S, seat: int, action: Action) -> list[Event]:
        if isinstance(action, HandOver):
            return self.hand_over(state, seat, action.seat)
        if seat != SYSTEM and not self.may_act(state, seat):
            if self.result(state).finished:
                raise RuleError("This game is over.")
            raise RuleError(self.not_your_turn(state, seat))
        return self._apply(state, seat, action)

    def hand_over(self, state: S, by: int, seat: int) -> list[Event]:
        """`HandOver`: `seat`'s player left, and the AI plays the seat from now on. The bot says so in
        its own words, so this adds no event; an engine may override it to react (calling this)."""
        if by != SYSTEM:
            raise RuleError("'handover' is not a move: a player who leaves the game (/politics leave) "
                            "hands their seat to the AI.")
        if self.result(state).finished:
            raise RuleError("This game is over.")
        seats: list[Seat] = cast(Any, state).seats  # every game's state lists its seats
        if not 0 <= seat < len(seats):
            raise RuleError(f"There is no seat {seat + 1} in this game.")
        seats[seat] = Seat(name=seats[seat].name, bot=True)
        return []

    def random_step(self, state: S, rng: Rng) -> bool:
        """A uniformly random legal move of a random seat whose turn it is (renders of a game in
        progress, benches and tests); False, and nothing moved, when the game is over or no seat
        has a move."""
        if self.result(state).finished:
            return False
        acting = [seat for seat in self.to_act(state) if seat >= 0]
        if not acting:
            return False
        seat = rng.choice(acting)
        legal = self.legal_actions(state, seat)
        if not legal:
            return False
        self.apply_in_place(state, seat, rng.choice(legal))
        return True

    def clone(self, state: S) -> S:
        # A deep copy through pickle's C code: two to four times faster than model_copy(deep=True)
        # for these states, and a search clones one every iteration (docs/performance.md).
        return cast(S, pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL)))

    def dump(self, state: S) -> str:
        return state.model_dump_json()

    def load(self, data: str | dict) -> S:
        if isinstance(data, str):
            return cast(S, self.State.model_validate_json(data))  # State is S's class: one game, one model
        return cast(S, self.State.model_validate(data))

    def parse_action(self, text: str) -> Action:
        """Text form -> typed action, or RuleError saying what is wrong."""
        words = text.strip().split()
        if not words:
            raise RuleError("Say which move to make.")
        verb = words[0].lower()
        found = self._parsers().get(verb)
        if found is None:
            verbs = ", ".join(sorted(c.verb for c in self.actions if not c.clock_only))
            raise RuleError(f"'{words[0][:40]}' is not a move in {self.title}; moves are: {verbs}.")
        cls, fields, hints = found
        args = words[1:]
        values: dict[str, Any] = {}
        for i, (name, _info) in enumerate(fields):
            if cls.rest_field == name:
                values[name] = " ".join(args[i:])
                args = args[: i]
                break
            if i < len(args):
                try:
                    values[name] = _coerce(args[i], hints.get(name))
                except ValueError:
                    raise RuleError(f"'{args[i][:40]}' is not a valid {name} for '{verb}'.") from None
        else:
            if len(args) > len(fields):
                raise RuleError(f"Too many words for '{verb}': it takes {self.usage(cls)}.")
        try:
            return cls(**values)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = err.get("loc") or ("move",)
            name = str(loc[0])
            if err.get("type") == "missing":
                raise RuleError(f"'{verb}' needs a {name}: {self.usage(cls)}.") from None
            raise RuleError(f"That {name} is not valid for '{verb}': {self.usage(cls)}.") from None

    def _parsers(self) -> dict[str, tuple[type[Action], list, dict]]:
        """verb -> (class, fields, type hints), computed once per game (get_type_hints is slow)."""
        cache = self.__dict__.get("_parser_cache")
        if cache is None:
            classes: tuple[type[Action], ...] = (*self.actions, HandOver)  # the bot's hand-over, in every game
            cache = {cls.verb: (cls, list(cls.model_fields.items()), typing.get_type_hints(cls)) for cls in classes}
            self.__dict__["_parser_cache"] = cache
        return cache

    def usage(self, cls: type[Action]) -> str:
        """An action's typed form with its fields as placeholders: `help <price> <unit>`."""
        return " ".join([cls.verb] + [f"<{n}>" for n in cls.model_fields])

    def to_json(self, state: S) -> dict:
        return state.model_dump(mode="json")


# ---- helpers shared by engines ------------------------------------------

def seat_token(names: list[str], seat: int) -> str:
    """A one-word handle for a seat in an action's text form: the name with
    spaces removed (lower case) when unique, else the 1-based seat number."""
    slugs = ["".join(n.split()).lower() for n in names]
    slug = slugs[seat]
    if slug and slugs.count(slug) == 1 and not slug.isdigit():
        return slug
    return str(seat + 1)


def resolve_seat(names: list[str], token: str, me: int | None = None) -> int:
    """Seat named by a token: '2', 'bob', '@bob', an unambiguous prefix ('bo'), or, when the seat
    asking is given as `me`, 'me'/'myself' (all case-insensitive)."""
    raw = token.strip().lstrip("@").lower()
    if raw.isdigit() and 1 <= int(raw) <= len(names):
        return int(raw) - 1
    slugs = ["".join(n.split()).lower() for n in names]
    if raw in slugs and slugs.count(raw) == 1:
        return slugs.index(raw)
    if me is not None and raw in ("me", "myself") and 0 <= me < len(names):
        return me
    matches = [i for i, s in enumerate(slugs) if s.startswith(raw)] if raw else []
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        listed = ", ".join(names[i] for i in matches[:-1]) + " or " + names[matches[-1]]
        raise RuleError(f"'{token[:40]}' could be {listed}: type more of the name.")
    raise RuleError(f"There is no player '{token[:40]}' in this game.")
