import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import (
    ALL_ROLLS,
    IllegalActionError,
    IllegalMoveError,
    InvalidNotationError,
    Position,
    RandomDice,
    ScriptedDice,
)
from gammon.dice import check_dice, parse_dice


def test_all_rolls():
    assert len(ALL_ROLLS) == 21
    assert sum(1 for a, b in ALL_ROLLS if a == b) == 6


def test_seeded_dice_repeat_and_cover_all_faces():
    a = [RandomDice(seed=5).roll() for _ in range(1)]
    first, second = RandomDice(seed=5), RandomDice(seed=5)
    rolls = [first.roll() for _ in range(500)]
    assert rolls == [second.roll() for _ in range(500)]
    assert {d for r in rolls for d in r} == {1, 2, 3, 4, 5, 6}
    assert a[0] == rolls[0]


def test_unseeded_dice_are_valid():
    dice = RandomDice()
    for _ in range(100):
        assert check_dice(dice.roll())


def test_scripted_dice_follow_the_script_then_stop():
    dice = ScriptedDice([(3, 1), (6, 6)])
    assert dice.roll() == (3, 1)
    assert dice.remaining == 1
    assert dice.roll() == (6, 6)
    with pytest.raises(IllegalActionError, match="used up"):
        dice.roll()
    with pytest.raises(IllegalMoveError, match="7"):
        ScriptedDice([(7, 1)])


@pytest.mark.parametrize("text, dice", [("31", (3, 1)), ("3-1", (3, 1)), ("6 6", (6, 6)), ("2,5", (2, 5)),
                                        ("4/2", (4, 2)), (" 5 - 1 ", (5, 1))])
def test_parse_dice(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["", "3", "317", "07", "ab", "3 x",
                                  "-31", "31-", "3--1", ",3,1", "3-/1", "-"])
def test_parse_dice_rejects_with_the_text(text):
    with pytest.raises(InvalidNotationError, match=repr(text).replace("(", r"\(")):
        parse_dice(text)


@given(st.text(max_size=8))
def test_parse_dice_fuzz(text):
    try:
        d = parse_dice(text)
    except InvalidNotationError:
        return
    assert check_dice(d) == d


@pytest.mark.parametrize("bad", [(0, 1), (1, 7), (1,), (1, 2, 3), "31", None, (True, 2), (1.0, 2)])
def test_check_dice_rejects(bad):
    with pytest.raises(IllegalMoveError):
        check_dice(bad)


def test_check_dice_quotes_its_input_cut():
    with pytest.raises(IllegalMoveError, match=r"got \(0, 1, 2, .*\.\.\.$") as e:
        Position.initial().legal_plays(tuple(range(100_000)))
    assert len(str(e.value)) < 200
