"""The contact net's cube head: its fit, its file, and where the engine uses it (cube decisions,
not checker play)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gammon import Position
from gammon.engine.engine import Engine, default_bearoff
from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import borne_off_mask, race_mask
from gammon.engine.net.neural import CubeHead, Net, NeuralEvaluator
from gammon.engine.search.searcher import Searcher
from gammon.train.__main__ import main
from gammon.train.batch_fit import AdamSettings, ruled_out_mask
from gammon.train.cube_head import CubeHeadSettings, fit_cube_head
from gammon.train.labels import LABEL_FORMAT, LabelSet, set_up_positions
from gammon.train.selfplay import TrainSettings, save
from gammon.train.supervised import adam_fit_labels
from tests.helpers import random_game_positions

OPENING = "4HPwATDgc/ABMA"
RACE = "6j0AAFjOAQAAAA"


def _contact_boards(n: int, seed: int) -> np.ndarray:
    """``n`` contact positions: the opening with a few of the mover's checkers moved forward."""
    rng = np.random.default_rng(seed)
    base = Position.from_id(OPENING).as_array()
    boards = []
    for _ in range(n):
        b = base.copy()
        for _ in range(int(rng.integers(1, 7))):
            src = int(rng.choice(np.flatnonzero(b[1:25] > 0) + 1))
            dst = src - int(rng.integers(1, 7))
            if dst >= 1 and b[dst] >= 0:  # no hits: an open point or the mover's own
                b[src] -= 1
                b[dst] += 1
        boards.append(b)
    out = np.array(boards, dtype=np.int8)
    return out[~race_mask(out)]


def _labels(ev: NeuralEvaluator, n: int = 300, seed: int = 3) -> LabelSet:
    """Targets a fixed shift away from the net's own chances: more wins, fewer gammons lost."""
    boards = _contact_boards(n, seed)
    t = ev.evaluate(boards)
    t[:, 0] = np.minimum(1.0, t[:, 0] + 0.1)
    t[:, 3:] *= 0.5
    return LabelSet(boards, t.astype(np.float32), "shifted")


@pytest.fixture(scope="module")
def net() -> NeuralEvaluator:
    return NeuralEvaluator.random(hidden=16, race_hidden=8, seed=5)


def _save_rollouts(labels: LabelSet, path: Path) -> None:
    """A rollout label file of ``labels``, as ``label --kind rollout`` writes one."""
    np.savez(
        path, boards=labels.boards, targets=labels.targets, label_format=LABEL_FORMAT, description="shifted"
    )


def test_the_head_fits_what_the_net_misses_and_the_net_keeps_its_outputs(net: NeuralEvaluator) -> None:
    labels = _labels(net)
    fitted, report = fit_cube_head(net, labels, CubeHeadSettings(steps=400, lr=0.05, lam=0.0))
    assert report.positions == len(labels.boards) and report.held_out == round(0.2 * len(labels.boards))
    assert report.head[0] < report.net[0]  # held-out cross-entropy
    assert report.head[1][0] < report.net[1][0] / 2  # the chance to win: the shift is learnt
    boards = labels.boards[:20]
    assert np.array_equal(fitted.evaluate(boards), net.evaluate(boards))
    cube = fitted.evaluate_for_cube(boards)
    assert np.mean(cube[:, 0] - net.evaluate(boards)[:, 0]) > 0.05
    assert np.array_equal(net.evaluate_for_cube(boards), net.evaluate(boards))  # no head: the same
    assert "cube head" in "\n".join(report.lines())


