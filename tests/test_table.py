"""The local table: scripted stdin with a fake clock, and a real pseudo-terminal.

(The scripted newcomer who plays all five games in a terminal is tests/test_table_newcomer.py.)"""
from __future__ import annotations

import fcntl
import hashlib
import io
import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import termios
import time

import pytest

from bot.cli import main
from bot.messages import Button, Ctx, Select
from bot.table import plain_text, run_table
from bot.transcript import CHANNEL, GUILD, FakeClock, TranscriptRunner
from engines import all_games, get_game

ENV = {**os.environ, "DISCORD_TOKEN": "", "PYTHONPATH": os.getcwd(), "NO_COLOR": "1"}
IMAGE = re.compile(r"image: (\S+\.png)")
GAMES = sorted(all_games())
# Short clocks where a game has them; `timeout=1`: a human who waits a minute gets an AI move for them.
# each game's short settings (quick clocks, few rounds), as the settings option takes them
SHORT = {game_id: " ".join(f"{k}={v}" for k, v in game.short_settings.items()) for game_id, game in all_games().items()}


async def table(tmp_path, game, script, bots=1, seed=4, settings=None, resume=False, db="t.db"):
    out = io.StringIO()
    code = await run_table(game, bots, seed, str(tmp_path / "img"), str(tmp_path / db), settings,
                           stdin=io.StringIO(script), stdout=out, resume=resume, clock=FakeClock())
    return code, out.getvalue()


async def test_scripted_game_to_the_end(tmp_path):
    # Choose the first offered control again and again: menus lead to legal moves.
    code, text = await table(tmp_path, "primary-general", "1\n" * 200)
    assert code == 0
    assert "#game" in text and "(only you)" in text
    assert "The game is over" in text and "AI-Lincoln" in text
    assert "Traceback" not in text
    assert "== Stats: you ==" in text and "Primary/General: rating" in text  # the game went into your record


async def test_an_edited_board_prints_only_what_the_edit_adds(tmp_path):
    """Discord edits the turn's board in place as the turn goes on; the table prints an edit's new
    lines, not the whole board again. Before, each AI step reprinted the turn's opening lines."""
    code, text = await table(tmp_path, "politics-1952", "1\n" * 8 + "quit\n", seed=3)
    assert code == 0
    assert text.count("begins! Players: you, AI-Lincoln.") == 1
    assert text.count("Seed 3 was chosen by the host") == 2  # once in the lobby, once on the first board
    # each AI step is one edit of the turn's board: its message shows that step's line, not the turn's
    messages = [block.split("\n\n")[0] for block in text.split("\n#game ")[1:]]
    steps = [len(re.findall(r"^AI-Lincoln (?:rolls|captures|makes a speech)", m, re.M)) for m in messages]
    assert steps.count(1) >= 3 and max(steps) == 1


async def test_an_edit_leaves_out_the_boards_unchanged_footer(tmp_path):
    """The AI level's line closes every board when hard is picked; an edit that only moves the status
    on prints the new lines and the status, not that footer again at every AI step (it printed on
    every one of them before)."""
    code, text = await table(tmp_path, "politics-1952", "1\n" * 8 + "quit\n", seed=3,
                             settings="ai=hard ai_iterations=16")
    assert code == 0
    footer = "🤖 AI level: hard."
    steps = len(re.findall(r"^(?:#game )?AI-Lincoln (?:rolls|captures|makes a speech)", text, re.M))
    assert steps >= 6
    assert 1 <= text.count(footer) < steps  # a whole board posted carries it; its edits do not (18 times before)
    assert text.count("Turn 1: AI-Lincoln to place") >= 5  # each edit still shows the status it moved on
    # above a countdown (trivia's clock), which changes at every edit, the level line is left out too
    code, text = await table(tmp_path, "politics-trivia", "1\n" * 8 + "quit\n", seed=7, settings="ai=hard",
                             db="trivia.db")
    step = text.split("#game AI-Lincoln returns one Gerrymander card")[1].split("\n\n")[0]
    assert code == 0 and "⏱️ Time runs out" in step and "AI level" not in step
    assert "🤖 AI level: hard." in text.split("#game AI-Lincoln returns")[0]  # the board it edits said it


