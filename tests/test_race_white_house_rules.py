"""Race for the White House rules: the data (electoral votes, pre-marked blocks, tally sheets), Home States,
placing (ADD, full categories, closed states, undo/rest/done), every kind of space and card, campaign side
tracks, money, debates, the four-player sheets, declaring (both settings), the round limit and ties."""
from __future__ import annotations

import csv
import pathlib

import pytest

from engines import RuleError, Seat
from engines.race_white_house import GAME
from engines.race_white_house.data import (ALL_CODES, BLOCKS, CAPS, CATEGORIES, CIRCUIT, CODES, ENTRIES, ENTRY_COST,
                                           EV, FUNDS, ISSUE_BY_SLUG, ISSUES, LATINO_STATES, LEAN, NAMES, REGION,
                                           REGIONS, SHEET_OF, SHEETS, SPIN_BY_SLUG, SPINS, TO_WIN, TRACK_LEN,
                                           TRACK_SPACES, TRACKS, TV_MAX, C, F, L, M, U)
from engines.race_white_house.actions import Place
from engines.race_white_house.board import land as land_on
from engines.wording import card_for
from engines.race_white_house.endgame import check_win
from engines.race_white_house.models import OFF, Step
from engines.race_white_house.rules import count, opponent, party_ev
from engines.race_white_house.turns import continue_turn, next_turn
from engines.rng import Rng

DATA = pathlib.Path(__file__).parent / "data" / "electoral_votes.csv"
NAMES4 = ["alice", "bob", "carol", "dave"]
SPACE = {kind: i for i, (kind, _l, _p) in reversed(list(enumerate(CIRCUIT)))}  # first space of each kind


def fresh(n=2, seed=1, **opts):
    """A game past the Home States (D: CA/NY, R: TX/OH …), the first mover to roll."""
    s = GAME.setup([Seat(name=NAMES4[i]) for i in range(n)], GAME.options(opts), seed)
    homes = {0: "CA", 1: "TX"} if n == 2 else {0: "NY", 1: "OH", 2: "TX", 3: "CA"}
    for p, code in homes.items():
        s.pawns[p].home = code
    s.steps = []
    s.phase = "play"
    s.turn = 0
    return s


def do(s, seat, text):
    return GAME.apply_in_place(s, seat, GAME.parse_action(text))


def refused(s, seat, text, fragment=""):
    before = GAME.dump(s)
    with pytest.raises(RuleError) as err:
        do(s, seat, text)
    assert GAME.dump(s) == before
    assert fragment.lower() in str(err.value).lower(), str(err.value)
    return str(err.value)


def give(s, p, n, cat=-1, where=None, optional=False):
    """Make pawn p place n votes now."""
    s.steps.insert(0, Step(kind="place", pawn=p, remaining=n, total=n, cat=cat, where=where, optional=optional,
                           text="test"))


def land(s, p, index):
    """Put pawn p on a circuit space and resolve it, as if it had rolled there."""
    events = []
    s.pawns[p].track = None
    s.pawns[p].index = index
    land_on(s, p, "test", events)
    continue_turn(s, events)
    return events


def text(events):
    return " ".join(e.text for e in events)


def rng_for(dice):
    """An RNG state whose next dice are `dice`."""
    for r in range(200_000):
        g = Rng(r)
        if all(g.die() == d for d in dice):
            return r
    raise AssertionError("no such seed")


def fill(s, code, party, cat, n):
    s.fill[code][OFF[party] + cat] = n


# ---------------------------------------------------------------- data

def test_electoral_votes_are_the_2000_census_figures():
    rows = {r["code"]: int(r["ev_2004"]) for r in csv.DictReader(DATA.open())}
    assert EV == rows
    assert sum(EV.values()) == 538 and EV["TX"] == 34 and len(CODES) == 51


def test_pre_marked_blocks_meet_the_rulebook_counts_and_sums():
    dem = [c for c in CODES if LEAN[c] == "D"]
    rep = [c for c in CODES if LEAN[c] == "R"]
    swing = [c for c in CODES if LEAN[c] == ""]
    assert "DC" in dem and len([c for c in dem if c != "DC"]) == 15 and sum(EV[c] for c in dem) == 214
    assert "DC" not in rep and len(rep) == 24 and sum(EV[c] for c in rep) == 206
    assert len(swing) == 11 and sum(EV[c] for c in swing) == 118


def test_blocks_to_win_are_a_majority_and_lean_categories_have_room():
    for code in CODES:
        assert TO_WIN[code] == BLOCKS[code] // 2 + 1 and TO_WIN[code] <= BLOCKS[code]
        assert all(k >= 0 for k in CAPS[code])
        if LEAN[code] == "D":
            assert CAPS[code][L] >= 2
        if LEAN[code] == "R":
            assert CAPS[code][C] >= 2
    # bigger states have more blocks; farm states more FARM, industrial states more UNION
    assert BLOCKS["CA"] > BLOCKS["TX"] > BLOCKS["OH"] > BLOCKS["IA"] > BLOCKS["WY"]
    assert CAPS["IA"][F] > CAPS["IA"][U] and CAPS["MI"][U] > CAPS["MI"][F]