def test_one_pass_gives_both_heads_as_each_alone(net: NeuralEvaluator) -> None:
    fitted, _ = fit_cube_head(net, _labels(net), CubeHeadSettings(steps=50, holdout=0.0))
    race = Position.from_id(RACE).as_array()[None, :]
    boards = np.concatenate([_contact_boards(30, 11), race, _contact_boards(5, 12)])
    play, cube = fitted.evaluate_with_cube(boards)
    assert np.array_equal(play, fitted.evaluate(boards))
    assert np.array_equal(cube, fitted.evaluate_for_cube(boards))
    assert not np.array_equal(play, cube) and np.array_equal(play[30], cube[30])  # a race: no head
    assert all(np.array_equal(a, net.evaluate(boards)) for a in net.evaluate_with_cube(boards))
    empty = fitted.evaluate_with_cube(boards[:0])
    assert empty[0].shape == empty[1].shape == (0, 5)
    searcher = Searcher(fitted, default_bearoff())
    over = np.zeros((1, 26), np.int8)
    over[0, 3] = 1  # the side not on roll has borne off: a finished game
    home = np.zeros((1, 26), np.int8)
    home[0, [2, 22]] = 2, -2  # both sides in their home boards: the bear-off database's
    mixed = np.concatenate([boards[:3], over, home, boards[:3]])
    assert searcher.exact(mixed).tolist() == [False] * 3 + [True] * 2 + [False] * 3
    leaf, leaf_cube = searcher.leaf_and_cube(mixed)
    assert np.array_equal(leaf, searcher.leaf(mixed))
    assert np.array_equal(leaf_cube, searcher.leaf(mixed, for_cube=True))
    assert np.array_equal(leaf[3:5], leaf_cube[3:5]) and not np.array_equal(leaf[:3], leaf_cube[:3])
    assert all(np.array_equal(a, searcher.leaf(mixed[3:5])) for a in searcher.leaf_and_cube(mixed[3:5]))


def test_lam_holds_the_head_to_the_nets_outputs(net: NeuralEvaluator) -> None:
    labels = _labels(net)
    free, _ = fit_cube_head(net, labels, CubeHeadSettings(steps=200, lr=0.05, lam=0.0, holdout=0.0))
    held, _ = fit_cube_head(net, labels, CubeHeadSettings(steps=200, lr=0.05, lam=10.0, holdout=0.0))
    assert free.cube_head is not None and held.cube_head is not None
    moved = [np.abs(h.cube_head.w2 - net.contact.w2).sum() for h in (free, held)]  # type: ignore[union-attr]
    assert moved[1] < moved[0] / 5


def test_from_head_starts_from_the_head_the_net_has_and_holds_the_fit_near_it(net: NeuralEvaluator) -> None:
    labels = _labels(net)
    old = CubeHead(net.contact.w2 + np.float32(0.3), net.contact.b2.copy())
    headed = NeuralEvaluator(net.contact, net.race, 0, old, old)
    settings = CubeHeadSettings(steps=200, lr=0.05, lam=10.0, from_head=True)
    for borne in (False, True):
        if borne:  # the borne-off head's positions: the labels' boards set up
            boards = set_up_positions(labels.boards, 3, seed=2)
            labels = LabelSet(boards, net.evaluate(boards).astype(np.float32))
        kind = "borne" if borne else "cube"
        fitted, report = fit_cube_head(headed, labels, settings, kind)
        new = fitted.borne_head if borne else fitted.cube_head
        plain, _ = fit_cube_head(headed, labels, CubeHeadSettings(steps=200, lr=0.05, lam=10.0), kind)
        near = plain.borne_head if borne else plain.cube_head
        assert new is not None and near is not None
        # held near the head it had, not the net's own outputs, as the plain fit is
        assert np.abs(new.w2 - old.w2).sum() < np.abs(new.w2 - net.contact.w2).sum() / 5
        assert np.abs(near.w2 - net.contact.w2).sum() < np.abs(near.w2 - old.w2).sum() / 5
        assert report.before is not None and "the head before" in "\n".join(report.lines())
    with pytest.raises(ValueError, match="no cube head to start from"):
        fit_cube_head(net, labels, settings)


