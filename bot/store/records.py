"""Finished games, stats and ratings in the store (the pure parts are bot/records.py), written
once for both backends: reads through `_rows`, transactions as step programs through `_run`."""
from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from .core import COUNT, NONE, ROW, ROWS, Committed, Dialect, Program, ServerMerge, Step, dumps, marks
from .game_row import GameRecord

R = TypeVar("R")

RESULT_COLUMNS = "id, channel_id, game, finished_at, moves, data"


def result_row(row) -> dict:
    try:
        data = json.loads(row[5])
    except ValueError:
        data = {}
    return {"id": row[0], "channel_id": row[1], "game": row[2], "finished_at": row[3], "moves": row[4],
            "data": data if isinstance(data, dict) else {}}


PRUNE_BATCH = 200  # results rewritten per transaction: a prune never holds the database for long


class RetentionStore:
    """Retention (ARCHIVE_DAYS, bot/backup.py): a part of RecordsStore, so of every `Store`."""

    async def prune_archive(self, before: float) -> tuple[int, int]:
        """Drop what only a replay needs from games that finished before `before`: the opening,
        the move log and the final state in each result's data (the result, its seats and the
        ratings stay), and the archived game rows. (Results pruned, archived rows deleted.)
        In batches, each its own transaction, so the bot's moves go on in between."""
        contains = self.dialect.contains.format(column="data")  # type: ignore[attr-defined]
        pruned, after_id = 0, 0
        while True:
            def batch(after_id: int = after_id) -> Program[tuple[int, int]]:
                rows = yield Step(f"SELECT id, data FROM results WHERE finished_at<? AND id>? AND {contains}"
                                  " ORDER BY id LIMIT ?", (float(before), after_id, '"opening":', PRUNE_BATCH), ROWS)
                for result_id, text in rows:
                    yield Step("UPDATE results SET data=? WHERE id=?", (_without_replay(text), result_id))
                return len(rows), (rows[-1][0] if rows else after_id)
            done, after_id = await self._run(batch())  # type: ignore[attr-defined]
            pruned += done
            if done < PRUNE_BATCH:
                break

        def archived() -> Program[int]:
            return (yield Step("DELETE FROM archive WHERE finished_at<?", (float(before),), COUNT))
        return pruned, await self._run(archived())  # type: ignore[attr-defined]


def _without_replay(text: str) -> str:
    """A result's data without what only a replay reads; the moves count and summary stay."""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    if isinstance(data, dict):
        for key in ("opening", "log", "final"):
            data.pop(key, None)
        data["pruned"] = True  # so the history can say why there is no replay
    return dumps(data)