def test_regions_and_sheets_cover_every_state_once():
    assert sorted(c for r in REGIONS.values() for c in r) == sorted(CODES)
    assert sorted(ALL_CODES) == sorted(CODES)
    assert [r for sheet in SHEETS for r in sheet] == ["Northeast", "South", "Midwest", "West"]
    assert all(REGION[c] in SHEETS[SHEET_OF[c]] for c in CODES)


def test_setup_pre_marks_and_money():
    s = GAME.setup([Seat(name="a"), Seat(name="b")], GAME.options({}), 1)
    for code in CODES:
        assert s.fill[code][OFF["D"] + L] == (1 if LEAN[code] == "D" else 0)
        assert s.fill[code][OFF["R"] + C] == (1 if LEAN[code] == "R" else 0)
    assert s.funds == {"D": FUNDS, "R": FUNDS} and FUNDS == 60_000_000
    v = GAME.view(s, None)
    assert v["states"]["TX"]["blocks"]["CONSERVATIVE"]["R"] == [CAPS["TX"][C], 1]
    assert v["states"]["CA"]["lean"] == "D" and v["states"]["OH"]["lean"] is None


# ---------------------------------------------------------------- seats, Home States, turn order

def test_two_players_democrat_chooses_home_first_republican_moves_first():
    s = GAME.setup([Seat(name="alice"), Seat(name="bob")], GAME.options({}), 3)
    assert [p.party for p in s.pawns] == ["D", "R"]
    assert GAME.to_act(s) == [0]
    refused(s, 1, "roll", "not your turn")
    do(s, 0, "home CA")
    assert s.pawns[0].home == "CA" and s.steps[0].where == ["CA"] and s.steps[0].remaining == 2
    do(s, 0, "place CA MINORITY 2")
    do(s, 0, "done")
    assert GAME.to_act(s) == [1]
    refused(s, 1, "home CA", "already alice's Home State")
    do(s, 1, "home TX")
    do(s, 1, "rest")
    do(s, 1, "done")
    assert s.phase == "play" and GAME.to_act(s) == [1]  # the Republican rolls first
    assert count(s, "CA", "D") == 3 and count(s, "TX", "R") == 3


def test_four_players_sheets_seats_and_clockwise_turns():
    s = GAME.setup([Seat(name=n) for n in NAMES4], GAME.options({}), 3)
    roles = [(p.seat, p.party, p.role, p.sheet) for p in s.pawns]
    assert roles == [(0, "D", "P", 0), (1, "R", "VP", 1), (2, "R", "P", 0), (3, "D", "VP", 1)]
    assert opponent(s, 0) == 2 and opponent(s, 3) == 1
    # Home States: D President, R President, D VP, R VP; each from their own sheet
    assert GAME.to_act(s) == [0]
    refused(s, 0, "home CA", "not on your tally sheet")
    for seat, code in ((0, "NY"), (2, "TX"), (3, "CA"), (1, "OH")):
        assert GAME.to_act(s) == [seat]
        do(s, seat, f"home {code}")
        do(s, seat, "rest")
        do(s, seat, "done")
    assert s.phase == "play"
    order = []
    for _ in range(4):
        order.append(GAME.to_act(s)[0])
        next_turn(s, [])
    assert order == [2, 3, 0, 1]  # R President, D VP, D President, R VP


def test_first_move_democrat_mirrors_the_start():
    """`first_move=democrat`: the Republican chooses the first Home State and the Democrat rolls first;
    at four players every pawn trades places with its rival of the same role in both orders."""
    s = GAME.setup([Seat(name="alice"), Seat(name="bob")], GAME.options({"first_move": "democrat"}), 3)
    assert [p.party for p in s.pawns] == ["D", "R"]
    assert GAME.to_act(s) == [1]
    refused(s, 0, "home CA", "not your turn")
    for seat, code in ((1, "TX"), (0, "CA")):
        do(s, seat, f"home {code}")
        do(s, seat, "rest")
        do(s, seat, "done")
    assert s.phase == "play" and GAME.to_act(s) == [0]  # the Democrat rolls first
    s = GAME.setup([Seat(name=n) for n in NAMES4], GAME.options({"first_move": "democrat"}), 3)
    for seat, code in ((2, "TX"), (0, "NY"), (1, "OH"), (3, "CA")):
        assert GAME.to_act(s) == [seat]
        do(s, seat, f"home {code}")
        do(s, seat, "rest")
        do(s, seat, "done")
    order = []
    for _ in range(4):
        order.append(GAME.to_act(s)[0])
        next_turn(s, [])
    assert order == [0, 1, 2, 3]  # D President, R VP, R President, D VP


