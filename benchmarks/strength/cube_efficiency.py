"""Janowski's cube efficiency x fitted to gammon's own rollouts (no GNU Backgammon involved).

For each position, a cubeless rollout gives the dead-cube equity E_dead and, through Janowski's
live-cube curve on its probabilities, E_live; cubeful rollouts with the same dice (the engine
making every cube decision inside the games, Jacoby off) of no double (cube centred) and
double/take (the opponent owning it) give E_cf for those two cube states. Then
E_cf - E_dead = x (E_live - E_dead), and x is fitted by least squares per class (contact, race),
with its standard error from the residuals. Positions: those of benchmarks/strength/cube_judge.py's pool
where the engine's own 0-ply win chance is 55-97%, contact and race alternating.

    python -m benchmarks.strength.cube_efficiency [--positions 20] [--trials 144] [--workers 1]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks.strength.cube_judge import WINDOW, candidates  # noqa: E402
from gammon.engine.bearoff.one_sided import is_bearoff_board  # noqa: E402
from gammon.engine.cube.cubeful import money_equities  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402
from gammon.engine.rollout.rollouts import RolloutSettings  # noqa: E402
from gammon.situation import Situation  # noqa: E402


def fit(dead: np.ndarray, live: np.ndarray, cubeful: np.ndarray) -> tuple[float, float]:
    """Least-squares x of ``cubeful - dead = x (live - dead)`` and its standard error."""
    d, gap = cubeful - dead, live - dead
    x = float((d * gap).sum() / (gap * gap).sum())
    if len(d) < 2:
        return x, float("nan")
    residual = d - x * gap
    return x, float(np.sqrt((residual ** 2).sum() / (len(d) - 1) / (gap * gap).sum()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="per class")
    parser.add_argument("--trials", type=int, default=144)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="rollout processes")
    args = parser.parse_args()
    engine = Engine(plies=0)
    chosen: dict[bool, list] = {False: [], True: []}
    for p in candidates(args.seed):
        race = p.is_race()
        wanted = len(chosen[race]) < args.positions and not is_bearoff_board(p.as_array())
        if wanted and WINDOW[0] <= engine.evaluate(p).win <= WINDOW[1]:
            chosen[race].append(p)
        if all(len(v) >= args.positions for v in chosen.values()):
            break
    # played to the end: at the bear-off the rollout would value the cube by Janowski's x itself
    settings = RolloutSettings(trials=args.trials, seed=args.seed, bearoff_truncation=False)
    start = time.perf_counter()
    for race, positions in chosen.items():
        rows = []
        for p in positions:
            dead = engine.rollout(p, settings, workers=args.workers)
            live = money_equities(dead.probabilities.as_array(), 1.0)[0]
            cube = engine.rollout_cube(Situation.at(p, jacoby=False), settings, workers=args.workers)
            # no double: the cube centred; double/take: the opponent owns it at twice the stake
            rows.append((dead.equity, live[0], cube.no_double.equity))
            rows.append((dead.equity, live[2], cube.double_take.equity / 2.0))
        a = np.array(rows)
        x, se = fit(a[:, 0], a[:, 1], a[:, 2])
        gap = np.abs(a[:, 1] - a[:, 0]).mean()
        print(f"{'race' if race else 'contact':<8} {len(positions)} positions x {args.trials} trials, no "
              f"double and double/take: x = {x:.3f} +- {se:.3f} (now {'0.6-0.7' if race else '0.68'}); "
              f"mean |E_live - E_dead| {gap:.3f}; {time.perf_counter() - start:.0f} s so far")


if __name__ == "__main__":
    main()
