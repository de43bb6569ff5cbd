"""A Situation refuses a cube no game can have (turned, owned or offered in the Crawford game, above
the rules' limit): it took them, and its diagram and IDs failed later with a plain ValueError
('invalid XGID: ...'). What only the IDs cannot hold fails there with a GammonError too."""

from __future__ import annotations

from typing import Any

import pytest

from gammon import CubeOwner, Position, Rules, Situation
from gammon.diagram import render
from gammon.errors import GammonError, InvalidArgumentError
from gammon.formats.ids import situation_json
from gammon.formats.xgid import XGID

START = Position.initial()
CRAWFORD = {"score": (4, 2), "crawford_game": True, "rules": Rules(match_length=5)}
MOVER = CubeOwner.MOVER

REFUSED = [
    ({**CRAWFORD, "cube_value": 2, "cube_owner": MOVER}, "the cube is at 2 and owned"),
    ({**CRAWFORD, "cube_value": 2}, "the cube is at 2"),
    ({**CRAWFORD, "cube_owner": CubeOwner.OPPONENT}, "the cube is at 1 and owned"),
    ({**CRAWFORD, "double_offered": True}, "a double is offered"),
    # double match point: the flag still makes it the Crawford game, as GNU Backgammon reads both IDs
    ({**CRAWFORD, "score": (4, 4), "cube_value": 2, "cube_owner": MOVER}, "the cube is at 2 and owned"),
    ({"cube_value": 8, "cube_owner": MOVER, "rules": Rules(cube_limit=4)}, "above the highest cube 4"),
    ({"cube_value": 4, "double_offered": True, "rules": Rules(cube_limit=4)}, "the cube at 8 is above"),
    ({"cube_value": 2, "cube_owner": MOVER, "rules": Rules(use_cube=False)}, "without the cube"),
    ({"double_offered": True, "rules": Rules(use_cube=False)}, "without the cube"),
]


@pytest.mark.parametrize(("fields", "problem"), REFUSED)
def test_a_cube_no_game_can_have_is_refused_at_construction(fields: dict[str, Any], problem: str) -> None:
    with pytest.raises(InvalidArgumentError, match="invalid Situation: .*" + problem):
        Situation(START, **fields)


ACCEPTED = [
    {**CRAWFORD, "crawford_game": False},  # post-Crawford: the cube is back
    {"crawford_game": True, "cube_value": 2, "cube_owner": MOVER, "rules": Rules(match_length=1)},
    {"cube_value": 64, "cube_owner": MOVER, "rules": Rules(match_length=5)},  # dead, but a game can get there
    {"cube_value": 2, "double_offered": True, "cube_owner": MOVER, "rules": Rules(cube_limit=4)},
]


@pytest.mark.parametrize("fields", ACCEPTED)
def test_a_cube_a_game_can_have_is_taken_and_drawn(fields: dict[str, Any]) -> None:
    s = Situation(START, **fields)
    assert render(s, "text") and situation_json(s)["xgid"].startswith("XGID=")


@pytest.mark.parametrize("fields", [{"cube_value": 1 << 16, "cube_owner": MOVER},
                                    {"score": (40000, 0), "rules": Rules(match_length=40001)}])
def test_what_no_id_can_hold_fails_as_a_gammon_error(fields: dict[str, Any]) -> None:
    """A money cube past 32768, a match past 32767 points: a game can reach them, no ID holds them."""
    s = Situation(START, **fields)
    with pytest.raises(GammonError, match="32767|32768"):
        render(s, "text")
    with pytest.raises(GammonError, match="32767|32768"):
        situation_json(s)


def test_an_xgid_s_own_refusal_is_a_gammon_error() -> None:
    with pytest.raises(InvalidArgumentError, match="invalid XGID: the Crawford game .* at 2 and owned"):
        XGID(START, cube_value=2, cube_owner=1, score=(4, 2), match_length=5, crawford=True)
