"""What the commands write to standard output, when it cannot be written."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gammon.cli.main import main
from gammon.formats.mat import format_mat
from gammon.rules import Rules
from tests.formats.random_play import play_match

FULL = os.strerror(errno.ENOSPC)


class _FullDisk(io.BytesIO):
    """Standard output on a full disk (> /dev/full)."""

    def write(self, data: object) -> int:
        raise OSError(errno.ENOSPC, FULL)


@pytest.mark.parametrize("line_buffering", [False, True])  # PYTHONUNBUFFERED fails at the print
def test_convert_to_a_full_standard_output_says_so(tmp_path: Path, monkeypatch, capsys, line_buffering):
    source = tmp_path / "match.mat"
    source.write_text(format_mat(play_match(1, Rules(match_length=3)), ("Ann", "Ben")))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(_FullDisk(), line_buffering=line_buffering))
    assert main(["convert", str(source), str(tmp_path / "match.sgf")]) == 1
    assert capsys.readouterr().err == f"gammon convert: cannot write to standard output: {FULL}\n"
    assert (tmp_path / "match.sgf").is_file()  # the file was written before the report


def test_eval_to_a_full_standard_output_says_so(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(_FullDisk()))
    assert main(["--lang", "pl", "eval", "4HPwATDgc/ABMA", "--plies", "0"]) == 1
    assert capsys.readouterr().err.startswith("gammon eval: nie można zapisać na standardowe wyjście")


def test_a_file_that_cannot_be_written_is_still_named(tmp_path: Path, capsys):
    # only standard output's errors are said to be standard output's
    source = tmp_path / "match.mat"
    source.write_text(format_mat(play_match(1, Rules(match_length=3)), ("Ann", "Ben")))
    assert main(["convert", str(source), str(tmp_path / "missing" / "match.sgf")]) == 2
    err = capsys.readouterr().err
    assert "standard output" not in err and "match.sgf" in err


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["diagram", "--help"]])
def test_help_to_a_full_standard_output_says_so(argv, monkeypatch, capsys):
    # the text was left to the flush at exit: 'Exception ignored ... OSError', exit status 120
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(_FullDisk()))
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 1
    assert capsys.readouterr().err == f"gammon: cannot write to standard output: {FULL}\n"


def test_help_is_written(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("gammon ")


def test_play_to_a_full_standard_output_says_so(tmp_path: Path) -> None:
    # the welcome was printed outside the session's handling of a terminal gone: a traceback
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "gammon", "--lang", "en", "play"], input="quit\n",
                              stdout=full, stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"gammon play: cannot write to standard output: {FULL}\n"


@pytest.mark.parametrize(("closed", "said"), [
    (0, "gammon play: cannot read standard input: it is closed\n"),
    (1, "gammon play: cannot write to standard output: Bad file descriptor\n"),
])
def test_play_started_with_a_standard_stream_closed_says_so(closed: int, said: str, tmp_path: Path) -> None:
    # '<&-' and '>&-': Python gives the stream as None, and the game ended in an AttributeError
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "gammon", "--lang", "en", "play", "--two-player"],
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, env=env, timeout=120, preexec_fn=lambda: os.close(closed))
    assert done.returncode == 1
    assert done.stderr == said


def test_help_with_standard_output_closed_goes_to_standard_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "gammon", "--version"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=120, preexec_fn=lambda: os.close(1))
    assert done.returncode == 0 and done.stderr.startswith("gammon ")
