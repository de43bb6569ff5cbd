"""The label campaign: shards of rollout labels that stop and resume to the same shard."""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import numpy as np
import pytest

from gammon.engine.engine import Engine
from gammon.engine.net.encode import anchors, borne_off_mask, race_mask
from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.rollout.rollouts import RolloutSettings, rollout
from gammon.position import Position
from gammon.train.__main__ import main
from gammon.train.campaign import (
    CampaignRun,
    CampaignSettings,
    decisions_of,
    labels_of,
    labels_of_shards,
    load_shard,
    position_seed,
    run_campaign,
    shard_path,
    shard_positions,
)
from gammon.train.choices import Decisions
from gammon.train.labels import float32_labels

ROOT = Path(__file__).resolve().parents[2]

# a random net's chances never reach the cube window: its shards take the other sources
TINY = CampaignSettings(seed=5, shard_size=4, trials=2, every=8, sources=("contact", "holding"))


def _net() -> NeuralEvaluator:
    return NeuralEvaluator.random(hidden=8, race_hidden=4, seed=3)


def _quiet(line: str) -> None:
    pass


def _stop_after(calls: int):
    seen = []

    def should_stop() -> bool:
        seen.append(1)
        return len(seen) >= calls

    return should_stop


def test_a_stopped_campaign_resumes_to_the_same_shard_as_one_that_never_stopped(tmp_path) -> None:
    ev = _net()
    whole = run_campaign(
        tmp_path / "whole", ev, settings=TINY, note=_quiet, run=CampaignRun(shards=1, chunk=1)
    )
    assert whole == 1
    stopped = tmp_path / "stopped"
    # stops after its first chunk: the shard is kept in progress, not finished
    assert (
        run_campaign(
            stopped,
            ev,
            settings=TINY,
            note=_quiet,
            should_stop=_stop_after(1),
            run=CampaignRun(shards=1, chunk=1),
        )
        == 0
    )
    assert not shard_path(stopped, 0).exists()
    kept = load_shard(stopped / ".partial" / "shard-00000.npz")
    assert len(kept.boards) == 1
    # resumed on two processes and other chunks, without the settings (the folder keeps them)
    assert run_campaign(stopped, ev, note=_quiet, run=CampaignRun(shards=1, chunk=2, workers=2)) == 1
    a, b = load_shard(shard_path(tmp_path / "whole", 0)), load_shard(shard_path(stopped, 0))
    assert np.array_equal(a.boards, b.boards) and len(a.boards) == TINY.shard_size
    assert np.array_equal(a.targets, b.targets) and np.array_equal(a.standard_errors, b.standard_errors)
    assert not (stopped / ".partial" / "shard-00000.npz").exists()


def test_a_shard_holds_each_positions_rollout_and_the_manifest_lists_it(tmp_path) -> None:
    ev = _net()
    run_campaign(tmp_path, ev, settings=TINY, note=_quiet, run=CampaignRun(shards=2, chunk=3))
    shard = load_shard(shard_path(tmp_path, 1))
    assert np.array_equal(shard.boards, shard_positions(ev, TINY, 1)[0]) and shard.decisions is None
    engine = Engine(plies=0, evaluator=ev)
    for row, board in enumerate(shard.boards):
        seed = position_seed(TINY, 1, row)
        direct = rollout(engine, Position(board.tolist()), RolloutSettings(trials=2, seed=seed), workers=1)
        # the shard keeps the rollout's means made consistent (a few trials of a random net, their
        # variance reduced, can leave a mean outside the bounds)
        want = float32_labels(np.array([direct.probabilities.as_tuple()]))[0]
        assert np.allclose(shard.targets[row], want, atol=1e-6)
        se = direct.standard_error
        assert np.allclose(
            shard.standard_errors[row],
            (se.win, se.win_gammon, se.win_backgammon, se.lose_gammon, se.lose_backgammon),
            atol=1e-6,
        )
    # means are probabilities in order, errors are >= 0, and a position's rows are consistent
    t = shard.targets
    assert np.all((t >= 0) & (t <= 1)) and np.all(t[:, 0] >= t[:, 1]) and np.all(t[:, 3] >= t[:, 4])
    assert np.all(shard.standard_errors >= 0)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert [r["shard"] for r in manifest["shards"]] == [0, 1] and manifest["positions"] == 8
    assert [r["source"] for r in manifest["shards"]] == ["contact", "holding"]
    assert len(manifest["shards"][0]["sha256"]) == 64 and manifest["campaign"]["trials"] == 2


