"""Finished games remembered: what a result row holds, ratings, and game files that replay.

Pure functions (no store, no Discord): the service (bot/service/records.py) and the
`politics-bot replay` command share them.

- A finished game's data is its *game file*: players, seats, settings, seed, the opening
  state, every applied action with its seat (AI, timeout and timer moves included), the
  final state and the result. Replaying the log from the opening reproduces the final
  state exactly, because engines are deterministic and carry their RNG in the state.
- Ratings come from openskill's Plackett-Luce model (made for multiplayer and team games):
  every team of a game (`Game.teams`) is ranked by win, then best score.
  AI seats share one identity per AI level, so players see how they stand against the AI.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from pydantic import BaseModel, ValidationError

from engines import SYSTEM, Event, Game, HandOver, Result, all_games, get_game

from .store.game_row import GameRecord, Player

logger = logging.getLogger("politics.records")

FILE_FORMAT = "politics-bot game"
FILE_VERSION = 1
AI_LEVEL = "standard"  # the engines have one AI; a second level gets its own identity
AI_ID = f"ai:{AI_LEVEL}"
AI_NAME = f"AI ({AI_LEVEL})"
FORGOTTEN_NAME = "Former player"

_MODEL = PlackettLuce()
START = (_MODEL.rating().mu, _MODEL.rating().sigma)  # a newcomer's (mu, sigma)
STARTING_RATING = _MODEL.rating().ordinal()  # a newcomer's conservative rating (0 with the defaults)


class ReplayError(Exception):
    """A game file that can't be replayed; the message is one sentence."""


def identity(player: Player) -> tuple[str, str]:
    """(rating id, name) of a seat's player: an AI seat is the AI of its level; a player who
    resigned mid-game keeps the game (an AI only finished it for them)."""
    pid = player.id
    if pid.startswith("resigned:"):
        return pid.split(":", 1)[1], player.name
    if player.ai:
        return AI_ID, AI_NAME
    return pid, player.name


def conservative(mu: float, sigma: float) -> float:
    """The leaderboard's rating: openskill's ordinal (skill we are ~99% sure of)."""
    return _MODEL.rating(mu=mu, sigma=sigma).ordinal()


def team_ranks(teams: list[list[int]], result: Result) -> list[int]:
    """Rank of each team (0 best): winners first, then by the team's best score; ties share."""
    def key(team: list[int]) -> tuple:
        won = any(s in result.winners for s in team)
        best = max((result.scores[s] for s in team if s < len(result.scores)), default=0.0)
        return (not won, -best)
    order = sorted({key(t) for t in teams})
    return [order.index(key(t)) for t in teams]


