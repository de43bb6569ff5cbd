"""gammon.train.batch_fit: the cross-entropy's gradient by finite differences, and Adam's fit."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.engine.net.neural import Net, NeuralEvaluator
from gammon.train.batch_fit import AdamSettings, adam_fit, adam_step, cross_entropy, gradients
from gammon.train.labels import LabelSettings, Sampling, make_labels


def test_cross_entropy_is_zero_at_the_targets_and_positive_elsewhere() -> None:
    t = np.array([[0.6, 0.2, 0.0, 0.1, 1.0]])
    assert cross_entropy(t, t) == pytest.approx(0.0, abs=1e-6)
    assert cross_entropy(np.array([[0.5, 0.3, 0.1, 0.1, 0.9]]), t) > 0.01


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
    fitted = adam_fit(start, labels.boards[20:], labels.targets[20:], settings,
                      held=(labels.boards[held], labels.targets[held]), note=lines.append)
    from gammon.engine.net.encode import encode

    x = encode(labels.boards[held])
    before = cross_entropy(start.forward(x), labels.targets[held])
    after = cross_entropy(fitted.forward(x), labels.targets[held])
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
        AdamSettings(epochs=8, batch=16, lr=0.2),
        held=(labels.boards[held], labels.targets[held]),
        keep_last=True,
        note=lines.append,
    )
    logged = [float(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("adam epoch")]
    assert cross_entropy(last.forward(x), labels.targets[held]) == pytest.approx(logged[-1], rel=1e-4)
    assert logged[-1] > min(logged)
    with pytest.raises(ValueError, match="bad Adam settings"):
        AdamSettings(lr=0.0)
