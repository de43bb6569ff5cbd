"""The arithmetic of benchmarks/strength/cube_bias.py: the net's bias against rollouts, and Janowski's ND
and DT that the cube decision uses, worked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.strength import cube_bias as cb


def test_janowski_nd_and_dt_by_hand() -> None:
    # p = 0.75, no gammons: W = L = 1, take point 0.5 / 2.5 = 0.2, cash point 2 / 2.5 = 0.8,
    # dead equity 0.5. Centred, live: -1 + 2 (0.75 - 0.2) / 0.6 = 0.8333; ND = 0.68 live + 0.32 dead.
    # Opponent owns: live -1 + 2 (0.75 - 0.2) / 0.8 = 0.375; DT = 2 (0.68 * 0.375 + 0.32 * 0.5).
    nd, dt = cb.janowski_nd_dt(np.array([[0.75, 0.0, 0.0, 0.0, 0.0]]), 0.68)
    assert nd[0] == pytest.approx(0.68 * (-1 + 2 * 0.55 / 0.6) + 0.32 * 0.5)
    assert dt[0] == pytest.approx(0.83)


def test_gammons_raise_double_take_more_than_no_double() -> None:
    # the same win chance with 20% gammons for the leader: both rise, DT (a doubled stake) by more
    plain = cb.janowski_nd_dt(np.array([[0.75, 0.0, 0.0, 0.0, 0.0]]), 0.68)
    gammons = cb.janowski_nd_dt(np.array([[0.75, 0.2, 0.0, 0.0, 0.0]]), 0.68)
    assert gammons[0][0] > plain[0][0] and gammons[1][0] - plain[1][0] > gammons[0][0] - plain[0][0]


def test_bias_by_hand() -> None:
    net = np.array([[0.6, 0.2, 0.0, 0.1, 0.0], [0.7, 0.3, 0.0, 0.0, 0.0]])
    rolled = np.array([[0.5, 0.1, 0.0, 0.1, 0.0], [0.7, 0.2, 0.0, 0.0, 0.0]])
    mean, se = cb.bias(net, rolled)
    # win: differences 0.1 and 0 (mean 0.05, sd 0.0707, se 0.05); equity: 0.3 and 0.1
    assert mean == pytest.approx([0.05, 0.1, 0.0, 0.0, 0.0, 0.2])
    assert se[0] == pytest.approx(0.05) and se[1] == pytest.approx(0.0) and se[5] == pytest.approx(0.1)


def test_offsets_are_fitted_class_by_class() -> None:
    from gammon.engine import cube_calibration as cc

    # engine DT 1 (weight 1) in every class, rolled out lower by 0.05 / 0.1 / 0.3 (ND by half of it),
    # each class once more far from the take point (weight 0) with a gap that must not count
    dt = np.array([1.0, 0.1, 1.0, 0.1, 1.0, 0.1])
    nd = dt / 2
    gap = np.array([0.05, 0.7, 0.1, 0.7, 0.3, 0.7])
    classes = np.array([0, 0, 1, 1, 2, 2])
    fitted = cb.class_offsets(nd, dt, nd - gap / 2, dt - gap, classes)
    assert len(fitted) == cc.ANCHOR_CLASSES
    assert [f[0] for f in fitted] == pytest.approx([-0.05, -0.1, -0.3])
    assert [f[2] for f in fitted] == pytest.approx([-0.025, -0.05, -0.15])
    with pytest.raises(ValueError, match="take point"):  # a class with nothing near the take point
        cb.class_offsets(nd, dt, nd, dt, np.array([0, 0, 1, 1, 1, 1]))
