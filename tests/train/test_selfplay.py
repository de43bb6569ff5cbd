"""Training: a tiny self-play run learns, resumes identically, and the 1-ply improvement works."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.engine.net.neural import NeuralEvaluator
from gammon.train.__main__ import main
from gammon.train.selfplay import TrainSettings, train_games, vs_pubeval
from gammon.train.supervised import fit, labelled_positions


def _weights(ev: NeuralEvaluator) -> list[np.ndarray]:
    return [a.copy() for a in ev.contact.arrays() + ev.race.arrays()]


@pytest.mark.slow
def test_training_changes_weights_and_counts_games() -> None:
    ev = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=1)
    before = _weights(ev)
    plies = train_games(ev, TrainSettings(seed=5), 4)
    assert ev.games == 4 and plies > 4 * 20
    assert any(not np.array_equal(a, b) for a, b in zip(before, _weights(ev)))


def test_resume_from_checkpoint_is_identical(tmp_path) -> None:
    args = [
        "selfplay",
        "--games",
        "6",
        "--hidden",
        "8",
        "--race-hidden",
        "4",
        "--seed",
        "3",
        "--chunk",
        "3",
        "--threads",
        "1",
        "--check-every",
        "0",
        "--quiet",
    ]
    straight = tmp_path / "straight.npz"
    main(args + ["--out", str(straight)])
    resumed = tmp_path / "resumed.npz"
    main([a if a != "6" else "3" for a in args] + ["--out", str(resumed)])
    assert NeuralEvaluator.load(resumed).games == 3
    main([a if a != "6" else "3" for a in args] + ["--out", str(resumed)])  # continues from --out
    a, b = NeuralEvaluator.load(straight), NeuralEvaluator.load(resumed)
    assert a.games == b.games == 6
    for x, y in zip(_weights(a), _weights(b)):
        assert np.array_equal(x, y)


def test_different_seeds_play_different_games() -> None:
    a = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=1)
    b = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=1)
    train_games(a, TrainSettings(seed=1), 2)
    train_games(b, TrainSettings(seed=2), 2)
    assert not np.array_equal(a.contact.w1, b.contact.w1)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="1.5"):
        TrainSettings(lam=1.5)


def test_learning_rate_decays_to_its_floor() -> None:
    s = TrainSettings(alpha=0.1, alpha_half=100, alpha_min=0.01)
    assert s.alpha_at(0) == pytest.approx(0.1)
    assert s.alpha_at(100) == pytest.approx(0.05)
    assert s.alpha_at(10**9) == pytest.approx(0.01)


def test_pubeval_check_is_mirrored_and_scored() -> None:
    ev = NeuralEvaluator.default()
    result = vs_pubeval(ev, pairs=6, seed=4)
    assert result.games == 12
    # each cubeless game scores 1, 2 or 3 points: the total over the games is a whole number
    total = result.ppg * result.games
    assert total == pytest.approx(round(total)) and result.stderr > 0
    again = vs_pubeval(ev, pairs=6, seed=4)
    assert again.ppg == result.ppg


@pytest.mark.slow
def test_one_ply_labels_are_probabilities_and_fit_moves_toward_them() -> None:
    ev = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=2)
    boards, targets = labelled_positions(ev, games=2, every=10, seed=1)
    assert len(boards) > 2 and targets.shape == (len(boards), 5)
    assert np.all((targets >= 0) & (targets <= 1))
    assert np.all(targets[:, 0] >= targets[:, 1]) and np.all(targets[:, 1] >= targets[:, 2])
    assert np.all(1 - targets[:, 0] >= targets[:, 3]) and np.all(targets[:, 3] >= targets[:, 4])
    first = fit(ev, boards, targets, alpha=0.5, seed=0)
    for epoch in range(20):
        last = fit(ev, boards, targets, alpha=0.5, seed=epoch)
    assert last < first
