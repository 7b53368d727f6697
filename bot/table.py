"""The local table: the bot's commands typed in a terminal, you against AI seats.

It runs the transcript runner's path (registry -> GameService -> SQLite), so
what works here works on Discord, with a real clock: engine timers, AI seats
and turn timeouts fire while the table waits for your input, as the Discord
scheduler fires them. After everything that happens the table prints the
current menu and what the game is waiting for. Private messages are shown only
for you; board images are saved to a folder and their paths printed.
"""
from __future__ import annotations

import asyncio
import os
import re
import shlex
import shutil
import sys
import time

from engines import all_games, get_game

from .messages import COUNTDOWN, Button, Ctx, Outgoing, Select, spell_countdowns
from .service.boards import AI_LEVEL_MARK
from .store import GameRecord
from .transcript import CHANNEL, GUILD, TranscriptRunner

ME = "you"
TICK_SECONDS = 1.0  # how often the table looks for due timers while it waits for you
COUNTDOWN_EVERY = 30  # seconds between repeated "waiting for…" lines while you can't act
TIMEOUT = object()  # what an input source returns when the wait ran out before a line came

INTRO = """politics-bot local table: {title}. You play seat 1{against}.
Type a number from the menu, or a move as words ({moves}); help lists everything you can type.
Board images are saved in {out}; the game is saved in {db} as you play."""

HELP = """At the table you can type:
  a number         choose that item of the menu shown last
  a move as words  for example {moves}
  moves            list every move you can make now, as words
  hand             your private cards and picks, and the menu again
  hint             the search's suggested move and your chance to win (if the host allows hints)
  status           the board (and its image) again
  rules            the rules in brief
  stats            your games, wins and rating; history and leaderboard: this table's finished games
  wait             let the clock run (an AI seat or a timer is due)
  quit             leave; the game stays saved (Ctrl-C and Ctrl-D do the same)
When a menu item opens a text box, the next line you type is your answer."""


