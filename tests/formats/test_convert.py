"""Converting between match formats: the registry, the match information, and the report of what
a format cannot hold (found by reading the written file back)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from gammon.dice import RandomDice, ScriptedDice
from gammon.errors import GammonError, InvalidNotationError
from gammon.formats import convert as conv
from gammon.formats.convert import FORMATS, as_transcript, convert, find_format, format_of
from gammon.formats.mat import format_mat, read_mat, to_match
from gammon.formats.sgf import format_sgf, read_sgf
from gammon.game import GamePhase
from gammon.i18n import use_language
from gammon.match import Match
from gammon.rules import Rules, WinKind
from tests.formats.random_play import play_match
from tests.formats.test_sgf import GNUBG_STYLE


def _same_games(a: Match, b: Match) -> None:
    assert len(a.games) == len(b.games) and a.score == b.score
    for ga, gb in zip(a.games, b.games):
        assert conv._core(ga.history) == conv._core(gb.history)
        assert (ga.result is None) == (gb.result is None)
        if ga.result:
            assert (ga.result.winner, ga.result.points) == (gb.result.winner, gb.result.points)


def test_registry_by_name_and_extension() -> None:
    assert find_format("SGF") is find_format(".sgf") is format_of("x/Match.SGF")
    assert format_of("m.mat").name == "mat"
    assert format_of("galaxy-export.txt").name == "mat"  # as the sites export it
    with pytest.raises(ValueError, match=r"unknown match file format '.xyz'; gammon knows mat \(.mat .txt\)"):
        format_of("m.xyz")
    with pytest.raises(ValueError, match="no extension"):
        format_of("match")


def test_mat_to_sgf_and_back_keeps_everything() -> None:
    match = play_match(4, Rules(match_length=7), double=0.1, resign=0.02)
    tags = {"Event": "Club night", "Site": "Oslo", "EventDate": "2024.05.06", "Transcriber": "Cy"}
    text = format_mat(match, ("Ann", "Ben"), tags)
    to_sgf = convert(text.encode(), "mat", "sgf")
    assert to_sgf.losses == ()
    record = read_sgf(to_sgf.text)
    assert record.names == ("Ann", "Ben")
    assert record.info == {"DT": "2024-05-06", "EV": "Club night", "PC": "Oslo", "AN": "Cy"}
    _same_games(match, record.match)
    back = convert(to_sgf.text.encode(), "sgf", "mat")
    assert back.losses == ()
    again = read_mat(back.text)
    assert again.names == ("Ann", "Ben")
    assert {k: again.tags[k] for k in ("Event", "Site", "EventDate", "Transcriber")} == {
        "Event": "Club night", "Site": "Oslo", "EventDate": "2024.05.06", "Transcriber": "Cy"}
    _same_games(match, to_match(again))


def test_sgf_to_mat_reports_analysis_and_information() -> None:
    text = GNUBG_STYLE.replace("EV[Open \\] Cup]", "EV[Open] GC[Long match]WR[1500]")
    done = convert(text.encode(), "sgf", "mat")
    assert done.losses == (
        "the match comment 'Long match'",
        "the match rating 1 '1500'",
        "comments on moves (C properties)",
        "gnubg's analysis (A, DA, GS, MR properties)",
    )
    assert "; [Event \"Open\"]" in done.text
    _same_games(read_sgf(text).match, to_match(read_mat(done.text)))
    # SGF to SGF keeps it all, analysis included
    same = convert(text.encode(), "sgf", "sgf")
    assert same.losses == ()
    assert read_sgf(same.text).action_properties(0, 1) == read_sgf(text).action_properties(0, 1)


def test_rules_a_format_does_not_record() -> None:
    beavers = play_match(2, Rules(beavers=True, cube_limit=8), games=3, double=0.0, resign=0.0)
    losses = convert(format_mat(beavers).encode(), "mat", "sgf").losses
    assert losses == ("the rule beavers=True (read back as False): .sgf files do not record it",
                      "the rule cube_limit=8 (read back as None): .sgf files do not record it")
    no_cube = play_match(2, Rules(use_cube=False, jacoby=False), games=2)
    assert convert(format_sgf(no_cube).encode(), "sgf", "mat").losses == (
        "the rule use_cube=False (read back as True): .mat files do not record it",)
    # a rule that does not apply is not a loss: Jacoby in a match
    match = play_match(2, Rules(match_length=3, jacoby=False), games=2)
    assert convert(format_sgf(match).encode(), "sgf", "mat").losses == ()


def test_game_details_a_format_drops() -> None:
    match = Match(Rules(jacoby=False), ScriptedDice([(3, 1), (6, 4), (4, 1)]))
    game = match.game
    game.roll()
    game.play("8/5 6/5")
    game.roll()
    game.resign(1)
    game.reject_resignation()
    game.play("24/14")
    game.abandon(0)  # player 0 leaves: a backgammon, 3 points
    match.new_game()
    match.game.roll()  # player 0 has rolled 4-1 and not played
    source = as_transcript(match, ("A", "B"))
    losses = {}
    for target in FORMATS:
        if target.write is None:  # read-only formats (.xg)
            continue
        back = target.read(target.write(source).encode())
        losses[target.name] = conv.compare(source, back, target.name)
    assert losses["mat"] == [
        "game 1: a backgammon abandoned (3 points) is read back as a backgammon resigned (3 points)",
        "game 1: 1 rejected resignation offer",
        "game 2: the unfinished game's last action (A throws 4, B throws 1: A plays first)",
    ]
    assert losses["sgf"] == losses["mat"][:2]


def test_a_file_that_does_not_read_back_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # a writer that loses a game is a bug, never a silent loss
    sgf = find_format("sgf")
    broken = dataclasses.replace(sgf, write=lambda t: format_sgf(t.match.games[:1], t.names))
    text = format_sgf(play_match(1, Rules(match_length=5)))
    with pytest.raises(GammonError, match="games were read but 1 read back"):
        convert(text.encode(), "sgf", broken)
    with pytest.raises(InvalidNotationError, match="game 1"):
        convert(b"(;GM[6]\n;W[22])", "sgf", "mat")
    # .mat has no way to say that automatic doubles started a game's cube at 2
    auto = "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]CV[2]RE[B+2]\n;W[31hefe]\n;B[double]\n;W[drop])"
    assert read_sgf(auto).match.score == (0, 2)
    with pytest.raises(ValueError, match=r"game 1: a \.mat file cannot hold automatic doubles"):
        convert(auto.encode(), "sgf", "mat")
    with pytest.raises(InvalidNotationError, match="expected 'Game N'"):
        convert(b" 3 point match\n\n Nonsense\n", "mat", "sgf")


def test_xg_is_a_read_only_entry() -> None:
    from tests.formats import xg_writer

    match = play_match(6, Rules(match_length=3, cube_limit=1024))
    assert format_of("a.XG").name == "xg"
    done = convert(xg_writer.xg_bytes(match, ("X", "G")), "xg", "sgf")
    assert read_sgf(done.text).names == ("X", "G") and read_sgf(done.text).match.score == match.score
    with pytest.raises(ValueError, match="cannot write xg files"):
        convert(done.text.encode(), "sgf", "xg")
    assert as_transcript(read_mat(format_mat(match))).match.score == match.score
    assert not any("comments" in loss for loss in done.losses)


def test_an_xg_files_comments_go_into_sgf_and_are_reported_lost_in_mat() -> None:
    data = (Path(__file__).parents[1] / "data/xg/real/gbf-harmand-unger-9pt-comment.xg").read_bytes()
    done = convert(data, "xg", "sgf")
    assert not any("comments" in loss for loss in done.losses)
    # its two comments, on White's 54 and 66 of the first game, as gammon analyse writes them
    record = read_sgf(done.text)
    comments = [node["C"] for game in record.action_notes for node in game.values() if "C" in node]
    assert len(comments) == 2 and all(text.strip() for (text,) in comments)
    assert "comments (the .xg file's temp.xgc)" in convert(data, "xg", "mat").losses


# --- read_match: the one reader of match files ----------------------------------------------------


def test_read_match_reads_each_format_and_sniffs_it_when_not_named() -> None:
    from gammon.formats import read_match, sniff_format
    from tests.formats.test_mat import GNUBG_TEXT

    mat = read_match(GNUBG_TEXT.encode())
    assert mat.names == ("gnubg", "root") and mat.match.score == (2, 1)
    assert read_match(GNUBG_TEXT, "mat").match.score == (2, 1)  # a text format's text as it is
    sgf_text = format_sgf(mat.match, mat.names)
    assert sniff_format(sgf_text).name == "sgf" and sniff_format(b"\xef\xbb\xbf  (\n;FF[4]").name == "sgf"
    sgf = read_match(sgf_text.encode())
    assert sgf.names == mat.names and sgf.match.score == (2, 1)
    assert sniff_format(b"RGMH" + bytes(8)).name == "xg"
    assert sniff_format("7 point match").name == "mat"


def test_read_match_partial_keeps_the_games_before_the_first_bad_one() -> None:
    from gammon.formats import read_match
    from tests.formats.test_mat import GNUBG_TEXT

    text = GNUBG_TEXT.replace("43:", "44: 24/4")  # game 2's last roll cannot be played so
    with pytest.raises(InvalidNotationError, match="game 2 .*24/4"):
        read_match(text)
    read = read_match(text, "mat", partial=True)
    assert len(read.match.games) == 1 and read.match.score == (0, 1)
    assert len(read.problems) == 1 and "24/4" in read.problems[0]
    assert read_match(GNUBG_TEXT, partial=True).problems == ()


def test_read_match_quotes_bad_input_cut() -> None:
    from gammon.formats import read_match

    with pytest.raises(InvalidNotationError) as caught:
        read_match("x" * 500 + "\n")
    assert "x" * 70 in str(caught.value) and "x" * 100 not in str(caught.value)
    with pytest.raises(InvalidNotationError, match="binary"):
        read_match("text", "xg")


def test_information_on_several_lines_goes_into_a_mat_header_on_one() -> None:
    text = GNUBG_STYLE.replace("EV[Open \\] Cup]", "EV[Open\nCup]").encode()
    assert '; [Event "Open Cup"]' in convert(text, "sgf", "mat").text


def test_what_is_not_carried_over_is_said_in_the_users_language() -> None:
    """The report of what a format cannot hold was in English whatever the language."""
    beavers = play_match(2, Rules(beavers=True, cube_limit=8), games=3, double=0.0, resign=0.0)
    match = Match(Rules(jacoby=False), ScriptedDice([(3, 1), (6, 4), (4, 1)]))
    game = match.game
    game.roll()
    game.play("8/5 6/5")
    game.roll()
    game.resign(1)
    game.reject_resignation()
    game.play("24/14")
    game.abandon(0)  # player 0 leaves: a backgammon, 3 points
    source = as_transcript(match, ("A", "B"))
    mat = find_format("mat")
    with use_language("pl"):
        assert convert(format_mat(beavers).encode(), "mat", "sgf").losses[0] == (
            "reguła beavers=True (odczytana z powrotem jako False): pliki .sgf jej nie zapisują")
        assert conv.compare(source, mat.read(mat.write(source).encode()), "mat") == [
            "gra 1: backgammon: porzucenie (3 punkty), odczytane z powrotem jako backgammon: poddanie się "
            "(3 punkty)",
            "gra 1: 1 odrzucona propozycja poddania się",
        ]
        analysed = convert(format_sgf(match).encode(), "sgf", "sgf")
        assert analysed.losses == ()
    with use_language("cs"):
        notes = conv.read_match(GNUBG_STYLE.encode(), "sgf").notes
    assert notes and all("properties" not in note for note in notes), notes


def test_names_are_fitted_to_a_mat_file_and_reported() -> None:
    """A name of more than 31 bytes went into the .mat file whole: GNU Backgammon cut it inside a
    character ('山' takes 3 bytes) and failed on it; a name with ':' refused the conversion. Both are
    now written as the terminal and the browser write them (mat_names), and the report says so."""
    names = ("Zoe" + "山" * 19, "Bob: the builder")
    sgf = format_sgf(play_match(3, Rules(match_length=3)), names)
    done = convert(sgf.encode(), "sgf", "mat")
    fitted = ("Zoe" + "山" * 9, "Bob the builder")
    assert read_mat(done.text).names == fitted
    assert max(len(name.encode()) for name in fitted) <= 31
    assert done.losses[0] == f"the names {names!r} (read back as {fitted!r})"


def _resigned_on_a_forced_roll(seed: int) -> Match:
    """A 5-point match whose first game ends when the player who rolled dice with one legal play
    resigns instead of playing them (random plays before)."""
    rng = random.Random(seed)
    match = Match(Rules(match_length=5), RandomDice(seed))
    game = match.game
    while game.phase is not GamePhase.MOVE or len(game.legal_plays()) != 1 or len(game.history) < 3:
        if game.phase is GamePhase.MOVE:
            game.play(rng.choice(game.legal_plays()))
        else:
            game.roll()
    game.resign(WinKind.SINGLE)
    game.accept_resignation()
    return match


def test_a_resignation_before_a_forced_play_converts_to_mat() -> None:
    """A .mat file writes the roll alone, and reads it back played (as gnubg does) when it has one
    legal play: gammon convert to .mat failed ('the actions read back differ from action 19: none /
    A plays 6-5: bar/20'); it now reports the play."""
    match = _resigned_on_a_forced_roll(0)
    done = convert(format_sgf(match, ("A", "B")).encode(), "sgf", "mat")
    assert done.losses == ("game 1: the roll left unplayed before the game ended is read back as its only "
                           "play (A plays 6-5: bar/20)",)
    assert to_match(read_mat(done.text)).score == match.score == (0, 1)
