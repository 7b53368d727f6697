"""Politics: The Game (trivia) as text: every candidate's EV, Popular Votes, cash, chips and
position; whose turn and what they are doing; and whatever is open: the question with its
choices, a help offer, a chip deal, a Wildcard, a runoff or speed-play duel."""
from __future__ import annotations

from engines.politics_trivia.views import PlayerView, TriviaView
from engines.wording import possessive, subject

from . import LETTERS, listing, plain, plural, table

PHASES = {"homes": "setup: choosing home states", "turn": "a turn", "dc": "a turn in D.C.",
          "question": "answering a question", "help": "answering a question (help being arranged)",
          "offer": "an offer for a chip",
          "wildcard": "a Wildcard", "runoff": "the runoff", "speed": "speed play", "over": "game over"}


STEPS = {"start": "to roll or fly (in D.C.: or stay)", "move": "to move {steps} steps",
         "choose": "to ask a question (state, general or government), or offer for the chip",
         "claim": "may claim D.C.'s chip"}


def _money(m: int) -> str:
    return f"-${-m}M" if m < 0 else f"${m}M"


def _present(*notes) -> list[str]:
    """The notes whose condition holds; a note is a text, or a function making it (so a
    note about a missing value is never formatted)."""
    return [text() if callable(text) else text for shown, text in notes if shown]


def name_of(view: TriviaView, seat: int | None, nobody: str = "nobody") -> str:
    """A seat's name, or `nobody` (render.text.name_of reads any game's view; this one is typed)."""
    players = view["players"]
    return players[seat]["name"] if seat is not None and 0 <= seat < len(players) else nobody


def _price(price: int, unit: str) -> str:
    return _money(price) if unit == "cash" else f"{price}M Popular Votes"


def _player_row(view: TriviaView, seat: int, p: PlayerView) -> list[str]:
    notes = _present((p.get("out"), "out"),
                     (p.get("dc_turns"), lambda: f"D.C. turn {p['dc_turns']} of 4"),
                     (p.get("debt"), lambda: f"owes {_money(p['debt'])}"),
                     (p.get("skip"), lambda: f"skips {plural(int(p['skip']), 'turn')}"),
                     (p.get("wrapup"), "voted wrapup"))
    chips = listing(sorted(p.get("chips", [])), "-")
    return [f"{LETTERS[seat]} {p['name']}", str(p.get("ev", 0)), f"{p.get('pv', 0)}M", _money(int(p.get("cash", 0))),
            f"{p.get('at') or '-'} (home {p.get('home') or '-'})", str(p.get("cards", 0)), ", ".join(notes) or "-",
            chips]


def _question(view: TriviaView) -> list[str]:
    q = view.get("question")
    if not q:
        return []
    where = f", about {q['state']}" if q.get("state") else ""
    lines = [f"Question ({q.get('category')}{where}): {plain(q.get('text'))}"]
    choices = q.get("choices") or []
    lines += [f"  {k}. {plain(c)}" for k, c in enumerate(choices, 1)]
    if q.get("asker") is not None:
        lines.append(f"  {subject(name_of(view, q['asker']), 'answers', start=True)}"
                     + (f", helped by {name_of(view, q['helper'])}" if q.get("helper") is not None else "") + ".")
    offers = [f"{name_of(view, s)} for {_price(price, unit)}" for s, price, unit in q.get("offers", [])]
    if offers:
        lines.append(f"  Help offered: {listing(offers)} (hire one, or answer alone).")
    if q.get("answered"):
        answered = q["answered"]
        lines.append(f"  Answers in: {sum(1 for a in answered if a)} of {len(answered)} (secret until all are in).")
    return lines


