"""wildbg's HTTP API under /wildbg: a client written from wildbg's description (its OpenAPI text:
p0..p25 from the view of x, the player on roll, moving from 24 to 1; x positive, o negative; p25
x's bar, p0 o's; the play's steps from/to with 25 the bar and 0 off) gets the engine's plays."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gammon.engine.engine import Engine
from gammon.position import Position
from gammon.store import Store
from gammon.web import ServerSettings, create_app
from tests.helpers import pos, random_game_positions

ENGINE = Engine(plies=0)


def query(board: list[int], **extra: object) -> dict[str, object]:
    """The query of a board in wildbg's layout (index 0..25), empty points left out."""
    return {**{f"p{i}": n for i, n in enumerate(board) if n}, **extra}


def apply_play(board: list[int], play: list[dict[str, int]]) -> list[int]:
    """x's board after the checker steps of a wildbg play (a hit blot goes to o's bar, p0)."""
    b = list(board)
    for step in play:
        b[step["from"]] -= 1
        to = step["to"]
        if to:
            if b[to] == -1:
                b[to] = 0
                b[0] -= 1
            b[to] += 1
    return b


def moves(
    client: TestClient, board: list[int], dice: tuple[int, int], **extra: object
) -> list[dict[str, Any]]:
    r = client.get("/wildbg/move", params=query(board, die1=dice[0], die2=dice[1], **extra))
    assert r.status_code == 200, r.text
    result: list[dict[str, Any]] = r.json()["moves"]
    return result


@pytest.mark.slow
def test_the_best_play_is_the_engines_for_200_positions(store: Store) -> None:
    # a client far under the hint limit: 200 asks may come within a second
    with TestClient(create_app(store, settings=ServerSettings(rate=100_000, burst=100_000))) as client:
        _same_best_plays(client)


def _same_best_plays(client: TestClient) -> None:
    rng = random.Random(8)
    positions = [p for p in random_game_positions(21, 12) if not p.is_game_over()]
    for position in rng.sample(positions, 200):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        answer = moves(client, list(position.board), dice)
        plays = position.legal_plays(dice)
        if not plays:
            assert len(answer) == 1 and answer[0]["play"] == []
            continue
        assert len(answer) == len(plays)
        best = ENGINE.hint(position, dice, n=1)[0]
        assert Position(apply_play(list(position.board), answer[0]["play"])) == best.play.after.flip()


def test_shapes(client: TestClient) -> None:
    start = list(Position.initial().board)
    answer = moves(client, start, (3, 1))
    assert answer[0]["play"] == [{"from": 8, "to": 5}, {"from": 6, "to": 5}]  # 8/5 6/5
    assert set(answer[0]["probabilities"]) == {"win", "winG", "winBg", "loseG", "loseBg"}
    assert all(0 <= v <= 1 for m in answer for v in m["probabilities"].values())
    r = client.get("/wildbg/eval", params=query(start))
    assert r.status_code == 200
    body = r.json()
    assert body["cube"] == {"double": False, "accept": True}
    assert 0.45 < body["probabilities"]["win"] < 0.6
    # wildbg's own example: the starting position as its OpenAPI text gives it
    r = client.get("/wildbg/move?die1=3&die2=1&p24=2&p19=-5&p17=-3&p13=5&p12=-5&p8=3&p6=5&p1=-2")
    assert r.json()["moves"][0]["play"] == answer[0]["play"]


def test_blocked_and_match_and_cube(client: TestClient) -> None:
    # x on the bar against a closed board: no play, one move with no steps
    closed = list(pos("x bar:1 8:14; o 1:2 2:2 3:2 4:2 5:2 6:2 12:3").board)
    answer = moves(client, closed, (6, 6))
    assert len(answer) == 1 and answer[0]["play"] == []
    # any match score and the cube: a late race at 2-away 4-away, x owning a 2-cube
    race = list(pos("x 6:3 5:3 4:3 3:3; o 6:3 5:3 4:3 3:3").board)
    r = client.get("/wildbg/eval", params=query(race, x_away=2, o_away=4, cube=2, cube_owner="x"))
    assert r.status_code == 200, r.text
    assert set(r.json()["cube"]) == {"double", "accept"}
    assert moves(client, race, (2, 1), x_away=3, o_away=1, crawford="true")
    assert len(moves(client, start_board(), (6, 5), plies=1, n=2)) == 2


