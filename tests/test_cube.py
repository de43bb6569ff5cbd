"""The doubling cube: who may double, take, beaver, and automatic doubles."""

import pytest

from gammon.cube import Cube
from gammon.refusal import Refusal, Refused
from gammon.rules import HIGHEST_CUBE, Rules

MONEY = Rules()


def test_a_centred_cube_may_be_turned_by_either_player():
    assert Cube().why_not_double(0, MONEY) is None
    assert Cube().why_not_double(1, MONEY) is None


def test_ownership_alternates_with_each_take():
    cube = Cube().taken(1)
    assert (cube.value, cube.owner) == (2, 1)
    assert cube.why_not_double(0, MONEY) == "the other player owns the cube"
    assert cube.why_not_double(1, MONEY) is None
    cube = cube.taken(0)
    assert (cube.value, cube.owner) == (4, 0)
    assert cube.why_not_double(1, MONEY) is not None and cube.why_not_double(0, MONEY) is None


@pytest.mark.parametrize("rules, crawford, reason", [
    (Rules(use_cube=False), False, "without the cube"),
    (Rules(match_length=5), True, "Crawford"),
    (Rules(cube_limit=2), False, "limit of 2"),
])
def test_reasons_not_to_double(rules, crawford, reason):
    cube = Cube(2, 0) if rules.cube_limit else Cube()
    assert reason in cube.why_not_double(0, rules, crawford)


def test_cube_limit_allows_doubling_up_to_the_limit():
    assert Cube(32, 0).why_not_double(0, Rules(cube_limit=64)) is None
    assert Cube(64, 0).why_not_double(0, Rules(cube_limit=64)) is not None
    assert Cube(16384, 0).why_not_double(0, MONEY) is None  # no limit of the rules' own


def test_no_double_passes_the_highest_cube_whatever_the_rules():
    # No GNU Backgammon Match ID holds a cube past 32768: a game there had no ID, and its web view failed.
    assert HIGHEST_CUBE == 32768
    for rules in (MONEY, Rules(cube_limit=65536), Rules(match_length=99999)):
        assert rules.highest_cube == HIGHEST_CUBE
        assert Cube(16384, 0).why_not_double(0, rules) is None
        assert Cube(32768, 0).why_not_double(0, rules) == "the cube is at 32768, the highest cube of any game"
        assert Cube(32768, None).refusal_to_double(1, rules) == Refused(Refusal.CUBE_LIMIT, limit=32768)
    assert Rules(cube_limit=64).highest_cube == 64
    assert Cube(64, 0).why_not_double(0, Rules(cube_limit=64)) == "the cube is at its limit of 64"
    assert Cube().after_opening_ties(20, Rules(automatic_doubles=20)) == Cube(32768, None)


def test_no_beaver_passes_the_highest_cube():
    rules = Rules(beavers=True)
    assert Cube(8192, 1).why_not_beaver(rules) is None  # the double to 16384 beavered to 32768
    assert Cube(16384, 1).why_not_beaver(rules) == (
        "a beaver would take the cube past 32768, the highest cube of any game")
    assert Cube(16384, 1).refusal_to_beaver(Rules(beavers=True, cube_limit=65536)) == Refused(
        Refusal.BEAVER_LIMIT, limit=32768)


def test_a_recorded_double_or_beaver_past_the_highest_cube_stands_within_the_rules_own_limit():
    # a game stored before the cube stopped at 32768 replays as it was played
    beaver = Refused(Refusal.BEAVER_LIMIT, limit=32768)
    assert Cube(16384, 1).allows_recorded(beaver, Rules(beavers=True))
    assert Cube(32768, 1).allows_recorded(Refused(Refusal.CUBE_LIMIT, limit=32768), MONEY)
    assert not Cube(32, 1).allows_recorded(Refused(Refusal.CUBE_LIMIT, limit=32), Rules(cube_limit=32))
    assert not Cube(2, 1).allows_recorded(Refused(Refusal.CUBE_OWNED, player=1), MONEY)


def test_beaver_quadruples_and_the_beaver_keeps_the_cube():
    rules = Rules(beavers=True)
    assert Cube().why_not_beaver(rules) is None
    assert Cube(2, 1).beavered(0) == Cube(8, 0)
    assert "not allow" in Cube().why_not_beaver(MONEY)
    assert "money" in Cube().why_not_beaver(Rules(match_length=5, beavers=True))
    assert "limit" in Cube(16, 1).why_not_beaver(Rules(beavers=True, cube_limit=32))


def test_automatic_doubles_are_capped_by_their_count_and_the_cube_limit():
    assert Cube().after_opening_ties(3, Rules(automatic_doubles=2)) == Cube(4, None)
    assert Cube().after_opening_ties(1, Rules(automatic_doubles=2)) == Cube(2, None)
    assert Cube().after_opening_ties(5, Rules(automatic_doubles=9, cube_limit=8)) == Cube(8, None)
    assert Cube().after_opening_ties(3, MONEY) == Cube()
    assert Cube().after_opening_ties(3, Rules(match_length=5, automatic_doubles=2)) == Cube()
    assert Cube().after_opening_ties(3, Rules(automatic_doubles=2, use_cube=False)) == Cube()
