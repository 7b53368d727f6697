"""Boards: the one place that builds what the bot says about a game.

The channel's board (what happened, whose turn, the public view to draw and its alt text), the
lobby's message, each seat's private panel with its menus and buttons, the DM that carries it,
a thread's closing, and the one-sentence reply. Plain functions of the row and the game's state:
no store, no Discord. Secrets: a channel message is built only from public events, the public
view and status_text; a seat's private text goes only into that seat's panel.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable, Mapping

from engines import Game, Result, get_game
from engines.search import hard_searches
from render import get_renderer
from render.text import alt_text, text_board

from ..messages import Button, Ctx, Destination, Images, Outgoing, Row, Select, User, countdown
from ..store.game_row import GameRecord
from ..text import plain
from .common import _clip, _fmt, control_ref


GROUP = "@"  # a menu path's word that names a group of a long step ("fly @West"), not a word of the move


def _forced(legal: list[tuple[str, ...]], prefix: tuple[str, ...]) -> bool:
    """True if the menus skip this step: exactly one next word and nothing to confirm."""
    depth = len(prefix)
    matching = [t for t in legal if tuple(t[:depth]) == prefix]
    return len({t[depth] for t in matching if len(t) > depth}) == 1 and not any(len(t) == depth for t in matching)


def image_job(renderer: Callable[[Mapping[str, Any], Mapping[str, Any] | None], Images],
              view: Mapping[str, Any], previous: Mapping[str, Any] | None) -> Callable[[], Images]:
    """Images that are not the channel's board (a replay's frame): drawn by the front end in a thread."""
    def job() -> Images:
        return renderer(view, previous)
    return job


def public_seed_note(record: GameRecord) -> str:
    return (f"🎲 Seed {record.seed} was chosen by the host, so this deal is public: anyone can replay it "
            "with the same seed. It is a puzzle open to every player alike.")


# A turn's board collects what happens in the turn as lines; past these it is full, and the next move
# starts a new board message (an all-AI game pages through boards instead of one endless edit).
MAX_BOARD_LINES = 12
MAX_BOARD_CHARS = 1200


AI_LEVEL_MARK = "🤖 AI level:"  # opens the board's level line (the local table prints it once a board)


def ai_level_line(record: GameRecord) -> str:
    """The AI seats' level as the board says it ("" in a game without AI seats)."""
    if not any(p.ai for p in record.players):
        return ""
    note = hard_as_normal_note(record)
    return f"{AI_LEVEL_MARK} {record.bot_settings.ai}." + (f" {note}" if note else "")


def hard_as_normal_note(record: GameRecord) -> str:
    """A player who picks hard where hard plays normal's move is told so, not left to find out."""
    game = get_game(record.game)
    if record.bot_settings.ai != "hard" or hard_searches(game):
        return ""
    return f"In {game.title} hard plays as normal for now: no search has beaten normal's play here yet."