async def test_a_one_line_error_leaves_the_menu_above_it_and_a_long_answer_shows_it_again(tmp_path):
    code, text = await table(tmp_path, "us-president", "foo\n99\nhelp\nquit\n", seed=5)
    assert code == 0
    after_error = text.split("'foo' is not a move")[1].split("At the table you can type")[0]
    assert "Choose 1–11." in after_error and "[1] Montana" not in after_error  # the menu is just above
    assert "[1] Montana" in text.split("At the table you can type")[1]  # help pushed it out of sight


@pytest.mark.parametrize("game_id", GAMES)
async def test_the_rules_at_the_table_give_moves_as_you_type_them_here(tmp_path, game_id):
    """The rules are written once, for Discord ("/politics do action:pick FL large"); the table says
    the moves and commands as its own words ("pick FL large", "hand")."""
    code, text = await table(tmp_path, game_id, "rules\nquit\n", seed=5)
    rules = text.split("rules", 1)[1]
    assert code == 0 and "/politics do" not in rules and "action:" not in rules and "/politics hand" not in rules


async def test_the_records_at_the_table(tmp_path):
    await table(tmp_path, "us-president", "1\n" * 80)
    code, text = await table(tmp_path, "us-president", "stats\nhistory\nleaderboard\nquit\n", seed=5)
    assert code == 0
    assert "== Recent games in this server ==" in text and "#1 · U.S. President" in text
    assert "== Leaderboard: U.S. President ==" in text and "AI (standard)" in text
    chart = next(path for path in IMAGE.findall(text) if path.endswith("rating.png"))  # the stats' chart
    assert os.path.getsize(chart) > 1000


async def test_typed_moves_and_bad_input(tmp_path):
    code, text = await table(tmp_path, "primary-general", "dance\nplay unicorn you\nhand\n99\nquit\n")
    assert code == 0
    assert "not a move" in text or "not your turn" in text.lower()
    assert "Your hand" in text
    menu_size = re.findall(r"-- Your move: choose 1–(\d+)", text)[-1]
    assert f"Choose 1–{menu_size}." in text  # 99 is not on the menu
    assert "politics-bot play --resume" in text  # quitting says how to come back


async def test_help_lists_what_to_type_here_not_slash_commands(tmp_path):
    _code, text = await table(tmp_path, "us-president", "help\nquit\n", bots=2)
    helptext = text[text.index("At the table you can type"):]
    for word in ("moves", "hand", "status", "rules", "wait", "quit"):
        assert f"\n  {word} " in helptext
    assert "/politics" not in helptext


async def test_which_game_accepts_a_number(tmp_path):
    code, text = await table(tmp_path, None, "7\n2\nquit\n")
    assert "Which game?" in text and "Choose 1–5." in text
    assert f"local table: {get_game(GAMES[1]).title}" in text
    assert code == 0


async def test_the_terminal_gets_plain_text_in_the_second_person(tmp_path):
    _code, text = await table(tmp_path, "politics-1952", "1\n" * 60, bots=2, seed=3)
    assert "**" not in text and "<t:" not in text and "`" not in text
    for wrong in ("you plays", "you has", "you's", "you throws", "you rolls", "you captures", "you draws"):
        assert wrong not in text.lower(), wrong
    assert "You throw" in text


async def test_status_shows_the_text_board_in_the_second_person(tmp_path):
    _code, text = await table(tmp_path, "race-white-house", "status\nquit\n", seed=2)
    board = text[text.index("> "):]
    assert "Tally sheets" in board and "Democrats: 0 EV" in board
    assert "you chooses" not in board.lower() and "You choose" in board