def test_three_players_one_seat_plays_both_republicans():
    s = GAME.setup([Seat(name=n) for n in NAMES4[:3]], GAME.options({}), 3)
    assert [p.seat for p in s.pawns] == [0, 2, 2, 1]
    res = s.model_copy(deep=True)
    res.phase, res.winner = "over", "R"
    assert GAME.result(res).winners == [2]


# ---------------------------------------------------------------- placing

def test_a_move_out_of_its_moment_is_refused_with_the_rule_that_stops_it():
    s = fresh()
    seat = s.pawns[s.order[0]].seat
    # between turns: the board's own spaces say where they are, everything else asks for the roll
    refused(s, seat, "rally UNION", "only rally when you land on a RALLY space")
    refused(s, seat, "enter", "only enter a campaign side track when you land on its CAMPAIGN space")
    refused(s, seat, "debate", "only debate when you land on a DEBATE space")
    refused(s, seat, "buy 5", "only buy votes when you land on a TV space")
    refused(s, seat, "place OH UNION 1", "no votes to place right now")
    for move in ("undo", "done", "rest", "pass", "take pro-choice", "advance UNION", "home TX"):
        refused(s, seat, move, "time to `roll`")
    refused(s, 1 - seat, "roll", "not your turn")
    # during a placement: place first, then done
    give(s, s.order[0], 3)
    for move in ("roll", "rally UNION", "enter", "pass", "buy 5", "take pro-choice", "home TX"):
        refused(s, seat, move, "place your votes first")


def test_votes_fill_blocks_and_a_full_category_takes_no_more():
    s = fresh()
    give(s, 0, 5)
    cap = CAPS["OH"][U]
    do(s, 0, f"place OH UNION {cap}")
    assert s.fill["OH"][OFF["D"] + U] == cap
    refused(s, 0, "place OH UNION 1", "full")
    refused(s, 0, "place OH UNION 9", "")
    refused(s, 0, "place XX UNION 1", "not a state")
    refused(s, 0, "place OH SOCIALIST 1", "not a voter category")
    assert GAME.legal_actions(s, 0)  # other categories still open


def test_reaching_blocks_to_win_takes_the_state_and_closes_it():
    s = fresh()
    code = "OH"
    for k, _cap in enumerate(CAPS[code]):
        fill(s, code, "D", k, 0)
    give(s, 0, TO_WIN[code] + 3)
    need = TO_WIN[code]
    refused(s, 0, f"place {code} UNION {need + 1}", "")
    placed = 0
    for k in range(5):
        n = min(CAPS[code][k], need - placed)
        if n:
            do(s, 0, f"place {code} {CATEGORIES[k]} {n}")
            placed += n
        if placed == need:
            break
    assert s.owner[code] == "D" and code in s.won["D"] and party_ev(s, "D") == EV[code]
    refused(s, 0, f"place {code} FARM 1", "already won")
    assert not any(a.text().startswith(f"place {code} ") for a in GAME.legal_actions(s, 0))
    v = GAME.view(s, None)
    assert v["states"][code]["won"] == "D" and v["states"][code]["declared"] and v["parties"]["D"]["won"] == [code]


def test_a_placement_cannot_overshoot_the_number_to_win():
    s = fresh()
    assert CAPS["OH"] == (3, 2, 3, 2, 2) and TO_WIN["OH"] == 7
    fill(s, "OH", "D", U, 3)
    fill(s, "OH", "D", L, 2)
    fill(s, "OH", "D", C, 1)
    give(s, 0, 5)
    refused(s, 0, "place OH CONSERVATIVE 2", "1 more vote wins Ohio")  # only one more needed
    legal = {a.text() for a in GAME.legal_actions(s, 0)}
    assert "place OH CONSERVATIVE 2" not in legal and "place OH CONSERVATIVE 1" in legal


def test_undo_takes_back_the_last_move_and_reopens_a_won_state():
    s = fresh()
    give(s, 0, 6)
    do(s, 0, "place OH UNION 2")
    fill_before = list(s.fill["NH"])
    fill(s, "NH", "D", U, 1)
    fill(s, "NH", "D", L, 1)
    do(s, 0, "place NH CONSERVATIVE 1")
    assert s.owner["NH"] == "D" and "NH" in s.won["D"]
    do(s, 0, "undo")
    assert s.owner["NH"] == "" and "NH" not in s.won["D"] and s.steps[0].remaining == 4
    do(s, 0, "undo")
    assert s.fill["OH"][OFF["D"] + U] == 0 and s.steps[0].remaining == 6 and s.steps[0].placed == []
    refused(s, 0, "undo", "nothing")
    del fill_before


