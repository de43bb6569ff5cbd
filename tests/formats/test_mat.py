""".mat files: reading hand-written and other programs' files, errors, round trips, fuzzing."""

from __future__ import annotations

import dataclasses
import io
import random
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon import InvalidNotationError, Position, RandomDice
from gammon.dice import ScriptedDice
from gammon.formats.mat import (
    MatMatch,
    format_mat,
    format_steps,
    mat_names,
    read_mat,
    rules_of,
    to_match,
    to_record,
    write_mat,
)
from gammon.game import Double, Game, Pass, PlayMade, Roll, Take
from gammon.i18n import use_language
from gammon.match import Match
from gammon.rules import Rules
from tests.formats.random_play import play_match

# A gnubg export, trimmed: player 1 opens, a double dropped, a resignation after a roll.
GNUBG_TEXT = """\
; [Site "Nowhere"]
; [EventDate "2026.11.23"]

 5 point match

 Game 1
 gnubg : 0                      root : 0
  1)                             21: 13/11 24/23
  2) 52: 13/8 24/22              63: 8/5 11/5
  3) 53: 8/3 6/3                  Doubles => 2
  4)  Drops                       Wins 1 point

 Game 2
 gnubg : 0                      root : 1
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2)  Doubles => 2                Takes
  3) 64: 24/18 18/14             43:
      Wins 2 points
"""


def test_read_gnubg_export() -> None:
    record = read_mat(GNUBG_TEXT)
    assert record.errors == ()
    assert (record.match_length, record.names) == (5, ("gnubg", "root"))
    assert record.tags == {"Site": "Nowhere", "EventDate": "2026.11.23"}
    g1, g2 = record.games
    assert g1.score == (0, 0) and g2.score == (0, 1)
    # the game's own history records: each roll (the opening one as (player 0's die, player 1's))
    # and its play, the cube actions; the "Wins" is the game's end
    kinds = [type(a) for a in g1.actions]
    assert kinds == [Roll, PlayMade] * 4 + [Double, Pass]
    first = g1.actions[1]
    assert (first.player, first.dice, str(first.play), g1.lines[1]) == (1, (1, 2), "24/23 13/11", 8)
    assert g1.actions[0] == Roll(1, (1, 2), opening=True)
    assert (g1.winner, g1.points, g1.win_line) == (1, 1, 11)
    assert [type(a) for a in g2.actions] == [Roll, PlayMade] * 2 + [Double, Take, Roll, PlayMade, Roll]
    assert g2.actions[-1] == Roll(1, (4, 3)) and g2.lines[-1] == 17
    assert (g2.winner, g2.points) == (0, 2)
    match = to_match(record)
    assert match.score == (2, 1)
    last = match.games[1].result
    assert (last.reason, last.kind, last.cube_value) == ("resign", 1, 2)


def test_reading_checks_plays_and_goes_on_after_a_bad_game() -> None:
    text = GNUBG_TEXT.replace("52: 13/8 24/22", "52: 13/6 24/22")
    record = read_mat(text)
    assert [g.number for g in record.games] == [2]
    (error,) = record.errors
    assert "line 9" in str(error) and "13/6 24/22" in str(error)
    with pytest.raises(InvalidNotationError, match="13/6 24/22"):
        to_match(record)  # never a match cut short without asking: the first error is raised
    match = to_match(record, partial=True)  # asked for: the games before the bad one (none)
    assert [len(g.history) for g in match.games] == [0]


def test_partial_match_keeps_the_games_before_the_first_bad_one() -> None:
    text = GNUBG_TEXT.replace("43:", "44: 24/4")  # game 2's last roll cannot be played so
    record = read_mat(text)
    assert [g.number for g in record.games] == [1] and len(record.errors) == 1
    with pytest.raises(InvalidNotationError, match="game 2 .*24/4"):
        to_match(record)
    match = to_match(record, partial=True)
    assert len(match.games) == 1 and match.score == (0, 1)


def test_gnubg_text_replays_into_a_match() -> None:
    record = read_mat(GNUBG_TEXT.split(" Game 2")[0])
    match = to_match(record)
    assert match.score == (0, 1)
    assert match.games[0].result.reason == "pass"


