"""`gammon play`'s rule options: a value the rules refuse is an argparse error about the option, in
the chosen language, not the rules' internal message."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gammon.cli.main import main


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(("option", "value", "why"), [
    ("--cube-limit", "3", "'3' is not a power of two of at least 2"),
    ("--cube-limit", "1", "'1' is not a power of two of at least 2"),
    # '0' was said to need "at least 1", which is refused in turn
    ("--cube-limit", "0", "'0' is not a power of two of at least 2"),
    ("--cube-limit", "-2", "'-2' is not a power of two of at least 2"),
    ("--auto-doubles", "-1", "'-1' must be at least 0"),
    # int() read these as 10, 3 and 1024: a typo played as a rule
    ("--match", "1_0", "'1_0' is not a whole number"),
    ("--match", "٣", "'٣' is not a whole number"),
    ("--cube-limit", "1_024", "'1_024' is not a power of two of at least 2"),
    ("--cube-limit", "65536", "'65536' is past 32768, the highest cube of any game"),
])
def test_a_rule_option_the_rules_refuse_is_an_option_error(option, value, why, capsys):
    err = refused(["play", option, value], capsys)
    assert err.endswith(f"gammon play: error: argument {option}: {why}\n") and "Rules." not in err


def test_the_option_error_is_in_the_chosen_language(capsys):
    err = refused(["--lang", "pl", "play", "--cube-limit", "3"], capsys)
    assert err.endswith("błąd: argument --cube-limit: '3' nie jest potęgą dwójki równą co najmniej 2\n")
    err = refused(["--lang", "cs", "play", "--auto-doubles", "-1"], capsys)
    assert "--auto-doubles" in err and "must be" not in err and "Rules." not in err



@pytest.mark.parametrize("level", ["gnubg-external:localhost:99999", "gnubg-external:x"])
def test_a_gnubg_level_that_does_not_read_is_refused_in_the_chosen_language(level, capsys):
    err = refused(["--lang", "pl", "play", "--level", level], capsys)
    assert err.endswith(f"argument --level: poziom GNU Backgammon to gnubg-external:HOST:PORT, z portem od 1 "
                        f"do 65535, podano {level!r}\n"), err

def test_a_power_of_two_is_taken(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--two-player", "--cube-limit", "64", "--auto-doubles", "2", "--plain"]) == 0


LONG = "x" * 5000


@pytest.mark.parametrize("argv", [
    ["play", "--resume", LONG + ".mat"],
    ["play", "--resume", LONG + ".mat", "--name", "\t" * 3000],
    ["convert", LONG + ".mat", "out.sgf"],
])
def test_errors_quote_long_input_cut(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "xxx..." in err and len(err) < 500  # a path is quoted up to 300 characters


@pytest.mark.parametrize("argv", [
    ["play", "--level", LONG],
    ["play", "--match", LONG],
    ["play", "--cube-limit", "3" * 5000],
])
def test_option_errors_quote_long_input_cut(argv, capsys):
    err = refused(argv, capsys)
    assert len(err.splitlines()[-1]) < 300


def test_a_resumed_file_that_does_not_read_is_named_cut(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path(LONG[:200] + ".mat").write_text("not a match\n")
    assert main(["play", "--resume", LONG[:200] + ".mat"]) == 2
    assert len(capsys.readouterr().err) < 400
