"""Improvement after self-play: fit the nets to positions labelled by gammon's own 1-ply search.

Positions come from greedy self-play games of the current nets; each is labelled with its 1-ply
probabilities (the mean over the 21 rolls of the 0-ply best play's evaluation, computed with the
nets as they were before the fit). The nets then take a few epochs of SGD toward the labels, and the
epoch that does best in the pubeval check is kept.
"""

from __future__ import annotations

import time
from pathlib import Path

import numba
import numpy as np

from gammon.engine.neural import NeuralEvaluator
from gammon.train import kernels
from gammon.train.selfplay import StrengthResult, TrainSettings, _net_args, save, vs_pubeval


def labelled_positions(ev: NeuralEvaluator, games: int, every: int,
                       seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every ``every``-th position of ``games`` self-play games and its 1-ply label."""
    boards = kernels.collect_positions(*_net_args(ev), seed, ev.games, games, every,
                                       kernels.MAX_PLIES // every + 1)
    return boards, kernels.label_one_ply(*_net_args(ev), boards)


def fit(ev: NeuralEvaluator, boards: np.ndarray, targets: np.ndarray, alpha: float, seed: int) -> float:
    """One SGD epoch in a random order; returns the mean squared error during the epoch."""
    order = np.random.default_rng(seed).permutation(len(boards)).astype(np.int64)
    return float(kernels.fit_epoch(*_net_args(ev), boards, targets, order, np.float32(alpha)))


def improve(ev: NeuralEvaluator, out: Path, *, games: int, every: int = 3, epochs: int = 4,
            alpha: float = 0.01, seed: int = 7, threads: int = 0, check_pairs: int = 1000,
            log: Path | None = None) -> tuple[NeuralEvaluator, StrengthResult]:
    """Label, fit, check after each epoch; ``out`` holds the best nets seen (the start included)."""
    if threads:
        numba.set_num_threads(threads)

    def note(line: str) -> None:
        print(line, flush=True)
        if log is not None:
            with open(log, "a") as f:
                f.write(line + "\n")

    settings = TrainSettings(seed=seed)
    best = vs_pubeval(ev, check_pairs)
    note(f"start: vs pubeval {best}")
    save(ev, settings, out)
    start = time.perf_counter()
    boards, targets = labelled_positions(ev, games, every, seed)
    note(f"labelled {len(boards):,} positions from {games:,} games at 1-ply in "
         f"{time.perf_counter() - start:.0f} s")
    for epoch in range(epochs):
        loss = fit(ev, boards, targets, alpha, seed + epoch)
        result = vs_pubeval(ev, check_pairs)
        note(f"epoch {epoch + 1}: mse {loss:.5f}  vs pubeval {result}")
        if result.ppg > best.ppg:
            best = result
            save(ev, settings, out)
    return NeuralEvaluator.load(out), best