def test_rest_places_everything_legally_and_undo_takes_it_back_at_once():
    s = fresh()
    give(s, 0, 7)
    before = {c: list(s.fill[c]) for c in CODES}
    do(s, 0, "rest")
    assert s.steps[0].remaining == 0
    added = sum(sum(s.fill[c]) - sum(before[c]) for c in CODES)
    assert added == 7
    refused(s, 0, "rest", "done")
    do(s, 0, "undo")
    assert {c: s.fill[c] for c in CODES} == before and s.steps[0].remaining == 7


def test_done_needs_every_placeable_vote_placed_except_up_to_placements():
    s = fresh()
    give(s, 0, 3)
    refused(s, 0, "done", "still have 3 votes")
    do(s, 0, "place OH UNION 1")
    refused(s, 0, "done", "2 votes")
    s.steps.pop(0)
    give(s, 0, 15, cat=F, optional=True)
    do(s, 0, "place IA FARM 2")
    do(s, 0, "done")  # FARM is "up to 15"
    assert not s.steps or s.steps[0].kind != "place" or s.steps[0].text != "test"


def test_votes_that_fit_nowhere_are_not_placed():
    s = fresh()
    give(s, 0, 4, where=["NH"])
    s.owner["NH"] = "R"
    continue_turn(s, [])
    assert not s.steps or s.steps[0].where != ["NH"]  # skipped: nowhere to place them


def test_restricted_placements():
    s = fresh()
    give(s, 0, 3, cat=F)
    refused(s, 0, "place IA UNION 1", "FARM votes only")
    s.steps.pop(0)
    give(s, 0, 3, where=["FL"])
    refused(s, 0, "place OH UNION 1", "only to FL")
    do(s, 0, "place FL MINORITY 2")


# ---------------------------------------------------------------- spaces

def test_home_state_space_gives_two_votes_there():
    s = fresh()
    s.turn = 1  # the Democrat's turn
    ev = land(s, 0, 0)
    assert "HOME STATE" in text(ev)
    st = s.steps[0]
    assert st.kind == "place" and st.where == ["CA"] and st.remaining == 2 and st.pawn == 0


def test_issues_card_adds_where_leading_then_the_opponent_places():
    s = fresh()
    s.issues.append("abortion")
    land(s, 1, SPACE["issues"])
    assert s.steps[0].kind == "issue" and GAME.to_act(s) == [1]
    assert {a.text() for a in GAME.legal_actions(s, 1)} == {"take pro-choice", "take pro-life"}
    refused(s, 1, "take tax-cuts", "positions on Abortion")
    leading = [c for c in CODES if s.fill[c][OFF["R"] + C] > s.fill[c][OFF["D"] + C]]
    before = {c: s.fill[c][OFF["R"] + C] for c in CODES}
    do(s, 1, "take pro-life")
    for c in CODES:
        grew = s.fill[c][OFF["R"] + C] - before[c]
        assert grew == (1 if c in leading and CAPS[c][C] > before[c] else 0), c
    pos = ISSUE_BY_SLUG["abortion"][2][1]
    assert s.steps[0].pawn == 0 and s.steps[0].remaining == pos[3] and s.steps[0].where is None


def test_add_is_nothing_where_not_leading():
    s = fresh()
    s.issues.append("abortion")
    land(s, 1, SPACE["issues"])
    before = [list(s.fill[c]) for c in CODES]
    do(s, 1, "take pro-choice")  # the Republican leads LIBERAL nowhere
    assert [list(s.fill[c]) for c in CODES] == before
    assert s.steps[0].pawn == 0


def test_every_issue_has_two_positions_with_adds_and_opponent_votes():
    assert len(ISSUES) >= 20
    for _slug, title, positions in ISSUES:
        assert len(positions) == 2 and title
        for _pslug, label, adds, opp in positions:
            assert adds and 2 <= opp <= 7 and label
            assert all(0 <= k < 5 and 1 <= n <= 2 for k, n in adds)


@pytest.mark.parametrize("slug", [s[0] for s in SPINS])
def test_every_spin_doctor_card_resolves(slug):
    s = fresh()
    s.spins.append(slug)
    before_funds = dict(s.funds)
    ev = land(s, 1, SPACE["spin"])
    drawer = s.seats[s.pawns[1].seat].name  # the card names its drawer where it says "you"
    assert card_for(SPIN_BY_SLUG[slug][1], drawer) in text(ev) and " you" not in text(ev).replace("your", "")
    effects = SPIN_BY_SLUG[slug][3]
    kinds = [e[0] for e in effects]
    if "pay" in kinds:
        assert s.funds["R"] < before_funds["R"]
    if "opp" in kinds:
        assert s.steps and s.steps[0].pawn == 0
    if "place" in kinds:
        assert any(st.kind == "place" and st.pawn == 1 for st in s.steps)
    # whatever it asked for, AI play finishes the turn
    rng = Rng(1)
    for _ in range(200):
        if not s.steps or s.phase == "over":
            break
        seat = GAME.to_act(s)[0]
        GAME.apply_in_place(s, seat, GAME.ai_action(s, seat, rng))
    assert not s.steps or s.phase == "over"


