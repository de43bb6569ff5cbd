"""Rules options, win kinds and scoring."""

import pytest

from gammon import InvalidArgumentError
from gammon.errors import QUOTE_LIMIT, GammonError
from gammon.i18n import use_language
from gammon.rules import GameResult, Rules, WinKind, win_kind
from tests.helpers import pos


def test_defaults_are_money_play_with_jacoby_and_no_limit():
    rules = Rules()
    assert rules.is_money and rules.jacoby and rules.crawford and rules.use_cube
    assert rules.cube_limit is None and not rules.beavers and rules.automatic_doubles == 0
    assert not Rules(match_length=7).is_money


@pytest.mark.parametrize("kwargs, quoted", [
    ({"match_length": -1}, "-1"),
    ({"match_length": 2.5}, "2.5"),
    ({"match_length": True}, "True"),
    ({"automatic_doubles": -2}, "-2"),
    ({"crawford": 1}, "1"),
    ({"jacoby": "yes"}, "'yes'"),
    ({"beavers": None}, "None"),
    ({"use_cube": 0}, "0"),
    ({"cube_limit": 48}, "48"),
    ({"cube_limit": 1}, "1"),
    ({"cube_limit": 0}, "0"),
    ({"cube_limit": "64"}, "'64'"),
])
def test_bad_values_are_refused_with_the_value_quoted(kwargs, quoted):
    with pytest.raises(ValueError, match=f"{next(iter(kwargs))}.*{quoted}"):
        Rules(**kwargs)


@pytest.mark.parametrize("kwargs", [{"match_length": -1}, {"crawford": 1}, {"cube_limit": 48}])
@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_bad_values_are_refused_in_the_language_of_the_rest(kwargs, lang):
    with pytest.raises(ValueError) as english:
        Rules(**kwargs)
    with use_language(lang), pytest.raises(InvalidArgumentError) as e:
        Rules(**kwargs)
    assert isinstance(e.value, GammonError) and str(e.value) != str(english.value)
    [(name, value)] = kwargs.items()
    assert str(e.value).startswith(f"Rules.{name}") and repr(value) in str(e.value)


def test_a_long_bad_value_is_quoted_cut():
    with pytest.raises(InvalidArgumentError) as e:
        Rules(match_length="7" * 5000)  # type: ignore[arg-type]
    assert repr("7" * 5000)[:QUOTE_LIMIT - 3] in str(e.value) and len(str(e.value)) < 3 * QUOTE_LIMIT


def test_rules_are_frozen_and_hashable():
    rules = Rules(match_length=5, cube_limit=64)
    with pytest.raises(AttributeError):
        rules.match_length = 3  # type: ignore[misc]
    assert {rules: 1}[Rules(match_length=5, cube_limit=64)] == 1


def test_jacoby_counts_gammons_once_the_cube_has_an_owner():
    money = Rules()
    assert money.points(WinKind.GAMMON, 1, None) == 1
    assert money.points(WinKind.BACKGAMMON, 4, None) == 4  # centred after automatic doubles
    assert money.points(WinKind.GAMMON, 2, 0) == 4
    assert money.points(WinKind.BACKGAMMON, 2, 1) == 6
    assert Rules(jacoby=False).points(WinKind.GAMMON, 1, None) == 2
    # Jacoby is a money rule: a match counts gammons with a centred cube.
    assert Rules(match_length=5).points(WinKind.BACKGAMMON, 1, None) == 3


# The loser's view: x is the loser; the winner (o) has borne off everything.
@pytest.mark.parametrize("loser, kind", [
    ("x 6:15", WinKind.GAMMON),                # nothing off, all home
    ("x 6:14 12:1", WinKind.GAMMON),           # outside its home but not in the winner's
    ("x 6:5 1:9", WinKind.SINGLE),             # one checker off: single whatever else
    ("x 24:1 6:13", WinKind.SINGLE),
    ("x 19:1 6:14", WinKind.BACKGAMMON),       # in the winner's home board (its 6-point)
    ("x 24:1 6:14", WinKind.BACKGAMMON),       # the winner's 1-point
    ("x bar:1 6:14", WinKind.BACKGAMMON),      # on the bar
    ("x 18:1 6:14", WinKind.GAMMON),           # just outside the winner's home board
])
def test_win_kind(loser, kind):
    assert win_kind(pos(loser + "; o")) == kind


def test_game_result_names_the_loser():
    assert GameResult(1, WinKind.GAMMON, 2, 4, "bear_off").loser == 0
