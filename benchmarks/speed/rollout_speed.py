"""Rollout speed against GNU Backgammon, and rollout accuracy judged by GNU Backgammon 2-ply.

Speed: the same cubeless rollouts, 0-ply checker play, variance reduction and quasi-random dice
on, no truncation except at the one-sided bear-off database (both programs stop a trial when both
sides are in it), by gammon (``Engine(plies=0).rollout``) and by GNU Backgammon (Debian
``gnubg -t``, its ``rollout`` command timed with ``time.perf_counter`` inside gnubg's own Python),
position by position, alternately, in the same run; ``--workers`` processes for gammon and as
many threads for gnubg. Prints games per second and gammon's speed over gnubg's.

Accuracy: on random positions from real games (tests/data/wildbg/contact.csv), the cubeless
equity of a 0-ply rollout of ``--trials`` games and gammon's own 0-ply evaluation, each against
GNU Backgammon's 2-ply evaluation (PyPI ``gnubg.evaluate``, the judge): the mean absolute
differences. GNU Backgammon only judges; nothing of it goes into gammon.

    python -m benchmarks.speed.rollout_speed [--speed-positions 3] [--speed-trials 324] [--workers 1]
                                       [--accuracy-positions 20] [--trials 1296] [--seed 1]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks import WILDBG  # noqa: E402
from benchmarks.gnubg_harness import run_gnubg  # noqa: E402
from gammon import Position  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402
from gammon.engine.rollout.rollouts import RolloutSettings  # noqa: E402
from gammon.formats.matchid import GameState, MatchState  # noqa: E402

CONTACT = WILDBG / "contact.csv"

GNUBG_SCRIPT = """\
import time
gnubg.command('set threads {threads}')
gnubg.command('set rollout trials {trials}')
gnubg.command('set rollout cubeful off')
gnubg.command('set rollout varredn on')
gnubg.command('set rollout quasirandom on')
gnubg.command('set rollout chequerplay plies 0')
gnubg.command('set rollout truncation enable off')
gnubg.command('set rollout late enable off')
gnubg.command('set rollout bearofftruncation exact off')
gnubg.command('set rollout bearofftruncation onesided on')
gnubg.command('set rollout seed {seed}')
gnubg.command('set gnubgid {gnubg_id}')
start = time.perf_counter()
gnubg.command('rollout')
emit(time.perf_counter() - start)
"""


def gnubg_id(p: Position) -> str:
    """The position with player 1 on roll before the roll, money, centred cube."""
    state = MatchState(player_on_roll=1, turn=1, game_state=GameState.PLAYING)
    return f"{p.id}:{state.id}"


def gnubg_rollout_seconds(p: Position, trials: int, threads: int, seed: int) -> float:
    script = GNUBG_SCRIPT.format(threads=threads, trials=trials, seed=seed, gnubg_id=gnubg_id(p))
    return float(run_gnubg(script, timeout=3600, expect=1)[0])


def speed(engine: Engine, positions: list[Position], trials: int, workers: int, seed: int) -> None:
    print(f"speed: {len(positions)} positions x {trials} trials, cubeless, 0-ply, variance reduction, "
          f"quasi-random dice, one-sided bear-off truncation; gammon {workers} process(es), gnubg "
          f"{workers} thread(s)")
    settings = RolloutSettings(trials=trials, seed=seed)
    engine.rollout(positions[0], RolloutSettings(trials=2, truncate=2), workers=1)  # compile the kernels
    totals = {"gammon": 0.0, "gnubg": 0.0}
    for p in positions:
        g = gnubg_rollout_seconds(p, trials, workers, seed)
        t = time.perf_counter()
        r = engine.rollout(p, settings, workers=workers)
        ours = time.perf_counter() - t
        totals["gammon"] += ours
        totals["gnubg"] += g
        print(f"  {p.id}: gammon {ours:6.1f} s ({trials / ours:6.1f} games/s, equity "
              f"{r.equity:+.3f} +- {r.standard_error.equity:.3f}), gnubg {g:6.1f} s "
              f"({trials / g:6.1f} games/s)")
    games = trials * len(positions)
    print(f"total: gammon {games / totals['gammon']:.1f} games/s, gnubg {games / totals['gnubg']:.1f} "
          f"games/s; gammon's time / gnubg's = {totals['gammon'] / totals['gnubg']:.2f} "
          f"(gammon {totals['gnubg'] / totals['gammon']:.2f}x as fast)")


def accuracy(engine: Engine, positions: list[Position], trials: int, workers: int, seed: int) -> None:
    import gnubg

    cube = gnubg.cubeinfo()
    cube["jacoby"] = 0
    ctx2 = gnubg.evalcontext(0, 2, 1, 1, 0.0)
    print(f"accuracy: {len(positions)} contact positions, {trials}-trial 0-ply rollouts vs gammon 0-ply, "
          "judged by gnubg 2-ply cubeless equity")
    rolled, zero = [], []
    start = time.perf_counter()
    for k, p in enumerate(positions, 1):
        judge = float(gnubg.evaluate(p.to_gnubg_board(), cube, ctx2)[5])
        r = engine.rollout(p, RolloutSettings(trials=trials, seed=seed + k), workers=workers)
        own = engine.evaluate(p).equity
        rolled.append(abs(r.equity - judge))
        zero.append(abs(own - judge))
        elapsed = time.perf_counter() - start
        print(f"  {p.id}: gnubg 2-ply {judge:+.3f}, rollout {r.equity:+.3f} +- "
              f"{r.standard_error.equity:.3f}, gammon 0-ply {own:+.3f}  ({elapsed:.0f} s)")
    a, b = np.array(rolled), np.array(zero)
    print(f"mean |equity - gnubg 2-ply|: rollout {a.mean():.4f}, gammon 0-ply {b.mean():.4f}; "
          f"the rollout is closer on {int((a < b).sum())} of {len(a)} positions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-positions", type=int, default=3)
    parser.add_argument("--speed-trials", type=int, default=324)
    parser.add_argument("--workers", type=int, default=1, help="gammon processes = gnubg threads")
    parser.add_argument("--accuracy-positions", type=int, default=20)
    parser.add_argument("--trials", type=int, default=1296, help="trials of the accuracy rollouts")
    parser.add_argument("--accuracy-workers", type=int, default=None,
                        help="gammon processes for the accuracy rollouts (default: every core)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ids = CONTACT.read_text().split()
    engine = Engine(plies=0)
    if args.speed_positions:
        picked = [Position.from_id(i) for i in rng.sample(ids, args.speed_positions)]
        speed(engine, picked, args.speed_trials, args.workers, args.seed)
    if args.accuracy_positions:
        picked = [Position.from_id(i) for i in rng.sample(ids, args.accuracy_positions)]
        accuracy(engine, picked, args.trials, args.accuracy_workers or os.cpu_count() or 1, args.seed)


if __name__ == "__main__":
    main()
