"""gammon.engine.cube_calibration: the take-point weight, the correction and its fit, by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gammon.engine import cube_calibration as cc
from gammon.engine.evaluator import Evaluator
from gammon.situation import Situation


def test_weight_is_a_triangle_around_the_take_point() -> None:
    h = cc.HALF_WIDTH
    w = cc.zone_weight(np.array([1.0, 1.0 + h / 2, 1.0 - h / 2, 1.0 + h, 0.0, 2.0]))
    assert w == pytest.approx([1.0, 0.5, 0.5, 0.0, 0.0, 0.0])


def test_tiny_fit_by_hand() -> None:
    # engine DT 1 (weight 1) and 1 + h/2 (weight 0.5), rolled out 0.1 and 0.04 lower, one far
    # away (weight 0) whatever its gap: c = (1 * -0.1 + 0.5 * -0.04) / (1 + 0.25) = -0.096
    h = cc.HALF_WIDTH
    dt = np.array([1.0, 1.0 + h / 2, 0.3])
    c, se = cc.fit_offset(dt, dt + np.array([-0.1, -0.04, 0.5]), dt)
    assert c == pytest.approx(-0.096)
    # residuals -0.004 and 0.008: se = sqrt((1.6e-5 + 6.4e-5) / 1 / 1.25) = 0.008
    assert se == pytest.approx(0.008)
    with pytest.raises(ValueError, match="take point"):
        cc.fit_offset(np.array([0.2]), np.array([0.1]), np.array([0.2]))


def test_anchor_class_counts_the_opponents_points_in_the_home_board() -> None:
    from gammon import Position

    board = [0] * 26
    board[8], board[24], board[13] = 5, 5, 5  # the player on roll: no home-board point
    board[12], board[20] = -13, -2  # the opponent: none in that home board either
    assert cc.anchor_class(board) == 0
    board[20], board[5] = 0, -2  # the opponent holds the 5-point
    assert cc.anchor_class(board) == 1
    board[12], board[1] = -12, -1  # a blot is no anchor
    assert cc.anchor_class(board) == 1
    board[12], board[1] = -11, -2  # and the ace-point: two
    assert cc.anchor_class(board) == 2
    board[12], board[3] = -9, -2  # three count as two or more
    assert cc.anchor_class(board) == 2
    board[12], board[7] = -7, -2  # the bar point is outside the home board
    assert cc.anchor_class(board) == 2
    assert cc.anchor_class(Position.initial().board) == 1  # the back checkers on the ace-point


def _offsets(monkeypatch: pytest.MonkeyPatch, dt: tuple[float, float, float],
             nd: tuple[float, float, float]) -> None:
    monkeypatch.setattr(cc, "DT_OFFSETS", dt)
    monkeypatch.setattr(cc, "ND_OFFSETS", nd)


def test_corrected_values_by_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    _offsets(monkeypatch, (-0.08, -0.12, -0.2), (-0.04, -0.1, -0.15))
    # DT = 2 * 0.5 = 1 (weight 1): DT 0.92 (column 2: 0.46), ND (centred) 0.76
    out = cc.corrected_values(np.array([0.8, 0.9, 0.5]), 0, 0)
    assert out == pytest.approx([0.76, 0.9, 0.46])
    # the cube owned by the player on roll: its column is ND; far from the take point nothing moves
    assert cc.corrected_values(np.array([0.8, 0.9, 0.5]), 1, 0) == pytest.approx([0.8, 0.86, 0.46])
    assert cc.corrected_values(np.array([0.2, 0.3, 0.1]), 1, 0) == pytest.approx([0.2, 0.3, 0.1])
    # each anchor class its own offsets: DT 1 - 0.12 and 1 - 0.2, ND 0.8 - 0.1 and 0.8 - 0.15
    assert cc.corrected_values(np.array([0.8, 0.9, 0.5]), 0, 1) == pytest.approx([0.7, 0.9, 0.44])
    assert cc.corrected_values(np.array([0.8, 0.9, 0.5]), 0, 2) == pytest.approx([0.65, 0.9, 0.4])
    with pytest.raises(ValueError, match="column 2"):
        cc.corrected_values(np.array([0.2, 0.3, 0.1]), 2, 0)


@pytest.mark.parametrize("anchors", range(cc.ANCHOR_CLASSES))
def test_corrected_dt_keeps_its_order(anchors: int) -> None:
    # with the shipped offsets (|offset| / HALF_WIDTH < 1) a higher DT stays higher after the correction
    dts = np.linspace(0.5, 1.5, 201)
    after = [2 * cc.corrected_values(np.array([0.0, 0.0, d / 2]), 0, anchors)[2] for d in dts]
    assert np.all(np.diff(after) > 0)


def _decisions(monkeypatch: pytest.MonkeyPatch, position_id: str, evaluator: Evaluator | None = None,
               cube_correction: bool | None = None, **kwargs: Any) -> tuple:
    from gammon import Position
    from gammon.engine.engine import Engine

    engine = Engine(plies=0, evaluator=evaluator, cube_correction=cube_correction)
    p = Position.from_id(position_id)
    _offsets(monkeypatch, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    plain = engine.cube_decision(Situation.at(p, jacoby=False, **kwargs))
    # only the position's own class counts
    k = cc.anchor_class(p.board)
    _offsets(monkeypatch, tuple(-0.08 if i == k else 0.5 for i in range(3)),  # type: ignore[arg-type]
             tuple(-0.04 if i == k else 0.5 for i in range(3)))
    return plain, engine.cube_decision(Situation.at(p, jacoby=False, **kwargs))


NEAR_TAKE_POINT = "ZrcqAAPps40BAA"
"""A contact money position whose 0-ply DT with the shipped net is near 1 (1.00 with step 21's cube
head), where the correction weighs almost fully (step 21 put the earlier one, 4HPkEwAzzjgDIA, at
1.11: 1.00 with the step-17 net, 1.03 with step 18's, 1.01 with step 19's, 1.03 with step 20's;
the nets before them put DZ+DAQxmu1EEBA near 1.01)."""


def test_engine_corrects_contact_money_near_the_take_point(monkeypatch: pytest.MonkeyPatch) -> None:
    plain, fixed = _decisions(monkeypatch, NEAR_TAKE_POINT)
    w = float(cc.zone_weight(plain.double_take))
    assert w > 0.9
    assert fixed.double_take == pytest.approx(plain.double_take - 0.08 * w)
    assert fixed.no_double == pytest.approx(plain.no_double - 0.04 * w)
    assert fixed.double_pass == plain.double_pass == 1.0


def test_engine_leaves_races_and_a_dead_cube_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from gammon.situation import CubeOwner

    plain, fixed = _decisions(monkeypatch, "6j0AAFjOAQAAAA")  # race, 0-ply DT about 1.09
    assert cc.zone_weight(plain.double_take) > 0.5  # it would be corrected were it contact
    assert (fixed.no_double, fixed.double_take) == (plain.no_double, plain.double_take)
    plain, fixed = _decisions(monkeypatch, NEAR_TAKE_POINT, cube_value=2, cube_owner=CubeOwner.OPPONENT)
    assert (fixed.no_double, fixed.double_take) == (plain.no_double, plain.double_take)


def test_only_the_shipped_net_is_corrected(monkeypatch: pytest.MonkeyPatch) -> None:
    """The offsets were fitted to the shipped net's errors: the same net loaded as another
    evaluator (as other weights would be) is left as its search gives it."""
    from gammon.engine.neural import NeuralEvaluator

    plain, fixed = _decisions(monkeypatch, NEAR_TAKE_POINT, evaluator=NeuralEvaluator.default())
    assert cc.zone_weight(plain.double_take) > 0.9  # it would be corrected with Engine()'s own net
    assert (fixed.no_double, fixed.double_take) == (plain.no_double, plain.double_take)


def test_the_correction_can_be_asked_for_and_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """``cube_correction=True`` corrects other weights as the shipped net's (a benchmark trying
    the offsets on a candidate net); ``False`` leaves even the shipped net uncorrected."""
    from gammon.engine.neural import NeuralEvaluator

    plain, fixed = _decisions(monkeypatch, NEAR_TAKE_POINT, evaluator=NeuralEvaluator.default(),
                              cube_correction=True)
    w = float(cc.zone_weight(plain.double_take))
    assert w > 0.9 and fixed.double_take == pytest.approx(plain.double_take - 0.08 * w)
    plain, fixed = _decisions(monkeypatch, NEAR_TAKE_POINT, cube_correction=False)
    assert (fixed.no_double, fixed.double_take) == (plain.no_double, plain.double_take)
