"""`gammon play --resume FILE`: a match saved in the terminal (or any .mat/.sgf file) goes on
where it stopped, with its score, rules, cube and the game in progress."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gammon.cli.main import main
from gammon.cli.resume import person_side
from gammon.dice import RandomDice
from gammon.formats import read_mat, read_sgf, to_match, write_mat, write_sgf
from gammon.game import GamePhase, Take
from gammon.match import Match
from gammon.rules import Rules, WinKind

LEVELS = ("random", "pubeval", "engine-0ply", "engine")


def run(args: list[str], stdin: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(["play", "--plain", *args])
    out, err = capsys.readouterr()
    return status, out, err


def doubled_match(seed: int = 3) -> Match:
    """A 7-point match stopped while player 0 is asked to take a double."""
    match = Match(Rules(match_length=7), RandomDice(seed))
    g = match.game
    g.roll()
    while not (g.phase == GamePhase.ROLL and g.turn == 1):
        g.play(g.legal_plays()[0]) if g.phase == GamePhase.MOVE else g.roll()
    g.double()
    assert g.phase == GamePhase.DOUBLED and g.turn == 0
    return match


def test_a_saved_match_goes_on_where_it_stopped(tmp_path, capsys, monkeypatch):
    match = doubled_match()
    saved, again = tmp_path / "match.mat", tmp_path / "again.mat"
    write_mat(match, names=("You", "pubeval"), file=saved)
    status, out, err = run(["--resume", str(saved), "--seed", "1"], f"take\nquit\n{again}\n",
                           capsys, monkeypatch)
    assert status == 0, err
    assert f"Resumed a match to 7 points from {saved}: You against pubeval, game 1." in out
    assert "offered by pubeval" in out  # the board, with the double waiting for its answer
    assert "You take. The cube is on 2." in out
    assert "pubeval plays " in out  # the computer (the level its name says) goes on
    # Saved again: the old actions, then the take, then what followed.
    before = match.game.history
    after = to_match(read_mat(again.read_text())).game.history
    assert after[:len(before)] == before
    assert after[len(before)] == Take(0) and len(after) > len(before) + 1


def test_a_mat_file_named_txt_as_the_sites_export_it_is_read(tmp_path, capsys, monkeypatch):
    path = tmp_path / "galaxy-export.txt"
    write_mat(doubled_match(), names=("You", "random"), file=path)
    status, out, err = run(["--resume", str(path)], "take\nquit\n\n", capsys, monkeypatch)
    assert status == 0, err
    assert "Resumed a match to 7 points" in out and "You take. The cube is on 2." in out


def resigned(path: Path, length: int, names: tuple[str, str]) -> int:
    """Save in ``path`` a match to ``length`` whose first game the first player to move resigned at
    once; returns that player."""
    match = Match(Rules(match_length=length), RandomDice(3))
    g = match.game
    g.roll()
    loser = g.turn
    g.resign(WinKind.SINGLE)
    g.accept_resignation()
    write_mat(match, names=names, file=path)
    return loser


def test_a_finished_game_is_reported_and_the_next_one_starts(tmp_path, capsys, monkeypatch):
    path = tmp_path / "one.mat"
    loser = resigned(path, 3, ("You", "random"))
    status, out, _ = run(["--resume", str(path)], "\nquit\n\n", capsys, monkeypatch)
    assert status == 0
    winner = ("You", "random")[1 - loser]
    assert f"{winner} win" in out and "by resignation, 1 point." in out
    assert "Press Enter to start game 2 > " in out
    assert "throws" in out  # game 2's opening roll


def test_a_match_that_is_over_is_refused(tmp_path, capsys, monkeypatch):
    path = tmp_path / "over.mat"
    loser = resigned(path, 1, ("Ann", "Ben"))
    status, _, err = run(["--resume", str(path)], "", capsys, monkeypatch)
    assert status == 2
    assert f"the match in {path} is over: {('Ann', 'Ben')[1 - loser]} won it 1-0" in err


@pytest.mark.parametrize("args, message", [
    (["--resume", "no/such/file.mat"], "cannot read 'no/such/file.mat'"),
    (["--resume", "match.mat", "--match", "5"], "--match cannot change the length of a saved match"),
])
def test_bad_resume_options_are_refused(args, message, capsys, monkeypatch):
    status, out, err = run(args, "", capsys, monkeypatch)
    assert status == 2 and message in err and out == ""


def test_a_file_that_is_not_a_match_is_quoted(tmp_path, capsys, monkeypatch):
    path = tmp_path / "bad.mat"
    path.write_text("x" * 500 + "\n")
    status, _, err = run(["--resume", str(path)], "", capsys, monkeypatch)
    assert status == 2 and f"{path}: line 1" in err
    assert "x" * 60 in err and "x" * 200 not in err  # quoted, cut short


def test_the_person_is_the_named_player_or_the_computer_s_opponent(tmp_path, capsys, monkeypatch):
    assert person_side(("Alice", "Bob"), "Bob", LEVELS) == 1
    assert person_side(("engine", "Zoe"), None, LEVELS) == 1  # a file gammon play saved
    assert person_side(("Ann", "You"), None, LEVELS) == 1
    with pytest.raises(ValueError, match="which player are you.*'Alice' and 'Bob'"):
        person_side(("Alice", "Bob"), None, LEVELS)
    with pytest.raises(ValueError, match="no player is named 'Carol'"):
        person_side(("Alice", "Bob"), "Carol", LEVELS)
    with pytest.raises(ValueError, match="both players are named"):
        person_side(("X", "X"), "X", LEVELS)
    # Through the command: the person plays Bob (player 1, who doubled); the computer, Alice,
    # answers at the level asked for and keeps her name.
    path = tmp_path / "ab.mat"
    write_mat(doubled_match(), names=("Alice", "Bob"), file=path)
    status, _, err = run(["--resume", str(path)], "", capsys, monkeypatch)
    assert status == 2 and "give --name one of them" in err
    status, out, _ = run(["--resume", str(path), "--name", "Bob", "--level", "random"], "quit\n\n",
                         capsys, monkeypatch)
    assert status == 0
    assert "Alice takes. The cube is on 2." in out or "Alice passes." in out
    status, out, _ = run(["--resume", str(path), "--two-player"], "take\nquit\n\n", capsys, monkeypatch)
    assert status == 0 and "Alice takes. The cube is on 2." in out and "Bob (roll) > " in out


def test_rule_options_replace_the_files_and_the_games_must_obey_them(tmp_path, capsys, monkeypatch):
    # A .mat file does not record play without the cube: --no-cube says it again.
    match = Match(Rules(use_cube=False), RandomDice(5))
    g = match.game
    g.roll()
    while not (g.phase == GamePhase.ROLL and g.turn == 0):  # the person, player 0, is to roll
        g.play(g.legal_plays()[0]) if g.phase == GamePhase.MOVE else g.roll()
    path = tmp_path / "money.mat"
    write_mat(match, names=("You", "random"), file=path)
    _, out, _ = run(["--resume", str(path)], "quit\n\n", capsys, monkeypatch)
    assert "Resumed a money session" in out and "You (roll or double) > " in out
    _, out, _ = run(["--resume", str(path), "--no-cube"], "quit\n\n", capsys, monkeypatch)
    assert "You (roll) > " in out
    # SGF keeps the rule itself.
    sgf = tmp_path / "money.sgf"
    write_sgf(match, names=("You", "random"), file=sgf)
    assert not read_sgf(sgf.read_bytes()).match.rules.use_cube
    _, out, _ = run(["--resume", str(sgf)], "quit\n\n", capsys, monkeypatch)
    assert "You (roll) > " in out
    # A match with a double in it cannot go on without the cube.
    doubled = tmp_path / "doubled.mat"
    write_mat(doubled_match(), names=("You", "random"), file=doubled)
    status, _, err = run(["--resume", str(doubled), "--no-cube"], "", capsys, monkeypatch)
    assert status == 2 and f"{doubled}: " in err and "cube" in err


def test_a_side_named_after_a_level_is_named_after_the_level_that_now_plays_it(tmp_path, capsys,
                                                                               monkeypatch):
    path = tmp_path / "match.mat"
    write_mat(doubled_match(), names=("You", "engine"), file=path)
    status, out, _ = run(["--resume", str(path), "--level", "random"], "quit\n\n", capsys, monkeypatch)
    assert status == 0 and "You against random" in out and "engine" not in out


def test_save_alone_writes_the_resumed_mat_file_back(tmp_path, capsys, monkeypatch):
    path = tmp_path / "match.mat"
    write_mat(doubled_match(), names=("You", "random"), file=path)
    before = path.read_text()
    status, out, _ = run(["--resume", str(path)], "take\nsave\nquit\n\n", capsys, monkeypatch)
    assert status == 0 and f"Saved to {path}." in out
    after = to_match(read_mat(path.read_text())).game.history
    assert Take(0) in after and path.read_text() != before
    # an SGF is not overwritten with .mat text: 'save' alone asks for a file name
    sgf = tmp_path / "match.sgf"
    write_sgf(doubled_match(), names=("You", "random"), file=sgf)
    status, out, _ = run(["--resume", str(sgf)], "take\nsave\nquit\n\n", capsys, monkeypatch)
    assert "Usage: save FILE" in out and read_sgf(sgf.read_bytes()).match.game.phase == GamePhase.DOUBLED


def test_the_computer_never_plays_the_side_named_you(tmp_path, capsys, monkeypatch):
    # '--name engine' gave the computer the side named "You": "You play 5-2: ..." told its moves
    path = tmp_path / "match.mat"
    write_mat(doubled_match(), names=("You", "engine"), file=path)
    status, out, err = run(["--resume", str(path), "--name", "engine", "--level", "random"], "\n\n\n",
                           capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err == ("gammon play: --name 'engine' leaves the player named 'You' to the computer, whose "
                   "moves would be told as yours; play both with --two-player\n")
    status, out, _ = run(["--resume", str(path), "--two-player"], "quit\n\n", capsys, monkeypatch)
    assert status == 0 and "You against engine" in out  # two people may play it


def test_a_side_gnu_backgammon_played_is_named_after_the_level_that_now_plays_it(tmp_path, capsys,
                                                                                    monkeypatch):
    # a match saved against GNU Backgammon, resumed against random: "You against gnubg", random
    # passed off as GNU Backgammon
    path = tmp_path / "match.mat"
    write_mat(doubled_match(), names=("You", "gnubg"), file=path)
    status, out, _ = run(["--resume", str(path), "--level", "random"], "quit\n\n", capsys, monkeypatch)
    assert status == 0 and "You against random" in out and "gnubg" not in out
    status, out, _ = run(["--resume", str(path)], "quit\n\n", capsys, monkeypatch)
    assert status == 0 and "You against engine" in out and "gnubg" not in out
    # and a person cannot be called so in a new match, which would be taken for the computer's side
    status, _, err = run(["--name", "gnubg"], "", capsys, monkeypatch)
    assert status == 2 and "--name cannot be 'gnubg', a computer player's name" in err