def test_each_source_keeps_its_kind_of_position() -> None:
    ev = NeuralEvaluator.default()  # a random net's chances never leave the middle
    settings = CampaignSettings(seed=2, shard_size=6, trials=2, every=4)
    contact, holding, window = (shard_positions(ev, settings, k)[0] for k in range(3))
    for boards in (contact, holding, window):
        assert len(boards) == 6 and not race_mask(boards).any()
    assert np.all(anchors(holding).max(axis=1) >= 1)
    win = ev.evaluate(window)[:, 0]
    assert np.all((win >= 0.55) & (win <= 0.97))
    # shard 3 is a contact shard again, of other games
    assert not np.array_equal(contact, shard_positions(ev, settings, 3)[0])
    # the race sources: races, and races where a side has a checker off and another still out
    races = CampaignSettings(seed=2, shard_size=6, trials=2, every=4, sources=("race", "race-set-up"))
    race, set_up = (shard_positions(ev, races, k)[0] for k in range(2))
    assert len(race) == len(set_up) == 6 and race_mask(race).all() and race_mask(set_up).all()
    assert borne_off_mask(set_up).all() and not borne_off_mask(race).all()
    # the contact positions of the borne-off head: a side has a checker off and another still out
    borne_settings = CampaignSettings(seed=2, shard_size=6, trials=2, every=4, sources=("set-up",))
    borne = shard_positions(ev, borne_settings, 0)[0]
    assert len(borne) == 6 and not race_mask(borne).any() and borne_off_mask(borne).all()
    # the same, taken off by the side behind: it has fewer pips left than it had, and still trails
    trailing = CampaignSettings(seed=2, shard_size=6, trials=2, every=4, sources=("set-up-trailing",))
    behind = shard_positions(ev, trailing, 0)[0]
    assert len(behind) == 6 and not race_mask(behind).any() and borne_off_mask(behind).all()
    for board in behind:
        mover, opponent = Position(tuple(int(c) for c in board)).pip_counts
        off_side_lead = opponent - mover if board.clip(min=0).sum() < 15 else mover - opponent
        assert off_side_lead <= -20 + 18, board  # 20+ behind before 1-3 checkers (6 pips at most each) went


def test_a_signal_stops_the_run_after_its_chunk_and_keeps_the_work(tmp_path) -> None:
    ev = _net()
    sent = []

    def signal_once() -> bool:
        if not sent:
            sent.append(1)
            os.kill(os.getpid(), signal.SIGTERM)  # the run's handler takes it: no exit
        return False

    before = signal.getsignal(signal.SIGTERM)
    assert (
        run_campaign(
            tmp_path, ev, settings=TINY, note=_quiet, should_stop=signal_once, run=CampaignRun(chunk=1)
        )
        == 0
    )
    # signalled after the first chunk, the run finishes the chunk it waits for, keeps both and ends
    assert len(load_shard(tmp_path / ".partial" / "shard-00000.npz").boards) == 2
    assert signal.getsignal(signal.SIGTERM) is before


def test_two_runs_take_different_shards_and_a_finished_shard_is_skipped(tmp_path) -> None:
    ev = _net()
    run_campaign(tmp_path, ev, settings=TINY, note=_quiet, run=CampaignRun(shards=1, first=1, chunk=4))
    assert shard_path(tmp_path, 1).exists() and not shard_path(tmp_path, 0).exists()
    first = shard_path(tmp_path, 1).read_bytes()
    run_campaign(tmp_path, ev, note=_quiet, run=CampaignRun(shards=2, chunk=4))  # shard 0, then 2: 1 is done
    assert shard_path(tmp_path, 0).exists() and shard_path(tmp_path, 2).exists()
    assert shard_path(tmp_path, 1).read_bytes() == first


def test_other_settings_and_damaged_shards_are_refused(tmp_path) -> None:
    ev = _net()
    run_campaign(tmp_path, ev, settings=TINY, note=_quiet, run=CampaignRun(shards=1, chunk=4))
    with pytest.raises(ValueError, match="other settings"):
        run_campaign(tmp_path, ev, settings=CampaignSettings(seed=6, shard_size=4, trials=2), note=_quiet)
    with pytest.raises(ValueError, match="trials must be"):
        CampaignSettings(trials=0)
    with pytest.raises(ValueError, match="sources must be"):
        CampaignSettings(sources=("nowhere",))
    bad = tmp_path / "shard-00009.npz"
    bad.write_bytes(b"not a shard")
    with pytest.raises(ValueError, match="shard-00009.npz' is not a label shard"):
        load_shard(bad)