def test_resignation_after_a_roll() -> None:
    text = """ 3 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 62:
                                  Wins 2 points
"""
    # B rolled 62 and left it unplayed: A may have left (a win of 3 points), but cannot resign on B's turn
    with pytest.raises(InvalidNotationError, match="line 6: IllegalActionError: cannot resign"):
        to_match(read_mat(text))
    good = read_mat(text.replace("                                  Wins 2 points", "      Wins 2 points"))
    assert [type(a) for a in good.games[0].actions] == [Roll, PlayMade, Roll]
    assert good.games[0].winner == 0
    match = to_match(good)
    result = match.games[0].result
    assert (result.winner, result.points, result.reason, result.kind) == (0, 2, "resign", 2)


def test_abandoned_games_read_back() -> None:
    """An abandon is written as a win of a backgammon times the cube. In a money game under the
    Jacoby rule with the cube in the middle no resignation is worth that, nor can anyone resign
    before the opening roll: the reader took neither, and the file did not read back."""
    match = Match(Rules(), RandomDice(5))
    match.game.abandon(0)  # before the opening roll
    for double in (False, True):
        match.new_game()
        game = match.game
        game.roll()
        game.play(game.legal_plays()[0])
        if double:  # a cube turned: gammons count, and a resigned backgammon is worth as much
            game.double()
            game.take()
        game.abandon(game.turn)
    back = to_match(read_mat(format_mat(match)))
    assert [g.result for g in back.games] == [g.result for g in match.games[:2]] + [
        dataclasses.replace(match.games[2].result, reason="resign")]
    assert back.score == match.score == (9, 3)


def test_a_resigned_gammon_gnubg_counts_in_full_under_the_jacoby_rule_is_explained() -> None:
    # GNU Backgammon's export of a money session (Jacoby on, no tag for it): a gammon resigned
    # with the cube in the middle, which gnubg scores 2 and the Jacoby rule 1
    text = """; [EventDate "2026.11.30"]

 0 point match

 Game 1
 gnubg : 0                      root : 0
  1) 41:                         Wins 2 points
"""
    with pytest.raises(InvalidNotationError) as e:
        to_match(read_mat(text))
    assert "line 7" in str(e.value) and "Jacoby rule" in str(e.value) and "in full" in str(e.value)
    with use_language("pl"), pytest.raises(InvalidNotationError) as e:
        to_match(read_mat(text))
    assert "Jacoby'ego" in str(e.value)
    assert to_match(read_mat(text.replace("; [Event", '; [Jacoby "Off"]\n; [Event'))).score == (0, 2)


def test_no_header_is_an_error_quoting_the_line() -> None:
    with pytest.raises(InvalidNotationError, match="no 'N point match'"):
        read_mat("")
    with pytest.raises(InvalidNotationError, match=r"line 2: 'hello'"):
        read_mat("; comment\nhello\n 5 point match\n")


@pytest.mark.parametrize("bad, where", [
    ("  2) 52: 13/8 24/22              63: 8/5 11/5", "  2) 52: 13/8 24/22  xyz         63: 8/5 11/5"),
    ("  3) 53: 8/3 6/3                  Doubles => 2", "  3) 53: 8/3 6/3                  Doubles => 3"),
    ("  4)  Drops                       Wins 1 point", "  4)  Takes                       Wins 1 point"),
    (" gnubg : 0                      root : 0", " gnubg 0 root 0 x"),
])
def test_malformed_games_are_collected(bad: str, where: str) -> None:
    text = GNUBG_TEXT.replace(bad, where)
    try:
        record = read_mat(text)
    except InvalidNotationError:
        pytest.fail("one bad game must not stop the reading")
    if record.errors:
        assert "line" in str(record.errors[0])
    else:
        with pytest.raises(InvalidNotationError, match="line"):
            to_match(record)


def test_turn_order_is_checked() -> None:
    text = GNUBG_TEXT.replace("  2) 52: 13/8 24/22              63: 8/5 11/5",
                              "  2)                             63: 8/5 11/5")
    record = read_mat(text)
    assert record.errors and "turn" in str(record.errors[0])


