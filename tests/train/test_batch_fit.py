"""gammon.train.batch_fit: the cross-entropy's gradient by finite differences, the outputs the board
rules out left out of the loss, and Adam's fit."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.net.encode import encode
from gammon.engine.net.neural import Net, NeuralEvaluator
from gammon.primitives import CHECKERS, checkers_on_board
from gammon.train.batch_fit import (
    AdamSettings,
    adam_fit,
    adam_step,
    cross_entropy,
    gradients,
    ruled_out_mask,
)
from gammon.train.labels import LabelSettings, Sampling, make_labels
from tests.helpers import random_game_positions


def _borne_off_boards() -> np.ndarray:
    """Boards of random games, each side's checkers borne off by turns: none off, the mover's,
    the opponent's, both sides'."""
    positions = [
        p
        for p in random_game_positions(4, 3)
        if checkers_on_board(p.as_array()) == (CHECKERS, CHECKERS) and not p.as_array()[[0, 25]].any()
    ]
    out = []
    for k, p in enumerate(positions[:40]):
        b = p.as_array().copy()
        if k % 4 in (1, 3):  # the mover bears off a checker from its highest point
            b[int(np.flatnonzero(b[1:25] > 0).max()) + 1] -= 1
        if k % 4 in (2, 3):
            b[int(np.flatnonzero(b[1:25] < 0).min()) + 1] += 1
        out.append(b)
    return np.array(out, dtype=np.int8)


def test_cross_entropy_is_zero_at_the_targets_and_positive_elsewhere() -> None:
    t = np.array([[0.6, 0.2, 0.0, 0.1, 1.0]])
    assert cross_entropy(t, t) == pytest.approx(0.0, abs=1e-6)
    assert cross_entropy(np.array([[0.5, 0.3, 0.1, 0.1, 0.9]]), t) > 0.01


def test_the_mask_rules_out_the_gammons_of_a_side_that_has_borne_off() -> None:
    opening = Position.from_id("4HPwATDgc/ABMA").as_array()
    np.testing.assert_array_equal(ruled_out_mask(opening[None]), [[1, 1, 1, 1, 1]])
    boards = _borne_off_boards()
    mask = ruled_out_mask(boards)
    mover_off = np.array([k % 4 in (1, 3) for k in range(len(boards))])
    opponent_off = np.array([k % 4 in (2, 3) for k in range(len(boards))])
    np.testing.assert_array_equal(mask[:, 0], 1)
    np.testing.assert_array_equal(mask[:, 1], ~opponent_off)  # the mover's gammon wins
    np.testing.assert_array_equal(mask[:, 2], ~opponent_off)
    np.testing.assert_array_equal(mask[:, 3], ~mover_off)  # the opponent's
    np.testing.assert_array_equal(mask[:, 4], ~mover_off)


def test_a_masked_output_scores_nothing_and_moves_nothing() -> None:
    rng = np.random.default_rng(2)
    net = Net.random(6, rng)
    params = [a.astype(np.float64) for a in net.arrays()]
    boards = _borne_off_boards()
    x = encode(boards).astype(np.float64)
    mask = ruled_out_mask(boards)
    t = rng.uniform(0, 1, (len(boards), 5))
    other = np.where(mask == 0, 1 - t, t)  # the ruled-out targets changed, the rest kept
    ce, grads = gradients(params, x, t, mask)
    ce_other, grads_other = gradients(params, x, other, mask)
    assert ce == pytest.approx(ce_other, rel=1e-12)
    for g, h in zip(grads, grads_other, strict=True):
        np.testing.assert_allclose(g, h, rtol=1e-12, atol=1e-15)
    # unmasked the changed targets count, and a mask of ones is no mask
    assert gradients(params, x, other)[0] != pytest.approx(gradients(params, x, t)[0], rel=1e-6)
    ones = gradients(params, x, t, np.ones_like(mask))
    assert ones[0] == gradients(params, x, t)[0]
    # the masked loss's gradient is its slope
    h = 1e-6
    index = (3, 2)
    old = params[2][index]
    params[2][index] = old + h
    up, _ = gradients(params, x, t, mask)
    params[2][index] = old - h
    down, _ = gradients(params, x, t, mask)
    params[2][index] = old
    assert grads[2][index] == pytest.approx((up - down) / (2 * h), rel=1e-4, abs=1e-9)


def test_the_fit_ignores_the_targets_of_ruled_out_gammons_unless_told_to_score_them() -> None:
    boards = _borne_off_boards()
    start = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=3).contact
    rng = np.random.default_rng(5)
    t = rng.uniform(0, 0.5, (len(boards), 5)).astype(np.float32)
    mask = ruled_out_mask(boards)
    zeros = np.where(mask == 0, 0, t).astype(np.float32)
    ones = np.where(mask == 0, 1, t).astype(np.float32)
    quiet = {"seed": 1, "note": lambda line: None}
    settings = AdamSettings(epochs=3, batch=8, lr=0.01)
    a = adam_fit(start, boards, zeros, settings, **quiet)
    b = adam_fit(start, boards, ones, settings, **quiet)
    for p, q in zip(a.arrays(), b.arrays(), strict=True):
        np.testing.assert_array_equal(p, q)
    scoring = AdamSettings(epochs=3, batch=8, lr=0.01, score_ruled_out=True)
    c = adam_fit(start, boards, zeros, scoring, **quiet)
    d = adam_fit(start, boards, ones, scoring, **quiet)
    assert np.abs(c.w2 - d.w2).max() > 1e-3
    # an output the fit leaves free drifts with its inputs' weights, no more: the ruled-out ones
    # were scored against 1 in ``d`` and sit higher there than in the masked fit
    y = a.forward(encode(boards))
    y_scored = d.forward(encode(boards))
    assert (y_scored[mask == 0] > y[mask == 0]).mean() > 0.9


def test_adams_first_step_moves_each_weight_by_the_rate_against_its_gradient() -> None:
    p = [np.array([1.0, -2.0, 0.5]), np.array([3.0])]
    g = [np.array([0.3, -40.0, 0.0]), np.array([-1e-3])]
    m, v = [np.zeros(3), np.zeros(1)], [np.zeros(3), np.zeros(1)]
    adam_step(p, g, m, v, 1, 0.01)
    np.testing.assert_allclose(p[0], [0.99, -1.99, 0.5], atol=1e-6)
    np.testing.assert_allclose(p[1], [3.01], atol=1e-5)


def test_adam_steps_find_a_quadratics_minimum() -> None:
    target = np.array([0.7, -1.3])
    p = [np.zeros(2)]
    m, v = [np.zeros(2)], [np.zeros(2)]
    for step in range(1, 2001):
        adam_step(p, [2 * (p[0] - target)], m, v, step, 0.01)
    np.testing.assert_allclose(p[0], target, atol=1e-3)


def test_the_gradient_is_the_cross_entropys_slope() -> None:
    rng = np.random.default_rng(1)
    net = Net.random(6, rng, n_inputs=4)
    params = [a.astype(np.float64) for a in net.arrays()]
    x = rng.uniform(0, 1, (7, 4))
    t = rng.uniform(0, 1, (7, 5))
    _, grads = gradients(params, x, t)
    h = 1e-6
    for p, g in zip(params, grads):
        for index in [(0,) * p.ndim, tuple(s - 1 for s in p.shape)]:
            old = p[index]
            p[index] = old + h
            up, _ = gradients(params, x, t)
            p[index] = old - h
            down, _ = gradients(params, x, t)
            p[index] = old
            assert g[index] == pytest.approx((up - down) / (2 * h), rel=1e-4, abs=1e-9)


def test_adam_fits_a_random_net_to_labels_and_keeps_the_best_epoch(tmp_path) -> None:
    labels = make_labels(
        NeuralEvaluator.default(),
        tmp_path / "l.npz",
        LabelSettings(plies=1),
        Sampling(games=8, every=2, contact_only=True),
        note=lambda line: None,
    )
    held = slice(0, 20)
    start = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=3).contact
    lines: list[str] = []
    settings = AdamSettings(epochs=8, batch=16, lr=0.01)
    fitted = adam_fit(
        start,
        labels.boards[20:],
        labels.targets[20:],
        settings,
        held=(labels.boards[held], labels.targets[held]),
        note=lines.append,
    )
    x = encode(labels.boards[held])
    mask = ruled_out_mask(labels.boards[held])  # as the fit scores the held-out positions
    before = cross_entropy(start.forward(x), labels.targets[held], mask)
    after = cross_entropy(fitted.forward(x), labels.targets[held], mask)
    assert after < 0.7 * before
    # the kept epoch is the best one logged
    logged = [float(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("adam epoch")]
    assert after == pytest.approx(min(logged), rel=1e-4)
    # keep_last: the held-out error is only reported, the last epoch is kept
    lines.clear()
    last = adam_fit(
        start,
        labels.boards[20:],
        labels.targets[20:],
        AdamSettings(epochs=8, batch=16, lr=0.2, keep_last=True),
        held=(labels.boards[held], labels.targets[held]),
        note=lines.append,
    )
    logged = [float(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("adam epoch")]
    assert cross_entropy(last.forward(x), labels.targets[held], mask) == pytest.approx(logged[-1], rel=1e-4)
    assert logged[-1] > min(logged)
    with pytest.raises(ValueError, match="bad Adam settings"):
        AdamSettings(lr=0.0)
