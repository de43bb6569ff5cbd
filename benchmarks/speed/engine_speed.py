"""Engine speed: Engine(plies=0).best_play against GNU Backgammon 0-ply findbestmove, and Engine()
(default plies) against GNU Backgammon 2-ply findbestmove, on the same decisions in the same run.

Decisions (``--set``): ``selfplay`` (default) is the judge set (benchmarks/data/judge_set.tsv,
contact and race alternating); ``wildbg`` is the wildbg benchmark positions (contact and race,
interleaved), each with one roll from a seeded generator, positions with fewer than two legal plays
skipped. The first ``--decisions`` time the 0-ply players; the next ``--default-decisions`` time
Engine() and gnubg 2-ply (evalcontext as judge.py's reference: deterministic, pruning, default move
filters), so that gnubg's evaluation cache holds nothing of them from the 0-ply passes; gammon's
cache is emptied before each. Before any timing both 0-ply players make ``--warmup`` other
decisions (the set's last ones), so that the first timed ones do not pay for pages of code, nets
and tables read for the first time, which is not the cost of a decision; gnubg's cache keeps what
the warm-up put in it, gammon's is emptied. The cold 0-ply passes turn about every ``--chunk``
decisions, as the 2-ply ones on every decision. Each ratio is given twice: by the clock, and by the
CPU time of this process (``time.process_time``, every thread of it counted), which the other work
of a shared machine does not lengthen: a cold 0-ply pass lasts a few hundredths of a second, less
than the time slices the scheduler hands out at a load of 4, so its clock ratio is mostly the
machine's load. Targets: Engine(plies=0) <= 0.5x gnubg 0-ply's
time (cold caches), Engine() <= 0.5x gnubg 2-ply's.

    python -m benchmarks.speed.engine_speed [--set selfplay|wildbg] [--decisions 1000]
        [--default-decisions 200] [--warmup 500] [--seed 1] [--weights FILE]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: BLAS threads only add waiting

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gnubg  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks import WILDBG  # noqa: E402
from benchmarks.strength.judge_set import read_judge_set  # noqa: E402
from gammon import Position  # noqa: E402
from gammon.engine.engine import Engine, default_bearoff  # noqa: E402
from gammon.engine.net.neural import NeuralEvaluator  # noqa: E402


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
    parser.add_argument(
        "--default-decisions",
        type=int,
        default=200,
        help="decisions timed for Engine() (slower: default plies)",
    )
    parser.add_argument("--set", choices=["selfplay", "wildbg"], default="selfplay")
    parser.add_argument("--seed", type=int, default=1, help="roll seed for --set wildbg")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the warm 0-ply passes (best)")
    parser.add_argument("--chunk", type=int, default=50, help="decisions a turn, cold 0-ply passes")
    parser.add_argument("--warmup", type=int, default=500, help="other decisions made before timing")
    parser.add_argument(
        "--weights", type=Path, default=None, help="a weights file instead of the shipped net"
    )
    args = parser.parse_args()
    total = args.decisions + args.default_decisions
    if args.set == "selfplay":
        whole = [(d.position, d.dice) for d in read_judge_set()]
        source = "judge set"
    else:
        whole = decisions(total + args.warmup, args.seed)
        source = f"wildbg positions, seeded rolls {args.seed}"
    everything, warmup = whole[:total], whole[total:][-args.warmup :] if args.warmup else []
    work = everything[: args.decisions]
    boards = [(p.to_gnubg_board(), d) for p, d in work]
    cube = gnubg.cubeinfo()
    cube["jacoby"] = 0
    ctx0 = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    ctx2 = gnubg.evalcontext(0, 2, 1, 1, 0.0)
    ev = None if args.weights is None else NeuralEvaluator.load(args.weights)
    zero = Engine.with_weights(ev, 0)
    default = Engine(evaluator=ev)
    zero.best_play(*work[0])  # compile kernels, load the net
    default.best_play(*work[0])
    default_bearoff().kernel_tables(read=True)  # and read the bear-off database, as gnubg does its own
    for p, d in warmup:
        zero.best_play(p, d)
        gnubg.findbestmove(p.to_gnubg_board(), cube, ctx0, d)

    def time_best(fn, repeat: int = args.repeat) -> float:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        return best

    # Both keep an evaluation cache: a first pass over the decisions, each timed once, is the fair
    # (cold) time; later passes mostly read the cache (warm). gammon's cache is emptied first
    # (the warm-up above was on another position); gnubg's holds nothing of these decisions.
    def emptied(engine: Engine) -> None:
        cache = getattr(engine.evaluator, "cache", None)
        if cache is not None:
            cache.clear()

    # The cold passes turn about in chunks of the decisions (each chunk new to both caches), so
    # that both meet the same load on a shared machine: a pass takes a tenth of a second.
    emptied(zero)
    t_cold = t_zero = 0.0
    cpu = {"gnubg": 0.0, "gammon": 0.0}  # CPU seconds of this process: what the load does not add
    for k in range(0, len(work), args.chunk):
        order = ("gnubg", "gammon") if (k // args.chunk) % 2 == 0 else ("gammon", "gnubg")
        for who in order:
            start, start_cpu = time.perf_counter(), time.process_time()
            if who == "gnubg":
                for b, d in boards[k : k + args.chunk]:
                    gnubg.findbestmove(b, cube, ctx0, d)
                t_cold += time.perf_counter() - start
            else:
                for p, d in work[k : k + args.chunk]:
                    zero.best_play(p, d)
                t_zero += time.perf_counter() - start
            cpu[who] += time.process_time() - start_cpu
    t_warm = time_best(lambda: [gnubg.findbestmove(b, cube, ctx0, d) for b, d in boards])
    t_zero_warm = time_best(lambda: [zero.best_play(p, d) for p, d in work])
    n = len(work)
    print(
        f"{n} decisions ({source}); evaluator: {type(zero.evaluator).__name__} {args.weights or '(shipped)'}"
    )
    print(f"gnubg 0-ply findbestmove, cold cache : {t_cold:7.3f} s  {n / t_cold:9,.0f} decisions/s")
    print(f"gnubg 0-ply findbestmove, warm cache : {t_warm:7.3f} s  {n / t_warm:9,.0f} decisions/s")
    print(f"Engine(plies=0).best_play, cold cache: {t_zero:7.3f} s  {n / t_zero:9,.0f} decisions/s")
    print(f"Engine(plies=0).best_play, warm cache: {t_zero_warm:7.3f} s  {n / t_zero_warm:9,.0f} decisions/s")
    print(
        f"time ratio Engine(0)/gnubg 0 (cold)  : {t_zero / t_cold:.2f}x (target <= 0.5x); "
        f"warm {t_zero_warm / t_warm:.2f}x"
    )
    print(
        f"CPU time ratio, the same cold passes : {cpu['gammon'] / cpu['gnubg']:.2f}x "
        f"({1e6 * cpu['gammon'] / n:.0f} and {1e6 * cpu['gnubg'] / n:.0f} us a decision)"
    )
    sample = everything[args.decisions :]
    print(f"{len(sample)} further decisions ({source}), one pass each, turn about (gnubg's cache cold):")
    players = [
        (f"Engine() ({default.plies}-ply)", lambda p, d: default.best_play(p, d)),
        ("gnubg 2-ply findbestmove", lambda p, d: gnubg.findbestmove(p.to_gnubg_board(), cube, ctx2, d)),
    ]
    if default.plies < 2:
        plies2 = Engine(plies=2, evaluator=ev)
        plies2.best_play(*work[0])
        players.append(("Engine(plies=2)", lambda p, d: plies2.best_play(p, d)))
    # Turn about on each decision, so that both players meet the same load on a shared machine.
    emptied(default)
    times: dict[str, list[float]] = {label: [] for label, _ in players}
    cpu_s = dict.fromkeys(times, 0.0)
    for p, d in sample:
        for label, play in players:
            t, t_cpu = time.perf_counter(), time.process_time()
            play(p, d)
            times[label].append(time.perf_counter() - t)
            cpu_s[label] += time.process_time() - t_cpu
    total_s = {}
    for label, _ in players:
        ms = 1000 * np.array(times[label])
        total_s[label] = ms.sum() / 1000
        rate = 1000 * len(sample) / ms.sum()
        print(
            f"{label:<37}: {ms.sum() / 1000:7.3f} s for {len(sample)}  {rate:9,.1f} decisions/s"
            f"  (mean {ms.mean():.0f} ms, median {np.median(ms):.0f}, 95% under "
            f"{np.percentile(ms, 95):.0f}, slowest {ms.max():.0f})"
        )
    first, second = players[0][0], players[1][0]
    print(f"time ratio Engine()/gnubg 2-ply      : {total_s[first] / total_s[second]:.2f}x (target <= 0.5x)")
    print(f"CPU time ratio, the same passes      : {cpu_s[first] / cpu_s[second]:.2f}x")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