def test_xg_spellings() -> None:
    text = """\ufeff; [Player 1 "X"]
; [Player 2 "Y"]

 1 point match

 Game 1
 X : 0                          Y : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 66: 24/18(2) 13/7(2)        21: 13/11 6/5
  3) 53: ???                      Wins 1 point and the match
"""
    record = read_mat(text)
    assert record.errors == ()
    game = record.games[0]
    assert str(game.actions[5].play) == "24/18(2) 13/7(2)"
    assert game.actions[-1] == Roll(0, (5, 3)) and game.lines[-1] == 10
    assert (game.winner, game.points, game.win_line) == (1, 1, 10)
    assert to_match(record).winner == 1


GALAXY_TEXT = """\
; [Site "BackgammonGalaxy"]
; [Match ID "1"]

3 point match

 Game 1
 A : 0                       B : 0
  1) 31: 8/5 6/5              64: 24/18 18/14
  2) 21: 13/11 11/10          31: 25/22 24/23
  3)  Doubles => 2             Drops
      Wins 1 point

 Game 2
 A : 1                       B : 0
  1)                          31: 8/5 6/5
  2) 42: 8/4 6/4              53: 13/8 13/10
  3)  Losses 1 point                                               Wins 1 point
"""


def test_backgammon_galaxy_variants() -> None:
    # no '*' marks (a written stop hits: 13/11 11/10 hits on 11), "Losses" cells, and the
    # winner's points at the far right of the loser's numbered row
    record = read_mat(GALAXY_TEXT)
    assert record.errors == ()
    hit = record.games[0].actions[5]
    assert isinstance(hit, PlayMade) and hit.play.hits == (11,)
    assert isinstance(record.games[0].actions[7], PlayMade)  # B enters from the bar
    assert (record.games[1].winner, record.games[1].points, record.games[1].win_line) == (1, 1, 17)
    match = to_match(record)
    assert match.score == (1, 1)
    assert [g.result.reason for g in match.games] == ["pass", "resign"]
    assert match.games[1].history[-2].player == 0  # A resigned, on A's turn


def test_galaxy_writes_the_points_that_win_the_match_for_a_gammon() -> None:
    # real files: a gammon at 2 (4 points) wins a 3 point match, written "Wins 3 point and the
    # match" - at the end of a bear-off, or after the loser's "Losses 3 point" and a blank line
    from benchmarks.agreement.mat_oracle import CORPUS

    for name, reason in (("bglab-lasse-match1032950.mat", "bear_off"),
                         ("bglab-lasse-match1112717.mat", "resign")):
        text = (CORPUS / "galaxy" / name).read_text(encoding="utf-8")
        record = read_mat(text)
        assert record.errors == () and record.games[0].points == 3
        result = to_match(record).games[0].result
        assert (result.winner, result.points, result.reason) == (0, 4, reason)
        if reason == "bear_off":  # fewer points than the match needed is still an error
            with pytest.raises(InvalidNotationError, match="wins 2 points"):
                to_match(read_mat(text.replace("Wins 3 point", "Wins 2 point")))


STUDIO_TEXT = """\
; [Site "Backgammon Studio"]
; [ClockType "Speed 168/6"]

7 point match


 Game 1
 leochili75 : 0                         Llabba : 0
  1)                                    52: 24/22 13/8
  2) 41: 24/23 24/20                    22: 13/11(2) 6/4(2)
  3) 43: 23/20 13/9                     43: 22/15
  4) 51: 13/8 6/5                       52: 15/13 8/3
  5) 55: 8/3(2) 6/1*(2)                 61: Cannot Move
  6)  Doubles => 2                       Drops
  7)  Wins 1 point                      |
  8)                                    |
""".replace("|\n", "\n")  # | keeps the trailing spaces the exporter writes