def test_win_window_fits_only_the_positions_in_it(net: NeuralEvaluator, tmp_path: Path) -> None:
    labels = _labels(net)
    win = net.evaluate(labels.boards)[:, 0]
    lo, hi = (float(x) for x in np.quantile(win, [0.25, 0.75]))
    inside = (win >= lo) & (win <= hi)
    settings = CubeHeadSettings(steps=50, holdout=0.0, win_window=(lo, hi))
    fitted, report = fit_cube_head(net, labels, settings)
    assert report.positions == inside.sum() < len(labels)
    # the same head as a fit of those positions alone
    alone, _ = fit_cube_head(net, labels.select(inside), CubeHeadSettings(steps=50, holdout=0.0))
    assert fitted.cube_head is not None and alone.cube_head is not None
    assert np.array_equal(fitted.cube_head.w2, alone.cube_head.w2)
    with pytest.raises(ValueError, match="win_window"):
        CubeHeadSettings(win_window=(0.9, 0.5))
    with pytest.raises(ValueError, match="contact positions"):
        fit_cube_head(net, labels, CubeHeadSettings(win_window=(1.0, 1.0)))
    _save_rollouts(labels, tmp_path / "rollouts.npz")
    net.save(tmp_path / "net.npz")
    args = ["cube-head", "--resume", str(tmp_path / "net.npz"), "--labels", str(tmp_path / "rollouts.npz")]
    main(
        [
            *args,
            "--out",
            str(tmp_path / "w.npz"),
            "--steps",
            "50",
            "--holdout",
            "0",
            "--win-window",
            str(lo),
            str(hi),
        ]
    )
    headed = NeuralEvaluator.load(tmp_path / "w.npz")
    assert headed.cube_head is not None
    assert np.allclose(headed.cube_head.w2, alone.cube_head.w2)


def test_races_have_no_head(net: NeuralEvaluator) -> None:
    race = Position.from_id(RACE).as_array()[None, :]
    labels = _labels(net)
    both = LabelSet(
        np.concatenate([labels.boards, race]), np.concatenate([labels.targets, np.zeros((1, 5), np.float32)])
    )
    fitted, report = fit_cube_head(net, both, CubeHeadSettings(steps=50, holdout=0.0))
    assert report.positions == len(labels.boards)
    assert np.array_equal(fitted.evaluate_for_cube(race), net.evaluate(race))
    with pytest.raises(ValueError, match="contact positions"):
        fit_cube_head(net, LabelSet(race, np.zeros((1, 5), np.float32)))
    with pytest.raises(ValueError, match="lam"):
        CubeHeadSettings(lam=-1.0)


def test_the_head_is_saved_and_loaded_and_a_training_checkpoint_drops_it(
    net: NeuralEvaluator, tmp_path: Path
) -> None:
    fitted, _ = fit_cube_head(net, _labels(net), CubeHeadSettings(steps=50, holdout=0.0))
    fitted.save(tmp_path / "w.npz")
    again = NeuralEvaluator.load(tmp_path / "w.npz")
    assert again.cube_head is not None and fitted.cube_head is not None
    assert np.array_equal(again.cube_head.w2, fitted.cube_head.w2)
    boards = _contact_boards(10, 9)
    assert np.array_equal(again.evaluate_for_cube(boards), fitted.evaluate_for_cube(boards))
    save(fitted, TrainSettings(), tmp_path / "checkpoint.npz")  # training moves the hidden layer
    assert NeuralEvaluator.load(tmp_path / "checkpoint.npz").cube_head is None
    with pytest.raises(ValueError, match="hidden units"):
        NeuralEvaluator(
            net.contact, net.race, 0, CubeHead(np.zeros((3, 5), np.float32), np.zeros(5, np.float32))
        )