class Table:
    def __init__(self, runner: TranscriptRunner, source, write, styled: bool) -> None:
        self.runner = runner
        self.service = runner.service
        self.ctx = Ctx(runner.user(ME), CHANNEL, GUILD)
        self.source = source
        self.write = write
        self.styled = styled
        self.menu: list[tuple[str, Button | Select, str | None]] = []
        self.menu_version: int | None = None  # the saved row's version the menu was built from
        self.shown_menu: list[str] | None = None
        self.shown_wait: str | None = None
        self.shown_wait_at = 0.0
        self.text_box: str | None = None  # label of the open text box: the next line answers it
        self.moves_hint = ""  # a few move forms of the game, for the intro and help
        self.prompted = False  # "> " is printed once after each spell of output
        # The newest board's image files not yet named: one line before the prompt, not one per message.
        self.newest_images: list[str] = []
        self.private_body: list[str] | None = None  # your private text as last printed (hand, picks)
        self.said_since_menu = 0  # lines printed since the menu was: a menu just above isn't shown again
        self.board_lines: list[str] = []  # the channel's last message as printed: an edit prints what it adds

    def say(self, text: str) -> None:
        self.write(text + "\n")
        self.prompted = False
        self.said_since_menu += text.count("\n") + 1

    # ---- output -----------------------------------------------------------
    def show(self, entries: list[dict]) -> None:
        for entry in entries:
            to = entry["to"]
            if to.startswith(("dm:", "ephemeral:")) and not to.endswith(":" + ME):
                continue  # other seats' private messages are not yours to see
            if to == f"ephemeral:{ME}" and entry["text"].startswith("[text box] "):
                self.text_box = entry["text"][len("[text box] "):]
                continue
            tag = "#game" if to == "channel" else "(only you)"
            text = plain_text(spell_countdowns(entry["text"], self.service.clock()), self.styled)
            if tag != "#game":
                text = self.unrepeated(text)
            else:
                text = self.board_news(text, bool(entry.get("edit")))
            self.say(f"\n{tag} {text}")
            if entry.get("board"):  # the text board: plain text already
                self.say(board_clock(entry["board"], entry["text"], self.service.clock()))
            if entry.get("files"):
                self.newest_images = list(entry["files"])  # shown once, before the next prompt

    def board_news(self, text: str, edited: bool) -> str:
        """A channel message as the table prints it: whole when it is posted, and for an edit of the
        turn's board (Discord edits that message in place as the turn goes on) only the lines it
        changed: not the opening lines it still shares with the board as last printed, so they don't
        scroll by again, nor the unchanged footer after the status, nor the AI level's line. (Another
        message between a board and its edit: the edit is printed whole.)"""
        lines = text.split("\n")
        old, self.board_lines = self.board_lines, lines
        if not edited:
            return text
        same = 0
        while same < min(len(old), len(lines)) and old[same] == lines[same]:
            same += 1
        tail = 0
        while tail < min(len(old), len(lines)) - same and old[-1 - tail] == lines[-1 - tail]:
            tail += 1
        # the level line sits above a countdown that changes: the suffix alone would print it again
        changed = [x for x in lines[same:len(lines) - tail] if not (x.startswith(AI_LEVEL_MARK) and x in old)]
        return "\n".join(changed) if changed else "(the board, unchanged)"

    def name_newest_images(self) -> None:
        """The newest board's image(s), once: every image is saved, but only the latest is worth a look."""
        if self.newest_images:
            self.say(f"   image: {', '.join(self.newest_images)}")
            self.newest_images = []

    def unrepeated(self, text: str) -> str:
        """Your private text without the part you saw last time: each step through a menu (and each
        panel after another seat's move) carries your whole hand again, which on Discord replaces the
        old panel but at the table would scroll the same cards by again and again."""
        lines = text.split("\n")
        head = lines[:1] if PANEL_HEAD.match(lines[0]) else []
        tail = lines[-1:] if len(lines) > len(head) and PANEL_TAIL.match(lines[-1]) else []
        body = lines[len(head):len(lines) - len(tail)]
        if not body or body != self.private_body:
            self.private_body = body or self.private_body
            return text
        return "\n".join(head + ["(as above; type hand to see it again)"] + tail)

    async def perform(self, outgoing: list[Outgoing]) -> None:
        """Show what the service answered; a menu step (an edited panel) becomes the menu."""
        for msg in outgoing:
            if msg.to == "edit" and msg.user_id == self.ctx.user.id and msg.rows:
                self.set_menu(msg.rows)
        self.show(self.runner.emit(outgoing))

    def set_menu(self, rows) -> None:
        self.menu = []
        for row in rows:
            for item in row:
                if isinstance(item, Button):
                    self.menu.append((item.label, item, None))
                elif isinstance(item, Select):
                    self.menu.extend((label, item, value) for label, value in item.options)

    async def refresh(self, answered: bool = False) -> bool:
        """After anything happened: rebuild the menu if the game moved, print it and
        what the game waits for when they changed (always after your answer).
        Returns whether you can act now."""
        loaded = await self.service.load(CHANNEL)
        if loaded is None or loaded.record.status != "playing":
            self.menu = []
            return False
        record, game, state = loaded.record, loaded.game, loaded.state
        seat = record.seat_of(self.ctx.user.id)
        moved = loaded.version != self.menu_version
        if moved:
            self.menu_version = loaded.version
            self.menu = []
            if seat is not None:  # your menu as it is now: an AI move or a timer may have changed it
                panel = self.service.boards.private_panel(self.ctx, record, game, state, seat, to="ephemeral")
                self.set_menu(panel.rows)
        if self.text_box is not None:
            return True  # the next line answers the text box; the menu can wait
        labels = [f"[{i + 1}] {label}" for i, (label, _, _) in enumerate(self.menu)]
        # Again after your line if the game moved, or what it printed pushed the menu out of sight:
        # a one-line answer ("'foo' is not a move") leaves the same menu just above it.
        scrolled = self.said_since_menu > len(labels) // 2 + 3
        if labels and (labels != self.shown_menu or (answered and (moved or scrolled))):
            for line in menu_lines(labels):
                self.say(line)
            self.said_since_menu = 0
        self.shown_menu = labels
        mine = seat is not None and waits_for_you(game, state, seat)
        line = self.waiting_line(record, game, state, seat, mine)
        now = self.service.clock()
        gist = re.sub(r"\d+ s\b", "", line)  # the countdown alone is no news
        if answered or gist != self.shown_wait or (not mine and now - self.shown_wait_at >= COUNTDOWN_EVERY):
            self.say(line)
            self.shown_wait, self.shown_wait_at = gist, now
        return mine

    def waiting_line(self, record: GameRecord, game, state, seat: int | None, mine: bool) -> str:
        names = [record.players[s].name for s in game.to_act(state) if s >= 0 and s != seat]
        parts = []
        if mine:
            parts.append(f"Your move: {choose_from(len(self.menu))}" if self.menu else "Your move: type it")
        if names:
            parts.append("waiting for " + ", ".join(names))
        timer = record.timer
        if timer:
            left = max(0, int(timer.due - self.service.clock()))
            parts.append(f"the clock runs out in {left} s")
        if not parts:
            parts.append("waiting for the game")
        text = "; ".join(parts)
        return f"-- {text[0].upper()}{text[1:]}."

    # ---- input ------------------------------------------------------------
    async def answer(self, line: str) -> str | None:
        """One line you typed. Returns 'quit' to leave."""
        if self.text_box is not None:
            self.text_box = None
            if line:
                self.show(await self.runner.run_line(f"{ME}: answer {line}"))
                return None
            self.say("The text box is closed; nothing was sent.")
            return None
        if not line:
            return None
        word = line.lower()
        if word in ("quit", "exit"):
            return "quit"
        if word == "help":
            self.say(HELP.format(moves=self.moves_hint))
            return None
        if word == "wait":
            return None  # the clock runs on its own; this just shows where things stand
        if word == "moves":
            self.say(await self.legal_moves())
            return None
        if line.isdigit():
            await self.choose(int(line))
            return None
        if line.startswith("/politics"):
            self.show(await self.runner.run_line(f"{ME}: {line}"))
            return None
        if word == "leaderboard":
            saved = await self.service.rows.load_raw(CHANNEL)
            self.show(await self.runner.run_line(f"{ME}: /politics leaderboard game:{saved[2] if saved else ''}"))
            return None
        if word in ("hand", "hint", "status", "rules", "stats", "history"):
            if word == "hand":
                self.menu_version = None  # the panel it prints comes with the menu
                self.private_body = None  # asked for: shown whole
            self.show(await self.runner.run_line(f"{ME}: /politics {word}"))
            return None
        self.show(await self.runner.run_line(f"{ME}: /politics do action:{line}"))
        return None

    async def choose(self, number: int) -> None:
        if not self.menu:
            self.say("There is no menu right now; moves lists what you can type.")
            return None
        if not 1 <= number <= len(self.menu):
            return self.say(f"{choose_from(len(self.menu)).capitalize()}.")
        _label, item, value = self.menu[number - 1]
        values = [value] if value is not None else None
        await self.perform(await self.service.component(self.ctx, item.custom_id, values))
        if self.text_box is not None:
            self.say(f"{self.text_box}: type it and press Enter (an empty line cancels).")

    async def legal_moves(self) -> str:
        loaded = await self.service.load(CHANNEL)
        if loaded is None or loaded.state is None:
            return "There is no game in play."
        seat = loaded.record.seat_of(self.ctx.user.id)
        game, state = loaded.game, loaded.state
        moves = [a.text() for a in game.legal_actions(state, seat)] if seat is not None else []
        prompts = [f"{p.verb} <{p.label.lower()}>" for p in game.text_prompts(state, seat)] if seat is not None else []
        if not moves and not prompts:
            return "You have no move right now."
        shown = moves[:40] + prompts
        more = f" (and {len(moves) - 40} more)" if len(moves) > 40 else ""
        return "Moves you can type now" + more + ":\n" + "\n".join(f"  {m}" for m in shown)

    async def play(self) -> int:
        """Until the game ends or you leave: wait for a line or the next due timer."""
        mine = await self.refresh(answered=True)
        while True:
            loaded = await self.service.load(CHANNEL)
            if loaded is None:
                self.say("The game is gone (cancelled).")
                return 0
            if loaded.record.status == "finished":
                self.name_newest_images()
                self.show(await self.runner.run_line(f"{ME}: /politics stats game:{loaded.game.id}"))
                self.say(f"\nThe game is over. To play another: {program()} play {loaded.game.id}")
                return 0
            wake = self.service.rows.wake_at(loaded.record)
            wait = TICK_SECONDS if wake is None else max(0.0, min(TICK_SECONDS, wake - self.service.clock()))
            if not self.source.interactive:  # a script waits for the clock whole
                wait = max(0.0, wake - self.service.clock()) if wake is not None else 0.0
            self.name_newest_images()
            if (self.text_box is not None or mine) and not self.prompted:
                self.write("> ")
                self.prompted = True
            line = await self.source.line(wait, idle=not mine and wake is not None)
            if line is None:
                self.say("")
                return 0
            answered = line is not TIMEOUT
            if answered and await self.answer(line.strip()) == "quit":
                return 0
            await self.perform(await self.service.tick())
            mine = await self.refresh(answered=answered)