def test_backgammon_studio_variants() -> None:
    # "Cannot Move", "(2)", the winner on a numbered row, and the empty numbered row that ends
    # every Studio file
    record = read_mat(STUDIO_TEXT)
    assert record.errors == ()
    game = record.games[0]
    assert game.actions[16:18] == (Roll(1, (6, 1)), PlayMade(1, (6, 1), None)) and game.lines[17] == 13
    assert game.actions[15].play.hits == (1,) and str(game.actions[15].play) == "8/3(2) 6/1 6/1*"
    assert (game.winner, game.points, game.win_line) == (0, 1, 15)
    assert to_match(record).score == (1, 0)
    resign = STUDIO_TEXT.replace("  6)  Doubles => 2                       Drops\n  7)  Wins 1 point",
                                 "  6) 65: ????                           Wins 1 point")
    rolled = read_mat(resign).games[0]
    assert rolled.actions[-1] == Roll(0, (6, 5)) and rolled.lines[-1] == 14 and rolled.winner == 1


MONEY_TEXT = """\
; [Site "SampleServer"]
; [Cubelimit "64"]

0 point match

 Game 1
 Fox: 0                                   Blue: 0                          |
  1) 45: 13/8 24/20                           65: 24/18 18/13                         |
  2) Doubles => 2                             Drops                                   |
   Wins 1 points                                                                    |
""".replace("|\n", "\n")  # | keeps the trailing spaces the exporter writes


def test_money_session_with_names_against_the_colon() -> None:
    record = read_mat(MONEY_TEXT)
    assert record.errors == () and record.match_length == 0
    assert record.names == ("Fox", "Blue")
    assert str(record.games[0].actions[1].play) == "24/20 13/8"
    assert to_match(record).games[0].result.points == 1
    assert read_mat(MONEY_TEXT.replace("\n", "\r\n")) == record  # CRLF files read the same


def _histories(match) -> list[list]:
    return [g.history for g in match.games]


def _boards(game: Game) -> list[Position]:
    return [a.play.after for a in game.history if isinstance(a, PlayMade) and a.play is not None]


@pytest.mark.parametrize("seed, rules", [
    (1, Rules(match_length=5)), (2, Rules(match_length=9)), (3, Rules(match_length=0)),
    (4, Rules(match_length=0, beavers=True, jacoby=False)), (5, Rules(match_length=7, crawford=False)),
    (6, Rules(match_length=3, cube_limit=4)),
])
def test_round_trip_through_text(seed: int, rules: Rules) -> None:
    match = play_match(seed, rules, games=8, double=0.1, resign=0.02)
    text = format_mat(match, ("Ann", "Ben Lee"))
    record = read_mat(text)
    assert record.errors == ()
    assert record.names == ("Ann", "Ben Lee")
    assert rules_of(record) == rules
    back = to_match(record)
    assert back.score == match.score
    assert len(back.games) == len(match.games)
    for ours, theirs in zip(match.games, back.games):
        assert _boards(ours) == _boards(theirs)
        assert ours.result == theirs.result
    assert format_mat(back, ("Ann", "Ben Lee")) == text


LONG_NAME = "Maximilian Alexander von Hohenberg-Schwarz"  # 42 characters: "Name : 0" passes column 32


@pytest.mark.parametrize("names", [(LONG_NAME, "Bob"), ("Bob", LONG_NAME), (LONG_NAME[:27], "2Pac")])
def test_long_names_round_trip(names: tuple[str, str]) -> None:
    """A first name of 27 characters or more filled the left column and ran into the second name
    (written as GNU Backgammon keeps it: 31 bytes, still past the column)."""
    match = play_match(13, Rules(match_length=5), games=3, double=0.1)
    text = format_mat(match, names)
    record = read_mat(text)
    assert record.errors == () and record.names == mat_names(names)
    assert max(len(name) for name in record.names) >= 27
    assert [g.score for g in record.games] == [g.score for g in match.games]
    assert to_match(record).score == match.score


def test_the_score_line_gnubg_writes_after_a_long_name_reads() -> None:
    """gnubg pads "Name : 0" to 31 characters and writes nothing between it and a longer one."""
    text = GNUBG_TEXT.replace(" gnubg : 0                      root : 1",
                              " Abcdefghijklmnopqrstuvwxyz01234 : 0root : 1")
    record = read_mat(text)
    assert record.errors == () and record.names == ("Abcdefghijklmnopqrstuvwxyz01234", "root")
    assert record.games[1].score == (0, 1)
    assert to_match(record).score == (2, 1)


