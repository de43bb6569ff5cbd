"""Two-sided bear-off database: positions worked out by hand, its laws, the engine's cube decisions
and cubeful rollouts reading it, and GNU Backgammon's own two-sided database as the oracle."""

from __future__ import annotations

import random

import numpy as np
import pytest

from benchmarks.strength import cube_judge as cj
from gammon import Position
from gammon.engine.bearoff.two_sided import SIDE, TwoSidedBearoff, covered, two_sided
from gammon.engine.cube.decision import CubeAction
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import PipCountEvaluator
from gammon.engine.rollout.rollouts import RolloutSettings
from gammon.situation import CubeOwner, Situation
from tests.helpers import needs_gnubg, pos


@pytest.fixture(scope="module")
def db() -> TwoSidedBearoff:
    return two_sided()


def values(db: TwoSidedBearoff, text: str) -> tuple[float, np.ndarray]:
    probs, cubeful = db.lookup(np.array([pos(text).as_array()]))
    return float(probs[0, 0]), cubeful[0]


def test_last_roll(db: TwoSidedBearoff) -> None:
    # two checkers on the 6-point against one on the ace point: 33, 44, 55, 66 win, and the game
    # ends either way, so the cube is worth nothing
    win, v = values(db, "x 6:2; o 1:1")
    assert win == pytest.approx(4 / 36)
    np.testing.assert_allclose(v, 2 * 4 / 36 - 1)


def test_three_on_the_ace_point_each_is_a_double_and_pass(db: TwoSidedBearoff) -> None:
    # Doubles win at once (1/6); otherwise the opponent must roll doubles (1/6) or lose:
    # cubeless 1/6 + 5/6 * 5/6 = 31/36. Playing on is worth 1/6 + 5/6 * 2/3 = 13/18 in every
    # cube state (the opponent, at 1/6 on its last roll, never doubles), so double/take is worth
    # 26/18 > 1: double, pass.
    win, v = values(db, "x 1:3; o 1:3")
    assert win == pytest.approx(31 / 36)
    np.testing.assert_allclose(v, 13 / 18)
    engine = Engine(plies=0, evaluator=PipCountEvaluator())  # the net plays no part here
    d = engine.cube_decision(Situation.at(pos("x 1:3; o 1:3"), jacoby=False))
    assert d.action is CubeAction.DOUBLE_PASS
    assert d.no_double == pytest.approx(13 / 18) and d.double_take == pytest.approx(26 / 18)


def test_laws_of_the_cube(db: TwoSidedBearoff) -> None:
    live = db.win[1:, 1:]
    centred, mine, theirs = (db.values[1:, 1:, k] for k in range(3))
    assert ((live >= 0) & (live <= 1)).all()
    assert (mine >= centred - 1e-6).all() and (centred >= theirs - 1e-6).all()  # owning is worth something
    assert (np.abs(db.values[1:, 1:]) <= 1 + 1e-6).all()  # no gammons: at most one cube either way
    # the cube is worth something to the side that may use it: never below the cubeless equity
    assert (mine >= 2 * live - 1 - 1e-6).all()


def test_covered_and_refused_boards(db: TwoSidedBearoff) -> None:
    inside = pos("x 6:6; o 5:3 1:3").as_array()
    outside = [pos("x 6:7; o 1:1"), pos("x 7:1; o 1:1"), pos("x 1:1; o 6:3 5:4")]
    boards = np.array([inside] + [p.as_array() for p in outside])
    assert covered(boards).tolist() == [True, False, False, False]
    with pytest.raises(ValueError, match="not in the two-sided"):
        db.lookup(boards[1:2])
    with pytest.raises(ValueError, match="summing to <= 6"):
        TwoSidedBearoff.index([0, 0, 0, 0, 0, 7])
    assert TwoSidedBearoff.index([0] * 6) == 0 and TwoSidedBearoff.index([0, 0, 0, 0, 0, 6]) == SIDE - 1


