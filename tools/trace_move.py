"""Trace one `/politics do` through GameService.handle and count the files it crosses.

    python tools/trace_move.py            # the counts
    python tools/trace_move.py --route    # and the route, file by file

A two-seat primary-general game is opened, started and played to a human's turn on a fresh
SQLite file (as the local table does); then one move is traced with sys.setprofile. Counted:
- files: distinct files of this repository (bot/, engines/, render/) where a Python function
  ran during the move, in the order first entered;
- returns: calls back into a file that is still running further down the call stack (file A
  calls B, and B, or something B called, calls A again): the round trips that make a reader
  jump back to a file they are already in the middle of. Counted once per (caller file, file
  called back) pair, and in total;
- and the same counts for bot/ alone (the service's own shape, without the engine's inside).
The numbers go in docs/architecture.md, before and after a change to the service.
"""
from __future__ import annotations

import asyncio
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bot.messages import Ctx, User  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import Store  # noqa: E402

AREAS = ("bot", "engines", "render")


def repo_file(path: str) -> str | None:
    path = os.path.abspath(path)
    if not path.startswith(ROOT + os.sep):
        return None
    rel = os.path.relpath(path, ROOT)
    return rel if rel.split(os.sep)[0] in AREAS else None


class Tracer:
    def __init__(self) -> None:
        self.order: list[str] = []   # files in the order first entered
        self.returns: list[tuple[str, str]] = []  # (caller, file called back) for each call back
        self.steps: list[str] = []   # first entries and calls back, for --route

    def __call__(self, frame, event, arg) -> None:
        if event != "call":
            return
        into = repo_file(frame.f_code.co_filename)
        if into is None:
            return
        below: list[str] = []  # repository files on the stack under this call, nearest first
        caller = frame.f_back
        while caller is not None:  # through the standard library (asyncio) too
            found = repo_file(caller.f_code.co_filename)
            if found is not None:
                below.append(found)
            caller = caller.f_back
        came = below[0] if below else None
        if into not in self.order:
            self.order.append(into)
            self.steps.append(f"{came} -> {into}:{frame.f_code.co_name}")
        elif came is not None and came != into and into in below:
            self.returns.append((came, into))
            self.steps.append(f"{came} -> {into}:{frame.f_code.co_name} (back)")


def counts(tracer: Tracer, prefix: str = "") -> tuple[int, int, int]:
    """(files, pairs of files calling back, calls back) within `prefix`."""
    files = [f for f in tracer.order if f.startswith(prefix)]
    back = [r for r in tracer.returns if r[0].startswith(prefix) and r[1].startswith(prefix)]
    return len(files), len(set(back)), len(back)


async def traced_move() -> Tracer:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(os.path.join(tmp, "trace.db"))
        service = GameService(store, outbox=True)  # as Discord runs it: boards described, messages kept
        alice, bob = User("u-alice", "alice"), User("u-bob", "bob")
        here = lambda u: Ctx(u, "500", "900")  # noqa: E731
        await service.handle(here(alice), "new", {"game": "primary-general", "seed": 3})
        await service.handle(here(bob), "join", {})
        await service.handle(here(alice), "start", {})
        loaded = await service.rows.load("500") if hasattr(service, "rows") else await service._load("500")
        assert loaded is not None and loaded.state is not None
        seat = loaded.game.to_act(loaded.state)[0]
        who = (alice, bob)[seat]
        action = loaded.game.legal_actions(loaded.state, seat)[0].text()
        # one untraced move first: imports and caches warm, as in a bot that has run a while
        await service.handle(here(who), "do", {"action": action})
        loaded = await service.rows.load("500") if hasattr(service, "rows") else await service._load("500")
        assert loaded is not None and loaded.state is not None
        seat = loaded.game.to_act(loaded.state)[0]
        who = (alice, bob)[seat]
        action = loaded.game.legal_actions(loaded.state, seat)[0].text()
        tracer = Tracer()
        sys.setprofile(tracer)
        try:
            out = await service.handle(here(who), "do", {"action": action})
        finally:
            sys.setprofile(None)
        assert out and "Done" in out[-1].text, [m.text for m in out]
        await store.close()
        return tracer


def main() -> None:
    tracer = asyncio.run(traced_move())
    files, pairs, back = counts(tracer)
    bot_files, bot_pairs, bot_back = counts(tracer, "bot" + os.sep)
    print(f"files crossed: {files} (bot/: {bot_files})")
    print(f"returns into a file still on the stack: {pairs} pairs of files, {back} calls "
          f"(within bot/: {bot_pairs} pairs, {bot_back} calls)")
    if "--route" in sys.argv:
        print("\nfirst entries in order:")
        for n, f in enumerate(tracer.order, 1):
            print(f"{n:3}. {f}")
        print("\ncross-file calls:")
        for step in tracer.steps:
            print("   ", step)


if __name__ == "__main__":
    main()
