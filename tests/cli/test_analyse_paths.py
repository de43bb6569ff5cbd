"""gammon analyse names the match file in its warnings, its partial read's problems and what it
wrote as its errors do: cut to a few hundred characters, control characters escaped (they printed
the path whole, an escape sequence in a file's name reaching the terminal)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gammon.cli.main import main
from gammon.errors import PATH_QUOTE_LIMIT, shown_path

# a money session whose second game's score disagrees with the first game's result: a warning
SESSION = ("(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]RE[B+1]\n;W[31hefe]\n;B[double]\n;W[drop])\n"
           "(;FF[4]GM[6]MI[length:0][game:1][ws:0][bs:2])\n")
BAD_FIRST_GAME = " 3 point match\n\n Game 1\n Ann : 0                        Bo : 0\n  1) 31: 24/1\n"


def test_shown_path_escapes_control_characters_and_cuts() -> None:
    assert shown_path("red\x1b[31m\tname\udce9 é.mat") == "red\\x1b[31m\\tname\\xe9 é.mat"
    long = shown_path("\x1b" * 1000)
    assert len(long) == PATH_QUOTE_LIMIT and "\x1b" not in long


def _hostile_dir(tmp_path: Path) -> Path:
    """A directory whose path is long and holds an escape sequence (turns the terminal red)."""
    where = tmp_path / ("d" * 200) / ("red\x1b[31m" + "e" * 150)
    where.mkdir(parents=True)
    return where


def _lines_naming(err: str, name: str) -> list[str]:
    lines = [line for line in err.splitlines() if name in line]
    assert lines
    return lines


def test_a_partial_read_s_problem_names_the_file_as_errors_do(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = _hostile_dir(tmp_path) / "bad.mat"
    bad.write_text(BAD_FIRST_GAME)
    assert main(["analyse", str(bad), "--partial", "--plies", "0"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "'24/1' is not a legal play" in err
    for line in _lines_naming(err, "dddd"):  # the path cut: its end is not shown
        assert "red\\x1b[31m" in line and "eee..." in line and "/bad.mat" not in line


def test_a_warning_and_the_files_written_name_them_as_errors_do(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    where = _hostile_dir(tmp_path)
    source = where / "session.sgf"
    source.write_text(SESSION)
    report = where / "report.html"
    assert main(["analyse", str(source), "--plies", "0", "--json", "--html", str(report)]) == 0
    err = capsys.readouterr().err
    assert report.exists() and "\x1b" not in err
    assert "disagrees with the games before it" in err and "report written to" in err
    for line in _lines_naming(err, "dddd"):  # the path cut: its end is not shown
        assert "red\\x1b[31m" in line and "eee..." in line and ".sgf" not in line and ".html" not in line