@pytest.mark.parametrize("line, expected", [
    ("**Game over.** You have 3 votes", "Game over. You have 3 votes"),
    ("you has 3 votes", "you has 3 votes"),  # grammar is the source's (engines/wording.py): nothing patched here
    ("Ends in <t:9:R>: `stay`", "Ends in <t:9:R>: stay"),
])
def test_plain_text(line, expected):
    assert plain_text(line) == expected


# ---- 1: the clock runs at the table --------------------------------------------------

async def test_trivia_wildcard_no_longer_freezes_the_table(tmp_path):
    # The reported game: an AI draws a Wildcard and performs; only its clock can end it.
    script = ("1\n" * 6 + "wait\n") * 300
    code, text = await table(tmp_path, "politics-trivia", script, bots=2, seed=12)
    assert code == 0
    performing = text.index("performing a Wildcard")
    assert "Time is up" in text[performing:]  # the clock ran out and the game went on
    assert "The game is over" in text
    waiting = re.findall(r"^-- (.*)$", text, re.M)
    assert any("the clock runs out in" in w for w in waiting)  # the table says what it waits for
    assert "That move is no longer possible" not in text and "Too late" not in text  # menus are never stale


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
async def test_someone_can_always_act(tmp_path, game_id, seed):
    """At every point of a game against AI seats, the human has a legal move or a text box,
    or an AI move or a timer is due: no game is ever left where nobody can act."""
    runner = await TranscriptRunner.create(str(tmp_path / "t.db"), render=False)
    service, rng = runner.service, random.Random(seed)
    game = get_game(game_id)
    settings = " ".join(x for x in (SHORT.get(game_id, ""), "timeout=1") if x)
    try:
        await runner.run_line(f'you: /politics new game:{game_id} bots:{max(1, game.min_players - 1)} '
                              f'seed:{seed} settings:"{settings}"')
        await runner.run_line("you: /politics start")
        for _ in range(6000):
            loaded = await service.load(CHANNEL)
            if loaded.record.status == "finished":
                break
            state, record = loaded.state, loaded.record
            legal = game.legal_actions(state, 0) if 0 in game.to_act(state) else []
            prompts = game.text_prompts(state, 0)
            due = service.rows.wake_at(record)
            assert legal or prompts or due is not None, f"nobody can act: {game.status_text(state)}"
            if (legal or prompts) and (due is None or rng.random() < 0.8):
                if legal and (not prompts or rng.random() < 0.5):
                    action = game.ai_action(state, 0, rng) if rng.random() < 0.7 else rng.choice(legal)
                    line = action.text()
                else:
                    line = f"{prompts[0].verb} {rng.choice(['Lincoln', '1848', 'Texas'])}"
                await runner.run_line(f"you: /politics do action:{line}")
            else:
                runner.clock.now = max(runner.clock.now, due)
                await service.tick()
        assert (await service.load(CHANNEL)).record.status == "finished"
    finally:
        await runner.close()


# ---- 2 and 3: a saved game never takes over; images are never overwritten --------------

async def test_an_old_finished_game_does_not_take_over(tmp_path):
    await table(tmp_path, "primary-general", "1\n" * 200)
    code, text = await table(tmp_path, "us-president", "quit\n", bots=2)
    assert f"opened a lobby for {get_game('us-president').title}" in text
    assert "Game over" not in text and code == 0


async def test_an_unfinished_game_is_resumed_only_when_asked(tmp_path):
    await table(tmp_path, "politics-1952", "1\n1\nquit\n", bots=2)
    title = get_game("politics-1952").title
    # asked: leaving the question changes nothing
    code, text = await table(tmp_path, "us-president", "quit\n", bots=2)
    assert f"An unfinished game of {title} is saved" in text and code == 0
    # --resume of another game is refused with the commands that work
    code, text = await table(tmp_path, "us-president", "", resume=True)
    assert code == 2 and "politics-bot play politics-1952 --resume" in text
    # resumed explicitly: the same game goes on
    code, text = await table(tmp_path, "politics-1952", "status\nquit\n", resume=True)
    assert code == 0 and "opened a lobby" not in text and "Turn" in text
    # asked, and answered "start a new game": us-president it is
    code, text = await table(tmp_path, "us-president", "1\npick FL 3\nquit\n", bots=2)
    assert f"opened a lobby for {get_game('us-president').title}" in text
    assert "is not a move in" not in text


