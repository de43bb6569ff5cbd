"""Cubeful search (gammon.engine.cube.cubeful_search) on positions worked out by hand.

The constant evaluator gives every unfinished board the same probabilities for its player on roll,
so every node of the search tree is alike and the cubeful equities can be followed by hand: at a
win chance p without gammons, W = L = 1, the take point is 0.2, the cash point 0.8 and (x = 0.68 in
contact) Janowski's equities are
  centred: 0.68 * live + 0.32 * (2p - 1), live = -1 + 2 (p - 0.2) / 0.6;
  owned by the player on roll: live = -1 + 2p / 0.8;  owned by its opponent: live = -1 + 2 (p - 0.2) / 0.8.
"""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.cube.cubeful import CubeState, MatchCube, money_equities, mwc_after
from gammon.engine.cube.cubeful_search import after_cube_action, cubeful_values, match_values
from gammon.engine.cube.decision import CubeAction
from gammon.engine.cube.met import match_equity
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import ConstantEvaluator
from gammon.engine.search.searcher import Searcher
from gammon.situation import CubeOwner, MatchScore, Situation
from tests.helpers import pos


def constant(win: float) -> Searcher:
    return Searcher(ConstantEvaluator((win, 0.0, 0.0, 0.0, 0.0)), None)


def test_janowski_by_hand() -> None:
    # p = 0.75: centred 0.68 * 0.8333 + 0.32 * 0.5; mover owns 0.68 * 0.875 + 0.16;
    # opponent owns 0.68 * 0.375 + 0.16
    got = money_equities(np.array([0.75, 0, 0, 0, 0]), 0.68)[0]
    assert got == pytest.approx([0.726667, 0.755, 0.415], abs=1e-6)


def test_after_cube_action_by_hand() -> None:
    # at p = 0.75 doubling is right centred and owned (DT = 2 * 0.415 = 0.83 < DP = 1), so both
    # become 0.83; with the opponent owning the cube nothing changes
    got = after_cube_action(np.array([[0.726667, 0.755, 0.415]]))[0]
    assert got == pytest.approx([0.83, 0.83, 0.415])
    # a pass caps the double at 1: 2 * 0.6 = 1.2 -> 1 beats 0.9 centred, not 1.1 owned
    assert after_cube_action(np.array([[0.9, 1.1, 0.6]]))[0] == pytest.approx([1.0, 1.1, 0.6])


def test_one_ply_counts_the_opponents_double() -> None:
    # every reply leaves the opponent on roll at 75%: it doubles (centred, or with its own cube) to
    # 0.83, so we are at -0.83 centred and -0.83 when it owns the cube; when we own the cube it
    # cannot double: -0.415. Janowski on the averaged probabilities (25%) would say -0.7267.
    probs, values = cubeful_values(constant(0.75), Position.initial().as_array()[None, :], 1)
    assert probs[0, 0] == pytest.approx(0.25)
    assert values[0] == pytest.approx([-0.83, -0.415, -0.83])
    one_ply = Engine(plies=1, evaluator=ConstantEvaluator((0.75, 0, 0, 0, 0)), bearoff=False)
    d = one_ply.cube_decision(Situation.at(Position.initial(), jacoby=False))
    assert d.no_double == pytest.approx(-0.83)
    assert d.double_take == pytest.approx(-1.66)
    assert d.action is CubeAction.NO_DOUBLE and d.take


def test_two_ply_by_hand() -> None:
    # leaves at 30% for us (we are on roll there): Janowski (-0.5813, -0.298, -0.638), no double
    # (2 * -0.638 < -0.5813). The opponent, one ply up, sees (0.5813, 0.638, 0.298) and doubles
    # centred (min(2 * 0.298, 1) = 0.596 >= 0.5813) but not with its own cube (0.638 > 0.596):
    # (0.596, 0.638, 0.298). At the root, owners seen from our side: (-0.596, -0.298, -0.638).
    _, values = cubeful_values(constant(0.3), Position.initial().as_array()[None, :], 2)
    assert values[0] == pytest.approx([-0.596, -0.298, -0.638], abs=1e-6)
    # 0 ply on the same probabilities misses the opponent's double by 0.0147
    _, zero = cubeful_values(constant(0.3), Position.initial().as_array()[None, :], 0)
    assert zero[0] == pytest.approx([-0.581333, -0.298, -0.638], abs=1e-6)


def test_last_checker_off_gammons_the_opponent() -> None:
    # every roll bears our last checker off while the opponent has borne off nothing: a gammon,
    # 2 points. Without the Jacoby rule playing on (2) beats a pass (1): too good. With it the
    # centred cube earns 1 point only, so we double and the opponent passes.
    p = pos("x 1:1; o 6:5 8:5 12:5")
    engine = Engine(plies=1, evaluator=ConstantEvaluator((0.5, 0, 0, 0, 0)), bearoff=False)
    d = engine.cube_decision(Situation.at(p, jacoby=False))
    assert (d.no_double, d.double_take, d.double_pass) == pytest.approx((2.0, 4.0, 1.0))
    assert d.action is CubeAction.TOO_GOOD_PASS
    d = engine.cube_decision(Situation.at(p, jacoby=True))
    assert (d.no_double, d.double_take, d.double_pass) == pytest.approx((1.0, 4.0, 1.0))
    assert d.action is CubeAction.DOUBLE_PASS
    owned = Situation.at(p, cube_value=2, cube_owner=CubeOwner.MOVER)
    assert engine.cube_decision(owned).no_double == pytest.approx(2.0)


