"""The one list of commands. Discord's slash commands, the local terminal
table and transcripts are all built from it, so all three parse options,
check them and reach GameService the same way.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from engines import all_games


class InputError(Exception):
    """Bad command input: the message is one sentence for the user."""


@dataclass(frozen=True)
class OptionSpec:
    name: str
    kind: str  # "str" | "int" | "bool" | "user" | "attachment"
    description: str
    required: bool = False
    autocomplete: bool = False
    choices: tuple[str, ...] = ()
    min_value: int | None = None
    max_value: int | None = None
    max_length: int | None = 200


@dataclass(frozen=True)
class CommandSpec:
    name: str  # "new", or "questions upload" for a subcommand of a group
    description: str
    options: tuple[OptionSpec, ...] = ()
    admin: bool = False  # needs Manage Server; enforced in GameService, not just hidden

    @property
    def group(self) -> str | None:
        return self.name.split()[0] if " " in self.name else None

    @property
    def leaf(self) -> str:
        return self.name.split()[-1]


def _game_choices() -> tuple[str, ...]:
    return tuple(sorted(all_games()))


def build_commands() -> list[CommandSpec]:
    games = _game_choices()
    specs = [
        CommandSpec("new", "Open a lobby for a new game in this channel", (
            OptionSpec("game", "str", "Which game", required=True, choices=games),
            OptionSpec("seed", "int", "Seed for a repeatable game", min_value=0, max_value=2**53),
            OptionSpec("bots", "int", "AI seats to add", min_value=0, max_value=7),
            OptionSpec("settings", "str", "Game settings, e.g. deal=one timeout=5", autocomplete=True, max_length=400),
            OptionSpec("thread", "bool", "Open the game in a new thread of this channel"),
        )),
        CommandSpec("join", "Join the lobby in this channel"),
        CommandSpec("leave", "Leave the lobby (or resign: an AI takes your seat)"),
        CommandSpec("start", "Start the game (host only)"),
        CommandSpec("cancel", "Cancel this channel's game (host or Manage Channels)"),
        CommandSpec("status", "Post the board again, with the whole game as text"),
        CommandSpec("hand", "See your private cards and choices (only you see it)"),
        CommandSpec("hint", "Ask the search for a suggested move and your chance to win (only you see it)"),
        CommandSpec("do", "Make a move", (
            OptionSpec("action", "str", "Your move; start typing to see legal moves", required=True,
                       autocomplete=True, max_length=300),
        )),
        CommandSpec("settings", "Show or change the lobby's settings (host)", (
            OptionSpec("settings", "str", "key=value pairs", autocomplete=True, max_length=400),
        )),
        CommandSpec("rules", "Show the rules of a game", (
            OptionSpec("game", "str", "Which game", choices=games),
        )),
        CommandSpec("help", "How to play with this bot"),
        # Records of finished games (bot/service/records.py).
        CommandSpec("stats", "A player's games, wins and ratings on this server", (
            OptionSpec("user", "user", "Whose stats (default: yours)"),
            OptionSpec("game", "str", "Only this game", choices=games),
        )),
        CommandSpec("leaderboard", "Top players of a game on this server", (
            OptionSpec("game", "str", "Which game", required=True, choices=games),
        )),
        CommandSpec("history", "Recent finished games, to download or replay", (
            OptionSpec("where", "str", "This channel (and its threads) or the whole server",
                       choices=("channel", "server")),
            OptionSpec("game", "str", "Only this game", choices=games),
        )),
        CommandSpec("replay", "Step through a finished game move by move", (
            OptionSpec("id", "int", "The game's number, from /politics history", required=True, min_value=1,
                       max_value=2**53),
            OptionSpec("move", "int", "Start at this move (0 = the opening)", min_value=0, max_value=1_000_000),
            OptionSpec("share", "bool", "Post it in the channel (each step button answers whoever presses it)"),
        )),
        CommandSpec("stats-reset", "Clear this server's finished games and ratings (Manage Server)", admin=True),
        CommandSpec("forget-me", "Replace your name and id in this server's game records"),
    ]
    kinds = sorted({k for g in all_games().values() for k in g.server_data_kinds})
    for kind in kinds:
        specs += [
            CommandSpec(f"{kind} upload", f"Upload custom {kind} for this server (CSV or JSON)", (
                OptionSpec("file", "attachment", "A .csv or .json file", required=True),
            ), admin=True),
            CommandSpec(f"{kind} list", f"List this server's custom {kind}", admin=True),
            CommandSpec(f"{kind} remove", f"Remove one of this server's custom {kind}", (
                OptionSpec("id", "str", "Its id, from the list", required=True, max_length=60),
            ), admin=True),
        ]
    return specs


# Built once per set of games: a game registered later (engines.register, a test's toy game) is a
# new choice of /politics new, not a stale list.
_COMMANDS: tuple[tuple[str, ...], dict[str, CommandSpec]] | None = None


def commands() -> dict[str, CommandSpec]:
    global _COMMANDS
    games = _game_choices()
    if _COMMANDS is None or _COMMANDS[0] != games:
        _COMMANDS = (games, {c.name: c for c in build_commands()})
    return _COMMANDS[1]


def coerce_options(spec: CommandSpec, raw: dict[str, Any]) -> dict[str, Any]:
    """Check and convert option values exactly as Discord would: required
    options, types, ranges, choices, lengths."""
    known = {o.name: o for o in spec.options}
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in known:
            allowed = ", ".join(known) or "no options"
            raise InputError(f"/politics {spec.name} has no option '{str(name)[:30]}' (it takes {allowed}).")
        opt = known[name]
        if opt.kind == "int":
            try:
                if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
                    raise ValueError(value)  # int(3.5) would quietly become 3
                value = int(value)
            except (TypeError, ValueError):
                raise InputError(f"'{opt.name}' must be a whole number.") from None
            too_low = opt.min_value is not None and value < opt.min_value
            if too_low or opt.max_value is not None and value > opt.max_value:
                raise InputError(f"'{opt.name}' must be between {opt.min_value} and {opt.max_value}.")
        elif opt.kind == "bool":
            if not isinstance(value, bool):
                word = str(value).strip().lower()
                if word not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                    raise InputError(f"'{opt.name}' is true or false.")
                value = word in ("true", "yes", "1", "on")
        elif opt.kind in ("str", "user"):
            value = str(value)
            if opt.max_length and len(value) > opt.max_length:
                raise InputError(f"'{opt.name}' is too long (at most {opt.max_length} characters).")
            if opt.choices and value not in opt.choices:
                raise InputError(f"'{value[:40]}' is not a choice for '{opt.name}': {', '.join(opt.choices)}.")
        out[name] = value
    for opt in spec.options:
        if opt.required and opt.name not in out:
            raise InputError(f"/politics {spec.name} needs '{opt.name}'.")
    return out


def parse_command_line(line: str) -> tuple[CommandSpec, dict[str, Any]]:
    """Parse the text form `/politics new game:us-president seed:7 settings:"deal=one"`.

    Option values run to the next `name:` of a known option, so `action:play
    tack-center bob` needs no quotes; quotes are also accepted.
    """
    text = line.strip()
    if not text.startswith("/politics"):
        raise InputError("Commands start with /politics (try /politics help).")
    rest = text[len("/politics"):].strip()
    if not rest:
        raise InputError("Say which command: /politics help lists them.")
    try:
        words = shlex.split(rest, posix=True)
    except ValueError:
        raise InputError("That command has an unmatched quote.") from None
    table = commands()
    # Longest command name first: "questions upload" before "questions".
    for length in (2, 1):
        name = " ".join(words[:length])
        if name in table and (length == 1 or len(words) >= 2):
            spec = table[name]
            words = words[length:]
            break
    else:
        raise InputError(f"There is no command /politics {words[0][:30]} (try /politics help).")
    names = {o.name for o in spec.options}
    raw: dict[str, str] = {}
    current: str | None = None
    for word in words:
        key, sep, value = word.partition(":")
        if sep and key in names:
            current = key
            raw[key] = value
        elif current is not None:
            raw[current] = (raw[current] + " " + word).strip()
        else:
            raise InputError(f"'{word[:30]}' is not an option of /politics {spec.name}; write it as name:value.")
    return spec, coerce_options(spec, raw)
