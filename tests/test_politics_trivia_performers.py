"""AI seats through the performance Wildcards (issue #26): an AI performer acts in clues, an AI
guesser guesses at every stage, the card always ends and always says its answer — for human and
AI performers, on a right guess, a give-up or the clock."""
from __future__ import annotations

import re

import pytest

from engines import SYSTEM, Seat
from engines.politics_trivia import GAME, performing
from engines.politics_trivia import game as g
from engines.politics_trivia.answers import normalise
from engines.politics_trivia.game import WILD, WildState
from engines.rng import Rng

GUESSING = [c for c in WILD.values() if c.kind in ("charades", "drawing", "direct")]


def fresh(bots: tuple[bool, ...], seed: int = 1, **opts):
    names = ["alice", "bob", "carol", "dave"]
    s = GAME.setup([Seat(name=("AI-" if b else "") + names[i], bot=b) for i, b in enumerate(bots)],
                   GAME.options(opts), seed)
    for i, p in enumerate(s.players):
        if p.dealt:
            GAME.apply_in_place(s, i, g.Discard(card=p.dealt[0]))
    for seat in list(s.home_order):
        GAME.apply_in_place(s, seat, g.Home(state=["TX", "NY", "CA", "FL"][seat]))
    return s


def draw(s, card, performer=0):
    """`performer` has drawn `card` (a roll of doubles) and has yet to press perform."""
    s.turn, s.phase, s.dice, s.pending_dice = performer, "wildcard", [2, 2], 4
    s.wild = WildState(card=card.id, performer=performer)


def public(events):
    return "\n".join(e.text for e in events if e.to is None)


def run_card(s, decide_human=None, limit=200):
    """Play until the card ends: AI seats through ai_action, humans through `decide_human(state, seat)`
    (None: they do nothing), the clock whenever nobody moves. Returns every public line."""
    log = []
    for _ in range(limit):
        if s.phase != "wildcard":
            return "\n".join(log)
        moved = False
        for seat in range(len(s.seats)):
            if s.phase != "wildcard":
                break
            if seat in GAME.to_act(s) and s.seats[seat].bot:
                log.append(public(GAME.apply_in_place(s, seat, GAME.ai_action(s, seat, GAME.ai_rng(s, seat)))))
                moved = True
            elif not s.seats[seat].bot and decide_human is not None:
                action = decide_human(s, seat)
                if action is not None:
                    log.append(public(GAME.apply_in_place(s, seat, GAME.parse_action(action))))
                    moved = True
        if not moved and s.phase == "wildcard":
            assert GAME.timer(s) is not None  # nobody to move: the clock must be running
            log.append(public(GAME.apply_in_place(s, SYSTEM, g.Timeout())))
    raise AssertionError("the card never ended")


def test_every_clue_keeps_the_answer_out():
    assert set(performing.CLUES) == {c.id for c in GUESSING}
    for card in GUESSING:
        words = {w for w in normalise(card.secret).split() if len(w) > 3}
        clue = normalise(performing.CLUES[card.id])
        assert not words & set(clue.split()), card.id


def test_the_letter_clues_uncover_more_at_each_stage():
    card = WILD["charades-1"]  # Kissing babies
    assert performing.clue(card, 2) == "`K _ _ _ _ _ _ / b _ _ _ _ _`"
    assert performing.clue(card, 3) == "`K _ s _ i _ g / b _ b _ e _`"


@pytest.mark.parametrize("card", GUESSING, ids=lambda c: c.id)
def test_an_ai_performer_gives_clues_and_humans_can_guess_it(card):
    s = fresh((True, False, False))
    draw(s, card)
    seen = []

    def human(state, seat):  # carol waits for the second clue, then guesses right
        if seat == 2 and state.wild is not None and state.wild.clues >= 1:
            return f"guess {card.secret}"
        return None

    log = run_card(s, human)
    seen.append(log)
    assert f"Clue 1: {performing.clue(card, 1)}" in log
    assert f"Clue 2 from AI-alice: {performing.clue(card, 2)}" in log
    assert f"carol guesses it: **{card.secret}**" in log
    assert s.phase != "wildcard" and s.wild is None


def test_an_ai_performer_that_nobody_guesses_ends_after_its_clues_and_reveals():
    card = WILD["drawing-2"]
    s = fresh((True, False))
    draw(s, card)
    log = run_card(s)
    assert [n for n in range(1, 4) if f"Clue {n}" in log] == [1, 2, 3]
    assert "Time is up" in log and f"it was **{card.secret}**" in log
    assert s.players[0].cash == 9 and s.players[1].cash == 11  # the artist paid the other candidate $1M


def test_the_stages_share_the_cards_two_minutes():
    card = WILD["charades-3"]
    s = fresh((True, False))
    draw(s, card)
    GAME.apply_in_place(s, 0, GAME.ai_action(s, 0, GAME.ai_rng(s, 0)))
    timers = []
    while s.phase == "wildcard":
        t = GAME.timer(s)
        timers.append((t.seconds, t.key))
        GAME.apply_in_place(s, SYSTEM, g.Timeout())
    assert [x[0] for x in timers] == [40, 40, 40] and len({x[1] for x in timers}) == 3


def test_a_table_of_humans_keeps_the_one_two_minute_clock():
    s = fresh((False, False))
    draw(s, WILD["charades-3"])
    events = GAME.apply_in_place(s, 0, g.Perform())
    assert GAME.timer(s).seconds == 120 and "🤖" not in public(events)
    events = GAME.apply_in_place(s, SYSTEM, g.Timeout())
    assert "Time is up" in public(events) and s.phase != "wildcard"


