"""Messages and controls: the board, each seat's private panel and menus, and the buttons that drive them."""
from __future__ import annotations

from engines import Game, Result
from render import get_renderer
from render.text import alt_text, text_board

from ..messages import Button, Ctx, Modal, Outgoing, Row, Select, User, countdown
from ..registry import InputError
from ..text import plain
from ..store import CorruptRow
from .common import TooLate, _clip, control_ref


def _forced(legal: list, prefix: tuple[str, ...]) -> bool:
    """True if the menus skip this step: exactly one next word and nothing to confirm."""
    depth = len(prefix)
    matching = [t for t in legal if tuple(t[:depth]) == prefix]
    return len({t[depth] for t in matching if len(t) > depth}) == 1 and not any(len(t) == depth for t in matching)


def _image_job(renderer, view: dict, previous: dict | None):
    """Images that are not the channel's board (a replay's frame): drawn by the front end in a thread."""
    def job():
        return renderer(view, previous)
    return job


class Controls:
    """Part of GameService (see bot/service/__init__.py)."""

    async def dm_failed(self, channel_id: str, user_id: str, user_name: str | None = None) -> list[Outgoing]:
        """A DM bounced (closed DMs): say so in the channel, reveal nothing, and
        offer the same controls ephemerally."""
        try:
            loaded = await self._load(channel_id)
        except CorruptRow:
            loaded = None
        where = control_ref(channel_id, loaded.record if loaded else {})
        return [Outgoing(
            to="channel", channel_id=channel_id,
            text=(f"<@{user_id}>, I can't send you direct messages (your DMs are closed). "
                  "Press **Open my controls** to see your private cards and moves here, visible only to you."),
            rows=[[Button("Open my controls", f"pg:{where}:turn", "primary")]], ping=[user_id],
        )]

    async def cmd_status(self, ctx: Ctx) -> list[Outgoing]:
        loaded = await self._require(ctx)
        record, game = loaded.record, loaded.game
        if record["status"] == "lobby":
            return [self._lobby_message(ctx.channel_id, record, "Waiting in the lobby.")]
        state = loaded.state
        return [self._board_message(ctx.channel_id, record, game, state, "", with_board=True)]

    async def cmd_hand(self, ctx: Ctx) -> list[Outgoing]:
        loaded = await self._require(ctx)
        record, game = loaded.record, loaded.game
        if record["status"] == "lobby":
            raise InputError("The game hasn't started yet.")
        seat = self._seat_of(record, ctx.user.id)
        if seat is None:
            raise InputError("You are not a player in this game.")
        state = loaded.state
        return [self._private_panel(ctx, record, game, state, seat, to="ephemeral")]

    async def _general_button(self, ctx: Ctx, what: str) -> list[Outgoing]:
        if what == "join":
            return await self.cmd_join(ctx)
        if what == "start":
            return await self.cmd_start(ctx)
        if what in ("turn", "hand"):
            return await self.cmd_hand(ctx)
        if what == "status":
            return await self.cmd_status(ctx)
        raise InputError("That button is not one of mine.")

    async def _control_owner(self, ctx: Ctx, acted: int, *, playing: bool) -> tuple:
        """(loaded, seat) for a click on a seat's controls: the clicker's own, still current
        (the seat has not moved since they were drawn), and with playing=True in a running game."""
        loaded = await self._require(ctx)
        record = loaded.record
        seat = self._seat_of(record, ctx.user.id)
        if seat is None:
            raise InputError("These controls belong to another player.")
        if playing and record["status"] != "playing":
            raise InputError("This game is over." if record["status"] == "finished" else "The game hasn't started yet.")
        if record["acted"][seat] != acted:
            raise TooLate()
        return loaded, seat

    async def _navigate(self, ctx: Ctx, acted: int, path: str) -> list[Outgoing]:
        loaded, seat = await self._control_owner(ctx, acted, playing=True)
        record, game = loaded.record, loaded.game
        go = path.endswith(" !")
        path = path[:-2] if go else path
        tokens = tuple(path.split())
        state = loaded.state
        legal = [a.tokens() for a in game.legal_actions(state, seat)]
        complete = any(tuple(t) == tokens for t in legal)
        longer = any(len(t) > len(tokens) and tuple(t[: len(tokens)]) == tokens for t in legal)
        if complete and (go or not longer):
            return await self._act(ctx, " ".join(tokens), expect_acted=acted)
        if not longer:
            raise InputError("That move is no longer possible.")
        return [self._private_panel(ctx, record, game, state, seat, to="edit", prefix=tokens)]

    async def _open_text_prompt(self, ctx: Ctx, acted: int, verb: str) -> list[Outgoing]:
        loaded, seat = await self._control_owner(ctx, acted, playing=False)
        record, game = loaded.record, loaded.game
        state = loaded.state
        for prompt in game.text_prompts(state, seat):
            if prompt.verb == verb:
                return [Outgoing(to="modal", user_id=ctx.user.id, modal=Modal(
                    custom_id=f"pm:{control_ref(ctx.channel_id, record)}:{acted}:{verb}", title=_clip(prompt.label, 45),
                    label=_clip(prompt.label, 45), placeholder=_clip(prompt.placeholder, 100)))]
        raise InputError("That question is no longer open.")

    def _controls(self, channel_id: str, record: dict, game: Game, state, seat: int,
                  prefix: tuple[str, ...] = ()) -> list[Row]:
        """Menus built from the words of the legal actions: each step offers the
        distinct next words. custom_ids carry the channel and the game (a control
        of an earlier game is refused), the seat's action count (stale clicks are
        refused) and the words chosen so far."""
        acted = record["acted"][seat]
        actions = {tuple(a.tokens()): a for a in game.legal_actions(state, seat)}
        legal = list(actions)
        matching = [t for t in legal if t[:len(prefix)] == prefix]
        while True:
            depth = len(prefix)
            nexts = list(dict.fromkeys(t[depth] for t in matching if len(t) > depth))
            complete = any(len(t) == depth for t in matching)
            if len(nexts) != 1 or complete:
                break
            # A step with one choice and nothing to confirm is no choice: skip it.
            prefix += (nexts[0],)
            matching = [t for t in matching if len(t) > depth]
        complete = complete and depth > 0
        rows: list[Row] = []
        base = f"{control_ref(channel_id, record)}:{acted}:"
        path = " ".join(prefix)
        def label(tokens: tuple[str, ...]) -> str:
            """A choice that makes a move names the whole move; one that leads on names its step.
            Where the engine has no description beyond the move's words, its step label
            ("✅ done" for `judge yes`) says more."""
            ends = tokens in actions and not any(len(t) > len(tokens) and t[:len(tokens)] == tokens for t in legal)
            step = game.token_label(state, seat, tokens[:-1], tokens[-1])
            if not (ends or tokens == prefix):
                return step
            move = game.describe_action(state, seat, actions[tokens])
            return step if move == actions[tokens].text() and step != tokens[-1] else move

        if nexts:
            labelled = [(_clip(label(prefix + (tok,)), 80), tok) for tok in nexts]
            ids = [f"pb:{base}" + " ".join(prefix + (tok,)) for tok in nexts]
            if len(nexts) <= 5 and all(len(i) <= 100 for i in ids):
                rows.append([Button(label, cid, "primary" if depth else "secondary")
                             for (label, _tok), cid in zip(labelled, ids)])
            else:
                for start in range(0, min(len(labelled), 100), 25):
                    chunk = labelled[start:start + 25]
                    # "~N" only keeps the ids of several selects distinct; it is dropped on use.
                    cid = f"ps:{base}{path}" + (f" ~{start // 25}" if start else "")
                    rows.append([Select(cid[:100], f"Choose ({start + 1}–{start + len(chunk)} of {len(labelled)})",
                                        tuple(chunk))])
        extra: Row = []
        if complete:
            extra.append(Button(_clip("✓ " + label(prefix), 80), f"pb:{base}{path} !", "success"))
        if depth:
            # Back to the nearest step that offered a real choice; steps that were
            # skipped (one choice) would only lead straight back here.
            up = prefix[:-1]
            while up and _forced(legal, up):
                up = up[:-1]
            if up or not _forced(legal, ()):
                extra.append(Button("← Back", f"pb:{base}{' '.join(up)}".rstrip(), "secondary"))
        for prompt in game.text_prompts(state, seat)[:3]:
            extra.append(Button(_clip(prompt.label, 80), f"pt:{base}{prompt.verb}", "primary"))
        if extra:
            rows.append(extra)
        return rows[:5]

    def _board_message(self, channel_id: str, record: dict, game: Game, state, header: str,
                       result: Result | None = None, with_board: bool = False, full_image: bool = False) -> Outgoing:
        """The channel's board: what happened, whose turn, the public view to draw (with its
        alt text; built once per move) and, for /politics status, the text board and every image."""
        status = plain(game.status_text(state))
        result = result or game.result(state)
        text = "\n".join(x for x in (header.strip(), status if not result.finished else "") if x)
        timer = record.get("timer")
        if timer and not result.finished:
            # a live countdown in every client (the engine's clock: a question, an offer, a vote)
            text += f"\n⏱️ Time runs out {countdown(timer['due'])}."
        rows: list[Row] = []
        if not result.finished:
            where = control_ref(channel_id, record)
            buttons = [Button("Open my controls", f"pg:{where}:turn", "primary")]
            if game.private_info:
                buttons.append(Button("My hand", f"pg:{where}:hand", "secondary"))
            rows = [buttons]
        alt, board = "", ""
        drawn = self.render_enabled and get_renderer(game.id) is not None
        view = game.view(state, None) if drawn or with_board else None
        if drawn:
            alt = alt_text(game.id, view)
        if with_board:
            board = text_board(game.id, view)
        return Outgoing(to="channel", channel_id=channel_id, text=text or status, rows=rows,
                        view=view if drawn else None, game_id=game.id, full_image=with_board or full_image, alt=alt, board=board)

    def _private_panel(self, ctx: Ctx, record: dict, game: Game, state, seat: int, to: str,
                       prefix: tuple[str, ...] = (), lead: str = "", body: str | None = None) -> Outgoing:
        body = plain(game.private_text(state, seat) if body is None else body)
        rows = self._controls(ctx.channel_id, record, game, state, seat, prefix)
        if not rows:
            waiting = game.to_act(state)
            tail = "The game is over." if game.result(state).finished else (
                "Nothing to do right now." if seat not in waiting else "Type your move with /politics do.")
        else:
            tail = "Your move:" if not prefix else f"Your move: **{plain(' '.join(prefix))}** …"
        text = "\n".join(x for x in (lead.strip(), body, tail) if x)
        return Outgoing(to=to, channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name,
                        text=text, rows=rows)

    def _private_messages(self, channel_id: str, record: dict, game: Game, state, seat: int,
                          events: list, body: str | None = None) -> list[Outgoing]:
        player = record["players"][seat]
        if player["bot"]:
            return []
        user = User(player["id"], player["name"])
        lead = "\n".join(plain(e.text) for e in events)
        if body is None:
            body = game.private_text(state, seat)
        panel = self._private_panel(Ctx(user, channel_id), record, game, state, seat, to="dm", lead=lead, body=body)
        if not panel.rows and not lead and not body:
            return []
        panel.text = f"**{game.title}** in <#{channel_id}>\n" + panel.text
        return [panel]

    def _reply(self, ctx: Ctx, text: str) -> Outgoing:
        return Outgoing(to="ephemeral", channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name, text=text)