async def test_resume_without_a_saved_game_says_so(tmp_path):
    code, text = await table(tmp_path, None, "", resume=True)
    assert code == 1 and "There is no unfinished game saved" in text


async def test_every_printed_image_exists_and_a_resumed_game_numbers_on(tmp_path):
    _code, first = await table(tmp_path, "race-white-house", "1\n" * 40 + "quit\n")
    before = {p: hashlib.sha256(open(p, "rb").read()).hexdigest() for p in IMAGE.findall(first)}
    _code, second = await table(tmp_path, "race-white-house", "1\n" * 40 + "quit\n", resume=True)
    after = IMAGE.findall(second)
    assert before and after
    assert not set(before) & set(after)  # numbered on, nothing overwritten
    for path, digest in before.items():
        assert hashlib.sha256(open(path, "rb").read()).hexdigest() == digest
    printed = list(before) + after
    assert len(printed) == len(set(printed))
    # every image is saved; the table names only the newest board's, once before each prompt
    assert {os.path.basename(p) for p in printed} <= set(os.listdir(tmp_path / "img"))


async def test_the_newest_image_is_named_once_per_prompt_not_a_wall(tmp_path):
    """Issue #25: the table wrote every board image's path (up to four a message, a wall of
    paths per move); now one line names the newest board's image(s) before the next prompt."""
    _code, text = await table(tmp_path, "race-white-house", "1\n" * 40 + "quit\n", bots=3)
    lines = text.splitlines()
    named = [i for i, line in enumerate(lines) if "image: " in line]
    assert named and len(os.listdir(tmp_path / "img")) > len(IMAGE.findall(text))
    for a, b in zip(named, named[1:]):
        assert any(line.startswith(">") or "> " in line for line in lines[a:b]), "two image lines, no prompt"


# ---- 5: menus name the whole move (Discord's too) -----------------------------------------

@pytest.mark.parametrize("game_id", GAMES)
async def test_menu_items_name_the_whole_move(tmp_path, game_id):
    """Menus are walked as a player walks them (Discord's are the same): every item that
    makes a move carries the move's full description, the one its "✓ Done" line repeats."""
    runner = await TranscriptRunner.create(str(tmp_path / "t.db"), render=False)
    service, rng = runner.service, random.Random(3)
    game = get_game(game_id)
    me = Ctx(runner.user("you"), CHANNEL, GUILD)
    moves = 0
    try:
        await runner.run_line(f"you: /politics new game:{game_id} bots:{max(1, game.min_players - 1)} seed:3")
        await runner.run_line("you: /politics start")
        for _ in range(120):
            loaded = await service.load(CHANNEL)
            if loaded.record.status != "playing":
                break
            state, record = loaded.state, loaded.record
            if 0 not in game.to_act(state) or not game.legal_actions(state, 0):
                runner.clock.now = max(runner.clock.now, service.rows.wake_at(record) or runner.clock.now)
                await service.tick()
                continue
            rows = service.boards.controls(CHANNEL, record, game, state, 0)
            plain = {a.text() for a in game.legal_actions(state, 0)}  # moves the engine gives no description
            for _step in range(12):
                items = [(item.label, item.custom_id, None) for row in rows for item in row
                         if isinstance(item, Button) and item.label != "← Back" and not item.custom_id.startswith("pt")]
                items += [(label, item.custom_id, [value]) for row in rows for item in row
                          if isinstance(item, Select) for label, value in item.options]
                assert items and all(label != "✓ Confirm" for label, _, _ in items)
                label, custom_id, values = rng.choice(items)
                out = await service.component(me, custom_id, values)
                done = [m.text for m in out if m.to == "ephemeral" and m.text.startswith("✓ Done: ")]
                if done:
                    move = done[0].split("\n")[0].removeprefix("✓ Done: ")
                    if move not in plain:  # the engine describes this move: the item said the same
                        assert move.startswith(label.removeprefix("✓ ").rstrip("…")), (label, move)
                        moves += 1
                    break
                rows = next(m.rows for m in out if m.to == "edit")
        assert moves >= 3
    finally:
        await runner.close()