def test_every_ply_of_the_engine_gives_the_exact_values() -> None:
    p = pos("x 6:2 5:1 3:2; o 5:2 4:2 2:1")
    exact = two_sided().lookup(np.array([p.as_array()]))[1][0]
    for plies in (0, 1, 2):
        for owner, column in ((CubeOwner.CENTRED, 0), (CubeOwner.MOVER, 1)):
            d = Engine(plies=plies).cube_decision(Situation.at(p, cube_owner=owner, jacoby=False))
            assert d.no_double == pytest.approx(exact[column])
            assert d.double_take == pytest.approx(2 * exact[2])


def test_without_a_bearoff_database_janowski_decides() -> None:
    p = pos("x 1:3; o 1:3")
    pips = Engine(plies=0, evaluator=PipCountEvaluator(), bearoff=False)
    d = pips.cube_decision(Situation.at(p, jacoby=False))
    assert d.no_double != pytest.approx(13 / 18)


def test_cubeful_rollout_agrees_with_the_database() -> None:
    # played out to the end (no bear-off truncation), both sides doubling and answering from the
    # database inside the trials
    p = pos("x 6:1 4:1 3:2; o 6:2 2:2")
    exact = two_sided().lookup(np.array([p.as_array()]))[1][0]
    settings = RolloutSettings(trials=1296, seed=5, bearoff_truncation=False)
    result = Engine(plies=0).rollout_cube(Situation.at(p, jacoby=False), settings, workers=1)
    for rolled, want in ((result.no_double, exact[0]), (result.double_take, 2 * exact[2])):
        assert abs(rolled.equity - want) <= 3 * rolled.standard_error.equity + 0.005


def test_cubeful_rollout_stops_at_the_database() -> None:
    # with bear-off truncation (the default) a trial ends at once in the database, with its values
    p = pos("x 6:1 4:1 3:2; o 6:2 2:2")
    exact = two_sided().lookup(np.array([p.as_array()]))[1][0]
    settings = RolloutSettings(trials=36, seed=1)
    result = Engine(plies=0).rollout_cube(Situation.at(p, jacoby=False), settings, workers=1)
    assert result.no_double.equity == pytest.approx(exact[0])
    assert result.double_take.equity == pytest.approx(2 * exact[2])
    assert result.no_double.standard_error.equity == 0.0


@needs_gnubg
def test_gnubg_two_sided_database_agrees() -> None:
    # GNU Backgammon's cube hint in a bear-off of up to six checkers a side reads its own exact
    # two-sided database (gnubg_ts0.bd): the same cubeful equities, printed to 3 decimals
    rng = random.Random(3)
    groups = []
    for _ in range(40):
        mine = {point: 0 for point in range(1, 7)}
        theirs = dict(mine)
        for side in (mine, theirs):
            for _ in range(rng.randint(1, 6)):
                side[rng.randint(1, 6)] += 1
        pid = Position.from_points({k: v for k, v in mine.items() if v},
                                   {k: v for k, v in theirs.items() if v}).id
        blank = dict(win=0.0, nd2=0.0, dt2=0.0, dp2=0.0, nd0=0.0, dt0=0.0, dp0=0.0)
        groups.append([cj.Decision(pid, 0, 0, 1, False, **blank), cj.Decision(pid, 0, 0, 2, True, **blank)])
    judged = [d for g in cj.judge_in_gnubg(groups) for d in g]
    assert len(judged) >= 10  # those in the cube window (55-97%)
    for d in judged:
        probs, v = two_sided().lookup(np.array([Position.from_id(d.position).as_array()]))
        assert probs[0, 0] == pytest.approx(d.win, abs=0.0015)
        assert v[0, 1 if d.owned else 0] == pytest.approx(d.nd0, abs=0.0015), d
        assert 2 * v[0, 2] == pytest.approx(d.dt0, abs=0.0015), d
