"""`gammon play` in a terminal that is not UTF-8, and with bytes that are not UTF-8: the game
goes on, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gammon import Position
from gammon.cli.board import BoardView, draws_in, render_board

ROOT = Path(__file__).resolve().parents[2]


def play(args: list[str], stdin: bytes, encoding: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "XDG_DATA_HOME": str(tmp_path / "data"),
           "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "gammon", "play", "--two-player", "--seed", "1", *args],
                          input=stdin, capture_output=True, cwd=tmp_path, env=env, timeout=120)


def test_the_board_is_drawn_in_ascii_where_the_encoding_has_no_box_drawing():
    assert draws_in("utf-8") and not draws_in("ascii") and not draws_in("iso8859-2")
    view = BoardView(Position.initial(), on_turn=0, dice=(6, 4))
    for color in (False, True):
        lines = [line.plain for line in render_board(view, color=color, ascii_only=True)]
        text = "\n".join(lines)
        assert text.isascii(), text
        assert lines[2] == " +-------------------+---+-------------------+---+"
        assert "|  X           O    |" in text
        # the same layout as the Unicode board, one character for one
        unicode = [line.plain for line in render_board(view, color=color)]
        assert [len(line) for line in lines] == [len(line) for line in unicode]


def test_an_ascii_terminal_plays_in_polish_without_a_traceback(tmp_path):
    done = play(["--lang", "pl"], b"24/22 13/8\nquit\n\n", "ascii", tmp_path)
    out = done.stdout.decode("ascii")  # nothing else was written
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    assert " +-------------------+---+" in out and "O gra 5-2: 24/22 13/8." in out
    assert "Do widzenia." in out


def test_a_file_name_that_is_no_utf8_is_written_as_it_is(tmp_path):
    saved = play([], b"24/22 13/8\nsave m.mat\nquit\n", "utf-8", tmp_path)
    assert saved.returncode == 0, saved.stderr.decode()
    name = os.fsencode(tmp_path) + b"/m\xff.mat"
    os.rename(tmp_path / "m.mat", name)
    done = play(["--resume", os.fsdecode(name)], b"quit\n", "utf-8", tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert b"Resumed a money session from " + name + b": X against O" in done.stdout


def test_a_byte_the_terminal_does_not_read_is_quoted_and_the_game_goes_on(tmp_path):
    # PYTHONIOENCODING=utf-8 reads strictly, as Python does in a UTF-8 locale other than C.UTF-8
    done = play([], b"foo\xe9\n24/22\xe9 13/8\n24/22 13/8\nquit\n\n", "utf-8", tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode()
    assert "Unknown command 'foo\\xe9'; type 'help' for the list." in out
    assert "Sorry: cannot read '24/22\\xe9':" in out
    assert "O plays 5-2: 24/22 13/8." in out
