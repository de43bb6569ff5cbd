"""Training labels from gammon's own 2-ply search and rollouts, and the supervised fit to them."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gammon.engine.engine import Engine, default_bearoff
from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import anchors, borne_off_mask, race_mask
from gammon.engine.net.neural import BORNE, CRASHED, CUBE, CubeHead, Net, NeuralEvaluator, consistent
from gammon.engine.rollout.rollouts import RolloutSettings, rollout
from gammon.engine.search.searcher import Searcher
from gammon.position import Position
from gammon.train import kernels
from gammon.train.__main__ import main
from gammon.train.batch_fit import AdamSettings
from gammon.train.labels import (
    LABEL_FORMAT,
    LabelSet,
    LabelSettings,
    Sampling,
    Work,
    _save,
    best_plays,
    make_labels,
    self_play_positions,
    set_up_positions,
    weights_digest,
)
from gammon.train.selfplay import Report
from gammon.train.supervised import (
    Selection,
    SgdSettings,
    adam_fit_labels,
    fit_labels,
    label_error,
    split,
    widen,
)
from tests.helpers import bad_npz_files, random_game_positions


def _net(seed: int = 3) -> NeuralEvaluator:
    return NeuralEvaluator.random(hidden=8, race_hidden=4, seed=seed)


def _quiet(line: str) -> None:
    pass


def _valid(targets: np.ndarray) -> bool:
    t = targets
    return bool(
        np.all((t >= 0) & (t <= 1))
        and np.all(t[:, 0] >= t[:, 1])
        and np.all(t[:, 1] >= t[:, 2])
        and np.all(1 - t[:, 0] >= t[:, 3])
        and np.all(t[:, 3] >= t[:, 4])
    )


def test_search_labels_are_the_searchs_probabilities_whatever_the_workers(tmp_path) -> None:
    ev = _net()
    settings = LabelSettings(kind="search", plies=2)
    one = make_labels(
        ev, tmp_path / "a.npz", settings, Sampling(games=2, every=12), note=_quiet, work=Work(chunk=3)
    )
    two = make_labels(
        ev,
        tmp_path / "b.npz",
        settings,
        Sampling(games=2, every=12),
        note=_quiet,
        work=Work(chunk=3, workers=2),
    )
    assert len(one) >= 4 and np.array_equal(one.boards, two.boards)
    assert np.array_equal(one.targets, two.targets)
    direct = Searcher(ev, default_bearoff()).evaluate_boards(one.boards, 2)
    assert np.allclose(one.targets, direct, atol=1e-6)
    assert _valid(one.targets)
    loaded = LabelSet.load(tmp_path / "a.npz")
    assert np.array_equal(loaded.targets, one.targets) and "2-ply search" in loaded.description


@pytest.mark.slow
def test_one_ply_search_labels_agree_with_the_training_kernels_one_ply() -> None:
    # Two implementations of the same 1-ply label: the search (numpy over the batch) and the
    # training kernel (numba, one board at a time). Contact positions far from the bear-off
    # database, where the two use the same nets (the kernel has no crashed net, so neither does
    # the search here), and with every checker of both sides still on the board: the search
    # picks each child's play with the gammons the board rules out zeroed, the kernel by the raw
    # outputs, so where a checker is off their plays can differ. The shipped net, whose outputs
    # are ordered (the search orders each child's, the kernel only the mean: a random net's
    # differ there, and so does the shipped one's where a gammon is all but certain and a child's
    # gammon chance can pass its win or loss chance, so those positions are left out).
    ev = NeuralEvaluator.default().replaced(crashed=None)
    boards = self_play_positions(ev, Sampling(3, 4, 9, contact_only=True))
    b = np.asarray(boards, dtype=np.int64)
    all_on = (np.where(b > 0, b, 0).sum(axis=1) == 15) & (np.where(b < 0, -b, 0).sum(axis=1) == 15)
    boards = boards[(b[:, 1:7].sum(axis=1) < 10) & all_on]
    probs = ev.evaluate(boards)
    boards = boards[(probs[:, 1] < 0.8) & (probs[:, 3] < 0.8)]
    from gammon.train.labels import _Job, label_chunk

    searched = label_chunk(_Job(ev, boards, LabelSettings(plies=1), np.arange(len(boards))), 0, len(boards))
    kernel = kernels.label_one_ply(ev, boards)
    assert len(boards) > 3
    assert np.allclose(searched, kernel, atol=1e-5)


def test_a_stopped_run_resumes_to_the_same_labels_and_another_set_is_refused(tmp_path) -> None:
    ev = _net()
    settings = LabelSettings(plies=1)
    full = make_labels(
        ev, tmp_path / "full.npz", settings, Sampling(games=3, every=8), note=_quiet, work=Work(chunk=4)
    )
    part = tmp_path / "part.npz"
    with np.load(tmp_path / "full.npz") as data:
        _save(part, data["boards"][:5], data["targets"][:5], {"description": str(data["description"])})
    resumed = make_labels(ev, part, settings, Sampling(games=3, every=8), note=_quiet, work=Work(chunk=4))
    assert np.array_equal(resumed.boards, full.boards) and np.array_equal(resumed.targets, full.targets)
    first = make_labels(
        ev, tmp_path / "first.npz", settings, Sampling(games=3, every=8), positions=7, note=_quiet
    )
    assert np.array_equal(first.targets, full.targets[:7])
    with pytest.raises(ValueError, match="holds another label set"):
        make_labels(ev, part, settings, Sampling(games=3, every=8, seed=99), note=_quiet)


def test_rollout_labels_are_the_rollouts_of_each_position(tmp_path) -> None:
    ev = _net()
    settings = LabelSettings(kind="rollout", trials=36, rollout_plies=0, truncate=3, seed=4)
    labels = make_labels(
        ev, tmp_path / "r.npz", settings, Sampling(games=1, every=20), note=_quiet, work=Work(chunk=2)
    )
    assert len(labels) >= 2 and _valid(labels.targets)
    engine = Engine(plies=0, evaluator=ev)
    first = rollout(engine, Position(labels.boards[1].tolist()),
                    RolloutSettings(trials=36, seed=4 * 1_000_003 + 1, truncate=3), workers=1)
    # a label is the rollout's probabilities put in order (a random net's need not be)
    ordered = consistent(np.array([first.probabilities.as_tuple()]))[0]
    assert np.allclose(labels.targets[1], ordered, atol=1e-6)
    again = make_labels(
        ev, tmp_path / "r2.npz", settings, Sampling(games=1, every=20), note=_quiet, work=Work(chunk=1)
    )
    assert np.array_equal(again.targets, labels.targets)


def test_common_dice_roll_a_rolls_plays_out_on_the_same_dice(tmp_path) -> None:
    from gammon.train.labels import _Job, label_chunk

    ev = _net()
    settings = LabelSettings(kind="rollout", trials=36, truncate=4, seed=4, common_dice=True)
    board = self_play_positions(ev, Sampling(1, 10, 5, contact_only=True))[1]
    twice = np.stack([board, board])
    same = label_chunk(_Job(ev, twice, settings, np.array([7, 7])), 0, 2)
    other = label_chunk(_Job(ev, twice, settings, np.array([7, 8])), 0, 2)
    assert np.array_equal(same[0], same[1]) and np.array_equal(other[0], same[0])
    assert not np.array_equal(other[1], other[0])  # other dice, another result
    # in a label set a board's dice are its decision's: the first alternative of decision d is
    # rolled out with the seed of d, not of its row
    labels = make_labels(
        ev,
        tmp_path / "c.npz",
        settings,
        Sampling(games=1, every=12, alternatives=3),
        note=_quiet,
        work=Work(chunk=2),
    )
    decisions = np.load(tmp_path / "c.npz")["decisions"]
    row = int(np.flatnonzero(decisions != np.arange(len(decisions)))[0])
    direct = rollout(Engine(plies=0, evaluator=ev), Position(labels.boards[row].tolist()),
                     RolloutSettings(trials=36, seed=4 * 1_000_003 + int(decisions[row]), truncate=4),
                     workers=1)
    assert np.allclose(labels.targets[row], consistent(np.array([direct.probabilities.as_tuple()]))[0],
                       atol=1e-6)
    assert "a roll's plays on the same dice" in labels.description
    with pytest.raises(ValueError, match="common dice are for rollout labels"):
        LabelSettings(kind="search", common_dice=True)
    with pytest.raises(ValueError, match="give alternatives"):
        make_labels(ev, tmp_path / "d.npz", settings, Sampling(games=1, every=12), note=_quiet)


def test_bad_label_settings_and_files_are_refused(tmp_path) -> None:
    with pytest.raises(ValueError, match="1 or 2 plies, got 3"):
        LabelSettings(plies=3)
    with pytest.raises(ValueError, match="kind must be one of search, rollout, got 'gnubg'"):
        LabelSettings(kind="gnubg")
    weights = tmp_path / "w.npz"
    _net().save(weights)
    with pytest.raises(ValueError, match="not a gammon label file"):
        LabelSet.load(weights)


def test_a_file_that_is_not_a_label_file_is_named(tmp_path) -> None:
    for bad in bad_npz_files(tmp_path):
        with pytest.raises(ValueError, match=re.escape(f"{str(bad)!r} is not a gammon label file: ")):
            LabelSet.load(bad)
    path = tmp_path / "l.npz"
    _save(path, np.zeros((2, 26), dtype=np.int8), np.zeros((2, 5), dtype=np.float32), {})
    with pytest.raises(
        ValueError,
        match=re.escape(f"{str(path)!r} is not a gammon label file: it has no array 'description'"),
    ):
        LabelSet.load(path)


@pytest.mark.slow
def test_widening_keeps_the_outputs_and_the_fit_lowers_the_held_out_error(tmp_path) -> None:
    # a random net fitted to the shipped net's 1-ply labels
    labels = make_labels(
        NeuralEvaluator.default(),
        tmp_path / "l.npz",
        LabelSettings(plies=1),
        Sampling(games=6, every=3),
        note=_quiet,
        work=Work(chunk=64),
    )
    ev = _net(6)
    before = ev.evaluate(labels.boards)
    ev.contact = widen(ev.contact, 12, seed=1)
    assert ev.contact.hidden == 12
    assert np.allclose(ev.evaluate(labels.boards), before, atol=1e-6)
    with pytest.raises(ValueError, match="cannot narrow"):
        widen(ev.contact, 4)
    fit_part, held = split(labels, 0.2)
    assert len(fit_part) + len(held) == len(labels) and len(held) == round(0.2 * len(labels))
    assert np.array_equal(held.boards, labels.boards[len(fit_part) :])  # the last games
    start = label_error(ev, held)
    out = tmp_path / "fitted.npz"
    fitted, best = fit_labels(
        ev, labels, out, SgdSettings(epochs=15, alpha=0.2, seed=1), holdout=0.2, report=Report(check_pairs=0)
    )
    assert best < start
    assert fitted.contact.hidden == 12
    assert label_error(NeuralEvaluator.load(out), held) == pytest.approx(best, rel=1e-5)


def test_rollout_labels_are_fitted_repeated_and_search_labels_with_anchors_left_out(tmp_path, capsys) -> None:
    search = make_labels(
        _net(5),
        tmp_path / "s.npz",
        LabelSettings(plies=1),
        Sampling(games=8, every=2, contact_only=True),
        note=_quiet,
    )
    held_anchor = anchors(search.boards).max(axis=1) >= 1
    assert 0 < held_anchor.sum() < len(search)
    # a stand-in for rollout labels: other positions with targets the search never gives them
    others = self_play_positions(_net(5), Sampling(3, 3, 77, contact_only=True))
    target = np.array([0.9, 0.4, 0.05, 0.02, 0.0], dtype=np.float32)
    rollouts = LabelSet(others, np.tile(target, (len(others), 1)), "stand-in")
    settings = AdamSettings(epochs=6, lr=3e-3, batch=32)
    errors = []
    for repeat in (1, 20):
        ev, _ = adam_fit_labels(
            _net(6),
            search,
            tmp_path / f"r{repeat}.npz",
            settings,
            selection=Selection(holdout=0.2, rollouts=rollouts, repeat=repeat, drop_anchors=1),
            report=Report(check_pairs=0),
        )
        errors.append(float(np.abs(ev.evaluate(others) - target).mean()))
        kept = split(LabelSet(search.boards[~held_anchor], search.targets[~held_anchor]), 0.2)[0]
        text = capsys.readouterr().out
        assert f"{held_anchor.sum():,} positions with 1+ anchors left out" in text
        assert f"start: {len(kept) + repeat * len(others):,} positions to fit" in text
    assert errors[1] < 0.5 * errors[0]  # fitted 20 times over, the rollout labels weigh more
    with pytest.raises(ValueError, match="drop_anchors 0-6 and anchor_games >= 0, got 0, 0 and 0"):
        adam_fit_labels(
            _net(6), search, tmp_path / "x.npz", settings, selection=Selection(rollouts=rollouts, repeat=0)
        )
    with pytest.raises(ValueError, match="drop_anchors 0-6 and anchor_games >= 0, got 1, 7 and 0"):
        adam_fit_labels(_net(6), search, tmp_path / "x.npz", settings, selection=Selection(drop_anchors=7))


def test_drop_window_leaves_out_the_contact_search_labels_in_the_window(tmp_path, capsys) -> None:
    start = NeuralEvaluator.default()
    search = make_labels(
        _net(5), tmp_path / "s.npz", LabelSettings(plies=1), Sampling(games=8, every=2), note=_quiet
    )
    win = start.evaluate(search.boards)[:, 0]
    dropped = ~race_mask(search.boards) & (win >= 0.55) & (win <= 0.97)
    assert 0 < dropped.sum() < len(search)
    settings = AdamSettings(epochs=1, lr=1e-4, batch=32)
    adam_fit_labels(
        start,
        search,
        tmp_path / "w.npz",
        settings,
        selection=Selection(holdout=0.2, drop_window=(0.55, 0.97)),
        report=Report(check_pairs=0),
    )
    kept = split(LabelSet(search.boards[~dropped], search.targets[~dropped]), 0.2)[0]
    text = capsys.readouterr().out
    assert f"{dropped.sum():,} contact positions with a 0-ply win chance of 0.55-0.97 left out" in text
    assert f"start: {len(kept):,} positions to fit" in text
    with pytest.raises(ValueError, match=r"low then high, got \(0.97, 0.55\)"):
        adam_fit_labels(
            start, search, tmp_path / "x.npz", settings, selection=Selection(drop_window=(0.97, 0.55))
        )
    # window_kept: the same labels fitted first and none of them left out, only the second copy's
    adam_fit_labels(
        start,
        search,
        tmp_path / "k.npz",
        settings,
        selection=Selection(holdout=0.2, drop_window=(0.55, 0.97), window_kept=search),
        report=Report(check_pairs=0),
    )
    both = LabelSet.concatenate([search, LabelSet(search.boards[~dropped], search.targets[~dropped])])
    text = capsys.readouterr().out
    assert f"{dropped.sum():,} contact positions with a 0-ply win chance of 0.55-0.97 left out" in text
    assert f"start: {len(split(both, 0.2)[0]):,} positions to fit" in text


def test_the_command_line_labels_and_fits(tmp_path, capsys) -> None:
    weights = tmp_path / "w.npz"
    plain = _net(7)  # with a cube head, which --hidden drops with the old hidden layer
    NeuralEvaluator(plain.contact, plain.race, 0, CubeHead(plain.contact.w2, plain.contact.b2)).save(weights)
    labels = tmp_path / "labels.npz"
    main(
        [
            "label",
            "--weights",
            str(weights),
            "--out",
            str(labels),
            "--games",
            "2",
            "--every",
            "10",
            "--plies",
            "1",
            "--workers",
            "1",
        ]
    )
    assert len(LabelSet.load(labels)) > 2
    out = tmp_path / "fitted.npz"
    main(
        [
            "fit",
            "--resume",
            str(weights),
            "--labels",
            str(labels),
            str(labels),
            "--out",
            str(out),
            "--method",
            "sgd",
            "--epochs",
            "1",
            "--check-pairs",
            "2",
            "--hidden",
            "10",
            "--race-hidden",
            "6",
        ]
    )
    text = capsys.readouterr().out
    assert "labelled" in text and "epoch 1: fit mse" in text
    assert NeuralEvaluator.load(out).contact.hidden == 10 and NeuralEvaluator.load(out).race.hidden == 6
    assert NeuralEvaluator.load(weights).cube_head is not None and NeuralEvaluator.load(out).cube_head is None
    widened = tmp_path / "widened.npz"  # widened, not fitted: the head is dropped all the same
    main(
        [
            "fit",
            "--resume",
            str(weights),
            "--labels",
            str(labels),
            "--out",
            str(widened),
            "--epochs",
            "1",
            "--check-pairs",
            "0",
            "--batch",
            "4",
            "--hidden",
            "10",
            "--nets",
            "race",
        ]
    )
    wide = NeuralEvaluator.load(widened)
    assert wide.contact.hidden == 10 and wide.cube_head is None
    main(
        [
            "fit",
            "--resume",
            str(out),
            "--labels",
            str(labels),
            "--out",
            str(out),
            "--epochs",
            "2",
            "--check-pairs",
            "0",
            "--batch",
            "4",
        ]
    )
    text = capsys.readouterr().out
    assert "contact net:" in text and "adam epoch 2: train cross-entropy" in text
    assert "end: held-out mse" in text
    assert NeuralEvaluator.load(out).contact.hidden == 10
    set_up = tmp_path / "set-up.npz"
    main(
        [
            "label",
            "--weights",
            str(out),
            "--out",
            str(set_up),
            "--games",
            "4",
            "--every",
            "2",
            "--set-up",
            "3",
            "--plies",
            "1",
            "--workers",
            "1",
        ]
    )
    made = LabelSet.load(set_up)
    assert len(made) > 10 and borne_off_mask(made.boards).all()
    assert "set up with 1-3 checkers" in made.description
    main(
        [
            "cube-head",
            "--borne",
            "--resume",
            str(out),
            "--labels",
            str(set_up),
            "--out",
            str(out),
            "--steps",
            "5",
        ]
    )
    assert "borne-off positions" in capsys.readouterr().out
    assert NeuralEvaluator.load(out).borne_head is not None


def test_exploration_draws_random_plays_and_leaves_the_greedy_games_alone() -> None:
    ev = _net(8)
    greedy = self_play_positions(ev, Sampling(4, 2, 5))
    assert np.array_equal(self_play_positions(ev, Sampling(4, 2, 5, explore=0.0)), greedy)
    explored = self_play_positions(ev, Sampling(4, 2, 5, explore=0.5))
    assert not np.array_equal(explored[: len(greedy)], greedy[: len(explored)])
    for b in explored:  # every position a legal one
        Position(b.tolist())
    # the first position of game 0 is the opening, whatever the plays
    assert np.array_equal(explored[0], greedy[0])
    with pytest.raises(ValueError, match="explore must be a probability, got 1.5"):
        self_play_positions(ev, Sampling(1, 2, 5, explore=1.5))


def test_alternatives_are_the_boards_after_the_best_zero_ply_plays_of_a_drawn_roll() -> None:
    ev = _net(8)
    positions = self_play_positions(ev, Sampling(3, 3, 5, contact_only=True))  # no play ends a game
    picked, sources = best_plays(ev, positions, 3, 11)
    engine = Engine(plies=0, evaluator=ev)
    row, firsts = 0, []
    for i, board in enumerate(positions):
        dice = tuple(int(d) for d in np.random.default_rng([11, i]).integers(1, 7, size=2))
        hints = engine.hint(Position(board.tolist()), dice, n=3)  # 0-ply ranking, best first
        firsts += [row] if hints else []  # no legal play: no boards
        for h in hints:
            assert picked[row].tolist() == list(h.play.after.as_array())
            assert sources[row] == i  # the decision it belongs to
            row += 1
    assert row == len(picked) == len(sources) > 2 * len(positions)
    # one play each is the 0-ply choice
    assert np.array_equal(best_plays(ev, positions, 1, 11)[0], picked[firsts])
    # the option replaces each position of the games, and the filters come after it: contact_only
    # keeps a roll's plays where it is played in contact, the plays that break contact with them
    every = self_play_positions(ev, Sampling(12, 3, 5))
    alternatives, decisions = best_plays(ev, every, 2, 5)
    in_contact = ~race_mask(every)[decisions]
    kept = self_play_positions(ev, Sampling(12, 3, 5, alternatives=2, contact_only=True))
    assert np.array_equal(kept, alternatives[in_contact])
    assert race_mask(kept).any() and not in_contact.all()  # both cases met
    with pytest.raises(ValueError, match="the number of best plays must be 1 or more, got 0"):
        best_plays(ev, positions, 0, 11)


def test_min_anchors_keeps_exactly_the_positions_of_a_holding_or_back_game() -> None:
    ev = _net(8)
    every = self_play_positions(ev, Sampling(6, 1, 5, contact_only=True, explore=0.3))
    for k in (1, 2):
        held = anchors(every).max(axis=1) >= k
        kept = self_play_positions(ev, Sampling(6, 1, 5, contact_only=True, explore=0.3, min_anchors=k))
        assert np.array_equal(kept, every[held])
        assert 0 < len(kept) < len(every)
    with pytest.raises(ValueError, match="min_anchors must be 0-6 points, got 7"):
        self_play_positions(ev, Sampling(1, 2, 5, min_anchors=7))


def test_crashed_only_keeps_exactly_the_crashed_positions_of_the_games() -> None:
    ev = _net(8)
    every = self_play_positions(ev, Sampling(20, 1, 5, contact_only=True, explore=0.3))
    kept = self_play_positions(ev, Sampling(20, 1, 5, contact_only=True, explore=0.3, crashed_only=True))
    assert np.array_equal(kept, every[crashed_mask(every)])
    assert 0 < len(kept) < len(every)
    assert "crashed only" in Sampling(20, crashed_only=True).describe()
    with pytest.raises(ValueError, match="crashed_only and race_only leave nothing"):
        Sampling(1, race_only=True, crashed_only=True)


def test_from_crashed_takes_the_plays_of_crashed_positions_and_the_races_they_turn_into() -> None:
    ev = _net(8)
    games = self_play_positions(ev, Sampling(40, 1, 5, explore=0.3))
    plays, _ = best_plays(ev, games[crashed_mask(games)], 4, 5)
    kept = self_play_positions(ev, Sampling(40, 1, 5, explore=0.3, alternatives=4, from_crashed=True))
    assert np.array_equal(kept, plays)
    races = self_play_positions(
        ev, Sampling(40, 1, 5, explore=0.3, alternatives=4, from_crashed=True, race_only=True)
    )
    assert np.array_equal(races, plays[race_mask(plays)])
    assert 0 < len(races) < len(kept)
    described = Sampling(1, alternatives=2, from_crashed=True).describe()
    assert "plays of a roll of a crashed position" in described
    with pytest.raises(ValueError, match="keeps the plays of crashed positions: give alternatives"):
        Sampling(1, from_crashed=True)


def test_min_anchors_with_alternatives_keeps_every_play_of_a_holding_position() -> None:
    # the filter asks the position the roll is played in, so a play that gives the anchor up is
    # kept beside those that keep it
    ev = _net(8)
    every = self_play_positions(ev, Sampling(6, 1, 5, explore=0.3))
    boards, decisions = best_plays(ev, every, 4, 5)
    held = (anchors(every).max(axis=1) >= 1)[decisions]
    kept = self_play_positions(ev, Sampling(6, 1, 5, explore=0.3, alternatives=4, min_anchors=1))
    assert np.array_equal(kept, boards[held])
    gave_up = anchors(kept).max(axis=1) == 0  # no side holds one after the play
    assert 0 < gave_up.sum() < len(kept)


def test_race_only_keeps_exactly_the_races_and_contact_only_the_rest() -> None:
    ev = _net(8)
    every = self_play_positions(ev, Sampling(6, 1, 5, explore=0.3))
    races = race_mask(every)
    assert 0 < races.sum() < len(every)
    assert np.array_equal(
        self_play_positions(ev, Sampling(6, 1, 5, explore=0.3, race_only=True)), every[races]
    )
    assert np.array_equal(
        self_play_positions(ev, Sampling(6, 1, 5, explore=0.3, contact_only=True)), every[~races]
    )
    with pytest.raises(ValueError, match="contact_only and race_only leave nothing"):
        self_play_positions(ev, Sampling(1, 2, 5, contact_only=True, race_only=True))


def test_fitting_one_net_leaves_the_other_as_it_was(tmp_path, capsys) -> None:
    labels = make_labels(
        NeuralEvaluator.default(),
        tmp_path / "l.npz",
        LabelSettings(plies=1),
        Sampling(games=10, every=2),
        note=_quiet,
        work=Work(chunk=64),
    )
    races = race_mask(labels.boards)
    assert 0 < races.sum() < len(labels)
    settings = AdamSettings(epochs=2, lr=3e-3, batch=16)
    for only in ("race", "contact"):
        plain = _net(6)  # with a cube head, which goes with the contact net's hidden layer
        head = CubeHead(plain.contact.w2 + np.float32(0.5), plain.contact.b2.copy())
        start = NeuralEvaluator(plain.contact, plain.race, 0, head)
        before, cube_before = start.evaluate_with_cube(labels.boards)
        ev, _ = adam_fit_labels(
            start,
            labels,
            tmp_path / f"{only}.npz",
            settings,
            selection=Selection(holdout=0.2),
            nets=(only,),
            report=Report(check_pairs=0),
        )
        saved = NeuralEvaluator.load(tmp_path / f"{only}.npz")
        after = saved.evaluate(labels.boards)
        assert np.array_equal(ev.evaluate(labels.boards), after)
        assert ev.cube_head is start.cube_head if only == "race" else ev.cube_head is None
        assert (saved.cube_head is not None) is (only == "race")
        if only == "race":  # the contact positions' cube chances are the head's, as they were
            np.testing.assert_array_equal(saved.evaluate_for_cube(labels.boards[~races]), cube_before[~races])
        assert np.array_equal(start.evaluate(labels.boards), before)  # the caller's nets are left alone
        fitted = races if only == "race" else ~races
        assert np.array_equal(after[~fitted], before[~fitted])
        assert np.abs(after[fitted] - before[fitted]).max() > 1e-3
        text = capsys.readouterr().out
        assert f"{only} net:" in text and ("contact" if only == "race" else "race") + " net:" not in text
    wrong = (
        "nets must name some of 'contact', 'race' and 'crashed', or 'cube' or 'borne' alone, "
        "got \\('bear-off',\\)"
    )
    with pytest.raises(ValueError, match=wrong):
        adam_fit_labels(_net(6), labels, tmp_path / "x.npz", settings, nets=("bear-off",))


def test_a_crashed_net_is_made_from_the_contact_net_and_fitted_to_its_boards_alone(tmp_path) -> None:
    plain = _net(6)
    start = plain.replaced(cube_head=CubeHead(plain.contact.w2 + np.float32(0.5), plain.contact.b2.copy()))
    boards = np.array([p.board for p in random_game_positions(seed=8, games=12)], dtype=np.int8)
    mine = crashed_mask(boards)
    assert 20 < mine.sum() < len(boards) - 20
    before, cube_before = start.evaluate_with_cube(boards)
    targets = before.copy()
    targets[:, 0] = np.clip(targets[:, 0] + 0.2, 0.0, 1.0)  # the crashed net learns to win more
    labels = LabelSet(boards, consistent(targets))
    ev, _ = adam_fit_labels(start, labels, tmp_path / "c.npz", AdamSettings(epochs=3, lr=3e-3, batch=16),
                            selection=Selection(holdout=0.2), nets=(CRASHED,), report=Report(check_pairs=0))
    assert start.crashed is None and ev.crashed is not None
    assert ev.contact is start.contact and ev.race is start.race and ev.cube_head is start.cube_head
    saved = NeuralEvaluator.load(tmp_path / "c.npz")
    after, cube_after = saved.evaluate_with_cube(boards)
    np.testing.assert_array_equal(after[~mine], before[~mine])
    np.testing.assert_array_equal(cube_after[~mine], cube_before[~mine])
    assert (after[mine, 0] - before[mine, 0]).mean() > 0.02
    np.testing.assert_array_equal(cube_after[mine], after[mine])  # the crashed net's own chances
    # labels made with it name another net; a copy without it, the same as before
    assert weights_digest(saved) != weights_digest(start) == weights_digest(saved.replaced(crashed=None))


def test_a_borne_off_net_is_made_from_the_contact_net_and_fitted_to_its_boards_alone(
    tmp_path, capsys
) -> None:
    start = _net(6).replaced(crashed=Net.random(5, np.random.default_rng(2)))
    boards = np.array([p.board for p in random_game_positions(seed=8, games=40)], dtype=np.int8)
    mine = borne_off_mask(boards) & ~race_mask(boards)
    assert 20 < (mine & crashed_mask(boards)).sum() and 20 < (mine & ~crashed_mask(boards)).sum()
    before, cube_before = start.evaluate_with_cube(boards)
    targets = before.copy()
    targets[:, 0] = 0.9  # the borne-off net learns to win more
    labels = LabelSet(boards, consistent(targets))
    ev, _ = adam_fit_labels(start, labels, tmp_path / "b.npz", AdamSettings(epochs=20, lr=3e-3, batch=16),
                            selection=Selection(holdout=0.2), nets=(BORNE,), report=Report(check_pairs=0))
    assert f"{mine.sum():,} positions of the borne-off net" in capsys.readouterr().out
    assert start.borne is None and ev.borne is not None
    assert ev.contact is start.contact and ev.crashed is start.crashed and ev.race is start.race
    saved = NeuralEvaluator.load(tmp_path / "b.npz")
    after, cube_after = saved.evaluate_with_cube(boards)
    np.testing.assert_array_equal(after, before)  # checker play never reads it
    np.testing.assert_array_equal(cube_after[~mine], cube_before[~mine])
    assert (cube_after[mine, 0] - cube_before[mine, 0]).mean() > 0.1
    with pytest.raises(ValueError, match="or 'borne' alone"):
        adam_fit_labels(start, labels, tmp_path / "x.npz", AdamSettings(epochs=1), nets=("contact", BORNE))


def test_from_contact_makes_the_cube_net_afresh_where_the_weights_have_one(tmp_path) -> None:
    start = _net(6)
    boards = np.array([p.board for p in random_game_positions(seed=8, games=40)], dtype=np.int8)
    np.savez(tmp_path / "l.npz", boards=boards, targets=start.evaluate(boards).astype(np.float32),
             label_format=LABEL_FORMAT, description="its own outputs")
    old = Net.random(5, np.random.default_rng(4))  # a borne-off net of other hidden units
    start.replaced(borne=old).save(tmp_path / "w.npz")
    fit = ["fit", "--resume", str(tmp_path / "w.npz"), "--labels", str(tmp_path / "l.npz"), "--nets", "borne",
           "--epochs", "1", "--lr", "1e-9", "--check-pairs", "0", "--out", str(tmp_path / "out.npz")]
    for flags, origin in (([], old), (["--from-contact"], start.contact)):
        main(fit + flags)
        borne = NeuralEvaluator.load(tmp_path / "out.npz").borne
        assert borne is not None and borne.w1.shape == origin.w1.shape
        np.testing.assert_allclose(borne.w1, origin.w1, atol=1e-6)  # barely moved from where it started
        np.testing.assert_allclose(borne.w2, origin.w2, atol=1e-6)


def test_a_cube_net_is_fitted_to_the_cube_heads_boards_alone(tmp_path, capsys) -> None:
    plain = _net(6).replaced(crashed=Net.random(5, np.random.default_rng(2)))
    start = plain.replaced(cube_head=CubeHead(plain.contact.w2 + np.float32(0.5), plain.contact.b2.copy()))
    boards = np.array([p.board for p in random_game_positions(seed=8, games=12)], dtype=np.int8)
    mine = ~race_mask(boards) & ~crashed_mask(boards) & ~borne_off_mask(boards)
    assert 100 < mine.sum() < len(boards) - 100
    before, cube_before = start.evaluate_with_cube(boards)
    targets = before.copy()
    targets[:, 0] = 0.9
    labels = LabelSet(boards, consistent(targets))
    ev, _ = adam_fit_labels(start, labels, tmp_path / "c.npz", AdamSettings(epochs=5, lr=3e-3, batch=16),
                            selection=Selection(holdout=0.2), nets=(CUBE,), report=Report(check_pairs=0))
    assert f"{mine.sum():,} positions of the cube net" in capsys.readouterr().out
    assert start.cube is None and ev.cube is not None and ev.cube_head is start.cube_head
    saved = NeuralEvaluator.load(tmp_path / "c.npz")
    after, cube_after = saved.evaluate_with_cube(boards)
    np.testing.assert_array_equal(after, before)  # checker play never reads it
    np.testing.assert_array_equal(cube_after[~mine], cube_before[~mine])
    # made from the contact net (not its head), fitted towards a win of 0.9
    assert (cube_after[mine, 0] - after[mine, 0]).mean() > 0.1
    assert np.abs(cube_after[mine] - cube_before[mine]).max() > 0.01


def test_win_window_keeps_exactly_the_positions_whose_roller_wins_that_often() -> None:
    ev = NeuralEvaluator.default()
    every = self_play_positions(ev, Sampling(6, 1, 5, contact_only=True, explore=0.3))
    win = ev.evaluate(every)[:, 0]
    kept = self_play_positions(ev, Sampling(6, 1, 5, contact_only=True, explore=0.3, win_window=(0.55, 0.97)))
    assert np.array_equal(kept, every[(win >= 0.55) & (win <= 0.97)])
    assert 0 < len(kept) < len(every)
    with pytest.raises(ValueError, match=r"low then high, got \(0.9, 0.5\)"):
        self_play_positions(ev, Sampling(1, 2, 5, win_window=(0.9, 0.5)))


NEED_ADAM = (
    "--rollout-labels, --drop-anchors, --drop-window, --window-labels, --nets, --rank-weight, "
    "--keep-level and --anchor-games need --method adam"
)


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["label", "--out", "{tmp}/l.npz", "--games", "1", "--min-anchors", "-1"],
            "min_anchors must be 0-6 points, got -1",
        ),
        (
            ["label", "--out", "{tmp}/l.npz", "--games", "1", "--win-window", "0.5", "1.5"],
            "win_window must be two probabilities, low then high, got (0.5, 1.5)",
        ),
        (
            ["label", "--out", "{tmp}/l.npz", "--games", "1", "--explore", "2"],
            "explore must be a probability, got 2.0",
        ),
        (
            ["label", "--out", "{tmp}/l.npz", "--games", "1", "--from-crashed"],
            "from_crashed keeps the plays of crashed positions: give alternatives",
        ),
        (
            ["label", "--out", "{tmp}/l.npz", "--games", "1", "--plies", "3"],
            "a search label needs 1 or 2 plies, got 3",
        ),
        (["fit", "--labels", "{tmp}/missing.npz", "--out", "{tmp}/w.npz"], "No such file"),
        (
            [
                "fit",
                "--labels",
                "{tmp}/w0.npz",
                "--rollout-labels",
                "{tmp}/w0.npz",
                "--method",
                "sgd",
                "--out",
                "{tmp}/w.npz",
            ],
            NEED_ADAM,
        ),
        (
            [
                "fit",
                "--labels",
                "{tmp}/w0.npz",
                "--drop-window",
                "0.55",
                "0.97",
                "--method",
                "sgd",
                "--out",
                "{tmp}/w.npz",
            ],
            NEED_ADAM,
        ),
        (
            ["fit", "--labels", "{tmp}/w0.npz", "--nets", "race", "--method", "sgd", "--out", "{tmp}/w.npz"],
            NEED_ADAM,
        ),
        (
            [
                "fit",
                "--labels",
                "{tmp}/w0.npz",
                "--window-labels",
                "{tmp}/w0.npz",
                "--method",
                "sgd",
                "--out",
                "{tmp}/w.npz",
            ],
            NEED_ADAM,
        ),
        (
            ["label", "--out", "{tmp}/l.npz", "--games", "1", "--alternatives", "-1"],
            "the number of best plays must be 1 or more, got -1",
        ),
        (
            ["label", "--out", "{tmp}/l.npz", "--games", "1", "--contact-only", "--race-only"],
            "contact_only and race_only leave nothing: choose one",
        ),
        (
            ["fit", "--labels", "{tmp}/w0.npz", "--from-contact", "--out", "{tmp}/w.npz"],
            "--from-contact makes a cube net from the contact net: give --nets cube or borne, got 'both'",
        ),
        (
            ["label", "--out", "{tmp}/l.npz", "--games", "1", "--set-up-trailing", "20"],
            "set_up_trailing must be pips >= 0 with a set_up, got 20",
        ),
        (["fit", "--labels", "{tmp}/w0.npz", "--out", "{tmp}/w.npz"], "is not a gammon label file"),
        (
            ["fit", "--labels", "{tmp}/w0.npz", "--rank-weight", "3", "--method", "sgd"]
            + ["--out", "{tmp}/w.npz"],
            NEED_ADAM,
        ),
    ],
)
def test_bad_command_line_input_gets_its_message_and_status_2(tmp_path, capsys, argv, message) -> None:
    _net().save(tmp_path / "w0.npz")
    with pytest.raises(SystemExit) as stop:
        main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"python -m gammon.train {argv[0]}: ") and message in err
    assert "Traceback" not in err


def test_set_up_positions_take_checkers_off_a_side_that_keeps_one_out() -> None:
    games = np.array([p.board for p in random_game_positions(seed=2, games=6)], dtype=np.int8)
    made = set_up_positions(games, 3, seed=9)
    assert len(made) > 50
    assert borne_off_mask(made).all() and not race_mask(made).any()
    np.testing.assert_array_equal(set_up_positions(games, 3, seed=9), made)  # drawn from the seed
    assert not np.array_equal(set_up_positions(games, 3, seed=10)[:20], made[:20])
    # each is a board of the games with 1-3 checkers gone from one side's home board, nothing else
    sources = {b.tobytes() for b in games}
    taken = []
    for board in made:
        found = []
        for source in games:
            diff = source.astype(int) - board
            mover, opponent = diff[1:7], -diff[19:25]
            rest = np.concatenate([diff[:1], diff[7:19], diff[25:]])
            if (
                (rest == 0).all()
                and (mover >= 0).all()
                and (opponent >= 0).all()
                and (mover.sum() == 0) != (opponent.sum() == 0)
            ):
                found.append(int(mover.sum() + opponent.sum()))
        assert found, board
        taken.append(min(found))
    assert set(taken) == {1, 2, 3}
    assert not sources & {b.tobytes() for b in made}
    with pytest.raises(ValueError, match="1 or more checkers off, got 0"):
        set_up_positions(games, 0, seed=1)
    # the races among them instead: a side with a checker off and another still out, no contact
    races = set_up_positions(games, 3, seed=9, races=True)
    assert len(races) > 10 and race_mask(races).all() and borne_off_mask(races).all()


def test_set_up_positions_trailing_take_checkers_off_the_side_behind() -> None:
    games = np.array([p.board for p in random_game_positions(seed=2, games=6)], dtype=np.int8)
    made = set_up_positions(games, 3, seed=9, trailing=20)
    assert len(made) > 20 and borne_off_mask(made).all() and not race_mask(made).any()
    either = set_up_positions(games, 3, seed=9)
    assert not {b.tobytes() for b in made} <= {b.tobytes() for b in either}  # not a subset of those
    for board in made:
        sides = []
        for source in games:
            diff = source.astype(int) - board
            if (diff[7:19] == 0).all() and diff[0] == diff[25] == 0:
                pips = Position(tuple(int(c) for c in source)).pip_counts
                if (diff[1:7] > 0).any() and not diff[19:25].any():
                    sides.append(pips[1] - pips[0])  # the mover took off: how far it was ahead
                elif (diff[19:25] < 0).any() and not diff[1:7].any():
                    sides.append(pips[0] - pips[1])
        assert sides and min(sides) <= -20, board  # the side that took off was 20+ pips behind
    assert len(set_up_positions(games, 3, seed=9, trailing=100)) < len(made)  # fewer boards that far apart