@pytest.mark.parametrize("seed", range(12))
def test_ai_guessers_of_a_humans_charade_end_it_without_stalling(seed):
    """A human performs for AI seats alone: they guess at every stage (right more often as it goes
    on), and the card ends within its two minutes either way."""
    card = WILD["charades-5"]
    s = fresh((False, True, True), seed=seed, ai_accuracy=60)
    draw(s, card)
    events = GAME.apply_in_place(s, 0, g.Perform())
    assert "can't watch" in public(events)
    log = run_card(s)
    assert s.phase != "wildcard"
    assert log.count("not it") <= 2 * performing.STAGES
    assert card.secret in log  # guessed or revealed


def guessed_by_the_ai(seed: int, accuracy: int) -> bool:
    """A human performs charades-5 to one AI guesser of `accuracy`: did the AI score it?"""
    s = fresh((False, True), seed=seed, ai_accuracy=accuracy)
    draw(s, WILD["charades-5"])
    GAME.apply_in_place(s, 0, g.Perform())
    run_card(s)
    return s.players[1].pv == 10


def test_ai_guessers_get_it_at_their_accuracy():
    right = sum(guessed_by_the_ai(seed, 90) for seed in range(200))
    # one guesser, chances 0.3, 0.6, 0.9 over the stages: 1 - 0.7 * 0.4 * 0.1 = 97 %
    assert 180 <= right <= 200
    assert not any(guessed_by_the_ai(seed, 0) for seed in range(50))  # an AI that never knows never guesses right


ENDINGS = ["guess", "giveup-ready", "giveup-performing", "timeout"]


@pytest.mark.parametrize("performer_ai", [False, True], ids=["human performer", "AI performer"])
@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("kind", ["charades", "drawing", "direct"])
def test_every_ending_says_the_answer(kind, ending, performer_ai):
    card = next(c for c in GUESSING if c.kind == kind)
    s = fresh((performer_ai, False, False))
    draw(s, card)
    log = []
    if ending == "giveup-ready":
        log.append(public(GAME.apply_in_place(s, 0, g.GiveUp())))
    else:
        perform = GAME.ai_action(s, 0, GAME.ai_rng(s, 0)) if performer_ai else GAME.parse_action(
            "perform bob" if kind == "direct" else "perform")
        log.append(public(GAME.apply_in_place(s, 0, perform)))
        assert card.secret not in log[-1]
        if ending == "guess":
            log.append(public(GAME.apply_in_place(s, 2, GAME.parse_action(f"guess {card.secret}"))))
        elif ending == "giveup-performing":
            log.append(public(GAME.apply_in_place(s, 0, g.GiveUp())))
        else:
            while s.phase == "wildcard":
                log.append(public(GAME.apply_in_place(s, SYSTEM, g.Timeout())))
    assert s.phase != "wildcard"
    assert re.search(rf"\*\*{re.escape(card.secret)}\*\*", log[-1]), log[-1]  # the last message says it


def test_ai_only_tables_still_play_wildcards_through():
    """All-AI games with Wildcards run to their end (no card waits for a human who is not there)."""
    for seed in range(3):
        s = GAME.setup([Seat(name=f"AI-{i}", bot=True) for i in range(3)], GAME.options({"max_rounds": 6}), seed)
        rng = Rng(seed)
        for _ in range(5000):
            if GAME.result(s).finished:
                break
            waiting = GAME.to_act(s)
            if waiting:
                seat = waiting[0]
                GAME.apply_in_place(s, seat, GAME.ai_action(s, seat, GAME.ai_rng(s, seat, rng.below(10**6))))
            else:
                GAME.apply_in_place(s, SYSTEM, g.Timeout())
        assert GAME.result(s).finished


@pytest.mark.parametrize("seed", range(6))
def test_an_ai_performer_with_an_ai_guesser_and_a_human_through_a_full_card(seed):
    card = WILD["direct-2"]
    s = fresh((True, True, False), seed=seed)
    draw(s, card)
    log = run_card(s)
    assert s.phase != "wildcard" and "Clue 1" in log
    assert f"**{card.secret}**" in log.split("Clue 1")[-1]  # said at the end, guessed or not
    assert s.wild is None


def test_a_performer_whose_player_left_gives_the_ai_clues():
    """A player who leaves hands their seat to the AI (the bot's logged `handover`): when that seat
    then draws a guessing card, it performs as an AI seat does, in clues, not as an absent human."""
    card = WILD["drawing-2"]
    s = fresh((False, False))
    assert GAME.apply_in_place(s, SYSTEM, GAME.parse_action("handover 0")) == []
    assert s.seats[0].bot and not s.seats[1].bot
    s = GAME.load(GAME.dump(s))  # the hand-over is in the state, as saved
    draw(s, card)
    log = run_card(s)
    assert [n for n in range(1, 4) if f"Clue {n}" in log] == [1, 2, 3]
    assert "Time is up" in log and f"it was **{card.secret}**" in log


def test_a_performance_keeps_its_clock_when_a_player_leaves_during_it():
    """Humans only: one two-minute clock. A guesser who leaves halfway becomes an AI seat, but the
    running card does not switch to the house rule's stages (its clock would change halfway)."""
    s = fresh((False, False, False))
    draw(s, WILD["charades-3"])
    GAME.apply_in_place(s, 0, g.Perform())
    key = GAME.timer(s).key
    GAME.apply_in_place(s, SYSTEM, GAME.parse_action("handover 2"))
    assert s.seats[2].bot and GAME.timer(s).seconds == 120 and GAME.timer(s).key == key
    events = GAME.apply_in_place(s, SYSTEM, g.Timeout())
    assert "Time is up" in public(events) and s.phase != "wildcard"
    draw(s, WILD["charades-3"], performer=1)  # the next card starts with an AI seat at the table: staged
    GAME.apply_in_place(s, 1, g.Perform())
    assert GAME.timer(s).seconds == 40
