"""Controls: the board and panel commands, and the clicks on a seat's menus, buttons and forms."""
from __future__ import annotations

from ..messages import Button, Ctx, Modal, Outgoing
from ..registry import InputError
from ..store import CorruptRow
from .boards import GROUP, Boards
from .common import Loaded, Request, TooLate, _clip, control_ref
from .lobby import Lobby
from .play_loop import PlayLoop
from .rows import Rows


class Controls:
    """/politics status and hand, the general buttons (join, start, my controls), a seat's menu
    steps (each click draws the next step, the last one moves through the play loop), and the
    form of a typed answer."""

    def __init__(self, rows: Rows, boards: Boards, lobby: Lobby, play: PlayLoop) -> None:
        self.rows = rows
        self.boards = boards
        self.lobby = lobby
        self.play = play

    async def dm_failed(self, channel_id: str, user_id: str, user_name: str | None = None) -> list[Outgoing]:
        """A DM bounced (closed DMs): say so in the channel, reveal nothing, and
        offer the same controls ephemerally."""
        try:
            loaded = await self.rows.load(channel_id)
        except CorruptRow:
            loaded = None
        where = control_ref(channel_id, loaded.record if loaded else None)
        return [Outgoing(
            to="channel", channel_id=channel_id,
            text=(f"<@{user_id}>, I can't send you direct messages (your DMs are closed). "
                  "Press **Open my controls** to see your private cards and moves here, visible only to you."),
            rows=[[Button("Open my controls", f"pg:{where}:turn", "primary")]], ping=[user_id],
        )]

    async def status(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        loaded = await self.rows.require(ctx)
        record, game = loaded.record, loaded.game
        if record.status == "lobby":
            return [self.boards.lobby_message(ctx.channel_id, record, "Waiting in the lobby.")]
        state = loaded.state
        return [self.boards.board_message(ctx.channel_id, record, game, state, "", with_board=True)]

    async def hand(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        loaded = await self.rows.require(ctx)
        record, game = loaded.record, loaded.game
        if record.status == "lobby":
            raise InputError("The game hasn't started yet.")
        seat = record.seat_of(ctx.user.id)
        if seat is None:
            raise InputError("You are not a player in this game.")
        state = loaded.state
        return [self.boards.private_panel(ctx, record, game, state, seat, to="ephemeral")]

    async def general_button(self, req: Request, ctx: Ctx, what: str) -> list[Outgoing]:
        """The buttons every player may press: a lobby's Join and Start, a board's controls."""
        if what == "join":
            return await self.lobby.join(req, ctx)
        if what == "start":
            return await self.lobby.start(req, ctx)
        if what in ("turn", "hand"):
            return await self.hand(req, ctx)
        if what == "status":
            return await self.status(req, ctx)
        raise InputError("That button is not one of mine.")

    async def _control_owner(self, ctx: Ctx, acted: int, *, playing: bool) -> tuple[Loaded, int]:
        """(loaded, seat) for a click on a seat's controls: the clicker's own, still current
        (the seat has not moved since they were drawn), and with playing=True in a running game."""
        loaded = await self.rows.require(ctx)
        record = loaded.record
        seat = record.seat_of(ctx.user.id)
        if seat is None:
            raise InputError("These controls belong to another player.")
        if playing and record.status != "playing":
            raise InputError("This game is over." if record.status == "finished" else "The game hasn't started yet.")
        if record.acted[seat] != acted:
            raise TooLate()
        return loaded, seat

    async def navigate(self, req: Request, ctx: Ctx, acted: int, path: str) -> list[Outgoing]:
        loaded, seat = await self._control_owner(ctx, acted, playing=True)
        record, game = loaded.record, loaded.game
        go = path.endswith(" !")
        path = path[:-2] if go else path
        shown = tuple(path.split())
        # a group of a long step ("fly @West") is a menu's word, not the move's: the move is the rest
        tokens = tuple(t for t in shown if not t.startswith(GROUP))
        state = loaded.state
        legal = [a.tokens() for a in game.legal_actions(state, seat)]
        complete = any(tuple(t) == tokens for t in legal) and shown[-1:] == tokens[-1:]
        longer = any(len(t) > len(tokens) and tuple(t[: len(tokens)]) == tokens for t in legal)
        if complete and (go or not longer):
            return await self.play.act(req, ctx, " ".join(tokens), expect_acted=acted)
        if not longer:
            raise InputError("That move is no longer possible.")
        return [self.boards.private_panel(ctx, record, game, state, seat, to="edit", prefix=shown)]

    async def open_text_prompt(self, req: Request, ctx: Ctx, acted: int, verb: str) -> list[Outgoing]:
        loaded, seat = await self._control_owner(ctx, acted, playing=False)
        record, game = loaded.record, loaded.game
        state = loaded.state
        for prompt in game.text_prompts(state, seat):
            if prompt.verb == verb:
                return [Outgoing(to="modal", user_id=ctx.user.id, modal=Modal(
                    custom_id=f"pm:{control_ref(ctx.channel_id, record)}:{acted}:{verb}", title=_clip(prompt.label, 45),
                    label=_clip(prompt.label, 45), placeholder=_clip(prompt.placeholder, 100)))]
        raise InputError("That question is no longer open.")
