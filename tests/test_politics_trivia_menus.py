"""Trivia's menus keep their meaning (issue #26): within a phase, item 1 is always the same kind of
choice (it never opens the move menu in one turn and moves you to Alaska in the next), lists of
states are chosen region first within Discord's 25 options, and no label is cut."""
from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings, strategies as st

from bot.messages import Button, Ctx, Select
from bot.service.boards import GROUP, Boards
from bot.store.game_row import GameRecord, Player
from engines import SYSTEM, Seat
from engines.politics_trivia import GAME
from engines.politics_trivia.board import CODES
from engines.politics_trivia.game import Timeout
from engines.politics_trivia.menus import REGIONS
from engines.rng import Rng
from tests.helpers import CH, GUILD, menu_items, service_on
from tests.test_politics_trivia_bot import alice, bob, new_game, state_of

BOARDS = Boards(render=False)


def record(n: int) -> GameRecord:
    return GameRecord(game=GAME.id, status="playing", host="p0", seed=1, acted=[0] * n,
                      players=[Player(id=f"p{i}", name=f"P{i}") for i in range(n)])


def first_item(state, seat: int, rec: GameRecord):
    """What item 1 does: (its verb, "moves" when choosing it makes the move, "opens" when it leads to
    another menu), or None without a menu."""
    menu = menu_items(BOARDS.controls("c", rec, GAME, state, seat))
    if not menu:
        return None
    _label, path = menu[0]
    go = path.endswith(" !")
    words = path.removesuffix(" !").split()
    move = tuple(w for w in words if not w.startswith(GROUP))
    legal = [tuple(a.tokens()) for a in GAME.legal_actions(state, seat)]
    complete = move in legal and not any(w.startswith(GROUP) for w in words)
    longer = any(len(t) > len(move) and t[:len(move)] == move for t in legal)
    return move[0], "moves" if complete and (go or not longer) else "opens"


def phase_key(state, seat: int) -> tuple:
    """A phase as the player meets it: the game's phase and the seat's part in it."""
    ph = state.phase
    part = ""
    if ph in ("start", "move", "choose", "claim"):
        part = "turn" if seat == state.turn else "other"
    elif ph == "question" and state.q is not None:
        q = state.q
        part = "asker" if seat == q.asker else "helper" if seat == q.helper else "other"
    elif ph == "wildcard" and state.wild is not None:
        part = ("performer" if seat == state.wild.performer else "other") + "-" + state.wild.stage
    elif ph == "homes":
        part = "dealt" if state.players[seat].dealt else "home"
    return ph, part


def play(n: int, seed: int, picks: list[int], observe) -> None:
    state = GAME.setup([Seat(name=f"P{i}") for i in range(n)], GAME.options({"max_rounds": 4}), seed)
    rng = Rng(seed)
    for pick in picks:
        if GAME.result(state).finished:
            return
        for seat in range(n):
            observe(state, seat)
        waiting = [s for s in range(n) if GAME.may_act(state, s) and GAME.legal_actions(state, s)]
        if not waiting:
            GAME.apply_in_place(state, SYSTEM, Timeout())
            continue
        seat = waiting[pick % len(waiting)]
        if rng.random() < 0.7 and seat in GAME.to_act(state):
            action = GAME.ai_action(state, seat, GAME.ai_rng(state, seat, pick))  # sensible play reaches far
        else:
            legal = GAME.legal_actions(state, seat)
            action = legal[pick % len(legal)]
        GAME.apply_in_place(state, seat, action)


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6), st.lists(st.integers(0, 10**6), min_size=40, max_size=120))
def test_item_one_means_the_same_within_a_phase(n, seed, picks):
    kinds: dict[tuple, set] = defaultdict(set)
    firsts: dict[tuple, list[tuple[str, frozenset]]] = defaultdict(list)
    rec = record(n)

    def observe(state, seat):
        first = first_item(state, seat, rec)
        if first is None:
            return
        key = phase_key(state, seat)
        verb, kind = first
        kinds[key + (verb,)].add(kind)
        firsts[key].append((verb, frozenset(a.verb for a in GAME.legal_actions(state, seat))))

    play(n, seed, picks, observe)
    for key, seen in kinds.items():
        assert len(seen) == 1, f"item 1 ({key[-1]}) both moves and opens a menu in {key[:-1]}"
    for key, seen in firsts.items():
        for verb_a, open_a in seen:
            for verb_b, open_b in seen:
                assert verb_a == verb_b or not {verb_a, verb_b} <= open_a & open_b, (
                    f"in {key}, item 1 is {verb_a} in one prompt and {verb_b} in another with both open")


