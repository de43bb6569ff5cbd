"""Engine speed: Engine(plies=0).best_play against GNU Backgammon 0-ply findbestmove on the same
decisions in the same run, and Engine() (default plies) decisions per second.

Decisions: the wildbg benchmark positions (contact and race, interleaved), each with one roll from
a seeded generator; positions with fewer than two legal plays are skipped (nothing to decide).

    python benchmarks/engine_speed.py [--decisions 1000] [--default-decisions 200] [--seed 1]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: BLAS threads only add waiting

import argparse  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gnubg  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gammon import Position  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402

WILDBG = Path(__file__).resolve().parents[1] / "tests" / "data" / "wildbg"


def decisions(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, roll) pairs with at least two legal plays, contact and race alternating.
    One seeded roll per position; when that gives fewer than ``count``, every position gets another
    roll, and so on (at most 10 rounds)."""
    files = [(WILDBG / f"{n}.csv").read_text().split() for n in ("contact", "race")]
    positions = [Position.from_id(pid) for pair in zip(*files) for pid in pair]
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    for _ in range(10):
        for p in positions:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if len(p.legal_plays(dice)) >= 2:
                out.append((p, dice))
        if len(out) >= count:
            break
    return out[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--default-decisions", type=int, default=200,
                        help="decisions timed for Engine() (slower: default plies)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the 0-ply comparison; best counts")
    args = parser.parse_args()
    work = decisions(args.decisions, args.seed)
    boards = [(p.to_gnubg_board(), d) for p, d in work]
    cube = gnubg.cubeinfo()
    cube["jacoby"] = 0
    ctx0 = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    zero = Engine(plies=0)
    default = Engine()
    zero.best_play(*work[0])  # compile kernels, load the net
    default.best_play(*work[0])

    def time_best(fn, repeat: int = args.repeat) -> float:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        return best

    # gnubg keeps an evaluation cache: its first pass over the decisions is the fair (cold) time,
    # later passes mostly read the cache (warm); gammon caches nothing.
    t_cold = time_best(lambda: [gnubg.findbestmove(b, cube, ctx0, d) for b, d in boards], repeat=1)
    t_warm = time_best(lambda: [gnubg.findbestmove(b, cube, ctx0, d) for b, d in boards])
    t_zero = time_best(lambda: [zero.best_play(p, d) for p, d in work])
    n = len(work)
    print(f"{n} decisions (wildbg positions, seeded rolls {args.seed}); evaluator: "
          f"{type(zero.evaluator).__name__}")
    print(f"gnubg 0-ply findbestmove, cold cache : {t_cold:7.3f} s  {n / t_cold:9,.0f} decisions/s")
    print(f"gnubg 0-ply findbestmove, warm cache : {t_warm:7.3f} s  {n / t_warm:9,.0f} decisions/s")
    print(f"Engine(plies=0).best_play            : {t_zero:7.3f} s  {n / t_zero:9,.0f} decisions/s")
    print(f"time ratio Engine(0)/gnubg 0 (cold)  : {t_zero / t_cold:.2f}x (target <= 3x); "
          f"warm {t_zero / t_warm:.2f}x")
    sample = work[: args.default_decisions]
    engines = [(f"Engine() ({default.plies}-ply)", default)]
    if default.plies < 2:
        engines.append(("Engine(plies=2)", Engine(plies=2)))
    for label, engine in engines:
        engine.best_play(*work[0])
        times = []
        for p, d in sample:
            t = time.perf_counter()
            engine.best_play(p, d)
            times.append(time.perf_counter() - t)
        ms = 1000 * np.array(times)
        rate = 1000 * len(sample) / ms.sum()
        print(f"{label:<37}: {ms.sum() / 1000:7.3f} s for {len(sample)}  {rate:9,.1f} decisions/s"
              f"  (mean {ms.mean():.0f} ms, median {np.median(ms):.0f}, 95% under "
              f"{np.percentile(ms, 95):.0f}, slowest {ms.max():.0f})")


if __name__ == "__main__":
    main()