def start_board() -> list[int]:
    return list(Position.initial().board)


@pytest.mark.parametrize(
    "params, words",
    [
        ({"die1": 7, "die2": 1}, "die1 must be a whole number from 1 to 6, got '7'"),
        ({"die1": 3}, "die2 is missing"),
        ({"die1": 3, "die2": 1, "p0": 1}, "Index 0 is the bar for player o"),
        ({"die1": 3, "die2": 1, "p25": -1}, "Index 25 is the bar for player x"),
        ({"die1": 3, "die2": 1, "p24": 15, "p13": 5}, "Player x has more than 15 checkers"),
        ({"die1": 3, "die2": 1, "p5": "x" * 500}, "p5 must be a whole number from -15 to 15, got 'xxx"),
        ({"die1": 3, "die2": 1, "p13": "0_5"}, "p13 must be a whole number from -15 to 15, got '0_5'"),
        ({"die1": "\uff13", "die2": 1}, "die1 must be a whole number from 1 to 6"),  # a 3, but not ASCII
        ({"die1": 3, "die2": 1, "x_away": "1_1", "o_away": 3}, "x_away must be a whole number"),
        ({"die1": 3, "die2": 1, "x_away": 0, "o_away": 3}, "must both be 0 (money)"),
        ({"die1": 3, "die2": 1, "cube": 3, "cube_owner": "x"}, "power of two"),
        ({"die1": 3, "die2": 1, "cube": 2}, "a turned cube has an owner"),
        ({"die1": 3, "die2": 1, "p99": 1}, "unknown parameter 'p99'"),
    ],
)
def test_bad_queries(client: TestClient, params: dict[str, object], words: str) -> None:
    start = {k: v for k, v in query(start_board()).items() if k not in params}
    r = client.get("/wildbg/move", params={**start, **params})
    assert r.status_code == 400
    message = r.json()["message"]
    assert words in message and len(message) < 300
    assert r.json()["error"] == message


def test_openapi_types(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    schemas = {p["name"]: p["schema"] for p in paths["/wildbg/move"]["get"]["parameters"]}
    assert schemas["crawford"] == {"type": "boolean"}  # read as true or false
    assert schemas["cube_owner"]["enum"] == ["x", "o", "centred"]
    assert schemas["p5"] == {"type": "integer"}


def test_rate_limited_as_hints(store: Store) -> None:
    with TestClient(create_app(store)) as c:
        codes = [c.get("/wildbg/eval", params={"p0": 1}).status_code for _ in range(10)]
    assert codes[0] == 400 and 429 in codes


def test_a_parameter_given_twice_is_refused(client: TestClient) -> None:
    # the last of the two was kept: p1=5&p1=-2 was read as -2 (wildbg refuses a field given twice)
    start = "&".join(f"{k}={v}" for k, v in query(start_board()).items() if k != "p1")
    for path, repeated in (("move?die1=3&die2=1&", "p1=5&p1=-2"), ("eval?", "p1=-2&p1=-2")):
        r = client.get(f"/wildbg/{path}{start}&{repeated}")
        assert r.status_code == 400, r.text
        assert r.json()["message"] == "'p1' is given more than once" == r.json()["error"]
    long = "q" * 5000  # a long name comes back cut short
    r = client.get(f"/wildbg/eval?{start}&p1=-2&{long}=1&{long}=2")
    assert r.status_code == 400 and len(r.text) < 300 and "qqq" in r.json()["message"]