def rate(teams: list[list[str]], ranks: list[int],
         current: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """New (mu, sigma) for every player id in `teams` (newcomers start at the model's default).
    An id on several seats (two AI seats) takes the mean of its seats' new ratings."""
    start = [[_MODEL.rating(*current[pid]) if pid in current else _MODEL.rating() for pid in team] for team in teams]
    rated = _MODEL.rate(start, ranks=[float(r) for r in ranks])
    seen: dict[str, list[tuple[float, float]]] = {}
    for team, ratings in zip(teams, rated):
        for pid, r in zip(team, ratings):
            seen.setdefault(pid, []).append((r.mu, r.sigma))
    return {pid: (sum(m for m, _ in v) / len(v), sum(s for _, s in v) / len(v)) for pid, v in seen.items()}


def finished_game(record: GameRecord, game: Game, state: Any, result: Result, *, guild_id: str,
                  finished_at: float) -> tuple[dict, list[dict], list[list[str]], list[int]]:
    """(result row, a row per seat, teams of player ids, team ranks) for the store. The game
    file keeps its own keys (FILE_VERSION 1): a seat's "bot" and the bot's settings as "bot"."""
    seats: list[dict[str, Any]] = []
    for seat, player in enumerate(record.players):
        pid, name = identity(player)
        seats.append({"player_id": pid, "name": name, "seat": seat, "bot": pid == AI_ID,
                      "score": result.scores[seat] if seat < len(result.scores) else None,
                      "winner": seat in result.winners})
    teams = game.teams(state)
    ranks = team_ranks(teams, result)
    data = {
        "format": FILE_FORMAT, "version": FILE_VERSION, "game": game.id, "title": game.title,
        "players": [{"seat": s["seat"], "name": record.players[s["seat"]].name, "bot": s["bot"],
                     "player_id": s["player_id"]} for s in seats],
        "teams": teams, "options": record.options, "bot": record.bot_settings.given(), "seed": record.seed,
        # A game started before moves were logged has no opening: its length is what the seats did.
        "started": record.started, "finished": finished_at,
        "moves": len(record.log) if record.opening else sum(record.acted),
        "winners": list(result.winners), "scores": list(result.scores), "summary": result.summary,
        "opening": record.opening, "log": [list(move) for move in record.log], "final": record.state,
        "hinted": sorted(set(record.hinted)),  # seats that asked /politics hint: the record says hints were used
    }
    row = {"guild_id": guild_id, "game": game.id, "finished_at": finished_at, "moves": data["moves"],
           "parent_id": record.thread_of, "data": data}
    return row, seats, [[str(seats[s]["player_id"]) for s in team] for team in teams], ranks


def archived_game(record: GameRecord, game: Game, state: Any, *, guild_id: str, archived_at: float) -> dict:
    """The result row of a game cancelled before its end (or set aside for a new one at the table):
    the same game file as a finished game's, marked "archived", with no winner. The store keeps it
    for history, replays and downloads; no seat row and no rating come with it, so an unfinished
    game never moves a rating."""
    standing = Result(scores=list(game.result(state).scores))  # the scores so far; nobody won
    row, *_ = finished_game(record, game, state, standing, guild_id=guild_id, finished_at=archived_at)
    row["data"].update(archived=True, winners=[], summary="archived before the end (unrated)")
    return row


def download(result: dict) -> tuple[str, bytes]:
    """The game file a player downloads: everything to replay it, no Discord ids."""
    data = dict(result["data"])
    data["id"] = result["id"]
    data["players"] = [{k: v for k, v in p.items() if k != "player_id"} for p in data.get("players", [])]
    return f"politics-game-{result['id']}.json", json.dumps(data, indent=1, ensure_ascii=False).encode()


def replayable(data: dict) -> bool:
    return bool(data.get("opening")) and isinstance(data.get("log"), list)


@dataclass
class Replay:
    game: Game
    state: object
    moves: int                      # how many log entries were applied
    last: tuple[int, str] | None    # (seat, action text) of the last one
    events: list[Event]             # what it did


class FileSeat(BaseModel):
    name: str


class FileMoves(BaseModel):
    """What a replay reads of a game file (the rest is for people: titles, scores, times)."""
    game: str
    players: list[FileSeat]
    opening: str                   # the state before the first move, as the engine's JSON text
    log: list[tuple[int, str]]     # (seat, action text) per move; SYSTEM is the clock's seat


def read_game_file(text: str) -> dict:
    """A game file's data from its text, or ReplayError with one sentence on what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"That is not a politics-bot game file: it is not valid JSON ({exc.msg} at line "
                          f"{exc.lineno}, column {exc.colno}).") from None
    except (ValueError, RecursionError):  # a number of thousands of digits; nesting deeper than Python's stack
        raise ReplayError("That is not a politics-bot game file: it is not valid JSON as a game file writes it "
                          "(a number too long, or lists nested too deeply).") from None
    if not isinstance(data, dict):
        kind = {list: "a JSON list", str: "a JSON string", bool: "JSON true or false", type(None): "JSON null"}.get(
            type(data), "a JSON number")
        raise ReplayError(f"That is not a politics-bot game file: it holds {kind}, where a game file is a JSON "
                          "object.")
    return data


# What each field a replay reads must be, for the sentence that says which one is not.
SHAPES = {"game": "the name of a game", "players": "a list of seats, each with a name",
          "opening": "the opening state as JSON text",
          "log": "a list of [seat, move] pairs (a whole number and a text)"}


def _invalid(exc: ValidationError) -> ReplayError:
    """The first thing pydantic found, as a sentence naming the field (and the seat or move)."""
    loc = exc.errors()[0]["loc"]
    field = str(loc[0]) if loc else "log"
    which = ""
    if len(loc) > 1 and isinstance(loc[1], int):
        which = f"; {'seat' if field == 'players' else 'move'} {loc[1] + 1} is not"
    return ReplayError(f"The game file's {field} must be {SHAPES.get(field, 'as the bot wrote it')}{which} "
                       "(the file may be damaged).")


def opening(data: dict) -> tuple[Game, object]:
    """(game, state before the first move) of a game file, its moves checked for their shape."""
    if not isinstance(data, dict) or data.get("format") != FILE_FORMAT:
        raise ReplayError("That is not a politics-bot game file (it has no \"format\": \"politics-bot game\").")
    if data.get("pruned"):
        raise ReplayError("This game is older than this bot keeps moves for, so it can't be replayed "
                          "(its result and ratings stay).")
    if data.get("opening") in (None, "") or "log" not in data:
        raise ReplayError("This game file was recorded without its moves, so it can't be replayed.")
    try:
        moves = FileMoves.model_validate(data)
    except ValidationError as exc:
        raise _invalid(exc) from None
    if moves.game not in all_games():
        raise ReplayError(f"The game file is of a game this bot doesn't have ('{moves.game[:40]}'; it has "
                          f"{', '.join(sorted(all_games()))}).")
    game = get_game(moves.game)
    try:
        return game, game.load(moves.opening)
    except Exception:  # the file is anyone's: whatever the engine makes of a damaged opening, one sentence
        raise ReplayError("The game file's opening can't be read (it may be damaged).") from None


def steps(game: Game, state, log: list):
    """Apply a log's moves to `state` one by one: yields (move number, seat, text, events)."""
    seats = sum(len(team) for team in game.teams(state))
    for n, entry in enumerate(log, 1):
        try:
            seat, text = int(entry[0]), str(entry[1])
            if not SYSTEM <= seat < seats:  # a negative seat would index from the end: another seat's move
                raise IndexError(seat)
            events = game.apply_in_place(state, seat, game.parse_action(text))
        except Exception:  # a file is anyone's: a move the engine can't take, however it fails, is damage
            logger.debug("move %d of a game file failed", n, exc_info=True)
            raise ReplayError(f"Move {n} of the game file can't be replayed (it may be damaged).") from None
        yield n, seat, text, events


def _seat_name(seat: int, names: list[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def mover(seat: int, text: str, names: list[str]) -> str:
    """Who made a logged move, as a replay names it: a seat's player, the clock (the timeouts the
    bot applies as SYSTEM) or the bot (its hand-over of a seat whose player left)."""
    if seat == SYSTEM:
        return "bot" if text.split()[:1] == [HandOver.verb] else "clock"
    return _seat_name(seat, names)


def move_line(seat: int, text: str, names: list[str]) -> str:
    """A logged move as one line for a reader: "alice: play 3", "The clock: timeout", and a
    hand-over (a replayed move, so its seat is a number) as what it was."""
    who = mover(seat, text, names)
    if who == "bot":
        return f"{_seat_name(int(text.split()[1]), names)} left the game; the AI plays their seat from here."
    return f"{'The clock' if who == 'clock' else who}: {text}"


def replay(data: dict, upto: int | None = None) -> Replay:
    """Apply the first `upto` moves (all by default) of a game file's log to its opening."""
    game, state = opening(data)
    log = data["log"]
    upto = len(log) if upto is None else max(0, min(upto, len(log)))
    shown = Replay(game, state, 0, None, [])
    for n, seat, text, events in steps(game, state, log[:upto]):
        shown.moves, shown.last, shown.events = n, (seat, text), events
    return shown


def forget(data: dict, player_id: str, new_id: str) -> dict:
    """A game's data with one player's name and id replaced. Their seat token in the moves
    becomes the seat number, and the final state is rebuilt by replaying under the new name;
    if anything of the old name would survive, the replay data is dropped (stats stay)."""
    data = json.loads(json.dumps(data))
    mine = [p for p in data.get("players", []) if p.get("player_id") == player_id]
    if not mine:
        return data
    names = [p["name"] for p in data["players"]]
    old_names = {p["name"] for p in mine}
    old_tokens = set()
    for p in mine:
        slug = "".join(p["name"].split()).lower()
        old_tokens |= {slug, "@" + slug}
        p["name"], p["player_id"] = FORGOTTEN_NAME, new_id
    seat_of = {"".join(n.split()).lower(): i for i, n in enumerate(names)}
    try:
        if not replayable(data):
            raise ReplayError("nothing to rebuild")
        text = data["opening"]
        for name in old_names:  # setup may have written the name into texts ("alice chooses first")
            text = re.sub(r"(?<![\w@])" + re.escape(name) + r"(?!\w)", FORGOTTEN_NAME, text)
        opening = json.loads(text)
        for p in mine:
            opening["seats"][p["seat"]]["name"] = FORGOTTEN_NAME
        data["opening"] = json.dumps(opening)

        def token(word: str) -> str:
            if word in old_tokens:
                return str(seat_of[word.lstrip("@")] + 1)
            return word
        data["log"] = [[seat, " ".join([t.split()[0]] + [token(w) for w in t.split()[1:]])] for seat, t in data["log"]]
        rebuilt = replay(data)
        result = rebuilt.game.result(rebuilt.state)
        if result.winners != data.get("winners"):
            raise ReplayError("the rebuilt game ended differently")
        data["final"] = rebuilt.game.dump(rebuilt.state)
        data["summary"] = result.summary
        text = json.dumps({k: data[k] for k in ("opening", "log", "final", "summary")}).lower()
        if any(re.search(r"\b" + re.escape(n.lower()) + r"\b", text) for n in old_names if n.strip()):
            raise ReplayError("the old name is still in the game")
    except (ReplayError, ValueError, KeyError, IndexError, TypeError):
        for key in ("opening", "log", "final"):
            data.pop(key, None)
        data["summary"] = ""
    return data
