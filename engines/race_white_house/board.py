"""Race for the White House: the board. A pawn moves round the circuit (or along a campaign side track)
and the space it lands on acts: votes, an Issues or Spin Doctor card, a decision to offer (enter a
campaign, the bus, a debate, TV, a rally)."""
from __future__ import annotations


from ..core import Event
from ..rng import Rng
from ..wording import card_for
from .data import (CALIFORNIA_VOTES, CIRCUIT, CONVENTION_VOTES, ENTRIES, ENTRY_COST, FARM_VOTES, HOME_VOTES,
                   ISSUE_BY_SLUG, ISSUES, LATINO_STATES, LATINO_VOTES, NAMES, REGIONS, SHEETS, SPIN_BY_SLUG, SPINS,
                   TRACK_LEN, TRACK_SPACES, TV_LOT, TV_PRICE, C, F, L, M)
from .effects import apply_effect, push_place
from .log import say
from .models import OTHER, RWHState, Step
from .rules import does, money, opponent, party_ev, pawn_does, position_text, short_name

N_SPACES = len(CIRCUIT)


def draw(state: RWHState, pile: str) -> str:
    """The top card of a pile ("issues" or "spins"); an empty pile is the whole deck reshuffled."""
    cards: list[str] = getattr(state, pile)
    if not cards:
        rng = Rng(state.rng)
        cards = [i[0] for i in ISSUES] if pile == "issues" else [s[0] for s in SPINS]
        rng.shuffle(cards)
        state.rng = rng.state
        setattr(state, pile, cards)
    return cards.pop()


def move(state: RWHState, p: int, pips: int, head: str, events: list[Event]) -> None:
    """Move pawn p by the pips rolled (off the end of a side track back onto the circuit) and land."""
    pawn = state.pawns[p]
    if pawn.track is not None:
        pos = pawn.index + pips
        if pos < TRACK_LEN:
            pawn.index = pos
            land_track(state, p, head, events)
            return
        left = pos - TRACK_LEN + 1
        track = pawn.track
        pawn.track = None
        pawn.index = (ENTRIES[track] + left) % N_SPACES
        head += f", {does(state, p, 'leaves')} the {track} campaign"
    else:
        pawn.index = (pawn.index + pips) % N_SPACES
    land(state, p, head, events)