def test_write_to_path_and_file(tmp_path) -> None:
    match = play_match(8, Rules(match_length=3))
    path = tmp_path / "m.mat"
    text = write_mat(match, ("A", "B"), path)
    assert path.read_text() == text
    buffer = io.StringIO()
    write_mat(match.games, ("A", "B"), buffer)
    assert buffer.getvalue() == text
    assert format_mat(to_record(match, ("A", "B"))) .count("Game ") == len(match.games)


def test_unfinished_game_is_written() -> None:
    from gammon import ScriptedDice

    game = Game(Rules(match_length=5), ScriptedDice([(3, 1), (6, 4)]))
    game.roll()
    game.play("8/5 6/5")
    game.roll()
    text = format_mat([game], ("A", "B"))
    assert "  1) 31: 8/5 6/5" in text
    record = read_mat(text)
    assert record.errors == () and record.games[0].winner is None
    assert to_match(record).game.phase.name == "ROLL"


def test_names_the_readers_would_change_are_written_fitted() -> None:
    match = play_match(9, Rules(match_length=1))
    fitted_of = {"": "Player 1", "a:b": "a b", "two  spaces": "two spaces", "new\nline": "new line"}
    for name, fitted in fitted_of.items():
        record = read_mat(format_mat(match, (name, "B")))
        assert record.errors == () and record.names == (fitted, "B") == mat_names((name, "B"))


def test_names_must_be_two_strings_and_a_game_is_written_as_a_match_is() -> None:
    """One name was an IndexError, three were cut to two silently, and a Game not iterable."""
    match = play_match(9, Rules(match_length=1))
    for names in (("Alice",), ("A", "B", "C"), "AB", ("A", 3)):
        with pytest.raises(ValueError, match="names must be two strings"):
            write_mat(match, names=names)  # type: ignore[arg-type]
    game = match.games[0]
    assert write_mat(game, names=("A", "B")) == write_mat([game], names=("A", "B"))


def test_read_mat_takes_bytes_and_refuses_what_is_no_text() -> None:
    """Bytes were iterated as numbers ("line 1: '59'"); None was a TypeError from inside."""
    text = write_mat(play_match(9, Rules(match_length=1)), names=("Zoë", "B"))
    assert read_mat(text.encode("utf-8")) == read_mat(text)
    for nothing in (None, 7):
        with pytest.raises(ValueError, match="expected a .mat file's text, bytes or lines"):
            read_mat(nothing)  # type: ignore[arg-type]


def test_steps_as_gnubg_writes_them() -> None:
    p = Position.from_points({25: 1, 6: 14}, {24: 1, 20: 1, 2: 13})  # opponent blot on our 5 and 1
    play = next(pl for pl in p.legal_plays((4, 4)) if str(pl) == "bar/21 6/2(3)")
    assert format_steps(play) == "25/21 6/2 6/2 6/2"
    hit = next(pl for pl in p.legal_plays((4, 5)) if pl.hits)
    assert "*" in format_steps(hit)


def test_layout_matches_gnubg_columns() -> None:
    """Written back, gnubg's own game comes out as gnubg wrote it (trailing spaces aside)."""
    game1 = GNUBG_TEXT.split(" Game 2")[0]
    record = read_mat(game1)
    text = format_mat(MatMatch(5, ("gnubg", "root"), record.games))
    ours = text.split(" 5 point match\n\n")[1].strip().splitlines()
    theirs = game1.split(" 5 point match\n\n")[1].strip().splitlines()
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        # the same words (steps may come in another order) and every cell in the same column
        assert sorted(a.split()) == sorted(b.split())
        cells = r"\d\d:|Doubles|Takes|Drops|Wins"
        assert [m.start() for m in re.finditer(cells, a)] == [m.start() for m in re.finditer(cells, b)]


# --- fuzzing ---------------------------------------------------------------------------------

