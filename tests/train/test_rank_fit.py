"""gammon.train.batch_fit's ranking term: its gradient by finite differences, mini-batches of whole
decisions, a fit that learns the differences within decisions, and label sets that keep their
decisions through selection and concatenation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import encode
from gammon.engine.net.neural import Net, NeuralEvaluator
from gammon.train.__main__ import main
from gammon.train.batch_fit import (
    EQUITY,
    AdamSettings,
    adam_fit,
    decision_batches,
    deviations,
    rank_gradients,
    ruled_out_mask,
)
from gammon.train.labels import LabelSet, LabelSettings, Sampling, _save, make_labels, run_on
from gammon.train.selfplay import TrainSettings, save
from tests.helpers import random_game_positions
from tests.train.test_labels import _net, _quiet

GROUPS = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 5, 5, 6, 6, 6, 6, 6])


def _boards(n: int) -> np.ndarray:
    positions = random_game_positions(3, 11)
    return np.array([p.as_array() for p in positions[:n]], dtype=np.int8)


def _loss(params: list[np.ndarray], x: np.ndarray, t: np.ndarray, mask: np.ndarray, weight: float) -> float:
    ce, ms, _ = rank_gradients(params, x, t, mask, GROUPS, weight)
    return ce + weight * ms


def test_the_ranking_terms_gradient_is_its_slope() -> None:
    rng = np.random.default_rng(4)
    boards = _boards(len(GROUPS))
    x = encode(boards).astype(np.float64)
    params = [a.astype(np.float64) for a in Net.random(6, rng).arrays()]
    t = rng.uniform(0, 1, (len(boards), 5))
    mask = ruled_out_mask(boards).astype(np.float64)
    mask[3, 1] = 0.0  # an output the board rules out scores nothing in either term
    weight = 7.0
    _, ms, grads = rank_gradients(params, x, t, mask, GROUPS, weight)
    assert ms > 0
    h = 1e-6
    for k, index in ((0, (int(np.flatnonzero(x.any(axis=0))[0]), 2)), (1, (4,)), (2, (3, 1)), (3, (0,))):
        old = params[k][index]
        params[k][index] = old + h
        up = _loss(params, x, t, mask, weight)
        params[k][index] = old - h
        down = _loss(params, x, t, mask, weight)
        params[k][index] = old
        assert grads[k][index] == pytest.approx((up - down) / (2 * h), rel=1e-4, abs=1e-10)


def test_the_ranking_term_sees_only_differences_within_a_decision() -> None:
    rng = np.random.default_rng(5)
    boards = _boards(len(GROUPS))
    x = encode(boards).astype(np.float64)
    net = Net.random(6, rng)
    params = [a.astype(np.float64) for a in net.arrays()]
    mask = np.ones((len(boards), 5))
    y = net.forward(encode(boards)).astype(np.float64)
    # targets whose equities differ from the net's by one amount in each decision: nothing to rank
    shift = np.zeros((len(boards), 5))
    shift[:, 0] = 0.01 * GROUPS  # each decision's win chance raised alike
    _, ms, _ = rank_gradients(params, x, y + shift, mask, GROUPS, 1.0)
    assert ms == pytest.approx(0.0, abs=1e-12)  # float32 outputs
    _, ms_other, _ = rank_gradients(params, x, y + shift[::-1], mask, GROUPS, 1.0)
    assert ms_other > 1e-6
    values, groups = np.array([1.0, 3.0, 5.0, 5.0]), np.array([0, 0, 1, 1])
    np.testing.assert_allclose(deviations(values, groups), [-1, 1, 0, 0])


def test_batches_are_whole_decisions_and_cover_every_row_once() -> None:
    rng = np.random.default_rng(1)
    batches = decision_batches(GROUPS, 6, rng)
    rows = np.concatenate(batches)
    assert sorted(rows.tolist()) == list(range(len(GROUPS)))
    for batch in batches:
        for g in np.unique(GROUPS[batch]):
            assert set(np.flatnonzero(GROUPS == g)) <= set(batch.tolist())
    assert len(batches) > 1


def test_a_fit_with_a_rank_weight_learns_the_differences_within_decisions() -> None:
    boards = _boards(120)
    groups = np.repeat(np.arange(30), 4)
    teacher = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=9).contact
    start = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=3).contact
    x = encode(boards)
    targets = teacher.forward(x)
    mask = ruled_out_mask(boards)

    def deviation_error(net: Net) -> float:
        own = deviations((net.forward(x) * mask) @ EQUITY, groups)
        miss = own - deviations((targets * mask) @ EQUITY, groups)
        return float(np.mean(miss * miss))

    plain = adam_fit(start, boards, targets, AdamSettings(epochs=6, batch=16, lr=0.01), note=_quiet)
    settings = AdamSettings(epochs=6, batch=16, lr=0.01, rank_weight=30.0)
    ranked = adam_fit(start, boards, targets, settings, groups=groups, note=_quiet)
    assert deviation_error(ranked) < 0.5 * deviation_error(plain)
    with pytest.raises(ValueError, match="needs each board's decision"):
        adam_fit(start, boards, targets, AdamSettings(rank_weight=1.0), note=_quiet)
    with pytest.raises(ValueError, match="bad Adam settings"):
        AdamSettings(rank_weight=-1.0)


def test_label_sets_keep_their_decisions(tmp_path) -> None:
    boards = _boards(9)
    targets = np.full((9, 5), 0.5, dtype=np.float32)
    a = LabelSet(boards[:5], targets[:5], "a", np.array([0, 0, 1, 1, 1]))
    b = LabelSet(boards[5:7], targets[5:7], "b")  # no decisions: each position its own
    c = LabelSet(boards[7:], targets[7:], "c", np.array([4, 4]))
    joined = LabelSet.concatenate([a, b, c])
    assert joined.decisions is not None
    assert joined.decisions.tolist() == [0, 0, 1, 1, 1, 2, 3, 4, 4]
    assert LabelSet.concatenate([b, b]).decisions is None
    picked = joined.select(np.array([True, False, True, True, False, True, True, False, True]))
    assert picked.decisions is not None and picked.decisions.tolist() == [0, 1, 1, 2, 3, 4]
    assert run_on([np.array([3, 3, 5]), np.array([0, 1])]).tolist() == [0, 0, 2, 3, 4]
    with pytest.raises(ValueError, match="decisions must give each position its decision"):
        LabelSet(boards[:3], targets[:3], "", np.array([1, 0, 0]))


def saved_with_alternatives(tmp_path: Path) -> tuple[NeuralEvaluator, Path, LabelSet]:
    """A small net saved as ``a.npz`` in ``tmp_path``, and ``alt.npz`` there: 1-ply labels of the
    boards after the best plays of its own games' rolls."""
    ev = _net(8)
    save(ev, TrainSettings(), tmp_path / "a.npz")
    alt = tmp_path / "alt.npz"
    sampling = Sampling(games=2, every=4, alternatives=3, seed=5)
    return ev, alt, make_labels(ev, alt, LabelSettings(plies=1), sampling, note=_quiet)


