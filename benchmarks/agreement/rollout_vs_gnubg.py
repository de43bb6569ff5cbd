"""Whose probabilities does GNU Backgammon agree with on the cube's positions: gammon's net, or
gammon's own rollouts? DIAGNOSIS ONLY (nothing is fitted on these positions or numbers).

For the first ``--positions`` contact positions of benchmarks/data/cube_money.tsv with the cube
centred where the taker (the player not on roll) holds ``--anchors`` points of the doubler's home
board (2: two or more), the report gives the mean, with its standard error, of each estimate
minus GNU Backgammon's 2-ply cubeless evaluation (``gnubg.evaluate``, the judge of
benchmarks/strength/cube_judge.py): the net at 0 ply, and gammon's own cubeless rollouts played at 0 and at
1 ply (``--trials`` trials, variance reduction, 1 worker), for the cubeless equity and the win
gammon chance, and the time each took::

    python -m benchmarks.agreement.rollout_vs_gnubg --anchors 1 --positions 40 --trials 36
    python -m benchmarks.agreement.rollout_vs_gnubg --anchors 0 --positions 30 --trials 36

A net close to its rollouts but far from GNU Backgammon says the rollouts' play is the limit; a
net far from both says the net has not been taught these positions.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import gnubg  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks import DATA  # noqa: E402
from benchmarks.strength.cube_judge import load  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402
from gammon.engine.net.encode import anchors  # noqa: E402
from gammon.engine.net.evaluator import cubeless_equity  # noqa: E402
from gammon.engine.rollout.rollouts import RolloutSettings  # noqa: E402
from gammon.position import Position  # noqa: E402


def positions(taker_anchors: int, n: int) -> list[Position]:
    """The first ``n`` distinct contact positions of the money judge file, cube centred, whose
    taker holds ``taker_anchors`` points of the doubler's home board (2: two or more)."""
    seen: dict[str, Position] = {}
    for d in load(DATA / "cube_money.tsv"):
        if d.owned or d.position in seen:
            continue
        p = Position.from_id(d.position)
        if p.is_race() or min(2, int(anchors(p.as_array()[None, :])[0, 1])) != taker_anchors:
            continue
        seen[d.position] = p
        if len(seen) == n:
            break
    return list(seen.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchors", type=int, choices=(0, 1, 2), default=1)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--trials", type=int, default=36)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()

    import numba

    numba.set_num_threads(1)
    cube = {**gnubg.cubeinfo(), "jacoby": 0}
    ctx = gnubg.evalcontext(0, 2, 1, 0, 0.0)
    net, one_ply = Engine(plies=0), Engine(plies=1)
    names = ("net 0-ply", "rollout at 0 ply", "rollout at 1 ply")
    seconds = dict.fromkeys(names, 0.0)
    diffs: list[list[float]] = []
    chosen = positions(args.anchors, args.positions)
    for i, p in enumerate(chosen):
        judge = np.array(gnubg.evaluate(p.to_gnubg_board(), cube, ctx)[:5])
        row = []
        for name in names:
            start = time.perf_counter()
            if name == "net 0-ply":
                probs = net.evaluate(p).as_array()
            else:
                engine = net if name == "rollout at 0 ply" else one_ply
                result = engine.rollout(p, RolloutSettings(trials=args.trials, seed=args.seed), workers=1)
                probs = result.probabilities.as_array()
            seconds[name] += time.perf_counter() - start
            row += [cubeless_equity(probs) - cubeless_equity(judge), probs[1] - judge[1]]
        diffs.append(row)
        print(f"  {i + 1}/{len(chosen)}", file=sys.stderr)
    d = np.array(diffs)
    mean, se = d.mean(0), d.std(0, ddof=1) / np.sqrt(len(d))
    held = f"{args.anchors}{'+' if args.anchors == 2 else ''}"
    print(f"{len(d)} money cube positions (cube centred, contact), the taker holding {held} points of the "
          f"doubler's home board; minus GNU Backgammon 2-ply cubeless; rollouts of {args.trials} trials, "
          f"seed {args.seed}")
    print(f"{'estimate':<18} {'equity':>16} {'win gammon':>16} {'time':>9}")
    for k, name in enumerate(names):
        eq, wg = 2 * k, 2 * k + 1
        print(f"{name:<18} {mean[eq]:+.4f} +- {se[eq]:.4f} {mean[wg]:+.4f} +- {se[wg]:.4f}"
              f" {seconds[name]:8.1f}s")


if __name__ == "__main__":
    main()