def _open(view: TriviaView) -> list[str]:
    lines = _question(view)
    deal = view.get("deal")
    if deal:
        offer = [x for x in (_money(deal["cash"]) if deal.get("cash") else "",
                             f"{deal['pv']}M Popular Votes" if deal.get("pv") else "",
                             f"chips {listing(deal['chips'])}" if deal.get("chips") else "") if x]
        if deal.get("accepted"):
            answer = "accepted (the chip changes hands if the question is answered right)"
        elif view.get("phase") == "offer":
            answer = f"waiting for {name_of(view, deal.get('holder'))}: deal yes or deal no"
        else:
            answer = "declined"
        buyer = subject(name_of(view, deal.get('buyer')), 'offers')
        lines.append(f"Offer: {buyer} {name_of(view, deal.get('holder'))} {listing(offer, 'nothing')} "
                     f"for the {deal.get('state')} chip: {answer}.")
    w = view.get("wildcard")
    if w:
        lines.append(f"Wildcard ({w.get('kind')}) for {name_of(view, w.get('performer'))}: {plain(w.get('text'))}")
        stage = _present((True, f"stage: {w.get('stage')}"),
                         (w.get("actor") is not None, lambda: f"actor {name_of(view, w['actor'])}"),
                         (w.get("words"), lambda: f"the secret has {plural(w['words'] or 0, 'word')}"),
                         (w.get("votes"), lambda: f"{plural(w['votes'], 'judge')} voted"),
                         (w.get("seconds"), lambda: f"{w['seconds']} s on the clock"))
        lines.append("  " + "; ".join(stage) + ".")
    r = view.get("runoff")
    if r:
        a, b = r["seats"]
        label = "Runoff" if r.get("kind") == "runoff" else "Speed play"
        lines.append(f"{label}: {name_of(view, a)} {r['scores'][0]} - {r['scores'][1]} {name_of(view, b)}, "
                     f"question {r.get('question')} of {r.get('questions')}"
                     + (f"; next up: {listing([name_of(view, s) for s in r['queue']])}" if r.get("queue") else "")
                     + ".")
        rev = r.get("revealed")
        if rev:
            answers = [f"{name_of(view, s)} '{plain(str(ans or ''))}' {'right' if ok else 'wrong'}"
                       for s, ans, ok in zip(r["seats"], rev.get("answers", []), rev.get("verdicts", []))]
            lines.append(f"  Answer: {plain(str(rev.get('answer')))}; {listing(answers)} (others may overrule).")
    return lines


def _turn(view: TriviaView) -> str:
    phase = view.get("phase")
    if phase == "over":
        return plain(view.get("outcome", "")) or "Game over."
    if phase == "homes":
        chooser = view.get("chooser")
        return (f"{subject(name_of(view, chooser), 'chooses', start=True)} a home state." if chooser is not None
                else "Waiting for Gerrymander cards to be returned.")
    bits = []
    if view.get("turn") is not None:
        bits.append(f"{possessive(name_of(view, view['turn']), start=True)} turn")
    dice = sum(view.get("dice") or [])
    bits.append(STEPS.get(view.get("step"), "").format(steps=dice) or PHASES.get(phase, str(phase)))
    this_turn = view.get("step") not in ("start", "h2h", "review", "over", "homes")  # else dice and route are old
    rolled, path = view["dice"], view["path"]
    if rolled and this_turn:
        bits.append(f"dice {'+'.join(map(str, rolled))}")
    if path and this_turn:
        bits.append(f"route {' > '.join(path)}")
    return " · ".join(bits) + "."


def board(view: TriviaView) -> str:
    limit = f"/{view['max_rounds']}" if view.get("max_rounds") else ""
    lines = [f"Politics: The Game · round {view.get('round', 0)}{limit} · {view.get('majority')} EV "
             f"and the most Popular Votes win · {_turn(view)}"]
    if view.get("headline") and view.get("phase") != "over":
        lines.append(f"Last: {plain(view['headline'])}")
    rows = [["", "EV", "PV", "cash", "at", "cards", "notes", "chips"]]
    rows += [_player_row(view, s, p) for s, p in enumerate(view.get("players", []))]
    lines += table(rows, align="lrrrlrll")
    played = [f"{p['name']}: " + listing([c["title"] for c in p["played_cards"]])
              for p in view.get("players", []) if p.get("played_cards")]
    if played:
        lines.append(f"Gerrymander cards played: {'; '.join(played)}.")
    lines += _open(view)
    chips = view.get("chips", {})
    ev = view.get("ev", {})
    free = sorted((c for c, holder in chips.items() if holder is None), key=lambda c: (-ev.get(c, 0), c))
    lines.append(f"Free chips ({len(free)}): " + listing([f"{c} {ev.get(c, '?')}" for c in free]) + ".")
    if view.get("wrapup_votes"):
        lines.append(f"Wrapup votes: {view['wrapup_votes']} (a majority starts speed play).")
    lines.append(f"Gerrymander deck: {view.get('gerrymander_deck', 0)} cards.")
    return "\n".join(lines)


def summary(view: TriviaView) -> str:
    who = [f"{p['name']} {p.get('ev', 0)} EV, {p.get('pv', 0)}M votes, {_money(int(p.get('cash', 0)))}, "
           f"in {p.get('at') or '-'}" for p in view.get("players", [])]
    q = view.get("question")
    asked = f" Open question: {plain(q.get('text'))}" if q else ""
    return (f"Politics: The Game map, round {view.get('round', 0)}. {_turn(view)} "
            f"{'; '.join(who)}.{asked}")