def test_the_fit_command_takes_a_rank_weight_for_labels_of_alternatives(tmp_path, capsys) -> None:
    ev, alt, labels = saved_with_alternatives(tmp_path)
    fit = ["fit", "--resume", str(tmp_path / "a.npz"), "--nets", "contact", "--epochs", "2"]
    fit += ["--check-pairs", "0"]
    main([*fit, "--labels", str(alt), "--rank-weight", "10", "--out", str(tmp_path / "w.npz")])
    out = capsys.readouterr().out
    assert out.count("deviation error") == 2
    assert NeuralEvaluator.load(tmp_path / "w.npz").contact.hidden == ev.contact.hidden
    plain = tmp_path / "plain.npz"
    _save(plain, labels.boards, labels.targets, {"description": "no decisions"})
    with pytest.raises(SystemExit) as stop:
        main([*fit, "--labels", str(plain), "--rank-weight", "10", "--out", str(tmp_path / "v.npz")])
    assert stop.value.code == 2
    assert "a rank weight needs label files of alternatives" in capsys.readouterr().err


def _largest_change(a: Net, b: Net) -> float:
    return max(float(np.abs(x - y).max()) for x, y in zip(a.arrays(), b.arrays()))


def _zero_ply_fit(tmp_path: Path, nets: str, alt: Path) -> tuple[list[str], NeuralEvaluator, NeuralEvaluator]:
    """``fit --nets nets`` of ``a.npz`` to ``alt`` (2 epochs) into ``z.npz``: the command's
    arguments but the files, and the weights it wrote and those it started from."""
    fit = ["fit", "--nets", nets, "--epochs", "2", "--check-pairs", "0", "--labels", str(alt)]
    fit += ["--rank-weight", "10"]
    main([*fit, "--resume", str(tmp_path / "a.npz"), "--out", str(tmp_path / "z.npz")])
    return fit, NeuralEvaluator.load(tmp_path / "z.npz"), NeuralEvaluator.load(tmp_path / "a.npz")


