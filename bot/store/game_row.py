"""The game row's record, typed: what the bot keeps about one channel's game.

Parsed once, where the store hands a row over (`parse_record`), and written back as JSON text
(`GameRecord.dump_text`); the engine's state travels as the JSON text the engine wrote.

Two things were both called "bot" in the stored JSON, and have their own names here:
- a seat played by the AI: `Player.ai` (stored as "ai"; rows written before say "bot");
- the bot's own settings of a game (turn timeout, thread archiving), as against the game's
  settings: `GameRecord.bot_settings` (stored as "bot_settings"; before, "bot").
Rows in the old shape load as they are and are written in the new shape by their next commit.
"""
from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_serializer

Status = Literal["lobby", "playing", "finished"]


class Player(BaseModel):
    """One seat: a person (their Discord id), the AI (`bot:N`), or a person who resigned and
    left the seat to the AI (`resigned:<id>`, with ai=True)."""
    model_config = ConfigDict(populate_by_name=True)

    id: str
    name: str
    ai: bool = Field(default=False, validation_alias=AliasChoices("ai", "bot"))


class BotSettings(BaseModel):
    """The bot's settings of a game, set in the lobby beside the game's own (`timeout=5 archive=no`).
    Only the settings the host gave are stored (and listed in the lobby)."""
    timeout: float = Field(default=0.0, ge=0, le=1440)  # minutes before the AI moves for a waiting player; 0: never
    archive: bool = True  # a game opened in a thread archives its thread when it ends
    # The AI seats' level (engines.search): normal is the game's own heuristic, as before levels.
    ai: Literal["easy", "normal", "hard"] = "normal"
    ai_budget_ms: int = Field(default=1000, ge=50, le=10000)  # a searched move's time budget
    ai_iterations: int | None = Field(default=None, ge=1, le=100000)  # a budget in iterations: replayable moves
    hints: bool = True  # /politics hint may suggest a move
    # Tell a seat its turn by DM too, not only by the ping on the channel's board (each DM is a request
    # under Discord's global limit, the ping rides a follow-up that is not: off unless asked for).
    dm_turns: bool = False

    NAMES: ClassVar[tuple[str, ...]] = ("timeout", "archive", "ai", "ai_budget_ms", "ai_iterations", "hints",
                                        "dm_turns")

    def given(self) -> dict[str, Any]:
        """The settings the host gave, as stored (and shown in the lobby)."""
        return self.model_dump(mode="json", exclude_unset=True)

    def merged(self, other: BotSettings) -> BotSettings:
        """These settings with `other`'s given ones on top."""
        return BotSettings.model_validate({**self.given(), **other.given()})


class RowTimer(BaseModel):
    """The engine's running clock (a question, an offer, a vote): when it runs out the bot
    applies `action` as `seat`. `key` changes with every new deadline."""
    key: str
    due: float
    seat: int
    action: str


class GameRecord(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True, validate_assignment=False)

    game: str = ""  # the game's id (the row's game column says it too; a few early rows lack it here)
    status: Status
    host: str
    players: list[Player]
    # The game's settings the host gave, validated by the game's Options model and stored typed.
    options: dict[str, Any] = Field(default_factory=dict)
    bot_settings: BotSettings = Field(default_factory=BotSettings,
                                      validation_alias=AliasChoices("bot_settings", "bot"))
    seed: int
    seed_public: bool = False  # the host chose the seed, so the deal is public
    game_ref: str = ""  # the game's identity in its controls ("" in rows from before refs)
    thread_of: str | None = None  # the channel whose thread this game was opened in
    created: float | None = None
    started: float | None = None
    finished: float | None = None
    # The engine's state as the JSON text it wrote (rows from before migration 2: an object).
    state: str | dict[str, Any] | None = None
    opening: str | dict[str, Any] | None = None  # the state at the start: with `log`, the game replays
    log: list[tuple[int, str]] = Field(default_factory=list)  # every applied move: (seat, action text)
    acted: list[int] = Field(default_factory=list)  # moves made per seat (stale clicks are refused by it)
    waiting_since: dict[str, float] = Field(default_factory=dict)  # seat -> when its turn began
    reminded: list[int] = Field(default_factory=list)  # seats reminded of their timeout this turn
    timer: RowTimer | None = None
    hinted: list[int] = Field(default_factory=list)  # seats that asked /politics hint (the record says so)
    # The channel's board of this turn: its number in the game (a move within the turn edits
    # message `board_no`; a new turn posts the next number) and the lines said on it so far.
    board_no: int = 0
    board_lines: list[str] = Field(default_factory=list)

    @field_serializer("bot_settings")
    def _given_settings(self, settings: BotSettings) -> dict[str, Any]:
        return settings.given()

    def seat_of(self, user_id: str) -> int | None:
        """The seat a user plays (None: not a player)."""
        for i, p in enumerate(self.players):
            if p.id == user_id:
                return i
        return None

    def humans(self) -> list[int]:
        return [s for s, p in enumerate(self.players) if not p.ai]

    def saved_state(self) -> str | dict[str, Any]:
        """The engine's state as stored (ValueError in a lobby, which has none yet)."""
        if self.state is None:
            raise ValueError("the game has not started: there is no state")
        return self.state

    def without_state(self) -> str:
        """The record's JSON text without the state (stored in a column of its own)."""
        return self.model_dump_json(exclude={"state"})

    def dump_text(self) -> str:
        return self.model_dump_json()
