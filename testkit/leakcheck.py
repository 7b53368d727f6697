"""A leak check that sees partial leaks.

The secrets are taken from the engine's own views, not from the bot's texts:
whatever a seat's view holds that the public view doesn't (each card of a hand,
a secret pick, a typed answer, an open question's answer where it is secret) is
cut into tokens (each text, and a small record's values read together, "FL
large"). Then every message the channel or another player receives (content,
button labels, menu options, image alt text, the text board) must contain none
of them. One hand line in a notice is found as surely as a whole hand.

A token stops being secret once the public view holds it (a card played, an
answer revealed), and the step in which it leaves its seat's view (played,
revealed) may name it; so may any step a token two seats hold (copies of one card
can't be told apart). Lone lowercase words (card ids, move words) are no
tokens: plain English says them too; a card's title catches the same leak.

    watch = LeakWatch(fake, service, channel)
    await watch.observe()      # after every step of the game (a click, a command)
    assert not watch.found, watch.found
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from testkit.fakediscord.markup import shows

MIN_TOKEN = 4  # shorter texts ("FL", "24") are everywhere in public text


def _telling(token: str) -> bool:
    """A token that names something: a title, a phrase, a pick ("Voter ADHD", "FL large").
    A lone lowercase word is a move word or card id ("cities", "labor"), which plain
    English says too; the card's title catches the same leak."""
    return len(token) >= MIN_TOKEN and any(c.isalpha() for c in token) and (
        " " in token or any(c.isupper() for c in token))


def secret_parts(own: Any, public: Any) -> list[Any]:
    """What a seat's view holds beyond the public view: keys the public view lacks,
    and values that differ (a list of cards where the public view has a count)."""
    if isinstance(own, dict) and isinstance(public, dict):
        out = []
        for key, value in own.items():
            if key == "you":
                continue  # the seat's own number
            out += [value] if key not in public else secret_parts(value, public[key])
        return out
    if isinstance(own, list) and isinstance(public, list) and len(own) == len(public):
        return [part for a, b in zip(own, public) for part in secret_parts(a, b)]
    return [] if own == public else [own]


def tokens(node: Any) -> set[str]:
    """The texts a secret can be recognised by: each text in it, and the values of
    a small record or pair read together (a pick {"state": "FL", "size": "large"} is "FL large")."""
    out: set[str] = set()

    def walk(n: Any) -> None:
        if isinstance(n, (dict, list)):
            values = list(n.values()) if isinstance(n, dict) else n
            scalars = [str(v) for v in values if isinstance(v, (str, int)) and not isinstance(v, bool)]
            if 1 < len(scalars) == len(values) <= 3:
                out.add(" ".join(scalars))  # a record read together: {"state": "VA", "size": "large"}, ["VA", "large"]
            for v in values:
                walk(v)
        elif isinstance(n, str):
            out.add(n.strip())

    walk(node)
    return {t for t in out if _telling(t)}


def texts_of(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [t for v in node.values() for t in texts_of(v)]
    if isinstance(node, list):
        return [t for v in node for t in texts_of(v)]
    return [str(node)] if isinstance(node, str) else []


@dataclass
class Snapshot:
    secret: dict[int, set[str]]  # seat -> tokens only that seat's view holds
    public: str  # every text of the public view (and the game's rules), one string

    def is_public(self, token: str) -> bool:
        return token in self.public


def snapshot(game, state) -> Snapshot:
    public_view = game.view(state, None)
    # every text of the public view, and its small records read together ("MI small" once revealed)
    public = "\n".join(texts_of(public_view) + sorted(tokens(public_view)) + [game.rules_text, game.summary])
    secret = {}
    for seat in range(len(getattr(state, "seats", []) or [])):
        found = tokens(secret_parts(game.view(state, seat), public_view))
        secret[seat] = {t for t in found if t not in public}
    return Snapshot(secret, public)


def leaks_in(before: Snapshot, after: Snapshot, owners: dict[int, str | None],
             seen: list[tuple[str | None, str]]) -> list[str]:
    """Messages of one step against the secrets held before or after it. `seen` is
    (audience, text): audience None is the channel, else the user id who sees it;
    `owners` maps a seat to its player's user id (None for AI seats)."""
    seats_of = {uid: seat for seat, uid in owners.items() if uid}
    # What left a seat's hand in this step was played or revealed by it: the step may name it
    # (two copies of one card can't be told apart, so another seat's copy is no secret then).
    released = set().union(*(held - after.secret.get(seat, set()) for seat, held in before.secret.items()))
    # A card two seats hold can't be attributed: bob naming his copy says nothing of alice's.
    holders: dict[str, set[int]] = {}
    for snap in (before, after):
        for seat, held in snap.secret.items():
            for token in held:
                holders.setdefault(token, set()).add(seat)
    released |= {token for token, seats in holders.items() if len(seats) > 1}
    found = []
    for seat, held in before.secret.items():
        still = {t for t in held | after.secret.get(seat, set())
                 if not after.is_public(t) and not before.is_public(t) and t not in released}
        if not still:
            continue
        for audience, text in seen:
            if audience is not None and audience == owners.get(seat):
                continue  # their own secret
            mine = seats_of.get(audience) if audience is not None else None
            known = before.secret.get(mine, set()) | after.secret.get(mine, set()) if mine is not None else set()
            for token in still:
                # what the reader holds themselves, even inside a longer text of theirs
                # ("-3 Electability, +5 Affiliation" is theirs, so "+5 Affiliation" is too)
                if token in text and not any(token in k for k in known):
                    where = "the channel" if audience is None else f"user {audience}"
                    found.append(f"{where} saw seat {seat}'s {token!r} in {text[:120]!r}")
    return found


def visible_text(m) -> str:
    """All of a fake Discord message a reader sees: content as shown, button labels,
    menu options and placeholders, image alt texts."""
    parts = [m.content, shows(m.content)] + list(getattr(m, "descriptions", []) or [])
    for row in m.components:
        for c in row.get("components", []):
            parts += [c.get("label") or "", c.get("placeholder") or ""]
            parts += [f"{o.get('label', '')}\n{o.get('value', '')}" for o in c.get("options", [])]
    return "\n".join(parts)


@dataclass
class LeakWatch:
    """Follows one channel's game in the fake Discord, step by step."""
    fake: Any
    service: Any
    channel: str
    found: list[str] = field(default_factory=list)
    secrets: dict[str, set[str]] = field(default_factory=dict)  # user id -> every token ever secret to them
    _last: Snapshot | None = None
    _versions: dict[str, int] = field(default_factory=dict)  # message id -> versions already checked

    def _new_messages(self) -> list[tuple[str | None, str]]:
        seen = []
        for m in self.fake.sent:
            count = max(1, len(getattr(m, "versions", []) or []))
            if m.deleted or self._versions.get(m.id, 0) >= count:
                continue
            self._versions[m.id] = count
            if m.channel_id == self.channel or m.visible_to is not None:
                seen.append((m.visible_to, visible_text(m)))
        return seen

    async def observe(self) -> None:
        loaded = await self.service.load(self.channel)
        if loaded is None or not loaded.record.state:
            self._new_messages()  # lobby talk: nothing secret yet
            return
        game = loaded.game
        now = snapshot(game, game.load(loaded.record.state))
        owners = {seat: (None if p.ai else p.id) for seat, p in enumerate(loaded.record.players)}
        for seat, held in now.secret.items():
            owner = owners.get(seat)
            if owner:
                self.secrets.setdefault(owner, set()).update(held)
        self.found += leaks_in(self._last or now, now, owners, self._new_messages())
        self._last = now
