"""The AI seat of Politics (1952): greedy, one county at a time.

Each state is worth its electoral vote times a rough chance of still holding
it at the count: a logistic in my lead in counties over the strongest rival
(half a county for the tie priority), and certainty once my pin is in the
capital. A county goes where it raises that expectation most, with a bonus
for closing the board while I lead (and a penalty for closing it while I
trail). A Speech Card is played when it is worth a lot now, or at once when
the board is closed or nearly so (a count may come any turn, and an
eliminated player's cards are lost).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core import Action, Game
from ..rng import Rng
from .cards import BY_SLUG
from .model import END, ROLL, THROW, P52State, capture_action, speech_action
from .rules import controller, northernmost, pinned, votes
from .states import EV, GROUPS, LINES, MAJORITY

CLOSE_BONUS = 12.0    # votes-equivalent for closing the board while leading
SPEECH_NOW = 9.0      # play a card worth at least this much at once
NEAR_CLOSED = 44      # pinned states from which cards are played at once


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True)
class Reading:
    """How a lead in counties is read as the chance of still holding the state at the count: a
    logistic of slope `steep` per county, centred `offset` counties from a dead heat."""
    steep: float
    offset: float
    chances: dict[float, float] = field(default_factory=dict, compare=False, repr=False)  # by lead

    def chance(self, lead: float) -> float:
        chance = self.chances.get(lead)
        if chance is None:
            chance = self.chances[lead] = _sig(self.steep * (lead - self.offset))
        return chance


# The normal AI's reading, and the one `evaluate`'s weights were fitted with.
NORMAL = Reading(steep=0.9, offset=0.3)
# hard's first move and the order of its shortlist (`candidates`): a single county of lead already
# counts as well held, and each county of it more steeply. Played as normal's whole choice against
# normal at two players it wins 55.7 % of 10,000 games (docs/games/politics-1952.md, 7 Dec 2026).
SHARP = Reading(steep=1.1, offset=-0.5)


def _chance(state: P52State, code: str, seat: int, mine: int, reading: Reading = NORMAL) -> float:
    """Chance-like weight that `seat` holds `code` at the count with its pin at `mine`."""
    if mine > LINES[code]:
        return 1.0
    if mine == 0:
        return 0.0
    pos = state.pos[code]
    other = 0
    for s in state.active:
        if s != seat and pos[s] > other:
            other = pos[s]
    return _on_the_line(state, code, seat, mine, pos, other, reading)


def _on_the_line(state: P52State, code: str, seat: int, mine: int, pos: list[int], other: int,
                 reading: Reading = NORMAL) -> float:
    """`_chance` for a pin at `mine` on the state's lines (not 0, not the capital), `other` the
    strongest rival's: a logistic in the lead, remembered by the lead, as `evaluate` asks it for
    every player and state of every playout."""
    lead: float
    if mine > other:
        lead = mine - other
    elif mine < other:
        lead = mine - other - 0.5
    else:  # tie: priority to the first on the line
        first = pos[seat] == mine and northernmost(pos, state.arrived[code], mine) == seat
        lead = 0.5 if first else -0.5
    chance = reading.chances.get(lead)  # inline: `evaluate` asks this for every pin of every playout
    return reading.chance(lead) if chance is None else chance


def _gain(state: P52State, code: str, seat: int, k: int, reading: Reading = NORMAL) -> float:
    """Expected votes won by taking k counties in code (k already fits the room)."""
    mine = state.pos[code][seat]
    before = _chance(state, code, seat, mine, reading)
    after = _chance(state, code, seat, mine + k, reading)  # arriving on an occupied line: south of its pins
    return EV[code] * (after - before)


def _closing_bonus(state: P52State, code: str, seat: int, tally: list[int], unpinned: int) -> float:
    """Placing the last missing pin closes the board: good while I lead."""
    if unpinned != 1 or max(state.pos[code]) > 0:
        return 0.0
    best_other = max((tally[s] for s in state.active if s != seat), default=0)
    return CLOSE_BONUS if tally[seat] + EV[code] >= best_other else -CLOSE_BONUS


def _card_value(state: P52State, slug: str, seat: int, reading: Reading = NORMAL) -> float:
    total = 0.0
    for code, k in BY_SLUG[slug].counties:
        if state.capital[code] is not None:
            continue
        room = LINES[code] + 1 - state.pos[code][seat]
        total += _gain(state, code, seat, min(k, room), reading)
    return total


def choose(game: Game[P52State], state: P52State, seat: int, rng: Rng, reading: Reading = NORMAL) -> Action:
    if state.phase == "opening":
        return THROW
    if state.phase == "roll":
        return ROLL
    legal = game.legal_actions(state, seat)
    if not legal:
        return END
    n_pinned = pinned(state)
    # a speech card first, if it is worth it now
    if not state.speech_done and state.hands[seat]:
        values = {s: _card_value(state, s, seat, reading) for s in state.hands[seat]}
        best = max(values, key=lambda s: values[s])
        urgent = n_pinned >= NEAR_CLOSED or len(state.active) == 2
        if values[best] >= SPEECH_NOW or (urgent and values[best] > 0):
            return speech_action(best)
    if state.remaining > 0 and state.dice:
        tally = votes(state)
        unpinned = 48 - n_pinned
        near_win = tally[seat] >= MAJORITY - 40
        best_code, best_score = None, -1e18
        for code in GROUPS[state.dice[0]]:
            if state.capital[code] is not None:
                continue
            if LINES[code] + 1 - state.pos[code][seat] <= 0:
                continue
            score = _gain(state, code, seat, 1, reading) + _closing_bonus(state, code, seat, tally, unpinned)
            if near_win and _would_take(state, code, seat):
                score += 3.0
            score += rng.random() * 0.01
            if score > best_score:
                best_code, best_score = code, score
        if best_code is not None:
            return capture_action(best_code, 1)
    # nothing to place: keep cards for later unless the count may come now
    for a in legal:
        if a.verb == "end":
            return a
    return legal[0]


def evaluate(state: P52State, seat: int) -> float:
    """`seat`'s chance to win judged from the board (Game.ai_evaluate): a softmax over the players
    still in of a score each, so equal players get equal shares at any table size. A player scores
    - its expected votes at the count (each state's vote times the chance of holding it, as `choose`
      weighs them), weighed by how full the board is: an early lead is soon lost;
    - the votes its pins in capitals have locked;
    - once every state has a pin, when any doubles may bring the count: the votes as counted now, and
      more again for a majority of them;
    - and the turn, for the seat about to throw.

    Fitted by maximum likelihood on every turn's roll of 2,000 normal-vs-normal 2-player games (seeds
    20000-21999). Held out on 1,000 others (seeds 30000-30999) its log-loss is 0.552, where the
    expected votes and the turn alone (27 Nov 2026 to 7 Dec) scored 0.565 and a coin 0.693. On 100
    games each at 2, 4 and 6 players (seeds 40000-40099): 0.568, 0.914 and 1.048, against 0.580, 0.940
    and 1.054 for the expected votes alone, and 0.693, 1.386 and 1.792 for equal shares."""
    active = state.active
    if seat not in active:
        return 0.0
    if len(active) == 1:
        return 1.0
    # One pass over the states for every player at once: the search scores each playout here, so
    # this is a hot loop. Each player's sums add the same terms in the same order as `_chance`
    # summed state by state would, so the result is the same to the last bit (a test checks it).
    held = dict.fromkeys(active, 0.0)  # expected votes
    locked = dict.fromkeys(active, 0)  # votes behind capital pins
    counted = [0] * len(state.seats)  # the votes as counted now (`votes`), read once the board is closed
    full = 0
    for code, ev in EV.items():
        cap = state.capital[code]
        if cap is not None:
            counted[cap] += ev
            if cap in locked:
                locked[cap] += ev
        pos = state.pos[code]
        if any(pos):
            full += 1
        else:
            continue  # nobody has a pin here: nobody's chance
        line = LINES[code]
        furthest = second = 0  # the two furthest pins of players still in: each one's strongest rival
        leader = -1
        for s in active:
            mine = pos[s]
            if mine > furthest:
                furthest, second, leader = mine, furthest, s
            elif mine > second:
                second = mine
        if cap is None:  # the state's controller: the furthest pin, a tie to the first there
            counted[leader if second < furthest else northernmost(pos, state.arrived[code], furthest)] += ev
        for s in active:
            mine = pos[s]
            if mine > line:
                held[s] += ev
            elif mine:
                other = second if mine == furthest else furthest
                held[s] += ev * _on_the_line(state, code, s, mine, pos, other)
    expected = FULL_BOARD_WEIGHT * full / len(EV) / EVAL_SCALE
    tally = counted if full == len(EV) else None  # closed: any doubles now bring the count
    mover = state.turn if state.phase in ("roll", "move") else None
    scores: dict[int, float] = {}
    for s in active:
        score = expected * held[s]
        score += CAPITAL_WEIGHT / EVAL_SCALE * locked[s]
        if tally is not None:
            score += CLOSED_VOTE_WEIGHT / EVAL_SCALE * tally[s]
            score += MAJORITY_WEIGHT if tally[s] >= MAJORITY else 0.0
        scores[s] = score + (TURN_WEIGHT if s == mover else 0.0)
    top = max(scores.values())
    shares = {s: math.exp(v - top) for s, v in scores.items()}
    return shares[seat] / sum(shares.values())


EVAL_SCALE = 25.0          # votes per unit of the weights below
FULL_BOARD_WEIGHT = 0.357  # an expected vote's weight, times the share of states with a pin
CAPITAL_WEIGHT = 0.135     # a vote locked by a capital pin
CLOSED_VOTE_WEIGHT = 0.279  # once every state has a pin: a vote as it would be counted now...
MAJORITY_WEIGHT = 0.591    # ...and holding a majority of them
TURN_WEIGHT = 0.262        # the seat whose turn it is


def candidates(game: Game[P52State], state: P52State, seat: int, rng: Rng) -> list[Action] | None:
    """The moves a search weighs (Game.ai_candidates), best first: the heuristic's own move as it
    reads a lead sharply (`SHARP`, which beats normal's reading head to head), then one county in
    each state of the group by the expected votes it adds in that reading (the heuristic places one
    at a time, so a split of the throw is a sequence of these), the Speech Cards by their worth
    now, and `end` when it is legal. Captures of several counties at once add nothing a sequence
    of single ones cannot reach."""
    if state.phase in ("opening", "roll"):
        return None
    legal = game.legal_actions(state, seat)
    if len(legal) <= 1:
        return legal
    allowed = set(legal)
    first = choose(game, state, seat, rng, SHARP)
    ranked: list[tuple[float, Action]] = []
    if state.remaining > 0 and state.dice:
        tally = votes(state)
        unpinned = 48 - pinned(state)
        for code in GROUPS[state.dice[0]]:
            capture: Action = capture_action(code, 1)
            if capture in allowed:
                gain = _gain(state, code, seat, 1, SHARP) + _closing_bonus(state, code, seat, tally, unpinned)
                ranked.append((gain, capture))
    if not state.speech_done:
        for slug in state.hands[seat]:
            speech: Action = speech_action(slug)
            if speech in allowed:
                ranked.append((_card_value(state, slug, seat, SHARP), speech))
    ranked.sort(key=lambda x: -x[0])
    out = [first] + [a for _, a in ranked if a != first]
    out += [a for a in legal if a.verb == "end" and a not in out]
    return out


def _would_take(state: P52State, code: str, seat: int) -> bool:
    """Would one more county make `seat` the holder of `code`?"""
    if controller(state, code) == seat:
        return False
    mine = state.pos[code][seat] + 1
    if mine > LINES[code]:
        return True
    other = max((state.pos[code][s] for s in state.active if s != seat), default=0)
    return mine > other