class Boards:
    def __init__(self, *, render: bool = True) -> None:
        # False: no views are described for drawing (transcripts, benches); the text stays the same.
        self.render_enabled = render

    def lobby_message(self, channel_id: str, record: GameRecord, lead: str) -> Outgoing:
        game = get_game(record.game)
        names = ", ".join(plain(p.name) for p in record.players)
        host = next((plain(p.name) for p in record.players if p.id == record.host), "?")
        text = (f"{lead}\n**{game.title}** lobby ({len(record.players)}/{game.max_players}, "
                f"needs {game.min_players}): {names}. Host: {host}.")
        if record.seed_public:
            text += "\n" + public_seed_note(record)
        given = {**record.options, **record.bot_settings.given()}
        if any(p.ai for p in record.players) and "ai" not in given:
            given["ai"] = record.bot_settings.ai  # the AI seats' level, even the default
        if given:
            # the settings the host gave (validated), as the game reads them
            text += "\nSettings: " + " ".join(f"{k}={plain(_fmt(v))}" for k, v in given.items())
            note = hard_as_normal_note(record)
            text += f"\n🤖 {note}" if note else ""
        return Outgoing(to="channel", channel_id=channel_id, text=text, rows=[[
            Button("Join", f"pg:{control_ref(channel_id, record)}:join", "primary"),
            Button("Start (host)", f"pg:{control_ref(channel_id, record)}:start", "success")]])

    def controls(self, channel_id: str, record: GameRecord, game: Game, state, seat: int,
                  prefix: tuple[str, ...] = ()) -> list[Row]:
        """Menus built from the words of the legal actions: each step offers the
        distinct next words. custom_ids carry the channel and the game (a control
        of an earlier game is refused), the seat's action count (stale clicks are
        refused) and the words chosen so far. A word "@key" in them is a group of a
        long step (Game.menu_groups), not a word of the move."""
        acted = record.acted[seat]
        actions = {tuple(a.tokens()): a for a in game.legal_actions(state, seat)}
        legal = list(actions)
        group = prefix[-1][1:] if prefix and prefix[-1].startswith(GROUP) else None
        if group is not None:
            prefix = prefix[:-1]
        matching = [t for t in legal if t[:len(prefix)] == prefix]
        lead = game.menu_lead(state, seat) if not prefix and group is None else None
        while group is None:
            depth = len(prefix)
            nexts = list(dict.fromkeys(t[depth] for t in matching if len(t) > depth))
            complete = any(len(t) == depth for t in matching)
            if len(nexts) != 1 or complete or (depth == 0 and nexts == [lead]):
                break
            # A step with one choice and nothing to confirm is no choice: skip it.
            prefix += (nexts[0],)
            matching = [t for t in matching if len(t) > depth]
        depth = len(prefix)
        nexts = list(dict.fromkeys(t[depth] for t in matching if len(t) > depth))
        complete = any(len(t) == depth for t in matching) and depth > 0 and group is None
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

        def choices(at: tuple[str, ...], tokens: list[str]) -> list[tuple[tuple[str, ...], str]]:
            """The items of one step: its words, or its groups when the game groups a long list."""
            groups = game.menu_groups(state, seat, at, tokens) if group is None else None
            if groups:
                return [(at + (GROUP + key,), text) for key, text, _members in groups]
            return [(at + (tok,), label(at + (tok,))) for tok in tokens]

        items: list[tuple[tuple[str, ...], str]]
        lead_words = [t[1] for t in matching if len(t) > 1 and t[0] == lead]
        if group is not None:
            members = next((m for key, _text, m in game.menu_groups(state, seat, prefix, nexts) or []
                            if key == group), [])
            items = [(prefix + (tok,), label(prefix + (tok,))) for tok in members if tok in nexts]
        elif lead in nexts and lead_words and not any(t == (lead,) for t in matching):
            # The phase's main verb: its choices first, listed at once, then the other verbs, so
            # item 1 is the same kind of move whether or not other verbs are open this time.
            items = choices((lead,), list(dict.fromkeys(lead_words)))
            items += [((tok,), label((tok,))) for tok in nexts if tok != lead]
        else:
            items = choices(prefix, nexts)
        if items:
            labelled = [(_clip(text, 80), " ".join(item[depth:])) for item, text in items]
            ids = [f"pb:{base}" + " ".join(item) for item, _text in items]
            if len(items) <= 5 and all(len(i) <= 100 for i in ids):
                rows.append([Button(text, cid, "primary" if depth else "secondary")
                             for (text, _value), cid in zip(labelled, ids)])
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
        if group is not None:
            # Back to the groups: the step that listed them (the first menu, when the main verb led it).
            up = () if prefix == (game.menu_lead(state, seat),) else prefix
            extra.append(Button("← Back", f"pb:{base}{' '.join(up)}".rstrip(), "secondary"))
        elif depth:
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

    def board_message(self, channel_id: str, record: GameRecord, game: Game, state, header: str,
                       result: Result | None = None, with_board: bool = False, full_image: bool = False) -> Outgoing:
        """The channel's board: what happened, whose turn, the public view to draw (with its
        alt text; built once per move) and, for /politics status, the text board and every image."""
        status = plain(game.status_text(state))
        level = ai_level_line(record)
        if level and (with_board or record.bot_settings.ai != "normal"):
            status += "\n" + level  # /politics status always names it; every board when not the default
        result = result or game.result(state)
        text = "\n".join(x for x in (header.strip(), status if not result.finished else "") if x)
        timer = record.timer
        if timer and not result.finished:
            # a live countdown in every client (the engine's clock: a question, an offer, a vote)
            text += f"\n⏱️ Time runs out {countdown(timer.due)}."
        rows: list[Row] = []
        if not result.finished:
            where = control_ref(channel_id, record)
            buttons: Row = [Button("Open my controls", f"pg:{where}:turn", "primary")]
            if game.private_info:
                buttons.append(Button("My hand", f"pg:{where}:hand", "secondary"))
            rows = [buttons]
        alt, board = "", ""
        drawn = self.render_enabled and get_renderer(game.id) is not None
        view = game.view(state, None) if drawn or with_board else None
        if drawn:
            alt = alt_text(game.id, dict(view or {}))
        if with_board:
            board = text_board(game.id, dict(view or {}))
        return Outgoing(to="channel", channel_id=channel_id, text=text or status, rows=rows,
                        view=view if drawn else None, game_id=game.id, full_image=with_board or full_image, alt=alt,
                        board=board)

    def turn_board(self, channel_id: str, record: GameRecord, game: Game, state, header: str, *,
                   new_turn: bool, result: Result | None = None, full_image: bool = False) -> Outgoing:
        """The channel's board after a move, as one message per turn (issue #25): a move within the
        turn (a capture, a placement, an AI seat's step) adds its lines to the turn's board, which the
        front end edits in place; a new turn (`new_turn`: a human seat's turn began, the game ended,
        a vote or question opened), or a board that is full, starts the next board message. A new
        board pings exactly the human seats whose turn it is: that is their turn notice (no DM).
        Updates `record.board_no` and `record.board_lines` (saved with the move)."""
        header = header.strip()
        lines = record.board_lines
        full = len(lines) >= MAX_BOARD_LINES or sum(len(x) + 1 for x in lines) + len(header) > MAX_BOARD_CHARS
        edit = not (new_turn or full or record.board_no == 0)
        if edit:
            if header:
                lines.append(header)
        else:
            record.board_no += 1
            record.board_lines = lines = [header] if header else []
        msg = self.board_message(channel_id, record, game, state, "\n".join(lines), result=result,
                                 full_image=full_image)
        msg.board_key = f"{record.game_ref or channel_id}.{record.board_no}"
        msg.edit = edit
        result = result or game.result(state)
        if not edit and not result.finished:
            waiting = [s for s in game.to_act(state) if s >= 0 and not record.players[s].ai]
            ids = [record.players[s].id for s in waiting]
            if ids:
                msg.text += "\n🔔 " + " ".join(f"<@{uid}>" for uid in ids) + " — your turn."
                msg.ping = ids
        return msg

    def private_panel(self, ctx: Ctx, record: GameRecord, game: Game, state, seat: int, to: Destination,
                       prefix: tuple[str, ...] = (), lead: str = "", body: str | None = None) -> Outgoing:
        body = plain(game.private_text(state, seat) if body is None else body)
        rows = self.controls(ctx.channel_id, record, game, state, seat, prefix)
        if not rows:
            waiting = game.to_act(state)
            tail = "The game is over." if game.result(state).finished else (
                "Nothing to do right now." if seat not in waiting else "Type your move with /politics do.")
        else:
            words = " ".join(t.removeprefix(GROUP) for t in prefix)
            tail = "Your move:" if not prefix else f"Your move: **{plain(words)}** …"
        text = "\n".join(x for x in (lead.strip(), body, tail) if x)
        return Outgoing(to=to, channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name,
                        text=text, rows=rows)

    def private_messages(self, channel_id: str, record: GameRecord, game: Game, state, seat: int,
                          events: list, body: str | None = None) -> list[Outgoing]:
        player = record.players[seat]
        if player.ai:
            return []
        user = User(player.id, player.name)
        lead = "\n".join(plain(e.text) for e in events)
        if body is None:
            body = game.private_text(state, seat)
        panel = self.private_panel(Ctx(user, channel_id), record, game, state, seat, to="dm", lead=lead, body=body)
        if not panel.rows and not lead and not body:
            return []
        panel.text = f"**{game.title}** in <#{channel_id}>\n" + panel.text
        return [panel]

    def reply(self, ctx: Ctx, text: str) -> Outgoing:
        return Outgoing(to="ephemeral", channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name,
                        text=text)

    def archive_thread(self, channel_id: str, record: GameRecord) -> list[Outgoing]:
        """A game played in a thread closes its thread when it ends (bot setting archive)."""
        if record.thread_of and record.bot_settings.archive:
            return [Outgoing(to="archive", channel_id=channel_id)]
        return []
