"""Stopping the local worker pool of :func:`gammon.engine.rollout.parallel.ordered_map` early (Ctrl-C,
a rollout's stopping rule): the work still in flight is dropped at once, not waited for. A 2-ply
rollout's batch takes many minutes, and Ctrl-C waited for every batch already handed to a process."""

from __future__ import annotations

import time
from collections.abc import Generator
from pathlib import Path

from gammon.engine.rollout.parallel import ordered_map

SLOW = 20.0  # seconds a range after the first takes: far longer than stopping should


def _slow_after_the_first(log: Path, start: int, stop: int) -> int:
    if start > 0:
        time.sleep(SLOW)
    with log.open("a") as f:
        f.write(f"{start}\n")
    return start


def test_closing_the_results_early_drops_the_work_in_flight(tmp_path: Path) -> None:
    log = tmp_path / "finished"
    log.touch()
    results = ordered_map(_slow_after_the_first, log, [(i, i + 1) for i in range(6)], workers=2)
    assert isinstance(results, Generator) and next(results) == 0
    results.close()  # as a KeyboardInterrupt or a stopping rule leaves the loop
    # the ranges handed to the processes were waited for to the end: 1 and 2 finished too
    assert log.read_text().split() == ["0"]


def test_ranges_run_to_the_end_are_all_given_in_order(tmp_path: Path) -> None:
    log = tmp_path / "finished"
    log.touch()
    assert list(ordered_map(_fast, log, [(i, i + 1) for i in range(7)], workers=2)) == list(range(7))
    assert sorted(map(int, log.read_text().split())) == list(range(7))


def _fast(log: Path, start: int, stop: int) -> int:
    with log.open("a") as f:
        f.write(f"{start}\n")
    return start
