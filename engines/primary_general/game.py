"""Primary/General: a two-phase card game of Electability and Affiliation.

Decisions the card text leaves open are documented in docs/games/primary-general.md;
the ones reasonable players disagree about are options.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Literal

from pydantic import BaseModel, Field

from ..core import Action, Event, Game, Options, Result, RuleError, Seat, resolve_seat, seat_token
from ..wording import object_of, subject
from ..rng import Rng
from .cards import BY_SLUG, CARDS, HAND_LINES, MENU_LABELS, SHORT
from .view import PGPlayerView, PGView
from . import determinize as hidden

HAND_SIZE = 7


class PGOptions(Options):
    carry_scores: bool = Field(True, description="Electability and Affiliation carry from the Primary into the General")
    adhd_scope: Literal["phase", "game"] = Field(
        "phase", description="Voter ADHD may remove cards played this phase only, or any card still in play")
    party_match: bool = Field(False, description="Four players in two parties play a match of four games for points")
    candidates: Literal["top-two", "per-party"] = Field(
        "per-party", description="In a party match: the top two overall, or the best of each party, become Candidates")
    match_games: int = Field(4, ge=1, le=9, description="Games in a party match")


@dataclass(slots=True)
class InPlay:
    """A card on the table. A plain dataclass (pydantic still validates it when
    a state is loaded): one is made on most moves."""
    id: int  # stable number shown to players ("c3")
    card: str
    target: int
    by: int
    phase: str


class PGState(BaseModel):
    seats: list[Seat]
    options: PGOptions
    rng: int
    phase: Literal["primary", "general", "over"] = "primary"
    deck: list[str]
    hands: list[list[str]]
    in_play: list[InPlay] = []
    discard: list[str] = []
    electability: list[int]
    affiliation: list[int]
    turn: int = 0  # seat whose turn it is
    starter: int = 0
    next_card_id: int = 1
    candidates: list[int] = []
    primary_totals: list[int] = []
    general_totals: list[int] = []
    winner: int | None = None
    winner_reason: str = ""
    # party match
    game_number: int = 1
    points: list[int] = []
    parties: list[int] = []  # party index per seat
    history: list[dict] = []  # finished games of a match: winner, candidates
    # card ids given out in this game's Primary: [first] during it, [first, end) after
    primary_ids: list[int] = []


class Play(Action):
    """Play a card from your hand on a player (or, for Voter ADHD, on a card in play)."""
    verb = "play"
    card: str
    target: str


@lru_cache(maxsize=4096)
def _play(card: str, target: str) -> Play:
    # Actions are frozen, so legal_actions can hand out shared instances.
    return Play(card=card, target=target)


@lru_cache(maxsize=256)
def _seat_tokens(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(seat_token(list(names), s) for s in range(len(names)))


@lru_cache(maxsize=256)
def _token_seats(names: tuple[str, ...]) -> dict[str, int]:
    """The exact token of each seat -> seat (the common case; anything else goes through resolve_seat)."""
    return {t: i for i, t in enumerate(_seat_tokens(names))}


@lru_cache(maxsize=256)
def _plays_by_card(names: tuple[str, ...]) -> dict[str, tuple[Play, ...]]:
    """Every play of each card aimed at a player, built once per table: legal
    actions are asked for after every move (simulator, AI, menus)."""
    tokens = _seat_tokens(names)
    return {c.slug: tuple(_play(c.slug, t) for t in tokens) for c in CARDS if not c.removes}


_SEAT_NAME = attrgetter("name")
# result() is asked for after every move: one shared answer while a single game runs
_NOT_OVER = Result()


def _party_names() -> tuple[str, str]:
    return ("Blue", "Red")


class PrimaryGeneral(Game[PGState]):
    id = "primary-general"
    title = "Primary/General"
    min_players = 2
    max_players = 4
    renderer_module = "render.primary_general"
    text_board_module = "render.text.primary_general"
    doc = "docs/games/primary-general.md"
    State = PGState
    OptionsModel = PGOptions
    actions = (Play,)
    summary = "Card game in two phases: win your party's nomination, then the presidency. 2–4 players."
    rules_text = (
        "**Primary/General** — 2–4 players, two phases.\n"
        "• Each phase every player draws 7 cards; a random player starts and turns go round until every hand is empty. "
        "On your turn play one card on any player, yourself included (`/politics do action:play tack-center bob`; "
        "Voter ADHD names a card in play: `play voter-adhd c3`).\n"
        "• Cards change Electability (always good) and Affiliation (closeness to your party's base). "
        "Voter ADHD takes a card out of play and undoes it.\n"
        "• After the Primary, Electability + Affiliation: the top two are the Candidates, the rest Spoilers "
        "(with two players both are Candidates).\n"
        "• After the General, Electability − Affiliation: the Candidate with the highest positive total is President; "
        "if no Candidate is positive, the Spoiler with the highest Electability is "
        "(with two players: the Candidate with more Electability).\n"
        "• Ties go to more Electability, then a random draw. Voter ADHD with nothing to remove is just discarded "
        "(`play voter-adhd none`).\n"
        "• Party match (setting): four players in two parties, four games; a Candidate scores 1, the President 2 "
        "and the President's partner 1.\n"
        "• Settings: carry_scores (scores carry into the General, default on), adhd_scope (phase/game), "
        "party_match, candidates (per-party/top-two), match_games."
    )

    # ---- setup ---------------------------------------------------------
    def setup(self, seats: list[Seat], options: Options, seed: int, server: dict | None = None) -> PGState:
        opts = self.setup_options(seats, options, PGOptions)
        n = len(seats)
        if opts.party_match and n != 4:
            raise RuleError("The party match needs exactly four players.")
        rng = Rng(seed)
        state = PGState(
            seats=list(seats), options=opts, rng=0, deck=[], hands=[[] for _ in seats],
            electability=[0] * n, affiliation=[0] * n, points=[0] * n,
            parties=[i % 2 for i in range(n)] if opts.party_match else [],
        )
        self._new_game(state, rng)
        state.rng = rng.state
        return state

    def _new_game(self, state: PGState, rng: Rng) -> None:
        deck = [c.slug for c in CARDS for _ in range(c.count)]
        rng.shuffle(deck)
        n = len(state.seats)
        state.deck = deck
        state.hands = [[] for _ in range(n)]
        state.in_play, state.discard = [], []
        state.electability, state.affiliation = [0] * n, [0] * n
        state.candidates, state.primary_totals, state.general_totals = [], [], []
        state.winner, state.winner_reason = None, ""
        state.primary_ids = [state.next_card_id]
        state.phase = "primary"
        self._start_phase(state, rng)

    def _start_phase(self, state: PGState, rng: Rng) -> None:
        for hand in state.hands:
            for _ in range(HAND_SIZE):
                hand.append(state.deck.pop())
            hand.sort()
        state.starter = rng.below(len(state.seats))
        state.turn = state.starter

    # ---- queries -------------------------------------------------------
    @staticmethod
    def names(state: PGState) -> tuple[str, ...]:
        return tuple(map(_SEAT_NAME, state.seats))

    def to_act(self, state: PGState) -> list[int]:
        if state.phase == "over":
            return []
        return [state.turn]

    def may_act(self, state: PGState, seat: int) -> bool:
        return seat == state.turn and state.phase != "over"

    def _removable(self, state: PGState) -> list[InPlay]:
        return [c for c in state.in_play if not BY_SLUG[c.card].removes
                and (state.options.adhd_scope == "game" or c.phase == state.phase)]

    def legal_actions(self, state: PGState, seat: int) -> list[Action]:
        if state.phase == "over" or seat != state.turn:
            return []
        by_card = _plays_by_card(self.names(state))
        out: list[Action] = []
        for slug in sorted(set(state.hands[seat])):
            plays = by_card.get(slug)
            if plays is None:  # Voter ADHD aims at a card in play
                targets = [f"c{c.id}" for c in self._removable(state)] or ["none"]
                out.extend(_play(slug, t) for t in targets)
            else:
                out.extend(plays)
        return out

    # ---- apply ---------------------------------------------------------
    def _apply(self, state: PGState, seat: int, action: Action) -> list[Event]:
        if not isinstance(action, Play):
            raise RuleError("In Primary/General the only move is to play a card.")
        slug = action.card if action.card in BY_SLUG else self._resolve_card(action.card)
        if slug not in state.hands[seat]:
            raise RuleError(f"You have no {BY_SLUG[slug].name} in your hand.")
        card = BY_SLUG[slug]
        name = state.seats[seat].name
        events: list[Event] = []
        if card.removes:
            removable = self._removable(state)
            tok = action.target.lower().lstrip("#")
            if tok == "none":
                if removable:
                    raise RuleError("There are cards in play: Voter ADHD must remove one of them.")
                target_card = None
            else:
                if not tok.startswith("c") or not tok[1:].isdigit():
                    raise RuleError("Voter ADHD removes a card in play: name it like c3 (see the board).")
                cid = int(tok[1:])
                matches = [c for c in removable if c.id == cid]
                if not matches:
                    raise RuleError(self._not_removable(state, cid))
                target_card = matches[0]
            # validated: mutate from here on
            state.hands[seat].remove(slug)
            state.discard.append(slug)
            if target_card is None:
                plays = subject(name, 'plays', start=True)
                events.append(Event(text=f"{plays} Voter ADHD, but there is nothing in play to forget."))
            else:
                removed = BY_SLUG[target_card.card]
                state.in_play = [c for c in state.in_play if c is not target_card]
                state.discard.append(target_card.card)
                state.electability[target_card.target] -= removed.electability
                state.affiliation[target_card.target] -= removed.affiliation
                whom = state.seats[target_card.target].name
                plays = subject(name, 'plays', start=True)
                events.append(Event(f"{plays} Voter ADHD: {removed.name} on {whom} is forgotten "
                                    f"({SHORT[target_card.card]} undone)."))
        else:
            names = self.names(state)
            target = _token_seats(names).get(action.target)
            if target is None:
                target = resolve_seat(list(names), action.target, me=seat)
            state.hands[seat].remove(slug)
            state.in_play.append(InPlay(id=state.next_card_id, card=slug, target=target, by=seat, phase=state.phase))
            state.__dict__["next_card_id"] += 1  # hot path: a plain store of a valid int
            state.electability[target] += card.electability
            state.affiliation[target] += card.affiliation
            whom = object_of(state.seats[target].name, name) if target == seat else state.seats[target].name
            events.append(Event(f"{subject(name, 'plays', start=True)} {card.name} on {whom} ({SHORT[slug]})."))
        self._advance(state, events)
        return events

    @staticmethod
    def _not_removable(state: PGState, cid: int) -> str:
        """Why Voter ADHD can't remove card `cid` (it is not among the removable cards)."""
        if any(c.id == cid for c in state.in_play):
            return "Voter ADHD never removes another Voter ADHD."
        ids = state.primary_ids
        if state.phase == "general" and len(ids) == 2 and ids[0] <= cid < ids[1]:
            # Primary cards leave the table when the General begins under
            # adhd_scope=phase, or when carry_scores=off resets their effects.
            if state.options.adhd_scope == "phase":
                return (f"Voter ADHD only removes cards played this phase, and c{cid} was played in the Primary "
                        "(setting adhd_scope=phase).")
            if not state.options.carry_scores:
                return (f"Card c{cid} was played in the Primary and left the table when the scores were reset "
                        "(setting carry_scores=off).")
        return f"There is no card c{cid} in play."

    def _resolve_card(self, token: str) -> str:
        tok = token.lower()
        if tok in BY_SLUG:
            return tok
        matches = [c for c in CARDS if c.slug.startswith(tok) or c.name.lower().replace(" ", "-").startswith(tok)]
        if len(matches) == 1:
            return matches[0].slug
        if matches:
            options = [f"{c.name} ({c.slug})" for c in matches]
            raise RuleError(f"'{token[:40]}' could be {', '.join(options[:-1])} or {options[-1]}: "
                            "type more of the card's name.")
        raise RuleError(f"There is no card called '{token[:40]}'.")

    def _advance(self, state: PGState, events: list[Event]) -> None:
        n = len(state.seats)
        hands = state.hands
        if any(hands):
            nxt = (state.turn + 1) % n
            while not hands[nxt]:
                nxt = (nxt + 1) % n
            state.__dict__["turn"] = nxt  # hot path: a plain store of a valid seat
            return
        # Only the end of a phase draws at random (ties, the next starter).
        rng = Rng(state.rng)
        if state.phase == "primary":
            self._end_primary(state, rng, events)
        else:
            self._end_general(state, rng, events)
        state.rng = rng.state

    def _rank(self, seats: list[int], key, rng: Rng) -> list[int]:
        """Order seats by key (descending); exact ties are broken by a seeded draw."""
        draw = {s: rng.random() for s in seats}
        return sorted(seats, key=lambda s: (key(s), draw[s]), reverse=True)

    def _end_primary(self, state: PGState, rng: Rng, events: list[Event]) -> None:
        n = len(state.seats)
        totals = [state.electability[i] + state.affiliation[i] for i in range(n)]
        state.primary_totals = totals
        state.primary_ids = [state.primary_ids[0], state.next_card_id]
        key = lambda s: (totals[s], state.electability[s])  # noqa: E731 - tie: more Electability
        if n == 2:
            cands = [0, 1]
        elif state.options.party_match and state.options.candidates == "per-party":
            cands = [self._rank([s for s in range(n) if state.parties[s] == p], key, rng)[0] for p in (0, 1)]
        else:
            cands = self._rank(list(range(n)), key, rng)[:2]
        state.candidates = sorted(cands)
        listing = ", ".join(f"{state.seats[i].name} {totals[i]}" for i in range(n))
        names = " and ".join(state.seats[i].name for i in state.candidates)
        spoilers = [state.seats[i].name for i in range(n) if i not in state.candidates]
        text = f"**The Primary is over.** Electability + Affiliation: {listing}. Candidates: {names}."
        if spoilers:
            text += f" Spoilers: {', '.join(spoilers)}."
        events.append(Event(text=text))
        if state.options.party_match:
            for c in state.candidates:
                state.points[c] += 1
        # The table is cleared between phases; cards played stay only as effects.
        # Without carried scores the Primary cards have no effect left to undo,
        # so they leave the table whatever adhd_scope says.
        if state.options.adhd_scope == "phase" or not state.options.carry_scores:
            state.discard.extend(c.card for c in state.in_play)
            state.in_play = []
        if not state.options.carry_scores:
            state.electability, state.affiliation = [0] * n, [0] * n
        state.phase = "general"
        self._start_phase(state, rng)
        events.append(Event(text=f"**The General begins.** Everyone draws 7 new cards; "
                                 f"{subject(state.seats[state.turn].name, 'starts')}."))

    def _end_general(self, state: PGState, rng: Rng, events: list[Event]) -> None:
        n = len(state.seats)
        totals = [state.electability[i] - state.affiliation[i] for i in range(n)]
        state.general_totals = totals
        positive = [c for c in state.candidates if totals[c] > 0]
        if positive:
            winner = self._rank(positive, lambda s: (totals[s], state.electability[s]), rng)[0]
            reason = f"the Candidate with the highest positive total ({totals[winner]})"
        else:
            spoilers = [s for s in range(n) if s not in state.candidates] or list(state.candidates)
            winner = self._rank(spoilers, lambda s: (state.electability[s], totals[s]), rng)[0]
            who = "Spoiler" if len(spoilers) < n and winner not in state.candidates else "Candidate"
            reason = (f"no Candidate is positive, so the {who} with the highest Electability "
                      f"({state.electability[winner]})")
        state.winner, state.winner_reason = winner, reason
        listing = ", ".join(f"{state.seats[i].name} {totals[i]}" for i in range(n))
        events.append(Event(text=f"**The General is over.** Electability − Affiliation: {listing}. "
                                 f"**{subject(state.seats[winner].name, 'is', start=True)} President**: {reason}."))
        if not state.options.party_match:
            state.phase = "over"
            return
        state.points[winner] += 2
        for s in range(n):
            if s != winner and state.parties[s] == state.parties[winner]:
                state.points[s] += 1
        state.history.append({"game": state.game_number, "winner": winner, "candidates": list(state.candidates)})
        party = _party_names()
        standings = ", ".join(f"{state.seats[i].name} ({party[state.parties[i]]}) {state.points[i]}" for i in range(n))
        events.append(Event(text=f"Standings after game {state.game_number} of {state.options.match_games}: "
                                 f"{standings}."))
        if state.game_number >= state.options.match_games:
            state.phase = "over"
            return
        state.game_number += 1
        self._new_game(state, rng)
        events.append(Event(text=f"**Game {state.game_number} begins.** New deck, new hands; "
                                 f"{subject(state.seats[state.turn].name, 'starts')}."))

    # ---- views ---------------------------------------------------------
    def view(self, state: PGState, seat: int | None) -> PGView:
        n = len(state.seats)
        players: list[PGPlayerView] = []
        for i in range(n):
            role: Literal["candidate", "spoiler", ""] = (
                "candidate" if i in state.candidates else ("spoiler" if state.candidates else ""))
            players.append({
                "name": state.seats[i].name, "bot": state.seats[i].bot,
                "electability": state.electability[i], "affiliation": state.affiliation[i],
                "cards_in_hand": len(state.hands[i]), "role": role,
                "primary_total": state.primary_totals[i] if state.primary_totals else None,
                "general_total": state.general_totals[i] if state.general_totals else None,
                "points": state.points[i] if state.options.party_match else None,
                "party": _party_names()[state.parties[i]] if state.parties else None,
            })
        v: PGView = {
            "game": self.id, "phase": state.phase, "turn": state.turn if state.phase != "over" else None,
            "players": players, "deck": len(state.deck), "discard": len(state.discard),
            "in_play": [{"id": f"c{c.id}", "card": BY_SLUG[c.card].name, "effect": BY_SLUG[c.card].short(),
                         "target": c.target, "by": c.by, "phase": c.phase} for c in state.in_play],
            "winner": state.winner, "winner_reason": state.winner_reason,
            "party_match": state.options.party_match, "game_number": state.game_number,
            "match_games": state.options.match_games,
        }
        if seat is not None and 0 <= seat < n:
            v["you"] = seat
            v["hand"] = [{"card": s, "name": BY_SLUG[s].name, "effect": BY_SLUG[s].effect_text()}
                         for s in state.hands[seat]]
        return v

    def result(self, state: PGState) -> Result:
        if state.phase != "over":
            if not state.options.party_match:
                return _NOT_OVER
            return Result(scores=list(map(float, state.points)))
        n = len(state.seats)
        if state.options.party_match:
            best = max(state.points)
            winners = [i for i in range(n) if state.points[i] == best]
            return Result(finished=True, winners=winners, scores=[float(p) for p in state.points],
                          summary="Match over: " + ", ".join(state.seats[w].name for w in winners)
                          + f" with {best} points.")
        assert state.winner is not None  # a single game is over only once the General has named a President
        scores = [float(t) for t in state.general_totals] if state.general_totals else [0.0] * n
        return Result(finished=True, winners=[state.winner], scores=scores,
                      summary=f"{subject(state.seats[state.winner].name, 'is', start=True)} President.")

    def status_text(self, state: PGState) -> str:
        if state.phase == "over":
            return self.result(state).summary
        phase = "Primary" if state.phase == "primary" else "General"
        prefix = f"Game {state.game_number}/{state.options.match_games} · " if state.options.party_match else ""
        return f"{prefix}{phase} · {state.seats[state.turn].name} to play · deck {len(state.deck)}"

    def private_text(self, state: PGState, seat: int) -> str:
        hand = state.hands[seat]
        if not hand:
            return "Your hand is empty."
        return "\n".join([f"**Your hand** ({len(hand)}):", *(HAND_LINES[slug] for slug in hand)])

    def token_label(self, state: PGState, seat: int, prefix: tuple[str, ...], token: str) -> str:
        if len(prefix) == 1:
            label = MENU_LABELS.get(token)
            if label is not None:
                return label
        if len(prefix) == 2:
            if token == "none":
                return "Nothing in play: discard it"
            if token.startswith("c") and token[1:].isdigit():
                for c in state.in_play:
                    if c.id == int(token[1:]):
                        return f"{BY_SLUG[c.card].name} on {state.seats[c.target].name}"
            try:
                target = resolve_seat(list(self.names(state)), token, me=seat)
            except RuleError:
                return token
            return "on " + state.seats[target].name  # a menu may be shown to the whole channel
        return token

    def describe_action(self, state: PGState, seat: int, action: Action) -> str:
        assert isinstance(action, Play)
        card = self.token_label(state, seat, ("play",), action.card)
        return f"{card} {self.token_label(state, seat, ('play', action.card), action.target)}"

    # ---- AI ------------------------------------------------------------
    def ai_action(self, state: PGState, seat: int, rng: Rng) -> Action:
        """Greedy: pick the play that most improves my standing relative to the
        best rival, judged by the score that decides the current phase."""
        legal = self.legal_actions(state, seat)
        best, best_score = None, None
        for action in legal:
            if not isinstance(action, Play):  # the game's only move; narrows the type
                continue
            # The look-ahead only changes the two score lists, so copy just those
            # (a deep clone per candidate move made the AI ~20x slower).
            sim = state.model_copy(update={"electability": list(state.electability),
                                           "affiliation": list(state.affiliation)})
            try:
                self._apply_effect_only(sim, seat, action)
            except RuleError:
                continue
            score = self._standing(sim, seat) + rng.random() * 0.01
            if best_score is None or score > best_score:
                best, best_score = action, score
        return best or rng.choice(legal)

    def _apply_effect_only(self, state: PGState, seat: int, action: Play) -> None:
        card = BY_SLUG[self._resolve_card(action.card)]
        if card.removes:
            if action.target == "none":
                return
            cid = int(action.target[1:])
            c = next(c for c in state.in_play if c.id == cid)
            removed = BY_SLUG[c.card]
            state.electability[c.target] -= removed.electability
            state.affiliation[c.target] -= removed.affiliation
        else:
            t = resolve_seat(list(self.names(state)), action.target, me=seat)
            state.electability[t] += card.electability
            state.affiliation[t] += card.affiliation

    def _standing(self, state: PGState, seat: int) -> float:
        n = len(state.seats)
        if state.phase == "primary":
            # Primary: want a high E+A, but keep an eye on the General (E-A).
            score = [state.electability[i] + state.affiliation[i] + 0.3 * (state.electability[i] - state.affiliation[i])
                     for i in range(n)]
            rivals = sorted((score[i] for i in range(n) if i != seat), reverse=True)
            # Two Candidates: beating the second-best rival is what matters.
            bar = rivals[1] if len(rivals) > 1 and n > 2 else rivals[0]
            return score[seat] - bar
        score = [state.electability[i] - state.affiliation[i] for i in range(n)]
        if seat in state.candidates:
            other = [c for c in state.candidates if c != seat][0]
            return score[seat] - max(score[other], 0)
        # A Spoiler wins only if both Candidates end non-positive.
        return -sum(max(score[c], 0) for c in state.candidates) + 0.5 * state.electability[seat]


    def determinize(self, state: PGState, seat: int, rng: Rng) -> PGState:  # the search's view of hidden cards
        return hidden.determinize(self.clone(state), seat, rng)

GAME = PrimaryGeneral()