# ---- 6: bad settings ---------------------------------------------------------------------

def test_bad_settings_exit_non_zero_naming_the_key_and_the_valid_ones(capsys):
    code = main(["play", "politics-trivia", "--settings", "bogus=1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "'bogus'" in err and "question_seconds" in err and "timeout" in err


async def test_bad_settings_for_a_game_chosen_at_the_prompt(tmp_path):
    code, text = await table(tmp_path, None, "politics-trivia\n", settings="bogus=1")
    assert code == 2 and "no setting 'bogus'" in text and "question_seconds" in text
    assert "There is no game in this channel" not in text


# ---- the real terminal -------------------------------------------------------------------

def own_terminal() -> None:
    """In the child: the pty becomes its controlling terminal, so Ctrl-C there is a SIGINT. The
    child starts with SIGINT's default, as from a shell: an ignored SIGINT is inherited through
    exec (and Python then installs no KeyboardInterrupt), and a test run may leave one behind."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def run_in_pty(args, cwd, keys: list[bytes], wait_for=b"> ", budget=60.0):
    """Start politics-bot in a pseudo-terminal; each time it prompts, send the next key(s)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", *args], stdin=slave, stdout=slave, stderr=slave,
                            env=ENV, cwd=cwd, preexec_fn=own_terminal)
    os.close(slave)
    seen, sent_at = b"", 0
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline and proc.poll() is None:
        ready, _, _ = select.select([master], [], [], 0.3)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
            continue
        # A prompt since the last key, even with lines after it (a clock, an AI seat moving meanwhile)
        if keys and wait_for in seen[sent_at:]:
            os.write(master, keys.pop(0))
            sent_at = len(seen)
    try:
        while select.select([master], [], [], 0.3)[0]:
            seen += os.read(master, 65536)
    except OSError:
        pass
    proc.wait(timeout=30)
    os.close(master)
    return proc.returncode, seen.decode(errors="replace").replace("\r\n", "\n")


def test_run_without_token_and_without_terminal_exits_cleanly(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "run"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, env=ENV, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0
    assert "No DISCORD_TOKEN" in proc.stdout and "Traceback" not in proc.stderr + proc.stdout


def test_run_without_token_opens_the_table_in_a_terminal(tmp_path):
    code, text = run_in_pty(["run", "--game", "primary-general"], tmp_path, [b"quit\n"])
    assert "local table" in text and "#game" in text
    assert code == 0 and "Traceback" not in text


@pytest.mark.parametrize("key", [b"\x03", b"\x04"], ids=["ctrl-c", "ctrl-d"])
def test_ctrl_c_and_ctrl_d_quit_at_once_and_say_how_to_resume(tmp_path, key):
    code, text = run_in_pty(["play", "us-president", "--bots", "2", "--out", "o"], tmp_path, [key])
    assert code in (0, 130) and "Traceback" not in text
    assert "saved in o/table.db" in text and "politics-bot play --resume --out o" in text
    code, text = run_in_pty(["play", "--resume", "--out", "o"], tmp_path, [b"quit\n"])
    assert code == 0 and get_game("us-president").title in text and "opened a lobby" not in text


def test_a_one_item_menu_is_not_choose_1_to_1():
    from bot.table import choose_from
    assert choose_from(1) == "type 1 (the only choice)"
    assert choose_from(7) == "choose 1–7"