def test_the_engine_decides_the_cube_with_the_head_and_plays_with_the_net(net: NeuralEvaluator) -> None:
    w2 = net.contact.w2.copy()
    w2[:, 0] += 0.5  # a head sure of more wins
    fitted = NeuralEvaluator(net.contact, net.race, 0, CubeHead(w2, net.contact.b2.copy()))
    p = Position.from_id(OPENING)
    plain, headed = Engine(plies=0, evaluator=net), Engine(plies=0, evaluator=fitted)
    for dice in ((3, 1), (6, 5), (4, 4)):
        assert headed.best_play(p, dice) == plain.best_play(p, dice)
    assert headed.evaluate(p) == plain.evaluate(p)
    assert headed.cube_decision(p).no_double > plain.cube_decision(p).no_double + 0.01
    # the leaves of a deeper cubeful search value it too: at 1 ply they are the opponent's boards,
    # whose head is as sure of the opponent's wins
    one = Engine(plies=1, evaluator=fitted)
    assert one.cube_decision(p).no_double < Engine(plies=1, evaluator=net).cube_decision(p).no_double - 0.01


def test_the_cli_fits_and_writes_a_head(
    net: NeuralEvaluator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    net.save(tmp_path / "net.npz")
    labels = _labels(net)
    _save_rollouts(labels, tmp_path / "rollouts.npz")
    main(
        [
            "cube-head",
            "--resume",
            str(tmp_path / "net.npz"),
            "--labels",
            str(tmp_path / "rollouts.npz"),
            "--out",
            str(tmp_path / "headed.npz"),
            "--steps",
            "20",
        ]
    )
    assert NeuralEvaluator.load(tmp_path / "headed.npz").cube_head is not None
    out = capsys.readouterr().out
    assert "held out" in out and "wrote" in out and "the head before" not in out
    main(
        [
            "cube-head",
            "--resume",
            str(tmp_path / "headed.npz"),
            "--labels",
            str(tmp_path / "rollouts.npz"),
            "--out",
            str(tmp_path / "again.npz"),
            "--steps",
            "20",
            "--from-head",
        ]
    )
    assert "the head before" in capsys.readouterr().out


def test_the_cli_starts_a_head_from_another_weights_files_head(
    net: NeuralEvaluator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the heads of a net whose contact net was fitted again: the fit dropped them
    old = CubeHead(net.contact.w2 + np.float32(0.3), net.contact.b2.copy())
    NeuralEvaluator(net.contact, net.race, 0, old, old).save(tmp_path / "before.npz")
    moved = NeuralEvaluator.random(hidden=16, race_hidden=8, seed=6).replaced(race=net.race)
    moved.save(tmp_path / "moved.npz")
    labels = _labels(net)
    _save_rollouts(labels, tmp_path / "rollouts.npz")
    fit = ["cube-head", "--resume", str(tmp_path / "moved.npz"), "--labels", str(tmp_path / "rollouts.npz")]
    fit += ["--steps", "30", "--lam", "10", "--out", str(tmp_path / "new.npz")]
    main([*fit, "--from-head-of", str(tmp_path / "before.npz")])
    assert "the head before" in capsys.readouterr().out
    new = NeuralEvaluator.load(tmp_path / "new.npz")
    assert new.cube_head is not None and new.borne_head is None
    np.testing.assert_array_equal(new.contact.w1, moved.contact.w1)  # the new hidden units
    # held near the other file's head, not the new net's own output layer
    assert np.abs(new.cube_head.w2 - old.w2).sum() < np.abs(new.cube_head.w2 - moved.contact.w2).sum() / 5
    with pytest.raises(SystemExit) as stop:
        main([*fit, "--from-head-of", str(tmp_path / "moved.npz")])
    assert stop.value.code == 2 and "no cube head to start from" in capsys.readouterr().err


def test_the_borne_off_head_takes_its_positions_and_the_cube_head_the_rest(
    net: NeuralEvaluator, tmp_path: Path
) -> None:
    games = _contact_boards(200, 4)
    set_up = set_up_positions(games, 3, seed=1)  # a side with a checker off and another out
    boards = np.concatenate([games, set_up])
    mine = borne_off_mask(boards)
    assert len(set_up) > 100 and np.array_equal(mine, np.arange(len(boards)) >= len(games))
    t = net.evaluate(boards)
    t[:, 3:] = 0.0  # rollouts that find no gammons lost
    labels = LabelSet(boards, t.astype(np.float32), "set-up")
    headed, _ = fit_cube_head(net, labels, CubeHeadSettings(steps=100, lr=0.05, holdout=0.0))
    both, report = fit_cube_head(headed, labels, CubeHeadSettings(steps=100, lr=0.05), kind="borne")
    assert report.positions == len(set_up) and "borne-off positions" in "\n".join(report.lines())
    assert both.cube_head is headed.cube_head and both.borne_head is not None
    # play keeps the net's outputs; the cube its head's, and the borne-off head's in its positions
    np.testing.assert_array_equal(both.evaluate(boards), net.evaluate(boards))
    play, cube = both.evaluate_with_cube(boards)
    np.testing.assert_array_equal(play, net.evaluate(boards))
    np.testing.assert_array_equal(cube, both.evaluate_for_cube(boards))
    np.testing.assert_array_equal(cube[~mine], headed.evaluate_for_cube(boards[~mine]))
    assert np.abs(cube[mine] - headed.evaluate_for_cube(boards[mine])).max() > 1e-3
    assert cube[mine, 3].mean() < 0.5 * net.evaluate(boards[mine])[:, 3].mean()  # it learnt
    # a borne-off head alone: the contact net's own outputs elsewhere
    alone = NeuralEvaluator(net.contact, net.race, 0, None, both.borne_head)
    np.testing.assert_array_equal(alone.evaluate_for_cube(boards)[~mine], net.evaluate(boards[~mine]))
    # saved and read back; a training checkpoint drops it with the cube head
    both.save(tmp_path / "w.npz")
    again = NeuralEvaluator.load(tmp_path / "w.npz")
    np.testing.assert_array_equal(again.evaluate_with_cube(boards)[1], cube)
    save(both, TrainSettings(), tmp_path / "checkpoint.npz")
    assert NeuralEvaluator.load(tmp_path / "checkpoint.npz").borne_head is None
    # where there is a borne-off head, the cube head is fitted to the other positions alone
    refit, report = fit_cube_head(both, labels, CubeHeadSettings(steps=10, holdout=0.0))
    assert report.positions == len(games) and refit.borne_head is both.borne_head
    with pytest.raises(ValueError, match="borne-off positions to fit, the labels have 0"):
        fit_cube_head(net, LabelSet(games, t[: len(games)].astype(np.float32)), kind="borne")
    with pytest.raises(ValueError, match="borne-off head has 3 hidden units"):
        NeuralEvaluator(
            net.contact, net.race, 0, None, CubeHead(np.zeros((3, 5), np.float32), np.zeros(5, np.float32))
        )


def test_the_engine_decides_the_cube_of_a_borne_off_position_with_its_head(net: NeuralEvaluator) -> None:
    w2 = net.contact.w2.copy()
    w2[:, 0] += 0.5  # a head sure of more wins
    borne = NeuralEvaluator(net.contact, net.race, 0, None, CubeHead(w2, net.contact.b2.copy()))
    off = Position.from_points({24: 1, 6: 5, 5: 4, 4: 3}, {24: 2, 13: 5, 8: 3, 6: 5})  # the mover: 2 off
    plain, headed = Engine(plies=0, evaluator=net), Engine(plies=0, evaluator=borne)
    assert headed.cube_decision(off).no_double > plain.cube_decision(off).no_double + 0.01
    assert headed.best_play(off, (6, 5)) == plain.best_play(off, (6, 5))
    # the opening is not its position: the net's own chances there
    p = Position.from_id(OPENING)
    assert headed.cube_decision(p).no_double == plain.cube_decision(p).no_double


def _crashed_boards(games: int, seed: int) -> np.ndarray:
    """The contact positions of random games where a side has crashed."""
    boards = np.array([p.board for p in random_game_positions(seed, games)], dtype=np.int8)
    return boards[crashed_mask(boards) & ~race_mask(boards)]


def test_the_crashed_head_fits_the_crashed_positions_alone_and_serves_their_cube_decisions(
    net: NeuralEvaluator, tmp_path: Path
) -> None:
    with_crashed = net.replaced(crashed=Net.random(12, np.random.default_rng(8)))
    games, crashed = _contact_boards(200, 4), _crashed_boards(20, 21)
    assert len(crashed) > 50 and not crashed_mask(games).any()
    boards = np.concatenate([games, crashed])
    mine = crashed_mask(boards)
    t = with_crashed.evaluate(boards)
    t[:, 0] = np.minimum(1.0, t[:, 0] + 0.15)  # rollouts surer of the wins than the nets
    labels = LabelSet(boards, t.astype(np.float32), "crashed")
    fitted, report = fit_cube_head(
        with_crashed, labels, CubeHeadSettings(steps=200, lr=0.05, lam=0.0), kind="crashed"
    )
    assert report.positions == len(crashed) and report.head[0] < report.net[0]
    assert "crashed positions" in "\n".join(report.lines()) and "crashed head" in "\n".join(report.lines())
    assert (
        fitted.crashed_head is not None
        and fitted.cube_head is None
        and fitted.crashed is with_crashed.crashed
    )
    # play keeps the nets' outputs; the cube decisions value the head in the crashed positions alone
    play, cube = fitted.evaluate_with_cube(boards)
    np.testing.assert_array_equal(play, with_crashed.evaluate(boards))
    np.testing.assert_array_equal(cube[~mine], with_crashed.evaluate(boards[~mine]))
    assert (cube[mine, 0] - play[mine, 0]).mean() > 0.05
    engine, plain = Engine(plies=0, evaluator=fitted), Engine(plies=0, evaluator=with_crashed)
    p = Position(crashed[0])
    assert all(engine.best_play(p, dice) == plain.best_play(p, dice) for dice in ((3, 1), (6, 6), (5, 2)))
    assert engine.cube_decision(p).no_double != plain.cube_decision(p).no_double
    # the contact net's cube head is fitted to the other positions
    headed, report = fit_cube_head(fitted, labels, CubeHeadSettings(steps=10, holdout=0.0))
    assert report.positions == len(games) and headed.crashed_head is fitted.crashed_head
    # saved and read back; a self-play checkpoint keeps it (self-play trains the contact and race
    # nets), a fit of the crashed net drops it
    fitted.save(tmp_path / "w.npz")
    np.testing.assert_array_equal(
        NeuralEvaluator.load(tmp_path / "w.npz").evaluate_with_cube(boards)[1], cube
    )
    save(fitted, TrainSettings(), tmp_path / "checkpoint.npz")
    assert NeuralEvaluator.load(tmp_path / "checkpoint.npz").crashed_head is not None
    refit, _ = adam_fit_labels(
        fitted, labels, tmp_path / "refit.npz", AdamSettings(epochs=1), nets=("crashed",)
    )
    assert refit.crashed_head is None and NeuralEvaluator.load(tmp_path / "refit.npz").crashed_head is None
    # the command line
    fitted.save(tmp_path / "net.npz")
    _save_rollouts(labels, tmp_path / "rollouts.npz")
    main(
        [
            "cube-head",
            "--crashed",
            "--resume",
            str(tmp_path / "w.npz"),
            "--labels",
            str(tmp_path / "rollouts.npz"),
            "--out",
            str(tmp_path / "cli.npz"),
            "--steps",
            "5",
            "--from-head",
        ]
    )
    assert NeuralEvaluator.load(tmp_path / "cli.npz").crashed_head is not None
    with pytest.raises(ValueError, match="needs a crashed net"):
        fit_cube_head(net, labels, kind="crashed")
    with pytest.raises(ValueError, match="crashed positions to fit, the labels have 0"):
        fit_cube_head(with_crashed, LabelSet(games, t[: len(games)].astype(np.float32)), kind="crashed")
    with pytest.raises(ValueError, match="kind must be one of cube, borne, crashed, got 'both'"):
        fit_cube_head(with_crashed, labels, kind="both")
    with pytest.raises(ValueError, match="no crashed head to start from"):
        fit_cube_head(with_crashed, labels, CubeHeadSettings(from_head=True), kind="crashed")
    bad = CubeHead(np.zeros((3, 5), np.float32), np.zeros(5, np.float32))
    with pytest.raises(ValueError, match="crashed head has 3 hidden units, the crashed net 12"):
        with_crashed.replaced(crashed_head=bad)
    with pytest.raises(ValueError, match="the crashed net is missing"):
        net.replaced(crashed_head=bad)
    # a new crashed net comes without the old one's head
    assert fitted.replaced(crashed=Net.random(12, np.random.default_rng(9))).crashed_head is None
    assert fitted.replaced(crashed=None).crashed_head is None
    assert fitted.replaced(crashed=fitted.crashed).crashed_head is fitted.crashed_head


def test_the_head_ignores_ruled_out_gammons_unless_told_to_score_them(net: NeuralEvaluator) -> None:
    boards = _contact_boards(200, seed=8)
    boards[::2, 6] -= 1  # half the positions: the mover has borne off a checker (from its 6-point)
    assert (boards[::2, 6] >= 0).all()
    t = net.evaluate(boards).astype(np.float32)
    mask = ruled_out_mask(boards)
    assert (mask == 0).sum() == 2 * len(boards[::2])  # lose gammon and lose backgammon
    heads = []
    for score in (False, True):
        settings = CubeHeadSettings(steps=50, lr=0.05, lam=0.0, holdout=0.0, score_ruled_out=score)
        for fill in (0.0, 1.0):
            labels = LabelSet(boards, np.where(mask == 0, fill, t).astype(np.float32))
            fitted, _ = fit_cube_head(net, labels, settings)
            assert fitted.cube_head is not None
            heads.append(fitted.cube_head.w2)
    np.testing.assert_array_equal(heads[0], heads[1])
    assert np.abs(heads[2] - heads[3]).max() > 1e-3


def test_the_command_line_scores_ruled_out_gammons_only_when_told(
    net: NeuralEvaluator, tmp_path: Path
) -> None:
    boards = _contact_boards(120, seed=8)
    boards[::2, 6] -= 1  # the mover has borne off a checker
    t = net.evaluate(boards)
    labels = LabelSet(boards, np.where(ruled_out_mask(boards) == 0, 1.0, t).astype(np.float32))
    _save_rollouts(labels, tmp_path / "rollouts.npz")
    net.save(tmp_path / "net.npz")
    common = ["--labels", str(tmp_path / "rollouts.npz"), "--out", str(tmp_path / "w.npz")]
    for flags, score in (([], False), (["--score-ruled-out"], True)):
        main(["cube-head", "--resume", str(tmp_path / "net.npz"), *common, "--steps", "30", *flags])
        head = NeuralEvaluator.load(tmp_path / "w.npz").cube_head
        settings = CubeHeadSettings(steps=30, score_ruled_out=score)
        fitted, _ = fit_cube_head(net, labels, settings)
        assert head is not None and fitted.cube_head is not None
        np.testing.assert_array_equal(head.w2, fitted.cube_head.w2)
        main(
            [
                "fit",
                "--resume",
                str(tmp_path / "net.npz"),
                *common,
                "--epochs",
                "1",
                "--check-pairs",
                "0",
                "--nets",
                "contact",
                *flags,
            ]
        )
        contact = NeuralEvaluator.load(tmp_path / "w.npz").contact
        api, _ = adam_fit_labels(
            net,
            labels,
            tmp_path / "api.npz",
            AdamSettings(epochs=1, score_ruled_out=score),
            nets=("contact",),
        )
        np.testing.assert_array_equal(contact.w2, api.contact.w2)
    with pytest.raises(SystemExit):
        main(["cube-head", "--resume", str(tmp_path / "net.npz"), *common, "--borne", "--crashed"])
