"""Every source of a label campaign stops on SIGTERM and resumes to the same shard as a run that
never stopped (the shipped net: a random net's games never reach the cube window)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import numpy as np
import pytest

from gammon.engine.net.neural import NeuralEvaluator
from gammon.train.campaign import (
    SOURCES,
    CampaignRun,
    CampaignSettings,
    load_shard,
    run_campaign,
    shard_path,
    status,
)


def _quiet(line: str) -> None:
    pass


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_each_source_stops_on_sigterm_and_resumes_to_the_same_shard(tmp_path, source) -> None:
    ev = NeuralEvaluator.default()
    # 6 positions: a source of plays keeps whole decisions of up to 5 boards
    settings = CampaignSettings(seed=7, shard_size=6, trials=2, sources=(source,))
    assert (
        run_campaign(tmp_path / "whole", ev, settings=settings, note=_quiet, run=CampaignRun(shards=1)) == 1
    )
    sent: list[int] = []

    def sigterm_once() -> bool:
        if not sent:
            sent.append(1)
            os.kill(os.getpid(), signal.SIGTERM)  # the run's own handler takes it
        return False

    stopped = tmp_path / "stopped"
    before = signal.getsignal(signal.SIGTERM)
    done = run_campaign(
        stopped, ev, settings=settings, note=_quiet, should_stop=sigterm_once, run=CampaignRun(chunk=1)
    )
    assert done == 0 and sent and signal.getsignal(signal.SIGTERM) is before
    assert not shard_path(stopped, 0).exists()
    kept = load_shard(stopped / ".partial" / "shard-00000.npz")
    assert 0 < len(kept.boards) < 6
    # resumed without the settings (the folder keeps them), on two processes and other chunks
    assert run_campaign(stopped, ev, note=_quiet, run=CampaignRun(shards=1, chunk=2, workers=2)) == 1
    a, b = load_shard(shard_path(tmp_path / "whole", 0)), load_shard(shard_path(stopped, 0))
    assert a.meta["source"] == b.meta["source"] == source
    assert np.array_equal(a.boards, b.boards) and 0 < len(a.boards) <= 6
    assert np.array_equal(a.targets, b.targets) and np.array_equal(a.standard_errors, b.standard_errors)
    assert (a.decisions is None) == (b.decisions is None) == (not source.endswith("-plays"))
    if a.decisions is not None and b.decisions is not None:
        assert np.array_equal(a.decisions, b.decisions)
    assert not (stopped / ".partial" / "shard-00000.npz").exists()


def test_files_are_written_in_partial_and_renamed_into_the_folder(tmp_path, monkeypatch) -> None:
    # a 'git add' of a campaign's folder while a run saves must not take a half-written file
    renamed: list[tuple[Path, Path]] = []
    rename = Path.replace

    def recorded(self: Path, target: Path) -> Path:
        renamed.append((self, Path(target)))
        return rename(self, target)

    monkeypatch.setattr(Path, "replace", recorded)
    ev = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=3)
    settings = CampaignSettings(seed=5, shard_size=4, trials=2, every=8, sources=("contact",))
    assert run_campaign(tmp_path, ev, settings=settings, note=_quiet, run=CampaignRun(shards=1, chunk=2)) == 1
    status(tmp_path)
    targets = {target.name for _, target in renamed}
    assert {"shard-00000.npz", "manifest.json"} <= targets
    assert all(source.parent == tmp_path / ".partial" for source, _ in renamed)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".partial",
        "campaign.json",
        "manifest.json",
        "shard-00000.npz",
    ]
