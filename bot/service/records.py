"""Records of finished games: recording a result with the game's last row, stats,
leaderboards, history, replays and the privacy commands. The maths and the game file
live in bot/records.py; the queries in bot/store/records.py, the tables in bot/store/schema.py (migration 3)."""
from __future__ import annotations

import re
import secrets
import time

from engines import all_games, get_game
from engines.wording import possessive
from render import get_renderer
from render.chart import rating_chart
from render.text import alt_text

from .. import records, sentences
from ..messages import Button, Ctx, Destination, Embed, Outgoing, Row
from ..registry import InputError
from ..store import Store
from ..text import display_name, plain
from .boards import Boards, image_job
from .common import Request, _clip
from .rows import Rows

PAGE = 10           # leaderboard lines per page
HISTORY = 10        # games listed by /politics history
MENTION = re.compile(r"^<@!?(\d+)>$")


def _when(ts: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ts)) if ts else "?"


def _length(data: dict) -> str:
    moves = _count(data.get("moves", 0), "move")
    if data.get("started") and data.get("finished"):
        minutes = max(0, round((data["finished"] - data["started"]) / 60))
        return f"{moves}, {minutes} min"
    return moves


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _rating(mu: float, sigma: float) -> str:
    return f"{records.conservative(mu, sigma):.1f} (μ {mu:.1f} ± {sigma:.1f})"