def land(state: RWHState, p: int, head: str, events: list[Event]) -> None:
    """Resolve the circuit space pawn p stands on; `head` starts the line that says so."""
    pawn = state.pawns[p]
    kind, label, param = CIRCUIT[pawn.index]
    line = f"{head} and {does(state, p, 'lands')} on **{label}**"
    if kind == "home":
        code = pawn.home
        assert code is not None, "every pawn chooses a Home State before the first roll"
        if state.owner[code]:
            say(state, events, f"{line}: {NAMES[code]} is already won, no votes.")
        else:
            say(state, events, f"{line}: {HOME_VOTES} votes in {NAMES[code]}.")
            push_place(state, p, HOME_VOTES, -1, [code], f"{HOME_VOTES} votes in the Home State, "
                       f"{NAMES[code]}")
    elif kind == "issues":
        slug = draw(state, "issues")
        card = ISSUE_BY_SLUG[slug]
        a, b = card[2]
        say(state, events, f"{line} and {does(state, p, 'draws')} **{card[1]}**: `take {a[0]}` "
                           f"({position_text(a)}) or `take {b[0]}` ({position_text(b)}).")
        state.steps.append(Step(kind="issue", pawn=p, card=slug, text=f"Issues: {card[1]}"))
    elif kind == "spin":
        spin = SPIN_BY_SLUG[draw(state, "spins")]
        drawer = short_name(state, p)
        title = card_for(spin[1], drawer)
        say(state, events, f"{line} — Spin Doctor: **{title}**. {card_for(spin[2], drawer)}")
        for eff in spin[3]:
            if state.phase == "over":
                break
            resolve(state, p, eff, title, events)
    elif kind == "rally":
        region = str(param)
        if pawn.sheet is not None and region not in SHEETS[pawn.sheet]:
            say(state, events, f"{line}: the {region} is on the running mate's sheet, nothing happens.")
        else:
            say(state, events, f"{line}: `rally` one category — 1 vote of it in every {region} state.")
            state.steps.append(Step(kind="rally", pawn=p, card=region, text=f"Rally in the {region}: which category?"))
    elif kind == "campaign":
        track = str(param)
        cost = ENTRY_COST[track]
        if cost and state.funds[pawn.party] < cost:
            say(state, events, f"{line}, but cannot pay the {money(cost)} to enter.")
        else:
            what = f" for {money(cost)}" if cost else ""
            say(state, events, f"{line}: `enter`{what} or `pass`.")
            state.steps.append(Step(kind="enter", pawn=p, card=track, text=f"Enter the {track} campaign"
                                    + (f" for {money(cost)}" if cost else "") + "?"))
    elif kind == "tv":
        funds = state.funds[pawn.party]
        if funds < TV_PRICE:
            say(state, events, f"{line}, but {does(state, p, 'has')} no money left for TV.")
        else:
            say(state, events, f"{line}: `buy` votes at {money(TV_PRICE)} per {TV_LOT}, or `pass`.")
            state.steps.append(Step(kind="buy", pawn=p, text=f"Buy TV votes ({money(funds)} left)?"))
    elif kind == "latino":
        say(state, events, f"{line}: {LATINO_VOTES} MINORITY in CA, AZ, NM, IL, NY, TX and FL.")
        resolve(state, p, ("each", LATINO_VOTES, M, LATINO_STATES), "Latino vote", events)
    elif kind == "debate":
        mine, theirs = party_ev(state, pawn.party), party_ev(state, OTHER[pawn.party])
        if mine < theirs:
            say(state, events, f"{line}: trailing {mine}–{theirs}, may `debate` or `pass`.")
            state.steps.append(Step(kind="debate", pawn=p, text=f"Debate {short_name(state, opponent(state, p))}?"))
        else:
            why = "tied" if mine == theirs else "ahead"
            say(state, events, f"{line}, but {does(state, p, 'is')} {why} ({mine}–{theirs}): no debate.")
    elif kind == "farm":
        say(state, events, f"{line}: up to {FARM_VOTES} FARM votes.")
        resolve(state, p, ("upto", FARM_VOTES, F, None), "Farm", events)
    elif kind == "values":
        say(state, events, f"{line}: 1 CONSERVATIVE in every South and Midwest state.")
        resolve(state, p, ("each", 1, C, REGIONS["South"] + REGIONS["Midwest"]), "Values voters", events)
    elif kind == "bus":
        say(state, events, f"{line}: may `advance` to a CAMPAIGN space.")
        state.steps.append(Step(kind="advance", pawn=p, text="Advance to a campaign?"))
    elif kind == "california":
        say(state, events, f"{line}: {CALIFORNIA_VOTES} LIBERAL in California.")
        resolve(state, p, ("each", CALIFORNIA_VOTES, L, ("CA",)), "California", events)
    elif kind == "convention":
        say(state, events, f"{line}: {CONVENTION_VOTES} votes anywhere.")
        resolve(state, p, ("place", CONVENTION_VOTES, None, None), "National Convention", events)


def land_track(state: RWHState, p: int, head: str, events: list[Event]) -> None:
    """Resolve the side-track space pawn p stands on."""
    pawn = state.pawns[p]
    assert pawn.track is not None, "only a pawn on a side track lands on one of its spaces"
    label, eff = TRACK_SPACES[pawn.track][pawn.index]
    say(state, events, f"{head}: **{label}**.")
    resolve(state, p, eff, label.split(":")[0], events)


def resolve(state: RWHState, p: int, eff: tuple, label: str, events: list[Event]) -> None:
    """Apply one effect of a side-track space or a Spin Doctor card; "move" advances the pawn to the
    next space of a kind (or home) and lands it there."""
    if eff[0] != "move":
        apply_effect(state, p, eff, label, events)
        return
    pawn = state.pawns[p]
    target = eff[1]
    if target == "home":
        dest = 0
    else:
        dest = next(i for i in list(range(pawn.index + 1, N_SPACES)) + list(range(0, pawn.index + 1))
                    if CIRCUIT[i][0] == target)
    pawn.index = dest
    land(state, p, pawn_does(state, p, "advances"), events)
