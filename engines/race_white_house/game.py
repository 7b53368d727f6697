"""Race for the White House: a race around a board for votes on tally sheets.

Two players (Democrat and Republican), or four in two teams (a Presidential and
a Vice-Presidential candidate per party, each keeping one tally sheet of two
regions; with three players one seat plays both Republican candidates).

A turn is `roll`, then whatever the space asks. Every batch of votes a player
places by choice is a *placement* (a Step of kind "place"): `place TX UNION 3`
until it is used up (or `rest` lets the engine place what is left), `undo`
takes back this placement's votes, `done` confirms it. Decisions are single
moves: `take <position>` (Issues), `enter`/`pass` (a campaign side track),
`advance <TRACK>` (the Campaign Bus), `debate`, `buy <votes>` (TV).
Everything the rulebook leaves open is decided in docs/games/race-white-house.md.

This class is the game's side of the contract in engines/core.py and nothing more. The rules are
modules of functions over the state, by phase (each imports only those above it):
  data       the board, the tally sheets and the cards
  models     the settings and the state           actions    the moves and their text forms
  rules      public questions about a state (who acts, blocks, leads, names): every phase and the AI ask them
  log        what the game says                   endgame    270, the tie-breaks, the result
  menus      the legal moves                      planner    where votes do most good (`rest`, the AI)
  tally      winning, declaring, reopening a state
  effects    the votes spaces and cards give (placements, ADD, the opponent's votes, paying)
  board      moving and landing: the spaces, side tracks, Issues and Spin Doctor cards
  turns      Home States, the roll, the flow from step to step and turn to turn
  placing    place, rest, undo, done              decisions  an Issues position, rally, bus, debate, pass
  spending   campaigns, TV, the President's final word
  moves      which function answers which move    views      the view (a TypedDict), status and labels
  ai         the AI, on the public rules only
"""
from __future__ import annotations

from typing import ClassVar

from ..core import Action, Event, Game, Options, Result, RuleError, Seat
from ..rng import Rng
from .actions import ACTIONS
from .ai import candidates, choose, evaluate
from .data import CODES, FARM_VOTES, FUNDS, ISSUES, LEAN, RALLY_VOTES, SPINS, TV_MAX, C, L
from .endgame import result
from .menus import home_groups, legal_actions
from .models import GAME_ID, OFF, Pawn, RWHOptions, RWHState, Step
from .moves import MOVES
from .rules import acting_pawn, pawn_does, waiting_for
from .turns import home_prompt
from .views import RWHView, describe_action, status_text, token_label, view
from . import determinize as hidden