def test_the_zero_ply_net_is_fitted_as_the_contact_net_and_leaves_the_others(tmp_path, capsys) -> None:
    _, alt, _ = saved_with_alternatives(tmp_path)
    fit, made, start = _zero_ply_fit(tmp_path, "zero-ply", alt)
    assert "as the 0-ply net of" in capsys.readouterr().out
    assert _largest_change(made.contact, start.contact) == 0  # the search's nets as they were
    assert _largest_change(made.race, start.race) == 0
    assert made.zero_ply is not None and start.zero_ply is None
    assert _largest_change(made.zero_ply, start.contact) > 0  # made from the contact net, then fitted
    # a second fit starts from the file's 0-ply net, not from its contact net again
    main([*fit, "--epochs", "1", "--resume", str(tmp_path / "z.npz"), "--out", str(tmp_path / "z2.npz")])
    again = NeuralEvaluator.load(tmp_path / "z2.npz")
    assert again.zero_ply is not None
    assert _largest_change(again.zero_ply, made.zero_ply) < _largest_change(again.zero_ply, start.contact)


def test_the_zero_ply_crashed_net_is_fitted_as_a_crashed_net_and_leaves_the_others(tmp_path, capsys) -> None:
    ev = _net(8)
    save(ev, TrainSettings(), tmp_path / "a.npz")
    alt = tmp_path / "alt.npz"
    sampling = Sampling(games=12, every=1, alternatives=3, seed=5, crashed_only=True)
    labels = make_labels(ev, alt, LabelSettings(plies=1), sampling, note=_quiet)
    assert crashed_mask(labels.boards).all() and len(labels) > 20
    fit, made, start = _zero_ply_fit(tmp_path, "zero-ply-crashed", alt)
    assert "as the 0-ply crashed net of" in capsys.readouterr().out
    assert start.crashed is None and made.crashed is None  # the search's nets as they were
    assert _largest_change(made.contact, start.contact) == 0 and _largest_change(made.race, start.race) == 0
    assert made.zero_ply is None and made.zero_ply_crashed is not None
    assert _largest_change(made.zero_ply_crashed, start.contact) > 0  # made from the contact net, then fitted
    # with a crashed net and a 0-ply crashed net, a second fit starts from the latter
    made.replaced(crashed=start.contact).save(tmp_path / "c.npz")
    main([*fit, "--epochs", "1", "--resume", str(tmp_path / "c.npz"), "--out", str(tmp_path / "z2.npz")])
    again = NeuralEvaluator.load(tmp_path / "z2.npz")
    assert again.crashed is not None and _largest_change(again.crashed, start.contact) == 0
    assert again.zero_ply_crashed is not None
    assert (_largest_change(again.zero_ply_crashed, made.zero_ply_crashed)
            < _largest_change(again.zero_ply_crashed, start.contact))
