import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import (
    ALL_ROLLS,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidNotationError,
    Position,
)
from gammon.i18n import use_language
from gammon.notation import CheckerPath, parse_paths
from tests.helpers import pos, random_game_positions

START = Position.initial()


@pytest.mark.parametrize("text, dice, canonical", [
    ("24/13", (6, 5), "24/13"),
    ("24/18/13", (6, 5), "24/13"),
    ("24/18 18/13", (6, 5), "24/13"),
    ("24-18 13-8", (6, 5), "24/18 13/8"),
    ("13/8, 24/18", (6, 5), "24/18 13/8"),
    ("13/7(2) 8/2(2)", (6, 6), "13/7(2) 8/2(2)"),
    ("13/7 (2) 8/2 8/2", (6, 6), "13/7(2) 8/2(2)"),
    ("13/7 13/7 8/2 8/2", (6, 6), "13/7(2) 8/2(2)"),
    ("8/5 6/5", (3, 1), "8/5 6/5"),
    ("  8/5   6/5 ", (3, 1), "8/5 6/5"),
])
def test_spellings_of_the_same_play(text, dice, canonical):
    assert str(START.parse_play(text, dice)) == canonical


def test_bar_off_and_hits():
    p = pos("x bar:1 6:3 3:2; o 1:13 20:1")  # o blot on x's 5
    for text in ("bar/20 6/5*", "b/20 6/5*", "25/20 6/5", "BAR/20 6/5*"):
        assert str(p.parse_play(text, (5, 1))) == "bar/20 6/5*"
    q = pos("x 6:2 5:1; o 1:13")
    for text in ("6/off 5/off", "6/0 5/0", "6/o 5/off"):
        assert str(q.parse_play(text, (6, 5))) == "6/off 5/off"


def test_a_move_from_an_empty_bar_says_the_bar() -> None:
    """It said "no checker of yours left on bar", as of a point emptied by an earlier step."""
    said = "'25/20 13/7': no checker of yours on the bar in position 4HPwATDgc/ABMA with 6-5$"
    with pytest.raises(IllegalMoveError, match=said):
        START.parse_play("25/20 13/7", (6, 5))
    with pytest.raises(IllegalMoveError, match="no checker of yours left on 8"):  # its first step took it
        pos("x 8:1 6:5; o 1:2").parse_play("8/7 8/2", (6, 1))
    with use_language("pl"), pytest.raises(IllegalMoveError, match="nie masz pionka na bandzie"):
        START.parse_play("bar/20", (6, 5))


def test_intermediate_hit_marks_choose_between_plays():
    p = pos("x 24:1; o 6:1 2:14")  # o blot on x's 19: 24/15 can pass 20 or hit on 19
    assert p.parse_play("24/15", (5, 4)).hits == ()
    assert p.parse_play("24/19*/15", (5, 4)).hits == (19,)
    assert p.parse_play("24/20/15", (5, 4)).hits == ()


def test_a_written_stop_is_where_the_checker_stops_and_hits():
    # o blot on x's 10: 13/8 with 3-2 can go by 11 (no hit) or stop on 10 and hit, as GNU
    # Backgammon reads a .mat file: a point written is a stop, hit there marked or not
    p = pos("x 13:2 6:5; o 15:1 1:14")
    assert p.parse_play("13/8", (3, 2)).hits == ()  # no stop written: the way without a hit
    for text in ("13/10 10/8", "13/10/8", "10/8 13/10", "13/10*/8", "13/10* 10/8"):
        assert p.parse_play(text, (3, 2)).hits == (10,), text
        assert p.parse_play(text, (2, 3)).hits == (10,), text
    for text in ("13/11 11/8", "13/11/8", "13/11*/8"):  # a stray mark on an empty stop: no hit
        assert p.parse_play(text, (3, 2)).hits == (), text


def test_entering_through_a_written_stop():
    p = pos("x bar:1 13:5; o 5:1 1:13")  # o blot on x's 20
    assert p.parse_play("bar/16", (5, 4)).hits == ()  # enters on 21, passes 20
    for text in ("bar/20 20/16", "25/20/16", "bar/20*/16"):
        assert p.parse_play(text, (5, 4)).hits == (20,), text


def test_a_span_of_two_dice_with_the_opponent_on_both_ways():
    p = pos("x 13:2 6:5; o 15:1 14:1 1:13")  # o blots on x's 10 and 11
    with pytest.raises(AmbiguousMoveError, match="fits several"):
        p.parse_play("13/8", (3, 2))
    assert p.parse_play("13/10/8", (3, 2)).hits == (10,)
    assert p.parse_play("13/11 11/8", (3, 2)).hits == (11,)
    assert p.parse_play("13/11*/8", (3, 2)).hits == (11,)


def test_doubles_stop_on_every_die():
    p = pos("x 13:2 6:5; o 16:1 1:13")  # o blot on x's 9, on the way of 13/5 with 4-4
    assert p.parse_play("13/5 6/2(2)", (4, 4)).hits == (9,)
    assert p.parse_play("13/9 9/5 6/2 6/2", (4, 4)).hits == (9,)


def test_illegal_plays_say_why():
    with pytest.raises(IllegalMoveError, match="'24/18'") as e:
        START.parse_play("24/18", (6, 5))  # the 5 must be played too
    assert "4HPwATDgc/ABMA" in str(e.value)
    with pytest.raises(IllegalMoveError, match="no checker"):
        START.parse_play("23/17 13/8", (6, 5))
    with pytest.raises(IllegalMoveError, match="no legal play"):
        pos("x bar:1 13:5; o 6:2 5:2").parse_play("bar/19", (6, 5))
    with pytest.raises(IllegalMoveError):
        START.parse_play("6/off 6/off", (6, 6))


