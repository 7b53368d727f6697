"""Who a game is waiting for, since when, and when the scheduler must next wake it.

Pure functions over the row: the play loop refreshes the waiting clocks after every move, the
row saver computes the wake-up time it commits with the row, and the local table reads it to
skip ahead.
"""
from __future__ import annotations

from typing import Any

from engines import Game

from ..store.game_row import GameRecord, RowTimer


def refresh_waiting(record: GameRecord, game: Game, state: Any, now: float) -> None:
    """After a move: the seats the game waits for keep their clock (a seat's clock restarts
    whenever it becomes someone's turn anew or acts), reminders of seats no longer waited for
    are forgotten, and the engine's timer is set (kept while its key is the same)."""
    waiting = dict(record.waiting_since)
    current = set(game.to_act(state)) if record.status == "playing" else set()
    fresh = {}
    for seat in current:
        key = str(seat)
        fresh[key] = waiting.get(key, now)
    record.waiting_since = fresh
    record.reminded = [s for s in record.reminded if s in current]
    t = game.timer(state) if record.status == "playing" else None
    if t is None:
        record.timer = None
    elif not record.timer or record.timer.key != t.key:
        record.timer = RowTimer(key=t.key, due=now + t.seconds, seat=t.seat, action=t.action_text)


def turn_timeout(record: GameRecord) -> float:
    """The lobby's `timeout` setting in seconds (0: off)."""
    return record.bot_settings.timeout * 60


def wake_at(record: GameRecord, ai_delay: float) -> float | None:
    """When the scheduler must look at this game next: its engine timer, an AI seat's move
    (`ai_delay` after its turn began), a waiting player's reminder (half the timeout) or
    timeout. None: nothing is due until someone acts."""
    if record.status != "playing":
        return None
    times = []
    if record.timer:
        times.append(record.timer.due)
    timeout = turn_timeout(record)
    for key, since in record.waiting_since.items():
        seat = int(key)
        if seat < 0 or seat >= len(record.players):
            continue
        if record.players[seat].ai:
            times.append(since + ai_delay)
        elif timeout > 0:
            times.append(since + (timeout if seat in record.reminded else timeout / 2))
    return min(times) if times else None