def waits_for_you(game, state, seat: int) -> bool:
    """Whether the table waits for your line (and shows `> `): a move while the game waits for you,
    a text box open to anyone (a charades guess), or a move of yours while the game waits for
    nobody in particular but the clock (a performer's `give up` during a charade)."""
    if game.text_prompts(state, seat):
        return True
    waiting = game.to_act(state)
    if seat in waiting:
        return bool(game.legal_actions(state, seat))
    return not waiting and game.may_act(state, seat) and bool(game.legal_actions(state, seat))


PERFORMANCE_CLOCK = re.compile(r"\b(\d+) s on the clock\b")


def board_clock(board: str, text: str, now: float) -> str:
    """The text board's Wildcard clock as the real clock has it. The engine's view knows a
    card's length (120 s), not when its performance started: that is the service's timer, whose
    due time the message carries as a countdown. So a board shown mid-performance (a resumed
    game, `status`) says the seconds left, and before the performance its length."""
    due = COUNTDOWN.search(text)
    lines = []
    for line in board.split("\n"):
        if "stage: performing" in line and due is not None:
            left = int(due.group(1)) - int(now)
            line = PERFORMANCE_CLOCK.sub(f"{left} s left on the clock" if left > 0 else "no time left", line)
        else:
            line = PERFORMANCE_CLOCK.sub(r"a \1 s performance", line)
        lines.append(line)
    return "\n".join(lines)


