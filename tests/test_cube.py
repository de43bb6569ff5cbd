"""The doubling cube: who may double, take, beaver, and automatic doubles."""

import pytest

from gammon.cube import Cube
from gammon.rules import Rules

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
    assert Cube(2 ** 20, 0).why_not_double(0, MONEY) is None  # no limit by default


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