def test_paying_without_enough_money_gives_the_opponent_five_votes():
    s = fresh()
    s.funds["R"] = 2_000_000
    s.spins.append("legal-fees")
    land(s, 1, SPACE["spin"])
    assert s.funds["R"] == 0 and s.spent[1] == 2_000_000
    assert s.steps[0].pawn == 0 and s.steps[0].remaining == 5


def test_rally_places_one_vote_of_a_category_in_every_state_of_the_region():
    s = fresh()
    land(s, 1, SPACE["rally"])
    region = CIRCUIT[SPACE["rally"]][2]
    assert s.steps[0].kind == "rally" and len(GAME.legal_actions(s, 1)) == 5
    before = {c: s.fill[c][OFF["R"] + U] for c in REGIONS[region]}
    do(s, 1, "rally UNION")
    for c in REGIONS[region]:
        assert s.fill[c][OFF["R"] + U] == min(before[c] + 1, CAPS[c][U])


def test_campaign_side_track_enter_one_die_and_exit():
    s = fresh()
    s.turn = 0
    land(s, 1, ENTRIES["UNION"])
    assert s.steps[0].kind == "enter"
    s.rng = rng_for([3])
    do(s, 1, "enter")
    assert s.pawns[1].track == "UNION" and s.pawns[1].index == 2 and s.dice == [3]
    assert "AFL-CIO" in s.last  # the third space: ADD 1 UNION
    while s.steps:
        do(s, 1, "rest" if "rest" in {a.text() for a in GAME.legal_actions(s, 1)} else "done")
    # next turn on the track: one die; 5 carries it off the track two spaces past the entry
    s.turn = 0
    s.rng = rng_for([5])
    do(s, 1, "roll")
    assert s.dice == [5] and s.pawns[1].track is None and s.pawns[1].index == ENTRIES["UNION"] + 2


def test_paid_campaigns_cost_money_and_need_it():
    s = fresh()
    land(s, 1, ENTRIES["CONSERVATIVE"])
    do(s, 1, "enter")
    assert s.funds["R"] == FUNDS - ENTRY_COST["CONSERVATIVE"] and s.pawns[1].track == "CONSERVATIVE"
    s2 = fresh()
    s2.funds["R"] = 5_000_000
    ev = land(s2, 1, ENTRIES["CONSERVATIVE"])
    assert "cannot pay" in text(ev) and not s2.steps
    s3 = fresh()
    land(s3, 1, ENTRIES["LIBERAL"])
    do(s3, 1, "pass")
    assert s3.pawns[1].track is None and s3.funds["R"] == FUNDS


def test_track_spaces_are_six_per_campaign():
    assert set(TRACK_SPACES) == set(TRACKS) and all(len(v) == TRACK_LEN for v in TRACK_SPACES.values())
    assert ENTRY_COST["UNION"] == ENTRY_COST["MINORITY"] == 0 < ENTRY_COST["CONSERVATIVE"] == ENTRY_COST["LIBERAL"]


def test_campaign_bus_advances_to_a_campaign():
    s = fresh()
    land(s, 1, SPACE["bus"])
    assert {a.text() for a in GAME.legal_actions(s, 1)} == {"advance UNION", "advance CONSERVATIVE",
                                                           "advance MINORITY", "advance LIBERAL", "pass"}
    do(s, 1, "advance MINORITY")
    assert s.pawns[1].index == ENTRIES["MINORITY"] and s.steps[0].kind == "enter"


def test_tv_buys_five_votes_per_five_million_and_needs_money():
    s = fresh()
    land(s, 1, SPACE["tv"])
    buys = [a.text() for a in GAME.legal_actions(s, 1)]
    assert buys == [f"buy {k}" for k in range(5, TV_MAX + 1, 5)] + ["pass"]
    refused(s, 1, "buy 7", "lots of 5")
    refused(s, 1, f"buy {TV_MAX + 5}", "at most")
    do(s, 1, "buy 10")
    assert s.funds["R"] == FUNDS - 10_000_000 and s.steps[0].remaining == 10 and s.steps[0].pawn == 1
    s2 = fresh()
    s2.funds["R"] = 0
    ev = land(s2, 1, SPACE["tv"])
    assert "no money" in text(ev) and not s2.steps
    s3 = fresh()
    s3.funds["R"] = 12_000_000
    land(s3, 1, SPACE["tv"])
    assert [a.text() for a in GAME.legal_actions(s3, 1)] == ["buy 5", "buy 10", "pass"]


