"""A resignation that gives the resigner exactly what playing on would is accepted (the player
asked loses nothing by it), whatever rounding the search leaves in the value of playing on."""

from __future__ import annotations

import pytest

from gammon.dice import Dice
from gammon.engine.cube.resignation import ResignationAnswer, judge_resignation
from gammon.engine.engine import Engine
from gammon.position import Position
from gammon.rules import Rules, WinKind
from gammon.situation import Situation

# The resigner has fifteen checkers on its 13 point and the opponent bears off its last two next
# turn: a gammon, and no more, whatever the resigner rolls.
CERTAIN_GAMMON = Position.from_points({13: 15}, {1: 2})


@pytest.mark.parametrize("plies", [1, 2])
@pytest.mark.parametrize("dice", [None, (2, 1), (6, 6)])
def test_a_gammon_resigned_in_a_certain_gammon_is_accepted(plies: int, dice: Dice | None) -> None:
    s = Situation(CERTAIN_GAMMON, dice=dice, resignation=WinKind.GAMMON, rules=Rules(jacoby=False))
    answer = judge_resignation(Engine(plies=plies), s)
    assert answer is not None and answer.kept == pytest.approx(-2.0, abs=1e-9)
    assert answer.accept


def test_in_a_match_the_gammon_of_a_certain_gammon_is_accepted() -> None:
    s = Situation(CERTAIN_GAMMON, resignation=WinKind.GAMMON, rules=Rules(match_length=7))
    answer = judge_resignation(Engine(plies=2), s)
    assert answer is not None and answer.kept == pytest.approx(answer.given, abs=1e-9)
    assert answer.accept


def test_playing_on_worth_more_than_rounding_still_decides() -> None:
    assert not ResignationAnswer(2, -1.0, -1.0 - 1e-6).accept
    assert ResignationAnswer(2, -1.0, -1.0 - 1e-12).accept
