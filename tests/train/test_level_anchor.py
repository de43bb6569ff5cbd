"""gammon.train.supervised's two guards of a fit to search labels: labels moved to the nets' own
level in each decision (their differences kept), and an anchor set of the nets' own outputs."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import race_mask
from gammon.engine.net.neural import Net, NeuralEvaluator
from gammon.train.__main__ import main
from gammon.train.labels import LabelSet
from gammon.train.supervised import anchor_set, fitted_mask, level_kept, own_outputs
from tests.train.test_labels import _net, _valid
from tests.train.test_rank_fit import _boards, saved_with_alternatives


def _with_crashed(seed: int) -> NeuralEvaluator:
    ev = _net(seed)
    return ev.replaced(crashed=Net.random(ev.contact.hidden, np.random.default_rng(seed + 100)))


def _crashed_boards(ev: NeuralEvaluator) -> np.ndarray:
    boards = anchor_set(ev, ("crashed",), 40, 3).boards
    assert len(boards) and crashed_mask(boards).all()
    return boards


def test_a_contact_fit_speaks_with_the_contact_net_on_crashed_boards() -> None:
    ev = _with_crashed(4)
    boards = _crashed_boards(ev)
    contact_only = own_outputs(ev, ("contact",))
    assert contact_only.crashed is None and ev.crashed is not None  # the caller's evaluator kept
    np.testing.assert_array_equal(
        contact_only.evaluate(boards), ev.replaced(crashed=None).evaluate(boards)
    )
    assert not np.allclose(contact_only.evaluate(boards), ev.evaluate(boards))
    for nets in (("crashed",), ("contact", "crashed"), ("race",)):
        assert own_outputs(ev, nets) is ev


def test_the_fitted_boards_are_those_each_net_is_fitted_to() -> None:
    boards = anchor_set(_net(2), ("contact", "race"), 30, 3).boards  # whole games: every kind
    races, crashed = race_mask(boards), crashed_mask(boards)
    assert races.any() and (~races).any() and crashed.any()
    np.testing.assert_array_equal(fitted_mask(boards, ("contact",)), ~races)
    np.testing.assert_array_equal(fitted_mask(boards, ("race",)), races)
    np.testing.assert_array_equal(fitted_mask(boards, ("crashed",)), crashed)
    assert fitted_mask(boards, ("contact", "race")).all()


def test_level_kept_moves_each_decisions_mean_to_the_nets_and_keeps_the_differences() -> None:
    ev = NeuralEvaluator.default()  # a random net's gammons are near its wins: moves would clip
    boards = _boards(20)
    decisions = np.repeat(np.arange(5), 4)
    rng = np.random.default_rng(8)
    # targets near the net's own outputs, so that nothing is clipped: the net's level plus a
    # decision's offset plus each board's own difference
    own = ev.evaluate(boards).astype(np.float64)
    targets = own.copy()
    targets[:, 0] += np.repeat(rng.uniform(-0.05, 0.05, 5), 4) + rng.uniform(-0.01, 0.01, 20)
    targets[:, 0] = np.clip(targets[:, 0], targets[:, 1] + 0.02, 1 - targets[:, 3] - 0.02)
    labels = LabelSet(boards, targets.astype(np.float32), "t", decisions)
    moved = level_kept(labels, ev)
    assert moved.decisions is not None and moved.decisions.tolist() == decisions.tolist()
    assert np.array_equal(moved.boards, boards) and _valid(moved.targets)
    new = moved.targets.astype(np.float64)
    for d in range(5):
        rows = decisions == d
        np.testing.assert_allclose(new[rows].mean(axis=0), own[rows].mean(axis=0), atol=1e-6)
        np.testing.assert_allclose(
            new[rows] - new[rows].mean(axis=0), targets[rows] - targets[rows].mean(axis=0), atol=1e-6
        )
    assert np.abs(new[:, 0] - targets[:, 0]).max() > 0.01  # the levels did move
    # a position that is its own decision gets the net's own outputs
    alone = level_kept(LabelSet(boards, labels.targets, "t"), ev)
    np.testing.assert_allclose(alone.targets, own, atol=1e-6)


def test_an_anchor_set_is_the_nets_own_outputs_on_the_boards_they_are_fitted_to() -> None:
    ev = _with_crashed(6)
    anchor = anchor_set(ev, ("contact",), 30, 11)
    assert len(anchor) > 100 and not race_mask(anchor.boards).any()
    assert crashed_mask(anchor.boards).any()  # the contact net's crashed boards come too
    np.testing.assert_allclose(anchor.targets, ev.replaced(crashed=None).evaluate(anchor.boards), atol=1e-6)
    again = anchor_set(ev, ("contact",), 30, 11)
    assert np.array_equal(again.boards, anchor.boards) and np.array_equal(again.targets, anchor.targets)
    other = anchor_set(ev, ("contact",), 30, 12)
    assert not np.array_equal(other.boards[: len(anchor)], anchor.boards[: len(other)])
    races = anchor_set(ev, ("race",), 30, 11)
    assert len(races) and race_mask(races.boards).all()


def test_the_fit_command_keeps_the_level_and_fits_an_anchor_set(tmp_path, capsys) -> None:
    ev, alt, _ = saved_with_alternatives(tmp_path)
    fit = ["fit", "--resume", str(tmp_path / "a.npz"), "--nets", "contact", "--epochs", "1"]
    fit += ["--check-pairs", "0", "--labels", str(alt)]
    anchored = ["--keep-level", "--anchor-games", "3", "--anchor-seed", "4"]
    main([*fit, *anchored, "--out", str(tmp_path / "w.npz")])
    out = capsys.readouterr().out
    assert "labels moved to the nets' own level in each decision" in out
    expected = len(anchor_set(ev, ("contact",), 3, 4))
    assert f"anchor: {expected:,} positions of 3 games" in out
    assert NeuralEvaluator.load(tmp_path / "w.npz").contact.hidden == ev.contact.hidden
    with pytest.raises(SystemExit) as stop:
        main([*fit, "--method", "sgd", "--keep-level", "--out", str(tmp_path / "v.npz")])
    assert stop.value.code == 2
    assert "--keep-level and --anchor-games need --method adam" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*fit, "--anchor-games", "-1", "--out", str(tmp_path / "v.npz")])
    assert "anchor_games >= 0, got 1, 0 and -1" in capsys.readouterr().err