def test_latino_vote_california_values_and_farm_spaces():
    s = fresh()
    before = {c: s.fill[c][OFF["R"] + M] for c in LATINO_STATES}
    land(s, 1, SPACE["latino"])
    for c in LATINO_STATES:
        assert s.fill[c][OFF["R"] + M] == min(before[c] + 2, CAPS[c][M])
    s = fresh()
    land(s, 1, SPACE["california"])
    assert s.fill["CA"][OFF["R"] + L] == 5 and not any(s.fill[c][OFF["R"] + L] for c in CODES if c != "CA")
    s = fresh()
    land(s, 0, SPACE["values"])
    for c in CODES:
        expect = 1 if REGION[c] in ("South", "Midwest") and CAPS[c][C] else 0
        assert s.fill[c][OFF["D"] + C] == expect, c
    s = fresh()
    land(s, 1, SPACE["farm"])
    st = s.steps[0]
    assert st.cat == F and st.remaining == 15 and st.optional
    land_s = fresh()
    land(land_s, 1, SPACE["convention"])
    assert land_s.steps[0].remaining == 6 and land_s.steps[0].where is None


def test_debate_only_when_behind_opponent_first_with_one_die():
    s = fresh()
    ev = land(s, 1, SPACE["debate"])
    assert "tied" in text(ev) and not s.steps
    s.won["D"].append("NH")
    s.owner["NH"] = "D"
    ev = land(s, 0, SPACE["debate"])
    assert "ahead" in text(ev) and not s.steps  # the Democrat leads: no debate
    s.rng = rng_for([4, 6, 5])
    land(s, 1, SPACE["debate"])
    assert s.steps[0].kind == "debate"
    do(s, 1, "debate")
    assert s.steps[0].pawn == 0 and s.steps[0].remaining == 4 and s.dice == [4]
    do(s, 0, "rest")
    do(s, 0, "done")
    assert s.steps[0].pawn == 1 and s.steps[0].remaining == 11 and s.dice == [6, 5]
    s2 = fresh()
    s2.won["D"].append("NH")
    s2.owner["NH"] = "D"
    land(s2, 1, SPACE["debate"])
    do(s2, 1, "pass")
    assert not s2.steps


# ---------------------------------------------------------------- four players

def test_four_players_place_only_on_their_own_sheet():
    s = fresh(4)
    give(s, 0, 3)  # D President: Northeast + South
    refused(s, 0, "place OH UNION 1", "running mate's tally sheet")
    assert all(SHEET_OF[a.state] == 0 for a in GAME.legal_actions(s, 0) if a.verb == "place")
    do(s, 0, "place PA UNION 1")
    s.steps.pop(0)
    # automatic votes aimed at the other sheet are not placed
    land(s, 2, SPACE["values"])  # R President: South only
    assert all(s.fill[c][OFF["R"] + C] == (1 if LEAN[c] == "R" else 0) for c in REGIONS["Midwest"])
    assert any(s.fill[c][OFF["R"] + C] > (1 if LEAN[c] == "R" else 0) for c in REGIONS["South"])
    # a rally in the other sheet's region does nothing
    midwest = next(i for i, (k, _l, r) in enumerate(CIRCUIT) if k == "rally" and r == "Midwest")
    ev = land(s, 2, midwest)
    assert "running mate's sheet" in text(ev) and not s.steps


def test_four_players_opponent_votes_go_to_the_direct_opponent_on_that_sheet():
    s = fresh(4)
    s.issues.append("abortion")
    land(s, 1, SPACE["issues"])  # R Vice-President
    do(s, 1, "take pro-life")
    assert s.steps[0].pawn == 3 and GAME.to_act(s) == [3]  # the D Vice-President answers
    assert all(SHEET_OF[a.state] == 1 for a in GAME.legal_actions(s, 3) if a.verb == "place")


def test_four_player_win_lists_both_seats_of_the_party():
    s = fresh(4)
    code = "OH"  # on the Vice-Presidents' sheet: won by the R Vice-President (seat 1)
    for c in sorted(CODES, key=lambda c: -EV[c]):
        if c != code and party_ev(s, "R") + EV[c] < 270 - EV[code] + 5:
            s.owner[c] = "R"
            s.won["R"].append(c)
    assert 250 <= party_ev(s, "R") < 270 <= party_ev(s, "R") + EV[code]
    for k in range(5):
        fill(s, code, "R", k, 0)
    give(s, 1, 30)
    placed = 0
    for k in range(5):
        n = min(CAPS[code][k], TO_WIN[code] - placed)
        if n > 0:
            do(s, 1, f"place {code} {CATEGORIES[k]} {n}")
            placed += n
        if s.phase == "over":
            break
    res = GAME.result(s)
    assert res.finished and res.winners == [1, 2] and s.winner == "R"
    d, r = float(party_ev(s, "D")), float(party_ev(s, "R"))
    assert res.scores == [d, r, r, d]


# ---------------------------------------------------------------- declaring

def test_auto_declaring_offers_no_declare_moves():
    s = fresh()
    give(s, 0, 5)
    assert not any(a.verb == "declare" for a in GAME.legal_actions(s, 0))
    refused(s, 0, "declare NH", "not been won")


