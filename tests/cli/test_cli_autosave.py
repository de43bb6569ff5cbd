"""Nothing is lost when the terminal goes: a match not saved when the input ends, or when the
terminal closes (SIGHUP), is saved in gammon's data directory, and `gammon play --resume` goes on
with it. A person who says to quit without saving is taken at their word."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from gammon.cli.session import PlaySession, Seat
from gammon.dice import ScriptedDice
from gammon.engine.players import ComputerAction
from gammon.formats import read_mat
from gammon.game import ActionKind, Game
from gammon.match import Match
from gammon.rules import Rules

ROOT = Path(__file__).resolve().parents[2]


def gammon(args: list[str], stdin: str, data: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gammon.cli.main", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "NO_COLOR": "1", "XDG_DATA_HOME": str(data)})


def saved_files(data: Path) -> list[Path]:
    folder = data / "gammon"
    return sorted(folder.glob("gammon-*.mat")) if folder.exists() else []


def test_a_match_is_saved_when_input_ends_and_resumes(tmp_path):
    proc = gammon(["play", "--two-player", "--seed", "2"], "8/5 6/5\n", tmp_path)  # O's opening 31
    assert proc.returncode == 0, proc.stderr
    [path] = saved_files(tmp_path)
    assert f"Input ended: the match is saved in {path}; 'gammon play --resume {path}'" in proc.stdout
    game = read_mat(path.read_text()).games[0]
    assert [str(a.play) for a in game.actions if hasattr(a, "play")] == ["8/5 6/5"]
    resumed = gammon(["play", "--resume", str(path), "--two-player"], "quit\n\n", tmp_path)
    assert resumed.returncode == 0 and "Resumed a money session" in resumed.stdout
    assert saved_files(tmp_path) == [path]  # nothing new was played: nothing more to save


def test_nothing_is_saved_before_the_first_play(tmp_path):
    proc = gammon(["play", "--two-player", "--seed", "2"], "", tmp_path)  # input ends at once
    assert proc.returncode == 0 and "Goodbye." in proc.stdout
    assert saved_files(tmp_path) == [] and "the match is saved in" not in proc.stdout


def test_quitting_without_saving_saves_nothing(tmp_path):
    proc = gammon(["play", "--two-player", "--seed", "2"], "quit\n\n", tmp_path)
    assert proc.returncode == 0 and "Goodbye." in proc.stdout
    assert saved_files(tmp_path) == [] and "the match is saved in" not in proc.stdout
    own = tmp_path / "mine.mat"
    proc = gammon(["play", "--two-player", "--seed", "2"], f"save {own}\n", tmp_path)
    assert own.exists() and saved_files(tmp_path) == []  # saved by hand, then input ended


def test_a_closed_terminal_saves_the_match(tmp_path):
    master, slave = pty.openpty()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "TERM": "dumb"}
    # SIGHUP as the terminal sends it: a test run started under nohup inherits it ignored
    proc = subprocess.Popen([sys.executable, "-m", "gammon.cli.main", "play", "--seed", "1",
                             "--level", "random", "--plain"],
                            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))
    os.close(slave)
    data = b""
    try:
        end = time.monotonic() + 60
        while not re.search(rb"\(\d-\d to play\) > $|\(roll\) > $|\(roll or double\) > $", data):
            assert time.monotonic() < end, data
            if select.select([master], [], [], 0.5)[0]:
                data += os.read(master, 65536)
        proc.send_signal(signal.SIGHUP)  # the terminal says it closes ...
        os.close(master)  # ... and it does
        master = -1
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        if master >= 0:
            os.close(master)
    [path] = saved_files(tmp_path)
    record = read_mat(path.read_text())
    assert record.names == ("You", "random") and record.games[0].actions


def test_a_play_taken_back_and_made_again_otherwise_after_a_save_is_saved(tmp_path):
    """As many actions as at the save, but not the same ones: the match has changed."""
    own = tmp_path / "mine.mat"
    proc = gammon(["play", "--two-player", "--seed", "2"], f"8/5 6/5\nsave {own}\nundo\n24/21 24/23\n",
                  tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "The last play is taken back." in proc.stdout
    [path] = saved_files(tmp_path)
    plays = [str(a.play) for a in read_mat(path.read_text()).games[0].actions if hasattr(a, "play")]
    assert plays == ["24/23 24/21"] or plays == ["24/21 24/23"]


def test_a_finished_match_saved_when_input_ends_is_not_offered_to_resume(tmp_path):
    # a 1-point match: O opens, X resigns, O accepts; input ends at the offer to save it
    proc = gammon(["play", "--two-player", "--seed", "2", "--match", "1"], "8/5 6/5\nresign\naccept\n",
                  tmp_path)
    assert proc.returncode == 0 and "O wins the match." in proc.stdout, proc.stdout
    [path] = saved_files(tmp_path)
    assert f"Input ended: the finished match is saved in {path}." in proc.stdout
    assert "--resume" not in proc.stdout  # which would answer that there is nothing to play
    assert "Wins 1 point" in path.read_text()


def test_input_ending_with_the_dice_rolled_keeps_the_roll(tmp_path):
    # O opens 3-1 and plays; X rolls and input ends before X plays: a .mat file would drop the
    # roll (it keeps a roll with its play) and the resumed game would roll again
    proc = gammon(["play", "--two-player", "--seed", "2"], "8/5 6/5\n\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    rolled = re.findall(r"X rolls (\d-\d)\.", proc.stdout)
    assert len(rolled) == 1, proc.stdout
    [path] = sorted((tmp_path / "gammon").glob("gammon-*"))
    assert path.suffix == ".sgf"
    assert f"Input ended: the match is saved in {path}; 'gammon play --resume {path}'" in proc.stdout
    resumed = gammon(["play", "--resume", str(path), "--two-player", "--seed", "9"], "pips\nquit\n\n",
                     tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"X ({rolled[0]} to play) > Pips: X 167, O 163" in resumed.stdout


def test_a_match_a_mat_file_cannot_hold_is_saved_as_sgf(tmp_path):
    # seed 2 ties the first opening throw (1-1): the cube starts on 2, which a .mat file cannot
    # hold; input ends with X to roll, where the match was lost ("Could not save ...")
    proc = gammon(["play", "--two-player", "--seed", "2", "--auto-doubles", "1"], "8/5 6/5\n", tmp_path)
    assert proc.returncode == 0 and "Automatic doubles: the cube is on 2." in proc.stdout, proc.stderr
    [path] = sorted((tmp_path / "gammon").glob("gammon-*"))
    assert path.suffix == ".sgf"
    assert f"Input ended: the match is saved in {path}; 'gammon play --resume {path}'" in proc.stdout
    resumed = gammon(["play", "--resume", str(path), "--two-player"], "quit\n\n", tmp_path)
    assert resumed.returncode == 0 and "X (roll or double) > " in resumed.stdout, resumed.stderr
    assert "[2]  cube centred" in resumed.stdout


def test_a_match_that_could_not_be_saved_ends_with_a_failure_status(tmp_path):
    data = tmp_path / "file"  # the data directory cannot be made under a file
    data.write_text("")
    proc = gammon(["play", "--two-player", "--seed", "2"], "8/5 6/5\n", data)
    assert "Input ended: the match could not be saved: " in proc.stdout and "Goodbye." in proc.stdout
    assert proc.returncode == 1  # was 0, as if the match were saved
    proc = gammon(["play", "--two-player", "--seed", "2"], "8/5 6/5\nquit\n\n", data)
    assert proc.returncode == 0  # left without saving, as asked


def test_a_killed_game_saves_the_match(tmp_path):
    # 'kill PID' (SIGTERM) ended the process at once, the game in progress lost
    master, slave = pty.openpty()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "TERM": "dumb"}
    proc = subprocess.Popen([sys.executable, "-m", "gammon.cli.main", "play", "--seed", "1",
                             "--two-player", "--plain"],
                            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env)
    os.close(slave)
    data = b""

    def read_until(pattern: bytes) -> None:
        nonlocal data
        end = time.monotonic() + 60
        while not re.search(pattern, data):
            assert time.monotonic() < end, data
            if select.select([master], [], [], 0.5)[0]:
                data += os.read(master, 65536)

    try:
        read_until(rb"\(5-2 to play\) > $")
        os.write(master, b"24/22 13/8\n")
        read_until(rb"\(roll or double\) > $")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 128 + signal.SIGTERM
        with contextlib.suppress(OSError):  # the rest of what it said
            while select.select([master], [], [], 0.5)[0] and (more := os.read(master, 65536)):
                data += more
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    [path] = saved_files(tmp_path)
    # the terminal's 80 columns: the message is wrapped at its spaces
    said = b" ".join(data.split())
    assert f"The game was stopped (SIGTERM): the match is saved in {path};".encode() in said
    game = read_mat(path.read_text()).games[0]
    assert [str(a.play) for a in game.actions if hasattr(a, "play")] == ["24/22 13/8"]


class _KilledWhileThinking:
    """A computer player that is killed (SIGTERM) while it chooses its action."""

    def __init__(self) -> None:
        self.chose = False

    def next_action(self, game: Game) -> ComputerAction:
        os.kill(os.getpid(), signal.SIGTERM)
        self.chose = True  # GNU Backgammon's answer may be minutes away: not waited for
        return ComputerAction(ActionKind.DOUBLE)


def test_a_kill_while_the_computer_thinks_ends_the_session_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    bot = _KilledWhileThinking()
    out = io.StringIO()
    # O opens with 3-1 and plays it; then the computer, X, is to act
    session = PlaySession(Match(Rules(), ScriptedDice([(1, 3)])), (Seat("X", bot), Seat("You")),
                          console=Console(file=out, width=100), stdin=io.StringIO("8/5 6/5\n"), color=False,
                          autosave=True, confirm_plays=False)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        status = session.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert status == 128 + signal.SIGTERM and not bot.chose
    [path] = saved_files(tmp_path)
    assert f"The game was stopped (SIGTERM): the match is saved in {path};" in out.getvalue()


class _Broken:
    """A computer player with a bug: choosing its action raises."""

    def next_action(self, game: Game) -> ComputerAction:
        raise RuntimeError("a bug in the computer player")


def test_a_bug_on_the_computers_turn_saves_the_match_before_the_traceback(tmp_path, monkeypatch):
    # the error ended the session with the game in progress lost: only a person's command was guarded
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    out = io.StringIO()
    # O opens with 3-1 and plays it; then the computer, X, is to act
    session = PlaySession(Match(Rules(), ScriptedDice([(1, 3)])), (Seat("X", _Broken()), Seat("You")),
                          console=Console(file=out, width=100), stdin=io.StringIO("8/5 6/5\n"), color=False,
                          autosave=True, confirm_plays=False)
    with pytest.raises(RuntimeError, match="a bug in the computer player"):
        session.run()
    [path] = saved_files(tmp_path)
    assert (f"Unexpected error (a bug in the computer player): the match is saved in {path}; "
            f"'gammon play --resume {path}' goes on with it.") in out.getvalue()
    game = read_mat(path.read_text()).games[0]
    assert [str(a.play) for a in game.actions if hasattr(a, "play")] == ["8/5 6/5"]


class _KilledAtThePrompt(io.StringIO):
    """The terminal's output, where the process is killed (SIGTERM) as the prompt is written."""

    def write(self, text: str) -> int:
        written = super().write(text)
        if text.endswith(") > "):
            os.kill(os.getpid(), signal.SIGTERM)
        return written


def test_a_kill_while_the_prompt_is_written_ends_the_wait_for_input(tmp_path, monkeypatch):
    # the kill came before the wait for input began and was noticed only at the next prompt: a
    # person who typed nothing more kept the killed process waiting
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    out = _KilledAtThePrompt()
    session = PlaySession(Match(Rules(), ScriptedDice([(2, 5)])), (Seat("X"), Seat("O")),
                          console=Console(file=out, width=100), stdin=io.StringIO("24/22 13/8\n"),
                          color=False, autosave=True)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        status = session.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert status == 128 + signal.SIGTERM
    assert "O plays 5-2" not in out.getvalue()  # the line was not read
