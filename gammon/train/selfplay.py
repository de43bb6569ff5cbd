"""The TD(lambda) self-play training loop: chunks of parallel games, checkpoints, strength checks.

Game ``i`` of a run draws its dice from ``(seed, i)`` alone, so a run resumed from a checkpoint
plays the same games as one that never stopped; with one numba thread the weights are then
identical too (with more threads the games share the weights without locks and the order of their
updates varies).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.pubeval import CONTACT_WEIGHTS, RACE_WEIGHTS
from gammon.train import kernels


@dataclass(frozen=True)
class TrainSettings:
    """Settings of a self-play run (saved in each checkpoint)."""

    seed: int = 1
    alpha: float = 0.1
    alpha_half: int = 300_000  # games after which the learning rate has halved (alpha / (1 + g/h))
    alpha_min: float = 0.005
    lam: float = 0.7
    chunk: int = 1_000  # games between progress updates and stop checks

    def __post_init__(self) -> None:
        if not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"lambda must be in [0, 1], got {self.lam!r}")
        if self.alpha <= 0 or self.chunk < 1 or self.alpha_half < 1:
            raise ValueError(f"bad settings: {self!r}")

    def alpha_at(self, games: int) -> float:
        return max(self.alpha_min, self.alpha / (1.0 + games / self.alpha_half))


@dataclass(frozen=True)
class Report:
    """What a training run reports and keeps: a pubeval check of ``check_pairs`` mirrored dice
    pairs (0: none) after each step, or every ``check_every`` games of self-play (0: never), a
    checkpoint every ``checkpoint_every`` games of self-play (0: only the last), and the lines it
    prints, appended to ``log`` too."""

    check_pairs: int = 1000
    check_every: int = 0
    checkpoint_every: int = 0
    log: Path | None = None


def train_games(ev: NeuralEvaluator, settings: TrainSettings, games: int) -> int:
    """Play ``games`` more self-play games from ``ev.games`` on, updating ``ev`` in place; returns
    the plies played."""
    first = ev.games
    plies = kernels.train_games(ev, settings.seed, first, games, settings.alpha_at(first), settings.lam)
    ev.weights_changed()  # the games changed the nets in place
    ev.games = first + games
    return int(plies.sum())


@dataclass(frozen=True)
class StrengthResult:
    games: int
    ppg: float
    stderr: float
    wins: float

    def __str__(self) -> str:
        return f"{self.ppg:+.3f} ppg +- {self.stderr:.3f} over {self.games} games (won {self.wins:.1%})"


def vs_pubeval(ev: NeuralEvaluator, pairs: int, seed: int = 12345) -> StrengthResult:
    """Cubeless money games of the net (0-ply) against pubeval, mirrored dice."""
    points = kernels.games_vs_pubeval(ev, RACE_WEIGHTS, CONTACT_WEIGHTS, seed, pairs)
    # Mirrored pairs are correlated: the standard error comes from the pair sums.
    pair_means = points.reshape(-1, 2).mean(axis=1)
    stderr = float(pair_means.std(ddof=1) / math.sqrt(len(pair_means))) if pairs > 1 else float("nan")
    return StrengthResult(len(points), float(points.mean()), stderr, float((points > 0).mean()))


def load_or_start(resume: Path | None, hidden: int, race_hidden: int, seed: int) -> NeuralEvaluator:
    if resume is not None and resume.exists():
        return NeuralEvaluator.load(resume)
    return NeuralEvaluator.random(hidden, race_hidden, seed)


def noter(log: Path | None) -> Callable[[str], None]:
    """A function that prints a line and, with ``log``, appends it to that file."""

    def note(line: str) -> None:
        print(line, flush=True)
        if log is not None:
            with open(log, "a") as f:
                f.write(line + "\n")

    return note


def pubeval_check(ev: NeuralEvaluator, pairs: int) -> str:
    """The pubeval check as a log line's tail (empty with no pairs)."""
    return f"  vs pubeval {vs_pubeval(ev, pairs)}" if pairs else ""


def run(
    ev: NeuralEvaluator,
    settings: TrainSettings,
    games: int,
    out: Path,
    *,
    minutes: float = 0.0,
    threads: int = 0,
    report: Report = Report(check_pairs=500),
    progress: bool = True,
) -> NeuralEvaluator:
    """Train until ``games`` more games are played (or ``minutes`` pass), writing checkpoints to
    ``out`` and strength checks to the console and ``report.log``."""
    if threads:
        numba.set_num_threads(threads)
    target = ev.games + games
    start = time.perf_counter()
    done = 0
    last_check = ev.games
    last_ckpt = ev.games

    note = noter(report.log)
    columns = (
        TextColumn("self-play"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} games"),
        TextColumn("{task.fields[rate]:,.0f} games/s"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, disable=not progress) as bar:
        task = bar.add_task("train", total=games, rate=0.0)
        while ev.games < target:
            n = min(settings.chunk, target - ev.games)
            train_games(ev, settings, n)
            done += n
            elapsed = time.perf_counter() - start
            bar.update(task, advance=n, rate=done / elapsed)
            if report.check_every and ev.games - last_check >= report.check_every:
                last_check = ev.games
                note(
                    f"games {ev.games:,}  alpha {settings.alpha_at(ev.games):.4f}  "
                    f"{done / elapsed:,.0f} games/s  vs pubeval: {vs_pubeval(ev, report.check_pairs)}"
                )
            if report.checkpoint_every and ev.games - last_ckpt >= report.checkpoint_every:
                last_ckpt = ev.games
                save(ev, settings, out)
            if minutes and elapsed > 60.0 * minutes:
                note(f"time limit: stopped after {ev.games:,} games")
                break
    save(ev, settings, out)
    return ev


def save(ev: NeuralEvaluator, settings: TrainSettings, out: Path, heads: bool = False) -> None:
    """A training checkpoint of ``ev``'s nets, without the contact net's cube heads: training moves
    the hidden layer they were fitted on (fit them again: ``python -m gammon.train cube-head``).
    With ``heads`` (the contact net was not trained) they are kept. The crashed net's head stays
    with the crashed net, which self-play does not train."""
    plain = ev if heads else ev.replaced(cube_head=None, borne_head=None)
    plain.save(
        out,
        seed=settings.seed,
        alpha=settings.alpha,
        alpha_half=settings.alpha_half,
        alpha_min=settings.alpha_min,
        lam=settings.lam,
    )