def _win_nh(s, p=0):
    fill(s, "NH", "D", U, 1)
    fill(s, "NH", "D", L, 1)
    give(s, p, 3)
    do(s, s.pawns[p].seat, "place NH CONSERVATIVE 1")


def test_manual_declaring_records_the_votes_only_when_declared():
    s = fresh(declare="manual")
    s.turn = 1
    _win_nh(s)
    assert s.owner["NH"] == "D" and "NH" not in s.won["D"] and party_ev(s, "D") == 0
    assert "declare NH" in {a.text() for a in GAME.legal_actions(s, 0)}
    refused(s, 0, "place NH UNION 1", "already won")
    do(s, 0, "declare NH")
    assert s.won["D"] == ["NH"] and party_ev(s, "D") == EV["NH"] and not s.undeclared
    refused(s, 0, "declare NH", "already declared")


def test_manual_undeclared_state_gives_the_opponent_five_votes_when_the_next_turn_begins():
    s = fresh(declare="manual")
    s.turn = 1  # the Democrat's turn
    _win_nh(s)
    do(s, 0, "rest")
    do(s, 0, "done")  # gives up the move without declaring
    # the end-of-turn check offers the declaration once more
    assert s.steps and s.steps[0].kind == "declare" and GAME.to_act(s) == [0]
    do(s, 0, "done")
    assert s.won["D"] == ["NH"] and not s.undeclared  # recorded after all …
    st = s.steps[0]
    assert st.pawn == 1 and st.remaining == 5 and "not declared" in st.text  # … and the Republican places 5


# ---------------------------------------------------------------- end of the game

def test_round_limit_ends_a_stalled_game_for_the_leader():
    s = fresh(max_rounds=5)
    s.round = 5
    s.turn = 1
    s.owner["OH"] = "R"
    s.won["R"].append("OH")
    next_turn(s, [])
    assert s.phase == "over" and s.winner == "R" and "After 5 rounds" in s.outcome
    assert GAME.result(s).winners == [1]


def test_a_269_tie_goes_to_the_house():
    s = fresh()
    d_states, total = [], 0
    for c in sorted(CODES, key=lambda c: -EV[c]):
        if total + EV[c] <= 269:
            d_states.append(c)
            total += EV[c]
    assert total == 269
    for c in CODES:
        party = "D" if c in d_states else "R"
        s.owner[c] = party
        s.won[party].append(c)
    check_win(s)
    assert s.phase == "over" and party_ev(s, "D") == party_ev(s, "R") == 269
    sd = sum(1 for c in s.won["D"] if c != "DC")
    sr = sum(1 for c in s.won["R"] if c != "DC")
    assert sr > sd and s.winner == "R"  # the big states went to D, the many small ones to R
    assert "House" in s.outcome


def test_views_follow_the_contract():
    s = fresh()
    give(s, 0, 3)
    v = GAME.view(s, None)
    for key in ("game", "phase", "turn", "players", "parties", "regions", "sheets", "categories", "states", "board",
                "dice", "pending", "last", "winner"):
        assert key in v
    assert v["pending"]["seat"] == 0 and v["pending"]["remaining"] == 3 and v["pending"]["kind"] == "anywhere"
    p = v["players"][0]
    assert set(p) >= {"seat", "name", "party", "role", "sheet", "home", "space", "funds", "spent"}
    assert p["space"] == {"track": None, "index": 0} and p["sheet"] is None
    assert len(v["board"]["circuit"]) == len(CIRCUIT) and set(v["board"]["tracks"]) == set(TRACKS)
    assert v["sheets"] == [["Northeast", "South"], ["Midwest", "West"]]
    assert GAME.view(s, 0) == v  # nothing in this game is secret


def test_status_and_labels_read_well():
    s = fresh()
    give(s, 0, 3)
    assert "placing 3 of 3" in GAME.status_text(s)
    label = GAME.token_label(s, 0, ("place",), "TX")
    assert label.startswith("Texas (34)")
    assert "WINS" in GAME.token_label(s, 0, ("place", "NH", "UNION"), str(TO_WIN["NH"]))
    assert NAMES["TX"] == "Texas"


# ---- the rulebook's sheet scale (setting blocks) -------------------------------------