def test_after_a_roll_item_one_never_moves_you_whether_or_not_a_card_is_playable():
    """The reported accident, both ways: with a Gerrymander card to play, and without."""
    for playable in (False, True):
        state = GAME.setup([Seat(name="A"), Seat(name="B")], GAME.options({}), 11)
        state.phase, state.turn, state.dice = "move", 0, [1, 1]
        for p, home in zip(state.players, ("WA", "TX")):
            p.dealt, p.home, p.at = [], home, home
        state.players[0].hand = []
        if playable:
            from engines.politics_trivia.board import GERRY
            card = next(c for c in GERRY.values() if not c.need_chips)
            state.players[0].hand = [card.id]
            state.players[0].cash = 50
            state.players[0].pv = 50
        verbs = {a.verb for a in GAME.legal_actions(state, 0)}
        assert ("play" in verbs) == playable
        assert first_item(state, 0, record(2)) == ("move", "opens")


def test_the_home_state_menu_is_chosen_region_first_within_25_options():
    state = GAME.setup([Seat(name="A"), Seat(name="B")], GAME.options({}), 2)
    for p in state.players:
        p.dealt = []
    chooser = state.home_order[0]
    rec = record(2)
    rows = BOARDS.controls("c", rec, GAME, state, chooser)
    menu = menu_items(rows)
    assert [label.split(":")[0].split(" (")[0] for label, _ in menu] == [r for r, _ in REGIONS]
    seen = []
    for _label, path in menu:
        rows = BOARDS.controls("c", rec, GAME, state, chooser, tuple(path.split()))
        for row in rows:
            for item in row:
                assert not isinstance(item, Select) or len(item.options) <= 25
        group = menu_items(rows)
        assert group[-1][0] == "← Back" and group[-1][1] == ""
        seen += [p.split()[-1] for _l, p in group[:-1]]
    assert sorted(seen) == sorted(c for c in CODES if c != "DC")  # every state, once, D.C. never


def test_every_region_lists_the_states_it_holds():
    regions = [c for _r, codes in REGIONS for c in codes]
    assert sorted(regions) == sorted(CODES) and max(len(c) for _r, c in REGIONS) <= 25


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6), st.lists(st.integers(0, 10**6), min_size=30, max_size=120))
def test_no_label_is_cut(n, seed, picks):
    """A choice says all it does: every label of every step fits whole (nothing ends in '…')."""
    rec = record(n)

    def observe(state, seat):
        menu = menu_items(BOARDS.controls("c", rec, GAME, state, seat))
        for label, path in menu:
            assert not label.endswith("…"), label
            if not path.endswith(" !") and path:  # one step deeper
                for deeper, _p in menu_items(BOARDS.controls("c", rec, GAME, state, seat, tuple(path.split()))):
                    assert not deeper.endswith("…"), deeper

    play(n, seed, picks, observe)


async def test_a_region_then_a_state_through_the_bot_layer(database):
    """The two-step choice as Discord and the table send it: a region's button (its custom id carries
    the group word), then the state from that region's select; Back returns to the regions."""
    svc = await service_on(database)
    await new_game(svc, alice, bob)
    s = await state_of(svc)
    players = [alice, bob]
    for seat, p in enumerate(players):
        await svc.handle(Ctx(p, CH, GUILD), "do", {"action": f"discard {s.players[seat].dealt[0]}"})
    chooser = players[s.home_order[0]]
    me = Ctx(chooser, CH, GUILD)
    panel = (await svc.handle(me, "hand", {}))[0]
    regions = [b for row in panel.rows for b in row if isinstance(b, Button)]
    assert [b.label.split(":")[0] for b in regions] == ["Northeast", "Midwest", "South", "West"]
    west = regions[3]
    step = (await svc.component(me, west.custom_id))[0]
    assert step.to == "edit" and "home West" in step.text
    select = next(i for row in step.rows for i in row if isinstance(i, Select))
    assert len(select.options) == 13 and ("home state Oregon", "OR") in select.options
    back = next(i for row in step.rows for i in row if isinstance(i, Button) and i.label == "← Back")
    again = (await svc.component(me, back.custom_id))[0]
    assert [b.label for row in again.rows for b in row] == [b.label for b in regions]
    await svc.component(me, select.custom_id, ["OR"])
    s = await state_of(svc)
    assert s.players[s.home_order[0]].home == "OR"
    await svc.store.close()