class RaceWhiteHouse(Game[RWHState]):
    id = GAME_ID
    title = "Race for the White House"
    min_players = 2
    max_players = 4
    renderer_module = "render.race_white_house"
    text_board_module = "render.text.race_white_house"
    doc = "docs/games/race-white-house.md"
    State = RWHState
    OptionsModel = RWHOptions
    actions = ACTIONS
    summary = ("Race around the board for votes on tally sheets: five voter blocs, Issues and Spin Doctor cards, "
               "debates and TV, first party to 270. 2 or 4 players (teams).")
    rules_text = (
        "**Race for the White House** — Democrat against Republican, 2 players (or 4 in two teams; with 3, one "
        "seat plays both Republicans). 538 electoral votes (2000 census); 270 wins.\n"
        "• Every state has voting blocks in five categories (UNION, LIBERAL, CONSERVATIVE, MINORITY, FARM) for each "
        "party and a number of blocks to win (a majority). Votes fill a category's blocks left to right; a full "
        "category takes no more. The first party to the number takes the state's electoral votes and the state "
        "closes. 16 Democratic-leaning places start with a LIBERAL block marked, 24 Republican-leaning states with "
        "a CONSERVATIVE one; 11 swing states start empty.\n"
        "• Start: each candidate picks a Home State (`home TX`; Democrat first) and places 2 votes there, again on "
        "every landing on HOME STATE. The Republican moves first: `roll` two dice, clockwise (`first_move=democrat`: "
        "the other way round).\n"
        "• Placing: `place TX UNION 3` until the votes are used, `rest` places the remainder for you, `undo` takes "
        "the placement back, `done` confirms. \"Anywhere\" means any state and category.\n"
        "• ISSUES: take one of two positions (`take pro-life`): ADD its votes — that many in every state where you "
        "have more votes in that category than your opponent — then your opponent places votes freely. "
        "SPIN DOCTOR: do what the card says. RALLY: choose a category (`rally UNION`) and take "
        f"{RALLY_VOTES} vote of it in every state of that region. FARM: up to {FARM_VOTES} FARM votes. "
        "VALUES VOTERS: 1 CONSERVATIVE in every South and Midwest state. LATINO VOTE: 2 MINORITY in CA, AZ, NM, IL, "
        "NY, TX, FL. CALIFORNIA: 5 LIBERAL in California. NATIONAL CONVENTION: 6 votes. CAMPAIGN BUS: `advance` to "
        "a campaign track.\n"
        "• CAMPAIGN spaces: `enter` the side track (CONSERVATIVES and LIBERALS cost $10,000,000), roll one die at "
        "once and on every turn inside; each small space gives votes of that category. Leaving it, you go on round "
        "the board.\n"
        "• DEBATE (only while your party trails in electoral votes): your opponent rolls one die and places that "
        f"many, then you roll two and place. TV: `buy 10` — $5,000,000 per 5 votes Anywhere, up to {TV_MAX} a "
        "visit.\n"
        "• $60,000,000 for the whole game (a team shares it), no income. Owing money you lack: you pay what is "
        "left and your opponent places 5 votes. No money: no CONSERVATIVE/LIBERAL campaign, no TV.\n"
        "• Four players: Presidents keep the Northeast+South sheet, Vice-Presidents the Midwest+West sheet; votes "
        "aimed off your sheet are not placed; \"your opponent\" is the other party's player on your sheet. "
        "The Presidents have the final word: a Vice-President's spending (a paid campaign, TV) waits for their "
        "President's `approve` or `refuse` (setting `vp_spending=free` lets each spend alone).\n"
        "• Setting `declare=manual`: `declare` each state you win before giving up the move, or your opponent places "
        "5 votes for it when the next turn begins. `blocks=rulebook`: the printed sheets' scale (North Carolina "
        "takes 13 blocks to win instead of 6; a much longer race). `max_rounds` ends a stalled race (more "
        "electoral votes wins)."
    )

    # ---- setup ---------------------------------------------------------
    def setup(self, seats: list[Seat], options: Options, seed: int, server: dict | None = None) -> RWHState:
        opts = self.setup_options(seats, options, RWHOptions)
        n = len(seats)
        if n == 2:
            pawns = [Pawn(seat=0, party="D", role="P"), Pawn(seat=1, party="R", role="P")]
            order = [1, 0]
            choosing = [0, 1]
        else:
            # Around the table: 0 D President, 1 R Vice-President, 2 R President, 3 D Vice-President (the
            # Presidents face each other on sheet 0, the Vice-Presidents on sheet 1). Clockwise from the
            # Republican President the turns go R-P, D-VP, D-P, R-VP: the Republican moves first on sheet 0,
            # the Democrat on sheet 1. With three players seat 2 plays both Republicans and seat 1 the D VP.
            three = n == 3
            pawns = [Pawn(seat=0, party="D", role="P", sheet=0),
                     Pawn(seat=2 if three else 1, party="R", role="VP", sheet=1),
                     Pawn(seat=2, party="R", role="P", sheet=0),
                     Pawn(seat=1 if three else 3, party="D", role="VP", sheet=1)]
            order = [2, 3, 0, 1]
            choosing = [0, 2, 3, 1]
        if opts.first_move == "democrat":
            # The mirror of the rulebook's start: each pawn trades places with its rival of the same role,
            # so the Republican chooses the first Home State and the Democrat takes the first turn.
            rival = {0: 1, 1: 0} if n == 2 else {0: 2, 2: 0, 1: 3, 3: 1}
            order = [rival[p] for p in order]
            choosing = [rival[p] for p in choosing]
        rng = Rng(seed)
        issues = [i[0] for i in ISSUES]
        spins = [s[0] for s in SPINS]
        rng.shuffle(issues)
        rng.shuffle(spins)
        fill = {}
        owner = {}
        for code in CODES:
            f = [0] * 10
            if LEAN[code] == "D":
                f[OFF["D"] + L] = 1
            elif LEAN[code] == "R":
                f[OFF["R"] + C] = 1
            fill[code] = f
            owner[code] = ""
        parties = sorted({p.party for p in pawns})
        state = RWHState(
            seats=list(seats), options=opts, rng=rng.state, pawns=pawns, order=order, fill=fill, owner=owner,
            won={"D": [], "R": []}, funds={p: FUNDS for p in parties}, spent=[0] * len(pawns),
            issues=issues, spins=spins,
            steps=[Step(kind="home", pawn=p, text=home_prompt(pawns[p])) for p in choosing],
        )
        state.last = f"{pawn_does(state, choosing[0], 'chooses')} a Home State first."
        return state

    # ---- who acts ------------------------------------------------------
    def acting_pawn(self, state: RWHState) -> int | None:
        return acting_pawn(state)

    # to_act and may_act spell acting_pawn out: the simulator and the bot ask after every move
    def to_act(self, state: RWHState) -> list[int]:
        if state.phase == "over":
            return []
        steps = state.steps
        return [state.pawns[steps[0].pawn if steps else state.order[state.turn]].seat]

    def may_act(self, state: RWHState, seat: int) -> bool:
        if state.phase == "over":
            return False
        steps = state.steps
        return state.pawns[steps[0].pawn if steps else state.order[state.turn]].seat == seat

    def legal_actions(self, state: RWHState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    # ---- moves ---------------------------------------------------------
    def _apply(self, state: RWHState, seat: int, action: Action) -> list[Event]:
        if state.phase == "over":
            raise RuleError("This game is over.")
        steps = state.steps
        step = steps[0] if steps else None
        p = step.pawn if step is not None else state.order[state.turn]
        if state.pawns[p].seat != seat:
            raise RuleError(self.not_your_turn(state, seat))
        move = MOVES.get(type(action))
        if move is None:
            raise RuleError("That is not a move in Race for the White House.")
        if move.kinds is not None:
            kind = step.kind if step is not None else "roll"
            if kind not in move.kinds:
                raise RuleError(move.between_turns if move.between_turns and kind == "roll" else waiting_for(kind))
        return move.handler(state, p, step, action)

    # ---- what players see ----------------------------------------------
    def view(self, state: RWHState, seat: int | None) -> RWHView:
        return view(state, seat)

    def result(self, state: RWHState) -> Result:
        return result(state)

    def teams(self, state: RWHState) -> list[list[int]]:
        """The Democrats and the Republicans: in the four-player game each party's President
        and Vice-President win or lose together."""
        return [sorted({q.seat for q in state.pawns if q.party == party}) for party in ("D", "R")]

    def status_text(self, state: RWHState) -> str:
        return status_text(state)

    def token_label(self, state: RWHState, seat: int, prefix: tuple[str, ...], token: str) -> str:
        return token_label(state, seat, prefix, token)

    def describe_action(self, state: RWHState, seat: int, action: Action) -> str:
        return describe_action(state, seat, action)

    def menu_groups(self, state: RWHState, seat: int, prefix: tuple[str, ...],
                    tokens: list[str]) -> list[tuple[str, str, list[str]]] | None:
        return home_groups(prefix, tokens)

    private_info: ClassVar[bool] = False  # tally sheets, funds and cards are all on the table

    # ---- AI ------------------------------------------------------------
    def ai_action(self, state: RWHState, seat: int, rng: Rng) -> Action:
        return choose(state, seat, rng)

    def ai_candidates(self, state: RWHState, seat: int, rng: Rng) -> list[Action] | None:
        return candidates(state, seat, rng)

    def ai_evaluate(self, state: RWHState, seat: int) -> float | None:
        return evaluate(state, seat)


    def determinize(self, state: RWHState, seat: int, rng: Rng) -> RWHState:  # the search's view of hidden cards
        return hidden.determinize(self.clone(state), seat, rng)

GAME = RaceWhiteHouse()