class Records:
    """The commands over finished games: stats, leaderboards, history, replays, the privacy
    commands. (A game's result is recorded with its last row: finish.py.)"""

    def __init__(self, store: Store, rows: Rows, boards: Boards, *, render: bool = True) -> None:
        self.store = store
        self.rows = rows
        self.boards = boards
        self.render_enabled = render

    # ---- commands ------------------------------------------------------------
    async def _who(self, ctx: Ctx, user: str | None) -> str:
        if not user:
            return ctx.user.id
        text = user.strip()
        found = MENTION.match(text)
        if found:
            return found.group(1)
        if text.isdigit():
            return text
        pid = await self.store.player_named(self._guild(ctx), text.lstrip("@"))
        if pid is None:
            raise InputError(f"I have no finished games of a player called '{display_name(text)}' on this server.")
        return pid

    def _guild(self, ctx: Ctx) -> str:
        if not ctx.guild_id:
            raise InputError("Records belong to a server; use this command in a server channel.")
        return ctx.guild_id

    async def stats(self, req: Request, ctx: Ctx, user: str | None = None, game: str | None = None) -> list[Outgoing]:
        guild = self._guild(ctx)
        pid = await self._who(ctx, user)
        rated = await self.store.player_ratings(guild, pid)
        if game:
            rated = [r for r in rated if r[0] == game]
        if not rated:
            whose = "You have" if pid == ctx.user.id else "That player has"
            where = f" of {get_game(game).title}" if game else ""
            return [self.boards.reply(ctx, f"{whose} no finished games{where} on this server yet.")]
        name = rated[0][1]
        games = sum(r[4] for r in rated)
        wins = sum(r[5] for r in rated)
        best = max(rated, key=lambda r: records.conservative(r[2], r[3]))
        embed = Embed(title=f"Stats: {plain(name)}", description=(
            f"**{_count(games, 'game')}** · **{_count(wins, 'win')}** · win rate **{round(100 * wins / games)}%** · "
            f"best game **{get_game(best[0]).title}** (rating {records.conservative(best[2], best[3]):.1f})"))
        for g, _, mu, sigma, n, won in sorted(rated, key=lambda r: -records.conservative(r[2], r[3]))[:25]:
            place, total = await self.store.place(guild, g, mu, sigma)
            embed.fields.append((get_game(g).title, f"rating {_rating(mu, sigma)} · {_count(n, 'game')}, "
                                                    f"{_count(won, 'win')} · #{place} of {total}"))
        chart_game = game or best[0]
        history = await self.store.player_games(guild, pid, chart_game)
        job, alt = None, ""
        if self.render_enabled and len(history) >= 1:
            points = [records.STARTING_RATING] + [records.conservative(mu, sigma) for *_, mu, sigma in history]
            title = f"{get_game(chart_game).title}: {possessive(name)} rating"  # "your rating" at the table
            job = lambda: [("rating.png", rating_chart(points, title))]  # noqa: E731 (drawn off the event loop)
            alt = _clip(f"{title}, game by game: " + ", ".join(f"{p:.1f}" for p in points), 1000)
            embed.image = "rating.png"
            embed.footer = "rating = μ − 3σ, the skill we are sure of (openskill); the chart shows it game by game"
        else:
            embed.footer = "rating = μ − 3σ, the skill we are sure of (openskill)"
        return [Outgoing(to="ephemeral", channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name,
                         embeds=[embed], image_job=job, alt=alt)]

    async def leaderboard(self, req: Request, ctx: Ctx, game: str) -> list[Outgoing]:
        return [await self._leaderboard_page(ctx, game, 0, "ephemeral")]

    async def _leaderboard_page(self, ctx: Ctx, game: str, page: int, to: Destination) -> Outgoing:
        guild = self._guild(ctx)
        chosen = get_game(game)
        total, rows = await self.store.leaderboard(guild, chosen.id, page * PAGE, PAGE)
        pages = max(1, -(-total // PAGE))
        if not rows and page == 0:
            text = f"Nobody has finished a game of {chosen.title} on this server yet."
            return Outgoing(to=to, channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name, text=text)
        lines = [f"**{page * PAGE + i + 1}.** {plain(name)} — {records.conservative(mu, sigma):.1f} "
                 f"({_count(n, 'game')}, {_count(won, 'win')})" for i, (_, name, mu, sigma, n, won) in enumerate(rows)]
        embed = Embed(title=f"Leaderboard: {chosen.title}", description="\n".join(lines) or "(no more players)",
                      footer=f"page {page + 1} of {pages} · rating = μ − 3σ (openskill); "
                             f"AI seats count as {records.AI_NAME}")
        buttons: Row = []
        if page > 0:
            buttons.append(Button("◀ Previous", f"pr:{ctx.channel_id}:lb:{chosen.id}:{page - 1}"))
        if page + 1 < pages:
            buttons.append(Button("Next ▶", f"pr:{ctx.channel_id}:lb:{chosen.id}:{page + 1}"))
        return Outgoing(to=to, channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name,
                        embeds=[embed], rows=[buttons] if buttons else [])

    async def history(self, req: Request, ctx: Ctx, where: str | None = None,
                      game: str | None = None) -> list[Outgoing]:
        guild = self._guild(ctx)
        found = await self.store.results(guild, ctx.channel_id if where == "channel" else None, game, HISTORY)
        scope = "this channel" if where == "channel" else "this server"
        if not found:
            return [self.boards.reply(ctx, f"No finished or archived games in {scope} yet.")]
        embed = Embed(title=f"Recent games in {scope}",
                      footer="Download a game to replay it with `politics-bot replay FILE`")
        for r in found:
            data = r["data"]
            players = data.get("players", [])
            names = ", ".join(plain(p["name"]) + (" (AI)" if p.get("bot") else "") for p in players)
            winners = ", ".join(plain(players[w]["name"]) for w in data.get("winners", [])
                                if w < len(players)) or "nobody"
            hinted = [plain(players[s]["name"]) for s in data.get("hinted", []) if s < len(players)]
            hints = f" — hints used by {', '.join(hinted)}" if hinted else ""
            # a game cancelled in play: no winner, and no rating moved
            outcome = "**archived** unfinished, unrated" if data.get("archived") else f"winner: **{winners}**"
            embed.fields.append((f"#{r['id']} · {data.get('title', r['game'])} · {_when(r['finished_at'])}",
                                 _clip(f"{names} — {outcome} — {_length(data)}{hints}", 1000)))
        newest = found[:5]
        rows: list[Row] = [[Button(f"Download #{r['id']}", f"pr:{ctx.channel_id}:dl:{r['id']}") for r in newest],
                           [Button(f"Replay #{r['id']}", f"pr:{ctx.channel_id}:rp:{r['id']}:0") for r in newest]]
        return [Outgoing(to="ephemeral", channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name,
                         embeds=[embed], rows=rows)]

    async def replay(self, req: Request, ctx: Ctx, id: int, move: int | None = None,
                     share: bool | None = None) -> list[Outgoing]:
        return [await self._replay_at(ctx, id, move or 0, "channel" if share else "ephemeral")]

    async def _finished(self, ctx: Ctx, result_id: int) -> dict:
        found = await self.store.result(self._guild(ctx), result_id)
        if found is None:
            raise InputError(f"There is no finished game #{result_id} on this server (see /politics history).")
        return found

    async def _replay_at(self, ctx: Ctx, result_id: int, move: int, to: Destination) -> Outgoing:
        found = await self._finished(ctx, result_id)
        data = found["data"]
        try:
            shown = records.replay(data, move)
        except records.ReplayError as exc:
            raise InputError(str(exc)) from None
        game, state, total = shown.game, shown.state, len(data["log"])
        names = [plain(p["name"]) for p in data["players"]]  # like every text below: shown as written
        lines = [f"**Replay of #{result_id}** ({game.title}) — move {shown.moves} of {total}"]
        if shown.last is None:
            lines.append("The opening, before anyone moved.")
        else:
            seat, text = shown.last
            lines.append(plain(records.move_line(seat, text, names)))
        for event in shown.events:
            if event.to is None:
                lines.append(plain(event.text))
            else:  # the game is over: what was private may be shown now
                lines.append(f"(private to {', '.join(names[s] for s in event.to if 0 <= s < len(names))}) "
                             + plain(event.text))
        status = plain(game.status_text(state))
        if status:
            lines.append(status)
        private = {s: " ".join(game.private_text(state, s).split()) for s in range(len(names))}
        hidden = [f"• {names[s]}: {plain(_clip(text, 300))}" for s, text in private.items() if text]
        if hidden:
            lines.append("Hidden information (shown because the game is over):")
            lines += hidden
        renderer = get_renderer(game.id) if self.render_enabled else None
        view = game.view(state, None) if renderer is not None else None
        base = f"pr:{ctx.channel_id}:rp:{result_id}:"
        rows: list[Row] = [[Button("⏮ Start", base + "0"), Button("◀ Back", base + str(max(0, shown.moves - 1))),
                            Button("Next ▶", base + str(min(total, shown.moves + 1)), "primary"),
                            Button("End ⏭", base + str(total))],
                           [Button("−10", base + str(max(0, shown.moves - 10))),
                            Button("+10", base + str(min(total, shown.moves + 10)))]]
        return Outgoing(to=to, channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name,
                        text=_clip("\n".join(lines), 3800), rows=rows,
                        image_job=image_job(renderer, view, None) if renderer and view is not None else None,
                        alt=alt_text(game.id, dict(view)) if renderer and view is not None else "")

    async def _download(self, ctx: Ctx, result_id: int) -> Outgoing:
        found = await self._finished(ctx, result_id)
        if not records.replayable(found["data"]):
            raise InputError(f"Game #{result_id} was recorded without its moves, so there is no file to replay.")
        name, data = records.download(found)
        return Outgoing(to="ephemeral", channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name,
                        text=f"Game #{result_id} as a file: `politics-bot replay {name}` plays it again move by move.",
                        images=[(name, data)])

    async def button(self, req: Request, ctx: Ctx, rest: str) -> list[Outgoing]:
        what, _, arg = rest.partition(":")
        if what == "lb":
            game, _, page = arg.partition(":")
            if game not in all_games() or not page.isdigit():
                raise InputError("That button is not one of mine.")
            return [await self._leaderboard_page(ctx, game, int(page), "edit")]
        if what == "dl" and arg.isdigit():
            return [await self._download(ctx, int(arg))]
        if what == "rp":
            result_id, _, move = arg.partition(":")
            if result_id.isdigit() and move.isdigit():
                return [await self._replay_at(ctx, int(result_id), int(move), "edit")]
        raise InputError("That button is not one of mine.")

    async def stats_reset(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        removed = await self.store.reset_records(self._guild(ctx))
        return [Outgoing(to="channel", channel_id=ctx.channel_id,
                         text=sentences.cleared_records(display_name(ctx.user.name), removed))]

    async def forget_me(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        guild = self._guild(ctx)
        new_id = "forgotten:" + secrets.token_hex(6)  # random: nothing leads back to the old id
        changed, cleared = await self.store.forget_player(
            guild, ctx.user.id, new_id, records.FORGOTTEN_NAME,
            lambda result: records.forget(result["data"], ctx.user.id, new_id))
        for channel_id in cleared:
            self.rows.forget(channel_id)  # that finished row is gone from the file
        if not changed:
            return [self.boards.reply(ctx, "This server's records hold no finished games of yours; "
                                           "there is nothing to forget.")]
        return [self.boards.reply(ctx, f"Done: in this server's records of {_count(changed, 'finished game')} your "
                                       f"name and id are now “{records.FORGOTTEN_NAME}” (the games and ratings "
                                       "themselves stay).")]