def menu_lines(labels: list[str], width: int = 100) -> list[str]:
    """A short menu on one line; a long one as a list, in columns (top to bottom) when it
    is long enough to scroll away (every state of the map) and its items are short."""
    if sum(len(x) + 2 for x in labels) <= width:
        return ["   " + "  ".join(labels)]
    column = max(len(x) for x in labels) + 3
    columns = max(1, min(3, (width - 3) // column)) if len(labels) > 12 else 1
    rows = -(-len(labels) // columns)
    return ["   " + "".join(labels[r + c * rows].ljust(column) for c in range(columns)
                           if r + c * rows < len(labels)).rstrip() for r in range(rows)]


class TerminalInput:
    """Lines from a file descriptor (a terminal or a pipe), read without blocking the
    event loop so timers fire while you think."""
    interactive = True

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lines: asyncio.Queue = asyncio.Queue()
        self.buffer = b""
        asyncio.get_running_loop().add_reader(fd, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, 4096)
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.fd)
            if self.buffer:
                self.lines.put_nowait(self.buffer.decode(errors="replace"))
            self.lines.put_nowait(None)
            return
        self.buffer += data
        while b"\n" in self.buffer:
            line, _, self.buffer = self.buffer.partition(b"\n")
            self.lines.put_nowait(line.decode(errors="replace"))

    async def line(self, timeout: float, idle: bool = False):
        try:
            return await asyncio.wait_for(self.lines.get(), timeout)
        except TimeoutError:
            return TIMEOUT

    def close(self) -> None:
        try:
            asyncio.get_running_loop().remove_reader(self.fd)
        except (ValueError, OSError):
            pass


class ScriptInput:
    """Lines from a text stream (tests): a patient player who, when the game is waiting
    on the clock rather than on them, lets the time pass before typing the next line."""
    interactive = False

    def __init__(self, stream, clock) -> None:
        self.stream = stream
        self.clock = clock

    async def line(self, timeout: float, idle: bool = False):
        if not idle:
            text = self.stream.readline()
            if not text:
                return None
            if text.strip() != "wait":
                return text.rstrip("\n")
        # the clock's turn: a fake clock jumps to the due time, a real one is slept on
        if hasattr(self.clock, "now"):
            self.clock.now += timeout
        else:
            await asyncio.sleep(timeout)
        return TIMEOUT

    def close(self) -> None:
        pass


def choose_from(count: int) -> str:
    """How to pick from a numbered menu: "choose 1–7", or "type 1 (the only choice)", never "choose 1–1"."""
    return "type 1 (the only choice)" if count == 1 else f"choose 1–{count}"


# ---- plain text for a terminal ------------------------------------------------
# The lines around your private text in a panel: what was just done, or which game a DM is about;
# and the line that leads to the menu.
PANEL_HEAD = re.compile(r"^(?:✓ Done: |.+ in #)")
PANEL_TAIL = re.compile(r"^(?:Your move|Nothing to do right now|Type your move|The game is over)")
BOLD = re.compile(r"\*\*(.+?)\*\*")
MARKUP = [
    (re.compile(r"__(.+?)__"), r"\1"),
    (re.compile(r"(?<![\w*])\*(?![\s*])(.+?)(?<![\s*])\*(?![\w*])"), r"\1"),
    (re.compile(r"~~(.+?)~~"), r"\1"),
    (re.compile(r"\|\|(.+?)\|\|"), r"\1"),
    (re.compile(r"`([^`\n]*)`"), r"\1"),
    (re.compile(r"^(?:>|#{1,3}) ", re.M), ""),
    # Discord's commands as the table's words: a rule's example move, "see /politics hand"
    (re.compile(r"/politics do action:\s*"), ""),
    (re.compile(r"/politics (hand|hint|status|rules|stats|history|leaderboard)\b(?! ?\w+:)"), r"\1"),
]


def plain_text(text: str, styled: bool = False) -> str:
    """Discord's markup made terminal text (bold kept as ANSI bold on a terminal). Sentences about the
    player named "you" are already in the second person: engines and the bot build them with
    engines/wording.py, so the table has no grammar to patch."""
    text = BOLD.sub("\x1b[1m\\1\x1b[0m" if styled else r"\1", text)
    for pattern, repl in MARKUP:
        text = pattern.sub(repl, text)
    return text


# ---- starting -----------------------------------------------------------------
def program() -> str:
    """How to call politics-bot again, as you can type it where you are: scripts/start.sh says how
    you typed it (its venv is not on PATH); a politics-bot that PATH would not find (.venv/bin/…)
    is named as you typed it; otherwise plain politics-bot."""
    given = os.environ.get("POLITICS_BOT_COMMAND", "").strip()
    if given:
        return given
    typed = sys.argv[0] if sys.argv else ""
    if os.path.basename(typed) == "politics-bot" and os.sep in typed:
        found = shutil.which("politics-bot")
        if found is None or os.path.realpath(found) != os.path.realpath(typed):
            return shlex.quote(typed)
    return "politics-bot"


def resume_hint(out_dir: str, db_path: str) -> str:
    """The command that continues the game saved in db_path."""
    cmd = f"{program()} play --resume"
    if os.path.normpath(out_dir) != os.path.normpath("out/table"):
        cmd += f" --out {out_dir}"
    if os.path.normpath(db_path) != os.path.normpath(os.path.join(out_dir, "table.db")):
        cmd += f" --db {db_path}"
    return cmd


def last_image_number(out_dir: str) -> int:
    """Images are numbered in the order they were sent; a resumed game continues the count."""
    numbers = [int(name[:4]) for name in os.listdir(out_dir) if re.match(r"\d{4}-.*\.png$", name)] \
        if os.path.isdir(out_dir) else []
    return max(numbers, default=0)


async def run_table(game_id: str | None, bots: int, seed: int | None, out_dir: str, db_path: str,
                    settings: str | None = None, stdin=None, stdout=None, resume: bool = False,
                    clock=None) -> int:
    """Open the local table. Returns the exit code; a saved game is continued only with `resume`."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout

    def write(text: str) -> None:
        stdout.write(text)
        stdout.flush()

    def say(text: str) -> None:
        write(text + "\n")

    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    os.makedirs(out_dir, exist_ok=True)
    clock = clock or time.time
    runner = await TranscriptRunner.create(db_path, render=True, image_dir=out_dir, clock=clock)
    try:
        source = TerminalInput(fd) if fd is not None else ScriptInput(stdin, clock)
    except OSError:  # a regular file can't be watched by the event loop: read it as a script
        source = ScriptInput(stdin, clock)
    styled = bool(getattr(stdout, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")
    table = Table(runner, source, write, styled)
    try:
        runner.image_count = last_image_number(out_dir)
        saved = await runner.service.rows.load_raw(CHANNEL)  # (status, title, game id)
        unfinished = saved is not None and saved[0] != "finished"
        if resume:
            if saved is None or not unfinished:
                say(f"There is no unfinished game saved in {db_path}. To start one: {program()} play GAME")
                return 1
            if game_id is not None and game_id != saved[2]:
                say(f"The game saved in {db_path} is {saved[1]} ({saved[2]}), not {game_id}: "
                    f"to continue it: {program()} play {saved[2]} --resume; to start anew: {program()} play {game_id}")
                return 2
            game = get_game(saved[2])
        else:
            games = sorted(all_games())
            if game_id is None:
                game_id = await ask(source, say, write, "Which game?",
                                    [f"{g} ({get_game(g).title})" for g in games], games)
                if game_id is None:
                    return 0
            if game_id not in games:
                say(f"There is no game '{game_id}'. Games: {', '.join(games)}.")
                return 2
            game = get_game(game_id)
            bots = max(game.min_players - 1, min(bots, game.max_players - 1))
            if saved is not None and unfinished:
                choice = await ask(source, say, write,
                                   f"An unfinished game of {saved[1]} is saved in {db_path}.",
                                   [f"start a new game of {game.title} (the saved game is archived)",
                                    f"continue the saved game of {saved[1]}"], ["new", "resume"])
                if choice is None:
                    return 0
                if choice == "resume":
                    game = get_game(saved[2])
                    resume = True
                else:
                    table.show(await runner.run_line(f"{ME}: /politics cancel"))
        seats = "" if resume else f", against {bots} AI seat{'s' if bots != 1 else ''}"
        examples = ", ".join(game.usage(cls) for cls in game.actions[:3])
        table.moves_hint = examples
        say(plain_text(INTRO.format(title=game.title, against=seats, moves=examples, out=out_dir, db=db_path),
                       styled))
        if resume:
            # What fell due while the table was closed happens first (a question's time ran out),
            # so the board shown next is the game as the real clock has it now.
            await table.perform(await runner.service.tick())
            table.show(await runner.run_line(f"{ME}: /politics status"))
        else:
            opts = f" seed:{seed}" if seed is not None else ""
            if settings:
                opts += f' settings:"{settings}"'
            table.show(await runner.run_line(f"{ME}: /politics new game:{game.id} bots:{bots}{opts}"))
            if await runner.service.rows.load_raw(CHANNEL) is None:
                return 2  # the answer above said why (a bad setting)
            table.show(await runner.run_line(f"{ME}: /politics start"))
        await table.perform(await runner.service.tick())
        if (await runner.service.rows.load_raw(CHANNEL) or ("",))[0] not in ("playing", "finished"):
            return 1  # the messages above said why it could not start
        code = await table.play()
        loaded = await runner.service.load(CHANNEL)
        if loaded is not None and loaded.record.status == "playing":
            say(f"The game is saved in {db_path}. To continue it: {resume_hint(out_dir, db_path)}")
        return code
    finally:
        source.close()
        await runner.close()


async def ask(source, say, write, question: str, labels: list[str], values: list[str]) -> str | None:
    """A numbered question before the game starts; a number or the value itself answers it."""
    say(question)
    for i, label in enumerate(labels):
        say(f"   [{i + 1}] {label}")
    while True:
        write("> ")
        line = await source.line(3600.0)
        if line is None:
            return None
        if line is TIMEOUT:
            continue
        line = line.strip()
        if line in ("quit", "exit"):
            return None
        if line.isdigit() and 1 <= int(line) <= len(values):
            return values[int(line) - 1]
        if line in values:
            return line
        say(f"{choose_from(len(values)).capitalize()}.")
