"""Sentences that fit the person (issue #26): the wording helper, seat targets ('me', prefixes), and every
engine sentence met in seeded games read grammatically both for the table's "you" and for a name."""
import re
from random import Random

import pytest

from engines import get_game
from engines.core import RuleError, Seat, resolve_seat
from engines.wording import base_form, card_for, is_you, object_of, possessive, reflexive, subject, verb_for
from render.text import text_board

GAMES = ["primary-general", "us-president", "politics-1952", "race-white-house", "politics-trivia"]

# A verb written for a name after "you" ("you plays", "you has"), "you's", "you … themself",
# and a verb after a parenthesis the table's fix-up cannot see past ("You (Democrat) chooses").
WRONG_FOR_YOU = re.compile(r"\b[Yy]ou (?:is|has|was|does|[a-z]+[^s'u]s)\b|\b[Yy]ou's\b"
                           r"|\b[Yy]ou\b[^.!?]{0,60}\bthemself\b"
                           r"|\b[Yy]ou \([^)]*\) (?:is|has|was|[a-z]+[^s'u]s)\b")
# A second verb of a sentence about "you" written for a name ("You roll 4 and lands on …").
SECOND_VERB = re.compile(r"(?:^|[.!] |#game )You\b[^.;:!?]{0,80}?(?:,| and| but) (?:is|has|was|[a-z]+[^s'u]s)\b")
# ... unless "you" is an object there ("gives you votes", "beats you 3 to 1").
YOU_AS_OBJECT = re.compile(r"(?:\b(?:to|for|with|from|than|by|of|at|against|on|beats?|gives?|pays?|tells?|lets?|"
                           r"makes?|helps?|asks?|sends?|shows?|offers?|costs?|owes?|directs?|judges?|names?|"
                           r"thanks?|leaves?|and|or)|,)\s*$")


@pytest.mark.parametrize("verb, you", [("plays", "play"), ("is", "are"), ("has", "have"), ("was", "were"),
                                       ("flies", "fly"), ("passes", "pass"), ("watches", "watch"),
                                       ("goes", "go"), ("chooses", "choose"), ("wins", "win")])
def test_a_verb_written_for_a_name_agrees_with_you(verb, you):
    assert base_form(verb) == you
    assert verb_for("you", verb) == you and verb_for("Alice", verb) == verb


def test_subject_possessive_and_reflexive_fit_the_seat():
    assert subject("you", "chooses", start=True) == "You choose"
    assert subject("you", "is") == "you are"
    assert subject("Alice", "chooses", start=True) == "Alice chooses"
    assert possessive("you") == "your" and possessive("you", start=True) == "Your"
    assert possessive("Alice") == "Alice's"
    assert reflexive("you") == "yourself" and reflexive("Alice") == "themself"
    assert object_of("Alice", by="Alice") == "themself" and object_of("you", by="you") == "yourself"
    assert object_of("Bob", by="Alice") == "Bob" and object_of("you", by="Alice") == "you"
    assert is_you(" You ") and not is_you("Youssef")


def test_an_ai_is_never_named_you():
    from bot.table import ME
    assert ME == "you"
    game = get_game("primary-general")
    names = [s.name for s in game.setup([Seat(name="you"), Seat(name="AI-Lincoln", bot=True)],
                                        game.options({}), 1).seats]
    assert [is_you(n) for n in names] == [True, False]


# ---- targets ------------------------------------------------------------------------------
NAMES = ["Alice", "Alfred", "Bob", "you"]


@pytest.mark.parametrize("token, seat", [("2", 1), ("bob", 2), ("@Bob", 2), ("b", 2), ("alic", 0), ("alf", 1),
                                         ("me", 3), ("Myself", 3), ("you", 3)])
def test_a_target_is_a_number_a_name_a_prefix_or_me(token, seat):
    assert resolve_seat(NAMES, token, me=3) == seat


def test_me_is_the_seat_asking():
    assert resolve_seat(NAMES, "me", me=0) == 0
    with pytest.raises(RuleError, match="no player 'me'"):
        resolve_seat(NAMES, "me")  # nobody asking: 'me' names nobody


def test_an_ambiguous_prefix_lists_the_candidates():
    with pytest.raises(RuleError) as caught:
        resolve_seat(NAMES, "al", me=2)
    assert str(caught.value) == "'al' could be Alice or Alfred: type more of the name."


def test_a_player_named_me_is_still_themself():
    assert resolve_seat(["me", "Bob"], "me", me=1) == 0


def test_play_on_me_targets_the_player_asking():
    game = get_game("primary-general")
    state = game.setup([Seat(name="you"), Seat(name="Alice")], game.options({}), 3)
    for seat in (0, 1):
        plays = [a for a in game.legal_actions(state, seat) if isinstance(getattr(a, "target", None), str)
                 and not a.target.startswith("c") and a.target != "none"]
        if plays:
            break
    else:
        raise AssertionError("seed 3 deals no card aimed at a player: pick a seed that does")
    own = next((a for a in plays if resolve_seat(["you", "Alice"], a.target) == seat), None)
    assert own is not None
    _state, events = game.apply(state, seat, own.model_copy(update={"target": "me"}))
    text = " ".join(e.text for e in events)
    assert "on yourself" in text if seat == 0 else "on themself" in text