@pytest.mark.slow
def test_the_command_line_runs_reports_and_fits_a_campaign(tmp_path, capsys) -> None:
    weights = tmp_path / "net.npz"
    _net().save(weights)
    folder = tmp_path / "labels"
    main(
        [
            "campaign",
            str(folder),
            "--weights",
            str(weights),
            "--shards",
            "1",
            "--shard-size",
            "4",
            "--trials",
            "2",
            "--seed",
            "5",
            "--workers",
            "1",
            "--chunk",
            "2",
            "--sources",
            "contact",
        ]
    )
    assert "1 shards finished by this run; 1 shards finished, 4 positions" in capsys.readouterr().out
    main(["campaign", str(folder), "--status"])
    assert capsys.readouterr().out.startswith("1 shards finished, 4 positions")
    with pytest.raises(SystemExit) as exit_info:
        main(["campaign", str(folder), "--trials", "3", "--weights", str(weights)])
    assert exit_info.value.code == 2 and "other settings" in capsys.readouterr().err
    out = tmp_path / "fitted.npz"
    main(
        [
            "fit",
            "--resume",
            str(weights),
            "--labels",
            str(folder),
            "--out",
            str(out),
            "--epochs",
            "1",
            "--check-pairs",
            "2",
            "--holdout",
            "0.25",
        ]
    )
    assert out.exists()


def test_a_fit_from_committed_shards_starts_from_the_shipped_weights_and_changes_them(tmp_path) -> None:
    # the documented path (docs/training.md): the campaign's folder read as it is, the fit from the
    # shipped weights; two of the repository's shards stand for the whole set
    shards = sorted((ROOT / "data" / "labels").glob("shard-*.npz"))[:2]
    assert len(shards) == 2
    folder = tmp_path / "labels"
    folder.mkdir()
    for path in [ROOT / "data" / "labels" / "campaign.json", *shards]:
        shutil.copy(path, folder / path.name)
    out = tmp_path / "fitted.npz"
    main(
        [
            "fit",
            "--labels",
            str(folder),
            "--out",
            str(out),
            "--epochs",
            "1",
            "--lr",
            "1e-4",
            "--batch",
            "64",
            "--check-pairs",
            "0",
            "--holdout",
            "0.2",
        ]
    )
    shipped, fitted = NeuralEvaluator.default(), NeuralEvaluator.load(out)
    assert fitted.contact.w1.shape == shipped.contact.w1.shape
    assert not np.array_equal(fitted.contact.w1, shipped.contact.w1)
    assert np.isfinite(fitted.contact.w1).all() and np.isfinite(fitted.race.w1).all()
    # a small step: the fitted net still plays about as the shipped one judges
    boards = load_shard(shards[0]).boards[:50]
    assert np.abs(fitted.evaluate(boards) - shipped.evaluate(boards)).max() < 0.1


PLAYS = CampaignSettings(seed=4, shard_size=12, trials=2, every=1, sources=("crashed-plays",))


