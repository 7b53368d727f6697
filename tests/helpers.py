"""Small builders shared by the bot-layer tests."""
from __future__ import annotations

from bot.messages import Button, Ctx, Select, User
from bot.service import GameService
from bot.store import GameRecord, Store

CH = "500"
GUILD = "900"


def toy_record(status: str = "lobby", **extra) -> GameRecord:
    """A row's record for store tests: no game in it, and `extra` fields kept as they are."""
    return GameRecord(game="us-president", status=status, host="h", players=[], seed=1, **extra)


def user(name: str, uid: str | None = None, **perms) -> User:
    return User(uid or f"u-{name}", name, **perms)


def ctx(u: User, channel: str = CH) -> Ctx:
    return Ctx(u, channel, GUILD)


async def service_on(database: str, **kwargs) -> GameService:
    """A service on a store: a SQLite file or a PostgreSQL URL (the `database` fixture gives both)."""
    store = await Store.open(database)
    kwargs.setdefault("render", False)
    return GameService(store, **kwargs)


async def where(svc: GameService, channel: str = CH) -> str:
    """`channel.game` as the controls of the channel's current game carry it."""
    from bot.service.common import control_ref
    return control_ref(channel, (await svc.load(channel)).record)


async def sql(store: Store, statement: str, *params) -> list:
    """Run one statement on the store's database as a hand edit would (either backend; `?` placeholders)."""
    return await store._rows(statement, params)


def texts(out, to=None) -> list[str]:
    return [m.text for m in out if to is None or m.to == to]


def menu_items(rows) -> list[tuple[str, str]]:
    """(label, the path the item leads to) of a panel's controls, in the order a front end numbers
    them (the table's menu); a select's options follow each other."""
    out = []
    for row in rows:
        for item in row:
            if isinstance(item, Button):
                out.append((item.label, item.custom_id.split(":", 3)[3]))
            elif isinstance(item, Select):
                words = [w for w in item.custom_id.split(":", 3)[3].split() if not w.startswith("~")]
                out.extend((label, " ".join([*words, value])) for label, value in item.options)
    return out


async def said(runner, line: str) -> str:
    """Everything the bot answered to one transcript line, as one text."""
    return "\n".join(e["text"] for e in await runner.run_line(line))


def play_on_keeping_an_early_view(game, state, steps: int, rng):
    """The public view now, then up to `steps` random moves, then the view again; asserts the early
    view reads as it did (views share the parts no move changed, and must never be changed in
    place). Returns (early, now)."""
    import json
    early = game.view(state, None)
    early_copy = json.loads(json.dumps(early))
    for _ in range(steps):
        if not game.random_step(state, rng):
            break
    now = game.view(state, None)
    assert json.loads(json.dumps(early)) == early_copy
    return early, now
