"""Is the judge right where two players differ? Where two players choose different plays on a judge
set, each play is judged both ways: by GNU Backgammon's evaluation at ``--judge`` plies (what
``benchmarks.strength.judge`` reports) and by a cubeless rollout that GNU Backgammon 0-ply plays
for both sides (``--trials`` games from each resulting position, the same dice for the two plays,
the first roll stratified over the 36). GNU Backgammon's levels share one evaluation, so a judge
that is one of them may favour its siblings' choices; the rollout plays that evaluation to the end
of the game and is the less partial judge. Rollout noise: 432 trials give a difference of two plays
a standard error of about 0.03.

    python -m benchmarks.strength.rollout_judge [--set classes|selfplay] [--players engine:2 gnubg:2]
        [--judge 3] [--trials 432] [--decisions N] [--workers 2] [--seed 1]

Players: ``engine:PLIES`` (``Engine(plies=PLIES)``, shipped weights) or ``gnubg:PLIES`` (GNU
Backgammon's choice at its default move filters; at 0 ply the best of every legal play). It prints,
by kind and over all: the decisions and how many differ, then over those that differ the second
player's equity minus the first's (the mover's cubeless money equity, mEMG, mean and standard error
over the decisions) by the judge and by the rollouts, and the same spread over every decision (what
the judge's mean losses differ by).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from multiprocessing import Pool  # noqa: E402
from typing import NamedTuple  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks.strength.judge import SETS, Gnubg  # noqa: E402
from benchmarks.strength.judge_set import KINDS, read_judge_set  # noqa: E402
from benchmarks.strength.strength import _points, gnubg_player  # noqa: E402
from gammon import Position  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402

Chooser = Callable[[Position, tuple[int, int]], Position]


class Differing(NamedTuple):
    """A decision where the players chose differently: its kind and the two resulting positions' IDs."""

    kind: str
    first: str
    second: str
    judged: float  # the judge's equity of the second play minus the first's


def chooser(spec: str, judge: Gnubg) -> Chooser:
    """The resulting position a player's play gives, by its name (``engine:PLIES``, ``gnubg:PLIES``)."""
    kind, _, plies_text = spec.partition(":")
    plies = int(plies_text or 0)
    if kind == "engine":
        engine = Engine(plies=plies)

        def engine_choice(position: Position, dice: tuple[int, int]) -> Position:
            play = engine.best_play(position, dice)
            assert play is not None  # the judge sets hold decisions with two or more legal plays
            return play.after

        return engine_choice
    if kind == "gnubg":

        def gnubg_choice(position: Position, dice: tuple[int, int]) -> Position:
            plays = position.legal_plays(dice)
            if plies == 0:
                return judge.zero_ply_choice(plays)
            return judge.choice(position, dice, plays, plies)

        return gnubg_choice
    raise ValueError(f"unknown player {spec!r}: engine:PLIES or gnubg:PLIES")


def rollout_difference(job: tuple[str, str, int, int]) -> float:
    """The mean over ``trials`` games, the same dice for both, of the second play's result minus the
    first's, for the player who made them (GNU Backgammon 0-ply playing both sides)."""
    first, second, trials, seed = job
    policy = _policy()
    total = 0.0
    for trial in range(trials):
        first_roll = (trial % 36 // 6 + 1, trial % 6 + 1)
        results = [_play_out(Position.from_id(a), first_roll, random.Random(seed * 1_000_003 + trial), policy)
                   for a in (first, second)]
        total += results[1] - results[0]
    return total / trials


_POLICY: list[Chooser] = []


def _policy() -> Chooser:
    """One GNU Backgammon 0-ply player a process."""
    if not _POLICY:
        _POLICY.append(gnubg_player(0))
    return _POLICY[0]


def _play_out(after: Position, dice: tuple[int, int], rng: random.Random, policy: Chooser) -> int:
    """Points won, by the player whose play gave ``after``, in the cubeless game played out from it."""
    if after.is_game_over():  # the play bore off the last checker
        return _points(after)
    position, sign = after, -1  # the side on roll is the other player's
    for _ in range(10_000):
        nxt = policy(position, dice)
        if nxt.is_game_over():
            return sign * _points(nxt)
        position, sign = nxt, -sign
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    raise RuntimeError("a rollout game did not end in 10,000 plays")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=list(SETS), default="classes")
    parser.add_argument("--players", nargs=2, default=["engine:2", "gnubg:2"])
    parser.add_argument("--judge", type=int, choices=[2, 3], default=3, help="the judge's plies")
    parser.add_argument("--trials", type=int, default=432)
    parser.add_argument("--decisions", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


def find_differing(args: argparse.Namespace) -> tuple[list[Differing], dict[str, int]]:
    """The decisions where the two players choose differently, and the count of each kind."""
    judge = Gnubg(args.judge)
    players = [chooser(spec, judge) for spec in args.players]
    work = read_judge_set(SETS[args.set])[: args.decisions]
    counts = dict.fromkeys(KINDS, 0)
    differing = []
    for k, d in enumerate(work, 1):
        counts[d.kind] += 1
        first, second = (choose(d.position, d.dice) for choose in players)
        if first.board != second.board:
            differing.append(Differing(d.kind, first.id, second.id, judge.value(second) - judge.value(first)))
        if k % 500 == 0:
            print(f"  {k} decisions, {len(differing)} differ", file=sys.stderr)
    return differing, counts


def _line(label: str, n: int, x: np.ndarray) -> str:
    if len(x) < 2:
        return f"{label:<10}{n:>7}{len(x):>8}"
    se = x.std(ddof=1) / np.sqrt(len(x))
    mean, scale = 1000 * x.mean(), len(x) / n  # mEMG; the share of the decisions that differ
    return (f"{label:<10}{n:>7}{len(x):>8}{mean:>+11.1f} +- {1000 * se:<6.1f}"
            f"{mean * scale:>+10.2f} +- {1000 * se * scale:.2f}")


def report(
    args: argparse.Namespace, differing: list[Differing], counts: dict[str, int], rolled: np.ndarray
) -> None:
    judged = np.array([d.judged for d in differing])
    kinds = np.array([d.kind for d in differing])
    print(f"{args.players[1]} - {args.players[0]}, the mover's cubeless equity in mEMG: over the decisions "
          f"that differ, and that spread over every decision; set {args.set}, judge GNU Backgammon "
          f"{args.judge}-ply, rollouts GNU Backgammon 0-ply, {args.trials} trials a play, seed {args.seed}")
    print(f"{'kind':<10}{'all':>7}{'differ':>8}{'differing':>20}{'every decision':>22}")
    for label, values in (("judge", judged), ("rollout", rolled), ("judge - rollout", judged - rolled)):
        print(label)
        for kind in KINDS:
            print("  " + _line(kind, counts[kind], values[kinds == kind]))
        print("  " + _line("all", sum(counts.values()), values))


def main() -> None:
    args = parse_args()
    start = time.perf_counter()
    differing, counts = find_differing(args)
    took = time.perf_counter() - start
    print(f"  choices: {took:.0f} s; {len(differing)} differ; rolling out", file=sys.stderr)
    jobs = [(d.first, d.second, args.trials, args.seed * 7919 + i) for i, d in enumerate(differing)]
    with Pool(args.workers) as pool:
        rolled = np.array(pool.map(rollout_difference, jobs, chunksize=1))
    report(args, differing, counts, rolled)
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
