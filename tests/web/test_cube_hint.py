"""The game page's cube hint gives the equities of a double only when the player on roll can make
one: with the cube out of its hands (the opponent's, the Crawford game, dead) it gives the game as
it stands, as ``gammon eval`` does."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from gammon.position import Position
from gammon.rules import Rules
from gammon.situation import CubeOwner, Situation
from gammon.store import Store
from gammon.web import create_app
from gammon.web.hints import cube_hint
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, new_match, seeded_dice

pytestmark = pytest.mark.slow  # the engine


@pytest.mark.parametrize(
    "situation",
    [
        Situation(Position.initial(), cube_value=2, cube_owner=CubeOwner.OPPONENT),
        Situation(Position.initial(), score=(0, 2), crawford_game=True, rules=Rules(match_length=3)),
        Situation(Position.initial(), score=(2, 0), rules=Rules(match_length=3)),  # dead: 1-away
    ],
    ids=["opponent's cube", "crawford", "dead"],
)
def test_no_double_equities_when_the_player_cannot_double(situation: Situation) -> None:
    from gammon.engine.engine import Engine

    hint = cube_hint(Engine(plies=0), situation)
    assert hint["question"] == "double" and hint["available"] is False
    assert hint["answer"] is None and hint["double_take"] is None and hint["double_pass"] is None
    assert isinstance(hint["no_double"], float)
    assert hint["mwc"] == (None if situation.rules.is_money else [hint["mwc"][0], None, None])


def _act(c: TestClient, m: dict, **body: object) -> dict:
    r = c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]), json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _on(c: TestClient, m: dict, s: dict) -> dict:
    """Roll, or make the first legal play."""
    if s["phase"] == "roll":
        return _act(c, m, action="roll")
    return _act(c, m, action="play", play=s["plays"][0])


def test_the_hint_of_a_dead_cube_gives_no_double_equities(store: Store) -> None:
    """In a 2-point match the owner of a cube at 2 may redouble by the rules, but the cube is dead:
    the hint gave 'double/take' and 'double/pass' equities (and an answer) all the same."""
    from gammon.engine.engine import Engine

    options = ServerSettings(rate=1000, burst=1000)
    app = create_app(store, seeded_dice(4), settings=options, engine=Engine(plies=0))
    with TestClient(app) as c:
        m = new_match(c, mode="local", match_length=2)
        s = c.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).json()
        while "double" not in s["actions"]:  # play on to the first roll a player may double on
            s = _on(c, m, s)
        doubler = s["turn"]
        _act(c, m, action="double")
        s = _act(c, m, action="take")
        while s["turn"] == doubler:  # the doubler's turn after the take
            s = _on(c, m, s)
        assert s["phase"] == "roll" and "double" in s["actions"] and s["cube_value"] == 2
        r = c.get(f"/api/matches/{m['match_id']}/hint", headers=auth(m["token"]))
        assert r.status_code == 200, r.text
        cube = r.json()["cube"]
        assert cube["question"] == "double" and cube["available"] is False
        assert (cube["answer"], cube["double_take"], cube["double_pass"]) == (None, None, None)
        assert len(cube["mwc"]) == 3 and cube["mwc"][1:] == [None, None] and cube["mwc"][0] is not None
