"""U.S. President: every rule clause, ties, Florida, the recount, views and secrets."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from engines.core import Event, RuleError, Seat
from engines.us_president import GAME
from engines.us_president.game import USPOptions, electors, florida_counts
from engines.us_president.states import (CODES, ELECTORS, MAJORITY, MAX_PER_STATE, NAMES, POINTS, ROUNDS,
                                         SIZES, TOTAL_ELECTORS)

CSV = Path(__file__).parent / "data" / "electoral_votes.csv"
NAMES4 = ["Alice", "Bob", "Carol", "Dave"]


def new(n=2, seed=1, clear=True, **opts):
    state = GAME.setup([Seat(name=x) for x in (NAMES4 + ["Erin", "Frank"])[:n]], GAME.options(opts), seed)
    if clear:
        state.holder = {c: None for c in CODES}
    return state


def do(state, seat, text):
    return GAME.apply_in_place(state, seat, GAME.parse_action(text))


def round_of(state, *texts):
    """Everyone picks in seat order; returns all events of the round."""
    events = []
    for seat, text in enumerate(texts):
        events += do(state, seat, text)
    return events


def rigged(n, pyramids: dict, holders: dict, **opts):
    """A state at the end of round 12 with the given pyramids (code -> per seat
    list of points) and holders; supply is whatever is left."""
    state = new(n, **opts)
    for code, per_seat in pyramids.items():
        for s, pts in enumerate(per_seat):
            state.board[code][s] = list(pts)
            for p in pts:
                state.supply[s][{3: 0, 2: 1, 1: 2}[p]] -= 1
    for code, s in holders.items():
        state.holder[code] = s
    return state


def final(state):
    events: list[Event] = []
    GAME._final_count(state, events)
    return events


# ---- facts ---------------------------------------------------------------

def test_electors_match_the_2012_column_of_the_shared_data():
    with CSV.open() as f:
        rows = {r["code"]: r for r in csv.DictReader(f)}
    for code in CODES:
        assert int(rows[code]["ev_2012"]) == ELECTORS[code], code
        assert rows[code]["name"] == NAMES[code]
    assert TOTAL_ELECTORS == 145 and MAJORITY == 73
    assert list(CODES) == ["MT", "NV", "IA", "CO", "WI", "VA", "NC", "MI", "OH", "PA", "FL"]


def test_engine_does_not_read_the_csv():
    src = "".join(p.read_text() for p in Path("engines/us_president").glob("*.py"))
    assert "electoral_votes" not in src and "open(" not in src


def test_rules_text_names_both_deals_and_key_rules():
    text = GAME.rules_text
    for word in ("deal=equal", "deal=one", "Czech", "English", "73", "Florida", "3 of your pyramids", "recount"):
        assert word in text


# ---- setup ---------------------------------------------------------------

@pytest.mark.parametrize("n", range(2, 7))
def test_equal_deal_gives_everyone_the_same_number_and_sets_the_rest_aside(n):
    state = new(n, clear=False)
    each = 11 // n
    assert all(len(d) == each for d in state.dealt)
    held = [c for c in CODES if state.holder[c] is not None]
    assert len(held) == each * n
    assert len(GAME.view(state, None)["aside"]) == 11 - each * n
    for s, cards in enumerate(state.dealt):
        assert all(state.holder[c] == s for c in cards)
    assert state.supply == [[4, 4, 4]] * n
    assert state.round == 1 and GAME.to_act(state) == list(range(n))


@pytest.mark.parametrize("n", range(2, 7))
def test_czech_deal_gives_one_card_each(n):
    state = new(n, clear=False, deal="one")
    assert all(len(d) == 1 for d in state.dealt)
    assert sum(h is not None for h in state.holder.values()) == n


def test_deal_is_shuffled_and_deterministic():
    a, b = new(4, seed=5, clear=False), new(4, seed=5, clear=False)
    assert a.dealt == b.dealt
    assert len({tuple(map(tuple, new(4, seed=s, clear=False).dealt)) for s in range(20)}) > 10


def test_player_count_and_options_are_checked():
    with pytest.raises(RuleError):
        GAME.setup([Seat(name="x")], GAME.options({}), 1)
    with pytest.raises(RuleError):
        GAME.setup([Seat(name=str(i)) for i in range(7)], GAME.options({}), 1)
    with pytest.raises(RuleError):
        GAME.options({"deal": "two"})
    assert USPOptions().deal == "equal" and USPOptions().tie_above_holder == "aside"
    for name in ("deal", "tie_above_holder"):
        assert USPOptions.model_fields[name].description


# ---- picking ---------------------------------------------------------------

def test_legal_actions_are_state_then_size_and_complete():
    state = new(2)
    legal = GAME.legal_actions(state, 0)
    assert len(legal) == 33
    assert {a.text() for a in legal} == {f"pick {c} {s}" for c in CODES for s in SIZES}
    assert len({a.tokens()[1] for a in legal}) == 11


def test_the_round_reveals_only_when_everyone_has_picked_and_changes_replace():
    state = new(3)
    do(state, 0, "pick FL large")
    assert GAME.to_act(state) == [1, 2]
    events = do(state, 0, "pick OH small")  # change of mind
    assert state.picks[0] == ["OH", "small"]
    assert [e.text for e in events if e.to is None] == ["Alice changed their pick."]
    do(state, 1, "pick PA medium")
    assert all(not any(state.board[c][s] for s in range(3)) for c in CODES)  # nothing placed yet
    events = do(state, 2, "pick ia l")  # aliases, any case
    public = [e for e in events if e.to is None]
    reveal = [e for e in public if "revealed" in e.text]
    assert len(reveal) == 1
    text = reveal[0].text
    assert "Alice: OH small" in text and "Bob: PA medium" in text and "Carol: IA large" in text
    assert state.board["OH"][0] == [1] and state.board["PA"][1] == [2] and state.board["IA"][2] == [3]
    assert state.round == 2 and state.picks == [None] * 3 and GAME.to_act(state) == [0, 1, 2]
    assert state.reveals[0] == [["OH", "small"], ["PA", "medium"], ["IA", "large"]]


def test_three_pyramid_cap_per_state_any_sizes():
    state = new(2)
    for size in ("large", "small", "medium"):
        round_of(state, f"pick FL {size}", "pick MT small")
    assert len(state.board["FL"][0]) == MAX_PER_STATE
    assert all(a.state != "FL" for a in GAME.legal_actions(state, 0))
    before = GAME.dump(state)
    with pytest.raises(RuleError, match="3 pyramids in Florida"):
        do(state, 0, "pick FL small")
    assert GAME.dump(state) == before
    # Bob has 3 in Montana now; Alice may still go there
    assert all(a.state != "MT" for a in GAME.legal_actions(state, 1))
    assert any(a.state == "MT" for a in GAME.legal_actions(state, 0))


def test_a_spent_size_cannot_be_picked():
    state = new(2)
    for c in ("MT", "NV", "IA", "CO"):
        round_of(state, f"pick {c} large", "pick FL small" if c != "CO" else "pick PA small")
    assert state.supply[0] == [0, 4, 4]
    assert all(a.size != "large" for a in GAME.legal_actions(state, 0))
    before = GAME.dump(state)
    with pytest.raises(RuleError, match="no large pyramid left"):
        do(state, 0, "pick OH large")
    assert GAME.dump(state) == before


@pytest.mark.parametrize("text,msg", [
    ("pick TX large", "not one of the swing states"),
    ("pick FL huge", "not a pyramid size"),
    ("pick FL", "needs a size"),
    ("vote FL large", "not a move"),
])
def test_bad_commands_are_refused_without_change(text, msg):
    state = new(2)
    before = GAME.dump(state)
    with pytest.raises(RuleError, match=msg):
        do(state, 0, text)
    assert GAME.dump(state) == before


def test_full_names_are_accepted():
    state = new(2)
    do(state, 0, "pick north-carolina medium")
    do(state, 1, "pick Florida s")
    assert state.board["NC"][0] == [2] and state.board["FL"][1] == [1]


def test_after_the_game_nothing_can_be_played():
    state = new(2)
    for _ in range(ROUNDS):
        a = GAME.legal_actions(state, 0)[0]
        b = GAME.legal_actions(state, 1)[-1]
        GAME.apply_in_place(state, 0, a)
        GAME.apply_in_place(state, 1, b)
    assert state.phase == "over" and GAME.to_act(state) == [] and GAME.legal_actions(state, 0) == []
    with pytest.raises(RuleError, match="over"):
        do(state, 0, "pick FL small")


def test_pyramids_are_conserved_and_all_placed_after_twelve_rounds():
    state = new(3, seed=9)
    from engines.rng import Rng
    rng = Rng(3)
    while state.phase == "play":
        for s in GAME.to_act(state):
            legal = GAME.legal_actions(state, s)
            GAME.apply_in_place(state, s, legal[rng.below(len(legal))])
        for s in range(3):
            for i, size in enumerate(SIZES):
                placed = sum(state.board[c][s].count(POINTS[size]) for c in CODES)
                assert placed + state.supply[s][i] == 4
    assert state.supply == [[0, 0, 0]] * 3
    assert all(sum(len(state.board[c][s]) for c in CODES) == 12 for s in range(3))


# ---- holding state cards ----------------------------------------------------

def test_more_points_takes_the_card_and_a_tie_never_moves_it():
    state = new(2)
    round_of(state, "pick OH large", "pick MT small")
    assert state.holder["OH"] == 0 and state.holder["MT"] == 1
    round_of(state, "pick NV small", "pick OH large")  # 3 - 3: tie, Alice keeps
    assert state.holder["OH"] == 0
    round_of(state, "pick NV small", "pick OH small")  # 3 - 4: Bob takes it
    assert state.holder["OH"] == 1
    round_of(state, "pick OH small", "pick IA small")  # 4 - 4: Bob keeps
    assert state.holder["OH"] == 1


def test_a_dealt_card_stays_with_its_holder_until_someone_leads():
    state = new(2)
    state.holder["PA"] = 0
    round_of(state, "pick FL small", "pick FL small")
    assert state.holder["PA"] == 0 and state.holder["FL"] is None  # tie without holder: stays aside
    round_of(state, "pick MT small", "pick PA small")
    assert state.holder["PA"] == 1


def test_simultaneous_equal_placements_in_an_empty_state_take_nothing():
    state = new(3)
    round_of(state, "pick VA large", "pick VA large", "pick VA small")
    assert state.holder["VA"] is None


@pytest.mark.parametrize("rule,expected", [("aside", None), ("keep", 0)])
def test_two_players_tying_above_the_holder(rule, expected):
    state = new(3, tie_above_holder=rule)
    state.holder["CO"] = 0
    events = round_of(state, "pick MT small", "pick CO large", "pick CO large")
    assert state.holder["CO"] == expected
    text = "\n".join(e.text for e in events if e.to is None)
    assert ("set aside" in text) == (rule == "aside")
    # a later strict lead takes the card either way
    round_of(state, "pick MT small", "pick CO small", "pick NV small")
    assert state.holder["CO"] == 1


# ---- Florida --------------------------------------------------------------

def test_florida_alone_needs_two_points():
    state = new(2)
    round_of(state, "pick FL small", "pick MT small")
    assert state.holder["FL"] == 0 and not florida_counts(state)
    assert electors(state)[0] == 0
    events = round_of(state, "pick FL small", "pick MT small")
    assert florida_counts(state) and electors(state)[0] == 29
    assert GAME.view(state, None)["players"][0]["electors"] == 29
    assert any("Electors: Alice 29" in e.text for e in events)


def test_florida_with_a_one_point_lead_pays_no_one():
    state = new(2)
    events = round_of(state, "pick FL medium", "pick FL small")
    assert state.holder["FL"] == 0
    assert not florida_counts(state) and electors(state) == [0, 0]
    assert any("go to no one" in e.text for e in events if e.to is None)


def test_florida_with_a_two_point_lead_pays_the_holder():
    state = new(3)
    round_of(state, "pick FL large", "pick FL small", "pick MT small")
    assert state.holder["FL"] == 0 and florida_counts(state)
    assert electors(state) == [29, 0, 3]


def test_florida_held_by_a_tie_pays_no_one_and_a_dealt_card_alone_pays_nothing():
    state = new(2)
    state.holder["FL"] = 1
    assert electors(state) == [0, 0]  # holder with 0 points does not lead by 2
    round_of(state, "pick FL large", "pick FL large")
    assert state.holder["FL"] == 1 and electors(state) == [0, 0]


def test_ordinary_dealt_cards_count_without_pyramids():
    state = new(2, clear=False)
    el = electors(state)
    for s in range(2):
        assert el[s] == sum(ELECTORS[c] for c in state.dealt[s] if c != "FL")


# ---- the count and the recount --------------------------------------------

def test_a_majority_after_round_twelve_wins_at_once():
    # FL 29 + PA 20 + OH 18 = 67 is not enough ...
    state = rigged(3, {"FL": [[3], [], []], "PA": [[3], [], []], "OH": [[3], [], []], "MT": [[], [3], []]},
                   {"FL": 0, "PA": 0, "OH": 0, "MT": 1})
    final(state)
    assert state.count == [67, 3, 0] and state.recount
    # ... but with Nevada it is exactly 73: no recount at all
    state = rigged(3, {"FL": [[3], [], []], "PA": [[3], [], []], "OH": [[3], [], []], "NV": [[3], [], []]},
                   {"FL": 0, "PA": 0, "OH": 0, "NV": 0})
    events = final(state)
    assert state.count == [73, 0, 0] and state.winner == 0 and state.recount == []
    assert GAME.result(state).winners == [0] and "73 electors" in events[-1].text


def scenario_returning_card(extra_for_alice=False):
    """Alice 47 (FL, OH), Bob 36 (PA, MI), Carol 28 (NC, VA), Dave 16 (WI, IA).
    Wisconsin: Dave 3, Bob 2, Carol 2 -> set aside when Dave leaves; back to Bob
    once Carol has left too."""
    pyr = {"FL": [[3, 3], [], [], []], "OH": [[3], [], [], []], "PA": [[], [3], [], []], "MI": [[], [3], [], []],
           "NC": [[], [], [3], []], "VA": [[], [], [3], []], "WI": [[], [2], [2], [3]], "IA": [[], [], [1], [3]]}
    if extra_for_alice:
        pyr["PA"][0] = [1]
        pyr["MI"][0] = [1]
    hold = {"FL": 0, "OH": 0, "PA": 1, "MI": 1, "NC": 2, "VA": 2, "WI": 3, "IA": 3}
    return rigged(4, pyr, hold)


def test_recount_set_aside_card_returns_later_and_can_end_with_no_winner():
    state = scenario_returning_card()
    events = final(state)
    assert state.count == [47, 36, 28, 16]
    steps = state.recount
    assert [s["leaving"] for s in steps] == [[3], [2], [1], [0]]
    first = {m["state"]: m for m in steps[0]["moves"]}
    assert first["WI"]["to"] is None and "tie" in first["WI"]["why"]
    assert first["IA"]["to"] == 2
    assert steps[0]["electors"] == [47, 36, 34, None]
    second = {m["state"]: m for m in steps[1]["moves"]}
    assert second["WI"] == {"state": "WI", "from": None, "to": 1, "why": "2 points"}  # returns from aside
    assert second["NC"]["to"] is None and second["IA"]["to"] is None
    assert steps[1]["electors"] == [47, 46, None, None]
    assert steps[2]["active"] == [0] and steps[2]["electors"][0] == 47
    assert steps[3]["active"] == [] and state.winner is None
    assert "no President" in state.outcome and GAME.result(state).winners == []
    assert len([e for e in events if e.text.startswith("**Recount")]) == 4
    view = GAME.view(state, None)
    assert len(view["recount"]) == 4 and view["recount"][1]["holders"]["WI"] == 1


def test_recount_can_crown_a_winner():
    state = scenario_returning_card(extra_for_alice=True)
    final(state)
    assert state.winner == 0 and len(state.recount) == 3
    last = state.recount[-1]
    assert last["winner"] == 0 and last["electors"][0] == 47 + 20 + 16
    assert "wins the recount" in state.outcome


def test_tied_weakest_players_leave_together():
    # Alice 49 (FL, PA), Bob 33 (OH, NC), Carol 16 (WI, IA), Dave 16 (MI)
    pyr = {"FL": [[3], [], [], []], "PA": [[3], [], [], []], "OH": [[1], [3], [], []], "NC": [[], [3], [], []],
           "WI": [[1], [2], [3], []], "IA": [[], [], [], []], "MI": [[2], [2], [], [3]]}
    state = rigged(4, pyr, {"FL": 0, "PA": 0, "OH": 1, "NC": 1, "WI": 2, "IA": 2, "MI": 3})
    final(state)
    assert state.count == [49, 33, 16, 16]
    one = state.recount[0]
    assert one["leaving"] == [2, 3] and one["active"] == [0, 1]
    moves = {m["state"]: m["to"] for m in one["moves"]}
    assert moves == {"WI": 1, "IA": None, "MI": None}  # MI: Alice and Bob tie at 2
    assert one["electors"][:2] == [49, 43]
    two = state.recount[1]
    assert two["leaving"] == [1]
    moves = {m["state"]: m["to"] for m in two["moves"]}
    assert moves["OH"] == 0 and moves["MI"] == 0 and moves["NC"] is None and moves["WI"] == 0
    assert state.winner == 0 and two["electors"][0] == 49 + 18 + 16 + 10


def test_everyone_tied_at_the_bottom_leaves_and_nobody_wins():
    state = rigged(3, {"OH": [[3], [], []], "PA": [[], [3], []], "FL": [[], [], [1]]},
                   {"OH": 0, "PA": 1, "FL": 2})
    state.board["OH"][0] = [3]
    state.holder["MI"] = 1  # 20 + 16 = 36 for Bob; Alice 18; Carol 0 (Florida without margin)
    final(state)
    assert state.count == [18, 36, 0]
    assert [s["leaving"] for s in state.recount] == [[2], [0], [1]]
    assert state.winner is None

    even2 = rigged(2, {"VA": [[3], []], "NC": [[], [3]], "MT": [[1], [1]]}, {"VA": 0, "NC": 1})
    even2.holder["VA"] = None
    even2.holder["NC"] = None
    final(even2)
    assert even2.count == [0, 0] and even2.recount[0]["leaving"] == [0, 1]
    assert even2.recount[0]["active"] == [] and even2.winner is None


@pytest.mark.parametrize("bob_in_florida,counts", [([1], False), ([], True)])
def test_florida_margin_applies_to_a_recount_re_holder(bob_in_florida, counts):
    # Dave holds Florida 3-2 over Alice (no margin, so 0 electors) and is weakest.
    pyr = {"FL": [[2], bob_in_florida, [], [3]], "PA": [[], [3], [], []], "OH": [[], [], [3], []],
           "MI": [[3], [], [], []]}
    state = rigged(4, pyr, {"FL": 3, "PA": 1, "OH": 2, "MI": 0})
    final(state)
    assert state.count == [16, 20, 18, 0]
    one = state.recount[0]
    assert one["leaving"] == [3]
    assert {m["state"]: m["to"] for m in one["moves"]}["FL"] == 0
    assert one["florida_counts"] is counts
    assert one["electors"][0] == 16 + (29 if counts else 0)


def test_recount_ignores_players_who_left_for_the_florida_margin():
    # Bob leads Florida 5-3 over Carol but Alice has 4: after Alice leaves, Bob leads by 2.
    state = rigged(3, {"FL": [[], [3, 2], [3]]}, {"FL": 1})
    state.board["FL"][0] = [3, 1]
    state.holder["MT"] = 2
    state.holder["NV"] = 0
    state.holder["IA"] = 1
    assert not florida_counts(state)
    assert florida_counts(state, [1, 2])
    final(state)
    # Alice 6 (NV), Bob 6 (IA), Carol 3 (MT): Carol leaves first
    assert state.count == [6, 6, 3]
    assert state.recount[0]["leaving"] == [2]


# ---- views and secrets ---------------------------------------------------------

def test_views_hide_picks_until_the_reveal():
    state = new(3)
    do(state, 1, "pick FL large")
    public = GAME.view(state, None)
    assert public["players"][1]["picked"] is True and public["players"][0]["picked"] is False
    assert "pick" not in public and public["waiting"] == [0, 2]
    assert GAME.view(state, 1)["pick"] == {"state": "FL", "size": "large"}
    assert GAME.view(state, 0)["pick"] is None
    assert "FL" not in GAME.status_text(state) and "large" not in GAME.status_text(state)
    assert "Florida" in GAME.private_text(state, 1) and "Florida" not in GAME.private_text(state, 0)
    assert "Bob" in GAME.status_text(state)


def test_pick_events_are_private_except_for_the_bare_fact():
    state = new(2)
    events = do(state, 0, "pick PA medium")
    public = [e.text for e in events if e.to is None]
    private = [e for e in events if e.to is not None]
    assert public == ["Alice has picked. Still thinking: Bob."]
    assert all(e.to == [0] for e in private) and "Pennsylvania" in private[0].text


def test_private_text_shows_remaining_pyramids():
    state = new(2)
    round_of(state, "pick FL large", "pick MT small")
    text = GAME.private_text(state, 0)
    assert "3 large, 4 medium, 4 small" in text and "FL 29" in text


def test_view_is_json_and_reports_board():
    state = new(2)
    round_of(state, "pick FL large", "pick MT small")
    v = GAME.view(state, None)
    json.dumps(v)
    fl = next(s for s in v["states"] if s["code"] == "FL")
    assert fl["pyramids"] == [[3], []] and fl["holder"] == 0 and fl["electors"] == 29
    assert v["players"][0]["supply"] == {"large": 3, "medium": 4, "small": 4}
    assert v["last_reveal"] == {"round": 1, "picks": [["FL", "large"], ["MT", "small"]]}


def test_labels_and_descriptions():
    state = new(2)
    assert "Florida (29 electors)" in GAME.token_label(state, 0, ("pick",), "FL")
    assert "3 points" in GAME.token_label(state, 0, ("pick", "FL"), "large")
    assert GAME.describe_action(state, 0, GAME.parse_action("pick FL large")) == "Florida (29) with a large pyramid (3)"


# ---- AI ---------------------------------------------------------------------

def test_ai_keeps_an_existing_pick_and_only_plays_legal_moves():
    from engines.rng import Rng
    state = new(3)
    do(state, 0, "pick NV small")
    assert GAME.ai_action(state, 0, Rng(1)).text() == "pick NV small"
    rng = Rng(2)
    while state.phase == "play":
        for s in GAME.to_act(state):
            a = GAME.ai_action(state, s, rng)
            assert a in GAME.legal_actions(state, s)
            GAME.apply_in_place(state, s, a)


def test_ai_respects_florida_margin_and_cap():
    from engines.rng import Rng
    state = new(2)
    # Alice alone in Florida with 1 point: a second pyramid there makes it pay 29.
    round_of(state, "pick FL small", "pick MT small")
    picks = [GAME.ai_action(state, 0, Rng(k)) for k in range(40)]
    assert sum(a.state == "FL" for a in picks) >= 30
    # with three pyramids in Florida it never tries a fourth
    for size in ("small", "small"):
        round_of(state, f"pick FL {size}", "pick MT small")
    assert all(GAME.ai_action(state, 0, Rng(k)).state != "FL" for k in range(40))


def test_ai_is_not_predictable():
    """Close calls are drawn at random, so the AI cannot simply be shadowed."""
    from engines.rng import Rng
    varied = 0
    for seed in range(10):
        state = new(3, seed=seed, clear=False)
        rng = Rng(seed)
        for _ in range(3):
            for s in range(3):
                GAME.apply_in_place(state, s, GAME.ai_action(state, s, rng))
        picks = {GAME.ai_action(state, 0, Rng(k)).text() for k in range(40)}
        varied += len(picks) >= 2
    assert varied >= 5


# ---- the worked examples: when set-aside cards return, final scores --

def scenario_pennsylvania_tied(**opts):
    """Election Day: Alice 46 (OH, MI, NV, IA), Bob 55 (FL, VA, WI, MT),
    Carol 9 (CO); Pennsylvania is tied 3-3 between Alice and Carol and lies
    beside the map, as does North Carolina (no pyramids). Bob is second in
    Colorado and in all of Alice's states; Alice is second in Virginia,
    Wisconsin and Montana."""
    pyr = {"OH": [[2], [1], []], "MI": [[2], [1], []], "NV": [[2], [1], []], "IA": [[2], [1], []],
           "PA": [[3], [], [3]], "VA": [[1], [3], []], "WI": [[1], [3], []], "MT": [[1], [3], []],
           "FL": [[], [3], []], "CO": [[], [2], [3]]}
    hold = {"OH": 0, "MI": 0, "NV": 0, "IA": 0, "FL": 1, "VA": 1, "WI": 1, "MT": 1, "CO": 2}
    return rigged(3, pyr, hold, **opts)


def test_set_aside_cards_wait_for_the_second_recount_step_by_default():
    # The rulebook lets players claim cards beside the map only in the
    # repeated recount: Pennsylvania stays aside at the first step.
    state = scenario_pennsylvania_tied()
    assert state.options.recount_aside == "second"
    events = final(state)
    assert state.count == [46, 55, 9]
    one, two = state.recount
    assert one["leaving"] == [2] and [m["state"] for m in one["moves"]] == ["CO"]
    assert one["holders"]["PA"] is None and one["electors"] == [46, 64, None]
    assert one["aside_waiting"] == ["NC", "PA"] and two["aside_waiting"] == []  # the image says so too
    assert "second recount step" in events[-2].text and "Pennsylvania" in events[-2].text
    assert two["leaving"] == [0] and two["winner"] == 1 and two["electors"][1] == 110
    assert two["holders"]["PA"] is None  # Bob has no points there
    assert state.winner == 1 and "110" in state.outcome
    assert GAME.result(state).winners == [1]


def test_set_aside_cards_from_the_first_recount_step_with_recount_aside_first():
    state = scenario_pennsylvania_tied(recount_aside="first")
    final(state)
    one, two = state.recount
    assert {m["state"]: m["to"] for m in one["moves"]} == {"CO": 1, "PA": 0}
    assert one["aside_waiting"] == []
    assert one["electors"] == [66, 64, None]
    assert two["leaving"] == [1] and two["winner"] == 0 and two["electors"][0] == 92
    assert state.winner == 0 and "92" in state.outcome


def scenario_four_player_recount():
    """Election Day: Alice 31 (OH, VA), Bob 24 (NC, CO), Carol 16 (MI),
    Dave 45 (PA, WI, NV, IA, MT); Florida is tied 3-3 between Bob and Dave and
    lies beside the map. Carol leaves (Michigan to Bob: 40), Alice leaves
    (Ohio and Virginia to Bob: 71), Dave leaves (Pennsylvania and Wisconsin to
    Bob, Nevada, Iowa and Montana aside, Florida to Bob): Bob wins with 130."""
    pyr = {"OH": [[3], [2], [], []], "VA": [[3], [2], [], []], "MI": [[], [2], [3], []],
           "NC": [[], [1], [], []], "CO": [[], [1], [], []], "FL": [[], [3], [], [3]],
           "WI": [[], [1], [], [3]], "PA": [[], [1], [], [3]], "MT": [[], [], [], [2]],
           "NV": [[], [], [], [2]], "IA": [[], [], [], [2]]}
    hold = {"OH": 0, "VA": 0, "NC": 1, "CO": 1, "MI": 2, "WI": 3, "PA": 3, "MT": 3, "NV": 3, "IA": 3}
    return rigged(4, pyr, hold)


@pytest.mark.parametrize("recount_aside", ["second", "first"])
def test_final_scores_are_the_electors_that_decided_the_game(recount_aside):
    state = scenario_four_player_recount()
    state.options = USPOptions(recount_aside=recount_aside)
    final(state)
    assert state.count == [31, 24, 16, 45]
    assert [s["leaving"] for s in state.recount] == [[2], [0], [3]]
    assert [s["leaving_electors"] for s in state.recount] == [16, 31, 45]
    assert state.winner == 1 and state.recount[-1]["electors"][1] == 130
    result = GAME.result(state)
    assert result.winners == [1]
    assert result.scores == [31.0, 130.0, 16.0, 45.0]


def test_final_scores_without_a_recount_or_without_a_president():
    state = rigged(3, {"FL": [[3], [], []], "PA": [[3], [], []], "OH": [[3], [], []], "NV": [[3], [], []]},
                   {"FL": 0, "PA": 0, "OH": 0, "NV": 0})
    final(state)
    assert GAME.result(state).scores == [73.0, 0.0, 0.0]
    state = scenario_returning_card()
    final(state)
    # nobody wins: everyone's score is what they had when they left
    assert GAME.result(state).scores == [float(s["leaving_electors"]) for s in state.recount][::-1]