_SAMPLE = format_mat(play_match(12, Rules(match_length=5), double=0.1, resign=0.02), ("A", "B"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_fuzz_any_text(text: str) -> None:
    try:
        record = read_mat(text)
        to_match(record)
    except InvalidNotationError:
        pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(1, 6))
def test_fuzz_mutated_files(rng: random.Random, edits: int) -> None:
    lines = _SAMPLE.splitlines()
    pieces = ["", " ", "  ", "Doubles => 2", "Takes", "Drops", "Wins 3 points", "66:", "52: 13/8",
              "bar/off", "*", "(2)", ")", ":", "Game 2", "0 point match", "99999", "\u00e9", "\t"]
    for _ in range(edits):
        k = rng.randrange(len(lines))
        line = lines[k]
        at = rng.randrange(len(line) + 1)
        choice = rng.randrange(4)
        if choice == 0:
            lines[k] = line[:at] + rng.choice(pieces) + line[at:]
        elif choice == 1:
            lines[k] = line[:at] + line[at + rng.randrange(1, 6):]
        elif choice == 2:
            del lines[k]
        else:
            lines.insert(k, rng.choice(lines))
        if not lines:
            lines = [""]
    try:
        record = read_mat("\n".join(lines))
        to_match(record)
    except InvalidNotationError:
        pass


def test_read_from_an_open_file(tmp_path) -> None:
    path = tmp_path / "g.mat"
    path.write_text(GNUBG_TEXT)
    with path.open() as f:
        assert read_mat(f) == read_mat(GNUBG_TEXT)


def test_a_beaver_in_the_games_allows_beavers_without_a_tag() -> None:
    # gnubg's export of a money session writes no Beaver tag
    text = """ 0 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Beavers => 4               52: 13/8 24/22
                                 Wins 4 points
"""
    record = read_mat(text)
    assert not record.errors and rules_of(record).beavers
    match = to_match(record)
    assert match.games[0].cube_value == 4
    assert (match.games[0].result.winner, match.games[0].result.points) == (1, 4)


@pytest.mark.parametrize("limit", ["\u00b2", "1" * 5000, "64 cubes"])
def test_a_cube_limit_that_is_no_number_is_refused_quoting_it(limit: str) -> None:
    record = read_mat(MONEY_TEXT.replace('"64"', f'"{limit}"'))
    with pytest.raises(InvalidNotationError, match="CubeLimit .* is not a number") as e:
        to_match(record)
    assert repr(limit[:20])[:-1] in str(e.value) and len(str(e.value)) < 200


def test_a_cube_limit_that_is_no_cube_value_sets_none() -> None:
    assert to_match(read_mat(MONEY_TEXT)).rules.cube_limit == 64
    assert to_match(read_mat(MONEY_TEXT.replace('"64"', '"3"'))).rules.cube_limit is None


_LONG_LINES = """
from gammon.formats.mat import read_mat
SPACES = " " * 200_000
r = read_mat(" 1 point match\\n Game 1\\n Alice" + SPACES + ": 3   Bob :" + SPACES + "2\\n")
assert r.names == ("Alice", "Bob") and r.games[0].score == (3, 2), r.games
r = read_mat(" 1 point match\\n Game 1\\n a" + SPACES + ": 1 b\\n")
assert r.names == ("a", ": 1 b") and r.games[0].score == (0, 0)
r = read_mat("; [a" + SPACES + "x\\n; [Event" + SPACES + '"Open"' + SPACES + "]\\n 1 point match\\n")
assert r.tags == {"Event": "Open"} and r.match_length == 1
r = read_mat(" 1 point match\\n Game 1\\n a  b" + SPACES + "c\\n")
assert r.names == ("a", "b" + SPACES + "c")
"""


def test_long_runs_of_spaces_in_the_header_and_score_lines_are_read_in_one_pass() -> None:
    # the timeout guards against the patterns' quadratic backtracking (minutes for these lines)
    subprocess.run([sys.executable, "-c", _LONG_LINES], check=True, timeout=20)


@pytest.mark.parametrize("line, read", [
    (" Alice : 0                      Bob : 2", (("Alice", "Bob"), (0, 2))),
    (" Abcdefghijklmnopqrstuvwxyz01234 : 0Bob : 0", (("Abcdefghijklmnopqrstuvwxyz01234", "Bob"), (0, 0))),
    (" A:B : 1 C : 3", (("A:B", "C"), (1, 3))),
    (" Alice : 1234567Bob : 3", (("Alice", "7Bob"), (123456, 3))),
    (" Alice        Bob", (("Alice", "Bob"), (0, 0))),
])
def test_score_lines(line: str, read: tuple) -> None:
    record = read_mat(f" 0 point match\n Game 1\n{line}\n")
    assert (record.names, record.games[0].score) == read


def test_header_values_are_written_on_one_line_and_bad_tag_names_refused() -> None:
    match = play_match(1, Rules(match_length=1))
    text = format_mat(match, tags={"Event": "Open\nCup\r\n2024", "Round": 'the "final" ]'})
    record = read_mat(text)
    assert record.errors == ()
    assert record.tags["Event"] == "Open Cup 2024" and record.tags["Round"] == 'the "final" ]'
    for key in ("Ev\nent", 'Ev"ent', "Ev]ent", " Event", ""):
        with pytest.raises(ValueError, match="a header tag's name"):
            format_mat(match, tags={key: "x"})


def test_automatic_doubles_are_refused_not_written_unreadable() -> None:
    match = Match(Rules(automatic_doubles=1), ScriptedDice([(3, 3), (3, 1)]))
    game = match.game
    game.roll()
    game.play("8/5 6/5")
    game.double()
    game.pass_()
    assert game.history[0].ties and game.result.points == 2
    with pytest.raises(ValueError, match="game 1: a .mat file cannot hold automatic doubles"):
        format_mat(match)
    # the rule alone, with no tie thrown, is no problem
    plain = Match(Rules(automatic_doubles=1), ScriptedDice([(3, 1)]))
    plain.game.roll()
    plain.game.play("8/5 6/5")
    assert read_mat(format_mat(plain)).errors == ()


def _left_after_the_roll(rolls: int, who: str) -> Match:
    """A 5-point match whose first game ends after ``rolls`` plays and one more roll: its roller
    ("roller") or the other player ("other") leaves."""
    match = Match(Rules(match_length=5), ScriptedDice([(3, 1), (6, 5), (4, 2)]))
    game = match.game
    for _ in range(rolls):
        game.roll()
        game.play(game.legal_plays()[0])
    game.roll()
    game.abandon(game.turn if who == "roller" else 1 - game.turn)
    return match


@pytest.mark.parametrize("rolls", [1, 2])
def test_a_player_leaving_after_the_opponents_roll_reads_back(rolls: int) -> None:
    """The player not on turn leaves after the opponent rolled: the file shows the roll unplayed and
    the roller's "Wins 3 points" (GNU Backgammon reads it so). The reader took an unplayed roll to
    be followed only by the opponent's "Wins", and could not read the file it wrote."""
    match = _left_after_the_roll(rolls, "other")
    record = read_mat(format_mat(match, ("A", "B")))
    assert record.errors == ()
    back = to_match(record)
    assert back.games[0].result == match.games[0].result
    assert back.games[0].result.winner == rolls % 2  # the roller
    assert back.score == match.score


def test_gnubgs_export_of_a_player_leaving_after_the_opponents_roll() -> None:
    """GNU Backgammon writes the roller's "Wins" in the roll's own cell when the other player left
    after the roll. In the left column that read as two cells, the right one the opponent's: the
    game went to the player who left (B for A's 42); in the right column, three cells, refused."""
    left = """ 5 point match

 Game 1
 A : 0                          B : 0
  1) 31: 24/23 24/21             65: 24/18 18/13
  2) 42:       Wins 3 points
"""
    right = """ 5 point match

 Game 1
 A : 0                          B : 0
  1) 31: 24/23 24/21             65:  Wins 3 points
"""
    for text, winner in ((left, 0), (right, 1)):
        record = read_mat(text)
        assert record.errors == ()
        result = to_match(record).games[0].result
        assert (result.winner, result.points, result.reason) == (winner, 3, "abandon")
    # the roller's resignation, the opponent's "Wins" in the opponent's column, is still read so
    resigned = read_mat(left.replace("42:       Wins 3 points", "42:                         Wins 1 point"))
    assert to_match(resigned).games[0].result.winner == 1