def test_ambiguous_when_the_marks_do_not_decide():
    # two blots on x's 19 and 20: 24/15 with 5-4 hits one or the other, the text does not say which
    p = pos("x 24:1; o 6:1 5:1 2:13")
    with pytest.raises(AmbiguousMoveError, match="fits several"):
        p.parse_play("24/15*", (5, 4))
    assert p.parse_play("24/19*/15", (5, 4)).hits == (19,)


@pytest.mark.parametrize("text", [
    "", "   ", "24/", "/18", "24/18/", "24//18", "18/24", "24/24", "x/1", "24/18(0)", "24/18(5)",
    "26/20", "24/18**", "off/3", "3/off*", "bar*/20", "24/18(2", "24/bar", "13/off/7", "pass",
])
def test_syntax_errors_quote_the_text(text):
    with pytest.raises(InvalidNotationError) as e:
        parse_paths(text)
    assert repr(text) in str(e.value) or repr(text.strip().lower().split()[0]) in str(e.value)


def test_parse_paths_structure():
    assert parse_paths("24/18*/12 13/7(2)") == (
        CheckerPath((24, 18, 12), (True, False)), CheckerPath((13, 7), (False,), 2))


@pytest.mark.slow
def test_every_play_round_trips_through_its_notation():
    rng = random.Random(3)
    positions = random_game_positions(seed=3, games=15)
    count = 0
    for p in rng.sample(positions, 60):
        for dice in ALL_ROLLS:
            for play in p.legal_plays(dice):
                assert p.parse_play(str(play), dice) == play, (p.id, dice, str(play))
                count += 1
    assert count > 4_000


@settings(max_examples=300)
@given(st.text(alphabet="0123456789/*-() ,barofBOFx\t", max_size=30))
def test_parse_paths_fuzz_raises_only_notation_errors(text):
    try:
        moves = parse_paths(text)
    except InvalidNotationError:
        return
    assert all(m.points[0] > m.points[-1] for m in moves)


@settings(max_examples=300)
@given(st.text(max_size=30), st.sampled_from(ALL_ROLLS))
def test_parse_play_fuzz(text, dice):
    try:
        play = START.parse_play(text, dice)
    except (InvalidNotationError, IllegalMoveError):
        return
    assert play in START.legal_plays(dice)


@pytest.mark.parametrize("text, dice, why", [
    ("6/off", (6, 5), "you cannot bear off while a checker is outside your home board"),
    ("8/2 6/1", (6, 5), "the other player holds point 1;"),
    ("24/20", (6, 5), "no die of 6-5 moves a checker 4 pips"),
    ("24/23 24/18", (6, 5), "no die of 6-5 moves a checker 1 pip;"),
    ("24/23 13/8", (2, 5), "no die of 5-2 moves a checker 1 pip;"),
])
def test_an_illegal_play_says_which_rule_it_breaks(text, dice, why):
    with pytest.raises(IllegalMoveError, match=re.escape(why)):
        START.parse_play(text, dice)


def test_a_checker_on_the_bar_must_enter_first():
    on_bar = Position([0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 1, 1])
    with pytest.raises(IllegalMoveError, match="checker on the bar: it must enter first"):
        on_bar.parse_play("13/7 13/8", (6, 5))


def test_the_dice_of_a_broken_rule_are_written_as_a_roll_in_every_language():
    for lang, words in (("pl", "z 5-2"), ("cs", "5-2"), ("sk", "5-2")):
        with use_language(lang), pytest.raises(IllegalMoveError, match=re.escape(words)):
            START.parse_play("24/23 13/8", (2, 5))


@pytest.mark.parametrize("position, text, dice, why", [
    (START, "24/22", (6, 2), "you must use both dice;"),
    (START, "13/7", (6, 2), "you must use both dice;"),
    (START, "24/20(2) 13/9", (4, 4), "you must play as many dice as you can (4);"),
    (START, "24/20", (4, 4), "you must play as many dice as you can (4);"),
    # 13/7/2 and 13/8/2 are blocked: only one die can be played, the 6
    (pos("x 13:1; o 23:2"), "13/8", (6, 5), "only one die can be played: it must be the larger one, 6;"),
])
def test_a_play_that_stops_short_of_the_dice_it_must_use_says_so(position, text, dice, why):
    with pytest.raises(IllegalMoveError, match=re.escape(why)) as e:
        position.parse_play(text, dice)
    assert repr(text) in str(e.value)


def test_a_play_that_cannot_be_made_one_die_at_a_time_gets_no_dice_reason():
    # 24/22 then 13/11 uses the 2 twice: no start of a legal play, so no rule about the dice is named
    with pytest.raises(IllegalMoveError) as e:
        START.parse_play("24/22 13/11", (6, 2))
    assert "dice" not in str(e.value).split(";")[0] and "larger" not in str(e.value)


def test_a_short_play_is_refused_with_its_reason_in_every_language():
    for lang, words in (("pl", "musisz użyć obu kostek"), ("cs", "musíte použít obě kostky"),
                        ("sk", "musíš použiť obe kocky")):
        with use_language(lang), pytest.raises(IllegalMoveError, match=re.escape(words)):
            START.parse_play("24/22", (6, 2))