class RecordsStore(RetentionStore):
    """Mixed into `Store`: needs `_rows`, `_run`, `commit` and `dialect` (declared below for the
    type checker; Store and its backends supply them)."""

    if TYPE_CHECKING:
        dialect: Dialect

        def _rows(self, sql: str, params: tuple = ()) -> Awaitable[list]: ...

        def _run(self, program: Program[R]) -> Awaitable[R]: ...

        async def commit(self, channel_id: str, expected_version: int, status: str, record: GameRecord,
                         wake_at: float | None, *, server: ServerMerge | None = None, outbox: str | None = None,
                         delivered: Iterable[int] = (), also: Program[None] | None = None) -> Committed | None: ...

    async def finish(self, channel_id: str, expected_version: int, record: GameRecord, result: dict,
                     seats: list[dict], rate: Callable[[dict], dict], **extra) -> Committed | None:
        """The game's last row and its result in one transaction: the compare-and-swap of
        `commit` (with its `extra`: server data, outbox), the results row, a row per seat and the
        new ratings. `rate` turns the players' current (mu, sigma), read inside the transaction,
        into the new ones. None if someone else wrote the row first; then nothing is recorded."""
        return await self.commit(channel_id, expected_version, record.status, record, None,
                                 also=self._record_result(channel_id, result, seats, rate), **extra)

    def _record_archived(self, channel_id: str, result: dict) -> Program[None]:
        """An unfinished game's result row alone: history shows it, and no seat row or rating is
        written, so stats and the leaderboard stay as they were."""
        yield Step("INSERT INTO results(guild_id, channel_id, parent_id, game, finished_at, moves, data)"
                   " VALUES(?,?,?,?,?,?,?)",
                   (result["guild_id"], channel_id, result.get("parent_id"), result["game"],
                    float(result["finished_at"]), result["moves"], dumps(result["data"])))

    def _record_result(self, channel_id: str, result: dict, seats: list[dict],
                       rate: Callable[[dict], dict]) -> Program[None]:
        guild, game = result["guild_id"], result["game"]
        ids = sorted({s["player_id"] for s in seats})
        if self.dialect.row_locks:
            # Two games of one server ending at once must not both rate from the same old ratings
            # (new players have no row to lock yet): one finish per server and game at a time.
            yield Step("SELECT pg_advisory_xact_lock(hashtext(?))", (f"ratings {guild} {game}",), ROW)
        found = (yield Step(f"SELECT player_id, mu, sigma FROM ratings WHERE guild_id=? AND game=?"
                            f" AND player_id IN ({marks(len(ids))})", (guild, game, *ids), ROWS)) if ids else []
        new = rate({r[0]: (r[1], r[2]) for r in found})
        (result_id,) = yield Step(
            "INSERT INTO results(guild_id, channel_id, parent_id, game, finished_at, moves, data)"
            " VALUES(?,?,?,?,?,?,?) RETURNING id",
            (guild, channel_id, result.get("parent_id"), game, float(result["finished_at"]), result["moves"],
             dumps(result["data"])), ROW)
        for s in seats:
            mu, sigma = new[s["player_id"]]
            score = None if s["score"] is None else float(s["score"])
            yield Step("INSERT INTO result_players(result_id, guild_id, game, player_id, name, seat, score, winner,"
                       " mu, sigma, finished_at) VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                       (result_id, guild, game, s["player_id"], s["name"], s["seat"], score, int(s["winner"]),
                        float(mu), float(sigma), float(result["finished_at"])))
        for pid in ids:
            mine = [s for s in seats if s["player_id"] == pid]
            mu, sigma = new[pid]
            yield Step("INSERT INTO ratings(guild_id, game, player_id, name, mu, sigma, games, wins)"
                       " VALUES(?,?,?,?,?,?,1,?)"
                       " ON CONFLICT(guild_id, game, player_id) DO UPDATE SET name=excluded.name, mu=excluded.mu,"
                       " sigma=excluded.sigma, games=ratings.games+1, wins=ratings.wins+excluded.wins",
                       (guild, game, pid, mine[0]["name"], float(mu), float(sigma),
                        int(any(s["winner"] for s in mine))))

    async def ratings_of(self, guild_id: str, game: str, player_ids: list[str]) -> dict[str, tuple[float, float]]:
        if not player_ids:
            return {}
        rows = await self._rows(f"SELECT player_id, mu, sigma FROM ratings WHERE guild_id=? AND game=?"
                                f" AND player_id IN ({marks(len(player_ids))})", (guild_id, game, *player_ids))
        return {r[0]: (r[1], r[2]) for r in rows}

    async def results(self, guild_id: str, channel_id: str | None = None, game: str | None = None,
                      limit: int = 10) -> list[dict]:
        """Recent finished games, newest first; `channel_id` also matches games in its threads."""
        sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id=?"
        args: list = [guild_id]
        if channel_id:
            sql += " AND (channel_id=? OR parent_id=?)"
            args += [channel_id, channel_id]
        if game:
            sql += " AND game=?"
            args.append(game)
        rows = await self._rows(sql + " ORDER BY id DESC LIMIT ?", (*args, limit))
        return [result_row(r) for r in rows]

    async def result(self, guild_id: str, result_id: int) -> dict | None:
        rows = await self._rows(f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id=? AND id=?",
                                (guild_id, result_id))
        return result_row(rows[0]) if rows else None

    async def leaderboard(self, guild_id: str, game: str, offset: int, limit: int) -> tuple[int, list[tuple]]:
        """(how many rated players, a page of (player_id, name, mu, sigma, games, wins)) by mu - 3 sigma."""
        rows = await self._rows(
            "SELECT player_id, name, mu, sigma, games, wins FROM ratings WHERE guild_id=? AND game=?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, name LIMIT ? OFFSET ?", (guild_id, game, limit, offset))
        total = await self._rows("SELECT COUNT(*) FROM ratings WHERE guild_id=? AND game=?", (guild_id, game))
        return total[0][0], [tuple(r) for r in rows]

    async def place(self, guild_id: str, game: str, mu: float, sigma: float) -> tuple[int, int]:
        """(place on the leaderboard of a rating, how many are rated): 1 + those rated above it."""
        rows = await self._rows(
            "SELECT SUM(CASE WHEN mu - 3 * sigma > ? THEN 1 ELSE 0 END), COUNT(*) FROM ratings"
            " WHERE guild_id=? AND game=?",
            (float(mu - 3 * sigma + 1e-9), guild_id, game))
        above, total = rows[0]
        return int(above or 0) + 1, int(total)

    async def player_ratings(self, guild_id: str, player_id: str) -> list[tuple]:
        """(game, name, mu, sigma, games, wins) for every game the player has a rating in."""
        rows = await self._rows("SELECT game, name, mu, sigma, games, wins FROM ratings"
                                " WHERE guild_id=? AND player_id=?", (guild_id, player_id))
        return [tuple(r) for r in rows]

    async def player_games(self, guild_id: str, player_id: str, game: str | None = None) -> list[tuple]:
        """(result_id, game, finished_at, score, winner, mu, sigma) per game played, oldest first."""
        sql = ("SELECT result_id, game, finished_at, score, winner, mu, sigma FROM result_players"
               " WHERE guild_id=? AND player_id=?")
        args: list = [guild_id, player_id]
        if game:
            sql += " AND game=?"
            args.append(game)
        rows = await self._rows(sql + " ORDER BY result_id, seat", tuple(args))
        return [tuple(r) for r in rows]

    async def player_named(self, guild_id: str, name: str) -> str | None:
        """The id of the player most recently recorded under this name (case-insensitive)."""
        rows = await self._rows("SELECT player_id FROM result_players WHERE guild_id=? AND lower(name)=lower(?)"
                                " ORDER BY result_id DESC LIMIT 1", (guild_id, name))
        return rows[0][0] if rows else None

    async def reset_records(self, guild_id: str) -> int:
        """Forget every finished game and rating of a server; how many games were removed."""
        def steps() -> Program[int]:
            yield Step("DELETE FROM result_players WHERE guild_id=?", (guild_id,))
            removed = yield Step("DELETE FROM results WHERE guild_id=?", (guild_id,), COUNT)
            yield Step("DELETE FROM ratings WHERE guild_id=?", (guild_id,))
            return removed
        return await self._run(steps())

    async def forget_player(self, guild_id: str, player_id: str, new_id: str, new_name: str,
                            rewrite: Callable[[dict], dict]) -> tuple[int, list[str]]:
        """Replace a player's id and name in every record of a server: ratings, seats, each
        game's data through `rewrite(result)` (which returns the new data), and archived rows;
        finished games still in `games` are deleted, and so is the player's DM channel row. (How
        many recorded games changed, the channels whose finished row went.)"""
        contains = self.dialect.contains.format(column="record")
        in_data = self.dialect.contains.format(column="data")

        def steps() -> Program[tuple[int, list[str]]]:
            ids = yield Step("SELECT DISTINCT result_id FROM result_players WHERE guild_id=? AND player_id=?",
                             (guild_id, player_id), ROWS)
            # an archived (unfinished) game has no seat rows: its game file names the player
            archived = yield Step(f"SELECT id FROM results WHERE guild_id=? AND {in_data}",
                                  (guild_id, dumps({"player_id": player_id})[1:-1]), ROWS)
            ids = [(i,) for i in sorted({r[0] for r in ids} | {r[0] for r in archived})]
            changed = 0
            for (result_id,) in ids:
                found = yield Step(f"SELECT {RESULT_COLUMNS} FROM results WHERE id=?", (result_id,), ROW)
                if found:
                    yield Step("UPDATE results SET data=? WHERE id=?", (dumps(rewrite(result_row(found))), result_id))
                    changed += 1
            # A finished game's row (kept only until the channel's next game) goes; archived rows
            # keep the game without the player's name and id, and without the state that names them.
            finished = [r[0] for r in (yield Step(
                f"SELECT channel_id FROM games WHERE guild_id=? AND status='finished' AND {contains}",
                (guild_id, player_id), ROWS))]
            for channel_id in finished:
                yield Step("DELETE FROM games WHERE channel_id=? AND status='finished'", (channel_id,))
            for row_id, text in (yield Step(f"SELECT id, record FROM archive WHERE guild_id=? AND {contains}",
                                            (guild_id, player_id), ROWS)):
                yield Step("UPDATE archive SET record=?, state=NULL WHERE id=?",
                           (_forget_in_archived(text, player_id, new_id, new_name), row_id))
            for table in ("result_players", "ratings"):
                yield Step(f"UPDATE {table} SET player_id=?, name=? WHERE guild_id=? AND player_id=?",
                           (new_id, new_name, guild_id, player_id), NONE)
            # Their Discord id -> DM channel id goes too (it is the bot's, not a server's, so
            # forgetting in any server drops it); the next DM only opens the channel again.
            yield Step("DELETE FROM dm_channels WHERE user_id=?", (player_id,))
            return changed, finished
        return await self._run(steps())


def _forget_in_archived(text: str, player_id: str, new_id: str, new_name: str) -> str:
    try:
        record = json.loads(text)
        for p in record.get("players", []):  # the archived JSON as stored (either shape)
            if p.get("id") in (player_id, f"resigned:{player_id}"):
                p["id"], p["name"] = new_id, new_name
        if record.get("host") == player_id:
            record["host"] = new_id
        for named in ("opening", "log", "state"):  # their seat token and name are in these
            record.pop(named, None)
    except (ValueError, AttributeError, TypeError):
        record = {}
    return dumps(record)