def test_a_source_of_plays_keeps_whole_decisions_on_common_dice_and_resumes_to_the_same_shard(
    tmp_path,
) -> None:
    ev = _net()
    boards, decisions = shard_positions(ev, PLAYS, 0)
    # whole decisions, numbered 0, 1, ... in order, each the distinct boards after plays of one roll
    assert 0 < len(boards) <= PLAYS.shard_size and decisions[0] == 0
    assert np.all(np.diff(decisions) >= 0) and np.all(np.diff(decisions) <= 1)
    assert len(np.unique(decisions)) < len(decisions)  # some roll has two plays or more
    for d in np.unique(decisions):
        mine = boards[decisions == d]
        assert 1 <= len(mine) <= 5 and len({b.tobytes() for b in mine}) == len(mine)
    # the same boards as the labels' own sampling of crashed positions' plays gives, in its order
    whole = run_campaign(
        tmp_path / "whole", ev, settings=PLAYS, note=_quiet, run=CampaignRun(shards=1, chunk=3)
    )
    assert whole == 1
    stopped = tmp_path / "stopped"
    run_campaign(
        stopped,
        ev,
        settings=PLAYS,
        note=_quiet,
        should_stop=_stop_after(1),
        run=CampaignRun(shards=1, chunk=3),
    )
    assert not shard_path(stopped, 0).exists()
    assert run_campaign(stopped, ev, note=_quiet, run=CampaignRun(shards=1, chunk=2, workers=2)) == 1
    a, b = load_shard(shard_path(tmp_path / "whole", 0)), load_shard(shard_path(stopped, 0))
    assert np.array_equal(a.boards, boards) and np.array_equal(a.decisions, decisions)
    assert np.array_equal(b.decisions, decisions) and np.array_equal(a.targets, b.targets)
    # each board is rolled out on its decision's dice: the plays of one roll on the same dice
    engine = Engine(plies=0, evaluator=ev)
    for row in (0, len(boards) - 1):
        seed = position_seed(PLAYS, 0, int(decisions[row]))
        direct = rollout(
            engine, Position(boards[row].tolist()), RolloutSettings(trials=2, seed=seed), workers=1
        )
        want = float32_labels(np.array([direct.probabilities.as_tuple()]))[0]
        assert np.allclose(a.targets[row], want, atol=1e-6)
    manifest = json.loads((tmp_path / "whole" / "manifest.json").read_text())
    assert "the plays of a roll on the same dice" in manifest["teacher"]


def test_the_choices_of_a_campaign_of_plays_are_judged_across_its_shards(tmp_path, capsys) -> None:
    ev = _net()
    run_campaign(tmp_path, ev, settings=PLAYS, note=_quiet, run=CampaignRun(shards=2, chunk=4))
    first, second = (load_shard(shard_path(tmp_path, k)) for k in range(2))
    decisions = decisions_of(tmp_path)
    # the second shard's decisions run on after the first's
    assert np.array_equal(decisions[: len(first.boards)], first.decisions)
    assert np.array_equal(decisions[len(first.boards) :], second.decisions + first.decisions[-1] + 1)
    judged = Decisions.load(tmp_path, holdout=0)
    assert len(judged) == int(np.sum(np.bincount(decisions) >= 2))
    weights = tmp_path / "net.npz"
    ev.save(weights)
    main(["choices", "--labels", str(tmp_path), "--holdout", "0.5", str(weights)])
    assert "decisions" in capsys.readouterr().out
    # the folder as a label set keeps them, so that a fit can rank a roll's plays
    labels = labels_of(tmp_path)
    assert labels.decisions is not None and np.array_equal(labels.decisions, decisions)
    main(["fit", "--resume", str(weights), "--nets", "contact", "--epochs", "1", "--check-pairs", "0",
          "--labels", str(tmp_path), "--rank-weight", "10", "--out", str(tmp_path / "ranked.npz")])
    assert "deviation error" in capsys.readouterr().out
    # some shards alone: the second's boards, its decisions numbered from 0
    alone = labels_of_shards([shard_path(tmp_path, 1)])
    assert np.array_equal(alone.boards, second.boards) and np.array_equal(alone.targets, second.targets)
    assert alone.decisions is not None
    assert np.array_equal(alone.decisions, second.decisions - second.decisions[0])
    both = labels_of_shards([shard_path(tmp_path, k) for k in range(2)])
    assert np.array_equal(both.boards, labels.boards) and np.array_equal(both.decisions, labels.decisions)


def test_a_fit_reads_the_shard_files_it_is_given_and_no_other(tmp_path, capsys) -> None:
    run_campaign(tmp_path, _net(), settings=TINY, note=_quiet, run=CampaignRun(shards=3, chunk=4))
    weights = tmp_path / "net.npz"
    _net().save(weights)
    chosen = [str(shard_path(tmp_path, k)) for k in (0, 2)]
    main(["fit", "--resume", str(weights), "--nets", "contact", "--epochs", "1", "--check-pairs", "0",
          "--labels", *chosen, "--out", str(tmp_path / "two.npz")])
    out = capsys.readouterr().out
    # the two shards' 8 positions as one run of shards, not the folder's 12
    assert "start: 8 positions to fit" in out, out
    with pytest.raises(ValueError, match="no label shard given"):
        labels_of_shards([])
