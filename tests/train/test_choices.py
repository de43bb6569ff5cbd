"""Judging a net's 0-ply choices among labelled alternatives (gammon.train.choices)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gammon.engine.net.evaluator import cubeless_equity
from gammon.train.__main__ import main
from gammon.train.choices import Decisions, net_losses
from gammon.train.labels import LabelSet, LabelSettings, Sampling, _save, make_labels
from tests.helpers import bad_npz_files
from tests.train.test_labels import _net, _quiet


def _win_only(wins: list[float]) -> np.ndarray:
    """Probabilities with no gammons: cubeless equity 2w - 1 for the player on roll."""
    return np.array([[w, 0.0, 0.0, 0.0, 0.0] for w in wins])


def test_the_loss_of_a_pick_is_the_labels_best_minus_the_labels_value_of_the_pick() -> None:
    # the opponent on roll wins 40%, 30%, 50% by the labels: the chooser's equities 0.2, 0.4, 0.0
    targets = _win_only([0.4, 0.3, 0.5, 0.7, 0.55, 0.45]).astype(np.float32)
    labels = LabelSet(np.zeros((6, 26), dtype=np.int8), targets, "hand-made")
    decisions = Decisions.of(labels, np.array([0, 0, 0, 1, 2, 2]))
    assert decisions.starts.tolist() == [0, 4] and decisions.stops.tolist() == [3, 6]  # one play: no choice
    # the net thinks the first board best (opponent 20%) where the labels find the second best:
    # it gives up 0.4 - 0.2; a tie goes to the first board, which the labels rate 0.1 - (-0.1) worse
    losses = decisions.losses(_win_only([0.2, 0.35, 0.6, 0.5, 0.5]))
    assert losses == pytest.approx([0.2, 0.2])
    assert decisions.losses(_win_only([0.5, 0.1, 0.5, 0.6, 0.4])) == pytest.approx([0.0, 0.0])
    # only the decisions wholly at or after the first held-out row
    assert Decisions.of(labels, np.array([0, 0, 0, 1, 2, 2]), first=2).starts.tolist() == [4]
    with pytest.raises(ValueError, match="each position its decision, in order"):
        Decisions.of(labels, np.array([0, 0, 1, 0, 2, 2]))


def test_a_label_run_of_alternatives_records_its_decisions_and_the_labelling_net_picks_their_first(
    tmp_path, capsys
) -> None:
    ev = _net(8)
    path = tmp_path / "alt.npz"
    labels = make_labels(
        ev, path, LabelSettings(plies=1), Sampling(games=2, every=4, alternatives=3, seed=5), note=_quiet
    )
    decisions = Decisions.load(path, holdout=0)
    assert len(decisions) >= 3 and np.array_equal(decisions.labels.boards, labels.boards)
    assert np.all(decisions.stops - decisions.starts <= 3)
    # the labelling net ranked each decision's boards best first, so it picks the first
    chooser = -cubeless_equity(labels.targets.astype(np.float64))
    best = np.array([chooser[a:b].max() for a, b in zip(decisions.starts, decisions.stops)])
    assert net_losses(ev, decisions) == pytest.approx(best - chooser[decisions.starts])
    assert np.all(net_losses(_net(9), decisions) >= 0)
    plain = tmp_path / "plain.npz"
    _save(plain, labels.boards, labels.targets, {"description": "no decisions"})
    with pytest.raises(ValueError, match="has no decisions: make it with label --alternatives"):
        Decisions.load(plain)
    with pytest.raises(ValueError, match="holdout must be a share in \\[0, 1\\), got 1.5"):
        Decisions.load(path, holdout=1.5)


def test_a_file_that_is_not_a_label_file_is_named(tmp_path) -> None:
    for bad in bad_npz_files(tmp_path):
        with pytest.raises(ValueError, match=re.escape(f"{str(bad)!r} is not a gammon label file: ")):
            Decisions.load(bad)


def test_the_choices_command_reports_each_net_against_the_first(tmp_path, capsys) -> None:
    from gammon.train.selfplay import TrainSettings, save

    ev, other = _net(8), _net(9)
    save(ev, TrainSettings(), tmp_path / "a.npz")
    save(other, TrainSettings(), tmp_path / "b.npz")
    make_labels(
        ev,
        tmp_path / "alt.npz",
        LabelSettings(plies=1),
        Sampling(games=2, every=4, alternatives=3, seed=5),
        note=_quiet,
    )
    main(
        [
            "choices",
            "--labels",
            str(tmp_path / "alt.npz"),
            "--holdout",
            "0",
            str(tmp_path / "a.npz"),
            str(tmp_path / "b.npz"),
        ]
    )
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "mEMG a decision" in out[0] and "minus the first" in out[1]
    with pytest.raises(SystemExit):
        main(["choices", "--labels", str(tmp_path / "missing.npz"), str(tmp_path / "a.npz")])
    assert "missing.npz" in capsys.readouterr().err