# ---- every sentence met in seeded games ----------------------------------------------------
def sentences(game_id: str, seed: int, first: str) -> list[str]:
    """Public texts and the first seat's own texts of a seeded game (half AI moves, half random legal
    ones), with the status line and the first seat's private panel after every move and the text board
    after every fifth; the first seat is named `first`."""
    game = get_game(game_id)
    others = ["Alice", "Bob", "Carol", "Dan"][:game.min_players - 1]
    seats = [Seat(name=first)] + [Seat(name=n) for n in others]
    state = game.setup(seats, game.options({}), seed)
    pick = Random(seed).random
    texts: list[str] = []
    for moves in range(2500):
        if game.result(state).finished:
            break
        acting = [s for s in game.to_act(state) if s >= 0]
        if not acting:
            timer = game.timer(state)
            assert timer is not None
            seat, action = timer.seat, game.parse_action(timer.action_text)
        else:
            seat = acting[int(pick() * len(acting))]
            legal = game.legal_actions(state, seat)
            if legal and pick() < 0.5:
                action = legal[int(pick() * len(legal))]
            else:
                action = game.ai_action(state, seat, game.ai_rng(state, seat, moves))
        events = game.apply_in_place(state, seat, action)
        texts += [e.text for e in events if e.to is None or 0 in e.to]
        panel = [line for line in game.private_text(state, 0).split("\n") if not line.startswith("• ")]  # not cards
        texts += [game.status_text(state), "\n".join(panel)]
        if moves % 5 == 0:
            texts.append(text_board(game_id, dict(game.view(state, None))))
    return texts


# "you" opening a sentence or a line in lower case ("Nobody got it. you pay …"): nothing capitalises it later.
LOWER_START = re.compile(r"(?:^|[.!?] |\n|^\*\*|[.!?]\*\* )you\b")


def wrong_for_you(text: str) -> list[str]:
    return [text[max(0, m.start() - 40):m.end() + 20] for m in WRONG_FOR_YOU.finditer(text)
            if not YOU_AS_OBJECT.search(text[:m.start()])] + [m.group(0) for m in SECOND_VERB.finditer(text)] \
        + [text[max(0, m.start() - 30):m.end() + 30] for m in LOWER_START.finditer(text)]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_sentence_fits_you_at_the_table(game_id):
    wrong = [w for seed in (1, 2, 3) for t in sentences(game_id, seed, "you") for w in wrong_for_you(t)]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_named_seat_is_never_addressed_as_you(game_id):
    texts = [t for seed in (1, 2) for t in sentences(game_id, seed, "Zed")]
    assert texts
    wrong = [t for t in texts if re.search(r"\byourself\b|in your Home State|\bZed (?:are|have|were)\b"
                                            r"|endorse you\b|\byour opponent|from your opponent|you answer first", t)]
    assert not wrong, wrong[:5]


def test_the_checks_can_fail():
    assert wrong_for_you("Nobody got it. you pay each candidate $1M.") and wrong_for_you("Turn: Bob\nyou to roll.")
    assert not wrong_for_you("Nobody got it. You pay each candidate $1M; then you roll.")
    assert wrong_for_you("You (Democrat) chooses Texas.") and wrong_for_you("you has picked.")
    assert wrong_for_you("You play Tack Center on themself.") and wrong_for_you("you's rating")
    assert wrong_for_you("You (Democrat) roll 4 and lands on Farm.") and wrong_for_you("You pay $2M, but has only $1M")
    assert not wrong_for_you("AI-Lincoln gives you votes.") and not wrong_for_you("You (Democrat) choose Texas.")


def test_race_home_state_reads_for_you_and_for_a_name():
    game = get_game("race-white-house")
    for name, expected in (("you", "You (Democrat) choose Texas as Home State and place 2 votes there."),
                           ("Alice", "Alice (Democrat) chooses Texas as Home State and places 2 votes there.")):
        state = game.setup([Seat(name=name), Seat(name="Bob")], game.options({}), 1)
        _state, events = game.apply(state, 0, game.parse_action("home TX"))
        assert events[0].text == expected


# ---- cards that speak to their drawer -----------------------------------------------------
@pytest.mark.parametrize("text, named", [
    ("Teamsters endorse you", "Teamsters endorse AI-Lincoln"),
    ("Your hometown paper endorses you", "AI-Lincoln's hometown paper endorses them"),
    ("You catch the flu on the trail. Skip your next turn.",
     "AI-Lincoln catches the flu on the trail. Skip AI-Lincoln's next turn."),
    ("Your challenge: stand on one foot with your eyes closed.",
     "AI-Lincoln's challenge: stand on one foot with their eyes closed."),
])
def test_a_card_names_the_seat_that_drew_it(text, named):
    assert card_for(text, "AI-Lincoln") == named
    assert card_for(text, "you") == text


def test_no_card_speaks_to_an_ai_as_you():
    from engines.politics_trivia.cards import WILDCARDS
    from engines.race_white_house.data import SPINS
    texts = [w.text for w in WILDCARDS] + [s[1] for s in SPINS] + [s[2] for s in SPINS]
    assert any(re.search(r"\byour?\b", t, re.IGNORECASE) for t in texts)  # the cards do speak to their drawer
    wrong = [card_for(t, "AI-Lincoln") for t in texts if re.search(r"\byour?(?:self)?\b", card_for(t, "AI-Lincoln"),
                                                                      re.IGNORECASE)]
    assert not wrong, wrong[:3]


def test_a_four_player_race_tells_nobody_in_the_channel_your_sheet():
    game = get_game("race-white-house")
    state = game.setup([Seat(name=n) for n in ("Zed", "Alice", "Bob", "Carol")], game.options({}), 3)
    pick, public = Random(3).random, []
    for n in range(1500):
        if game.result(state).finished:
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        ai = game.ai_action(state, seat, game.ai_rng(state, seat, n))
        action = legal[int(pick() * len(legal))] if pick() < 0.5 else ai
        public += [e.text for e in game.apply_in_place(state, seat, action) if e.to is None] + [game.status_text(state)]
    assert any("on their sheet" in t for t in public)  # the placement prompt the status line shows
    assert not [t for t in public if re.search(r"\byour (?:sheet|Home State)\b", t)]