@pytest.mark.parametrize("plies", [0, 1, pytest.param(2, marks=pytest.mark.slow)])
def test_probabilities_match_the_cubeless_search(plies: int) -> None:
    engine = Engine(plies=plies)
    # the opening, a race, a bear-off (its probabilities from the database at every ply, its
    # cube values searched)
    bearoff = pos("x 1:2 2:2 3:2 5:1; o 1:3 2:3 4:1")
    boards = np.array([p.as_array() for p in (Position.from_id("4HPwATDgc/ABMA"),
                                              Position.from_id("sNvBASCY54ECAA"), bearoff)])
    probs, values = cubeful_values(engine._searcher, boards, plies)
    assert probs == pytest.approx(engine._searcher.evaluate_boards(boards, plies))
    leaf = engine._searcher.leaf(boards[2:])
    assert (values[2] == pytest.approx(money_equities(leaf, 0.6)[0])) is (plies == 0)
    # owning the cube is worth at least a centred cube, which is worth at least the opponent's
    assert np.all(values[:, 1] >= values[:, 0] - 1e-9) and np.all(values[:, 0] >= values[:, 2] - 1e-9)


def test_zero_ply_is_janowski_on_the_cube_heads_chances() -> None:
    engine = Engine(plies=0)
    p = Position.from_id("4HPwATDgc/ABMA")
    probs, values = cubeful_values(engine._searcher, p.as_array()[None, :], 0, jacoby=True)
    assert probs[0] == pytest.approx(engine.evaluate(p).as_array())  # the chances play with
    cube = engine.evaluator.evaluate_for_cube(p.as_array()[None, :])[0]  # type: ignore[attr-defined]
    assert np.abs(cube - probs[0]).max() > 1e-3  # the shipped net has a cube head
    assert values[0] == pytest.approx(money_equities(cube, 0.68, jacoby=True)[0])


# --- match play --------------------------------------------------------------------------------


def test_match_last_checker_off_at_a_score() -> None:
    # 3-away against 5-away, the same certain gammon: playing on wins 2 points (1-away, Crawford
    # game next), doubling wins the match if taken (4 points) and 1 point if passed
    p = pos("x 1:1; o 6:5 8:5 12:5")
    engine = Engine(plies=1, evaluator=ConstantEvaluator((0.5, 0, 0, 0, 0)), bearoff=False)
    d = engine.cube_decision(Situation.at(p, match=MatchScore.from_away(3, 5)))
    assert d.match_winning_chances == pytest.approx((match_equity(1, 5), 1.0, match_equity(2, 5)))
    assert d.action is CubeAction.TOO_GOOD_PASS
    # at 2-away the gammon wins the match as surely as the double: doubling is right (a cash)
    d = engine.cube_decision(Situation.at(p, match=MatchScore.from_away(2, 5)))
    assert d.match_winning_chances == pytest.approx((1.0, 1.0, match_equity(1, 5)))


def test_match_one_ply_composed_by_hand() -> None:
    # every reply leaves the opponent (5-away, we are 4-away) on roll at 80% without gammons: it
    # takes its own best cube action there, and our MWC is one minus its
    them = MatchScore.from_away(5, 4)
    cube = MatchCube(np.array([0.8, 0, 0, 0, 0]), them, 0.68)
    nd, dt, dp = cube.equity(0.8, 1, CubeOwner.CENTRED), cube.equity(0.8, 2, CubeOwner.OPPONENT), \
        mwc_after(them, 4, 4)
    theirs_centred = max(nd, min(dt, dp))
    theirs_owned_by_us = cube.equity(0.8, 2, CubeOwner.OPPONENT)  # they cannot double
    probs, mwc = match_values(constant(0.8), Position.initial().as_array()[None, :], 1,
                              MatchScore.from_away(4, 5),
                              [CubeState(1, CubeOwner.CENTRED), CubeState(2, CubeOwner.MOVER)])
    assert probs[0, 0] == pytest.approx(0.2)
    assert mwc[0] == pytest.approx([1.0 - theirs_centred, 1.0 - theirs_owned_by_us])
    assert nd < dt < dp  # the opponent's double (a take) is what the search counts: it is right here


@pytest.mark.parametrize("plies", [0, 1])
def test_match_zero_ply_is_the_curves_and_probabilities_agree(plies: int) -> None:
    engine = Engine(plies=plies)
    p = Position.from_id("4HPwATDgc/ABMA")
    m = MatchScore.from_away(7, 3)
    centred = [CubeState(1, CubeOwner.CENTRED)]
    probs, mwc = match_values(engine._searcher, p.as_array()[None, :], plies, m, centred)
    assert probs[0] == pytest.approx(engine._searcher.evaluate_boards(p.as_array()[None, :], plies)[0])
    if plies == 0:
        cube = engine.evaluator.evaluate_for_cube(p.as_array()[None, :])[0]  # type: ignore[attr-defined]
        curves = MatchCube(cube, m, 0.68)
        assert mwc[0, 0] == pytest.approx(curves.equity(cube[0], 1, CubeOwner.CENTRED))