def test_rulebook_scale_has_north_carolina_won_with_13_blocks_and_the_rest_in_proportion():
    from engines.race_white_house.data import SCALES, blocks_rulebook
    caps, to_win = SCALES["rulebook"]
    assert to_win["NC"] == 13 and sum(caps["NC"]) == 25  # the rulebook's tally-sheet example
    for code in CODES:
        assert sum(caps[code]) == blocks_rulebook(EV[code]) == max(5, -(-5 * EV[code] // 3))
        assert to_win[code] == sum(caps[code]) // 2 + 1
        assert sum(caps[code]) >= BLOCKS[code]  # never smaller than the short sheets
        lean = {"D": L, "R": C}.get(LEAN[code])
        if lean is not None:
            assert caps[code][lean] >= 2
    assert to_win["CA"] == 47 and to_win["TX"] == 29 and to_win["WY"] == 3
    assert SCALES["short"] == (CAPS, TO_WIN) and TO_WIN["NC"] == 6


def test_rulebook_scale_is_played_and_shown():
    s = fresh(blocks="rulebook")
    assert GAME.options({}).blocks == "short"
    v = GAME.view(s, None)
    assert v["states"]["NC"]["to_win"] == 13
    assert v["states"]["CA"]["blocks"]["LIBERAL"]["D"] == [27, 1]  # the pre-marked block
    # a row bigger than one move's 9 votes fills over several `place` moves
    give(s, 0, 30, where=["CA"])
    assert max(a.n for a in GAME.legal_actions(s, 0) if isinstance(a, Place)) == 9
    do(s, 0, "place CA LIBERAL 9")
    do(s, 0, "place CA LIBERAL 9")
    refused(s, 0, "place CA LIBERAL 9", "Only 8 empty blocks left in your LIBERAL row of California")
    do(s, 0, "place CA LIBERAL 2")
    assert s.fill["CA"][OFF["D"] + L] == 21 and s.owner["CA"] == ""
    assert GAME.token_label(s, 0, ("place", "CA"), "LIBERAL") == "LIBERAL · you 21 of 27 blocks · them 0"
    assert GAME.token_label(s, 0, ("place",), "CA").endswith("you 21 of 47 to win · them 0")


# ---- four players: the Presidents have the final word on the team's money -----------

def test_a_vice_presidents_tv_buy_waits_for_the_presidents_approval():
    s = fresh(4)
    land(s, 3, SPACE["tv"])  # Democratic Vice-President (dave)
    events = do(s, 3, "buy 10")
    assert s.funds["D"] == FUNDS and s.steps[0].kind == "approve" and GAME.to_act(s) == [0]
    assert "dave (Democrat Vice-President) proposes to buy 10 TV votes for $10,000,000" in text(events)
    assert "alice (Democrat President) has the final word" in text(events)
    assert [a.text() for a in GAME.legal_actions(s, 0)] == ["approve", "refuse"]
    assert GAME.legal_actions(s, 3) == []
    refused(s, 3, "buy 30", "not your turn")
    refused(s, 0, "roll", "approve")  # the President must answer first
    assert GAME.view(s, None)["choice"]["kind"] == "approve"
    events = do(s, 0, "approve")
    assert "alice approves" in text(events)
    assert s.funds["D"] == FUNDS - 10_000_000 and s.spent[3] == 10_000_000
    assert s.steps[0].kind == "place" and s.steps[0].pawn == 3 and s.steps[0].remaining == 10


def test_a_refused_proposal_is_a_pass_and_spends_nothing():
    s = fresh(4)
    land(s, 1, ENTRIES["CONSERVATIVE"])  # Republican Vice-President (bob), a $10,000,000 campaign
    do(s, 1, "enter")
    assert s.steps[0].kind == "approve" and GAME.to_act(s) == [2]
    events = do(s, 2, "refuse")
    assert "carol refuses: the money stays in the team's purse" in text(events)
    assert "bob stays on the board" in text(events)
    assert s.funds["R"] == FUNDS and s.pawns[1].track is None and not any(st.kind == "enter" for st in s.steps)


@pytest.mark.parametrize("n,opts,pawn,seat,space,move,party,cost", [
    (4, {}, 0, 0, "tv", "buy 5", "D", 5_000_000),  # a President spends alone
    (4, {}, 3, 3, "UNION", "enter", "D", 0),  # a free campaign needs nobody's yes
    (4, {"vp_spending": "free"}, 3, 3, "tv", "buy 10", "D", 10_000_000),  # the setting lets a VP decide alone
    (3, {}, 1, 2, "tv", "buy 10", "R", 10_000_000),  # three players: seat 2 plays both Republicans
    (2, {}, 1, 1, "tv", "buy 10", "R", 10_000_000),  # two players: nobody is a Vice-President
])
def test_who_spends_without_asking(n, opts, pawn, seat, space, move, party, cost):
    s = fresh(n, **opts)
    assert s.pawns[pawn].seat == seat
    land(s, pawn, SPACE[space] if space == "tv" else ENTRIES[space])
    do(s, seat, move)
    assert s.funds[party] == FUNDS - cost and not any(st.kind == "approve" for st in s.steps)


def test_approve_and_refuse_out_of_turn_name_the_rule():
    s = fresh(4)
    assert "Only a President approves" in refused(s, GAME.to_act(s)[0], "approve")
    assert "Only a President refuses" in refused(s, GAME.to_act(s)[0], "refuse")
