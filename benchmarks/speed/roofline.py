"""Roofline: the net's evaluations a second on one core against that core's float32 peak.

The arithmetic of one evaluation is counted from the weights' shapes: the multiply-adds of a dense
pass through the net that evaluates the board (inputs x hidden + hidden x 5 outputs; contact and
race nets weighted by how many boards of each the run evaluated). The peak is what a numpy float32
matrix product reaches on the same core (BLAS pinned to one thread): a large square product, and
one of the net's own first-layer shape (a batch of boards, dense). The distance to the limit is
then a number: the dense-equivalent multiply-adds a second of gammon's evaluations as a share of
the peak. gammon does less than the dense count: a board evaluated from scratch adds only the rows
of its non-zero inputs, and in a batch of siblings (a search's plays) only the rows of the inputs
that changed since the board before (gammon.engine.net.forward); both counts are printed too, so that the
share of the peak the work actually done reaches is there as well. (Those sums are int32 in play,
exact (gammon.engine.net.forward): int32 multiply-adds run as many to a vector as float32's.)

Gammon's evaluations are ``NeuralEvaluator.evaluate`` with the evaluation cache off: the children
of random positions (every play of every roll) in batches of one position's plays, as the search
evaluates them, and one board at a time (a call each, so Python's call overhead counts). GNU
Backgammon's 0-ply ``evaluate`` (PyPI gnubg) of the same boards one at a time, in the same run, is
the reference.

    python -m benchmarks.speed.roofline [--positions 200] [--seconds 2]
"""

from __future__ import annotations

import os

# one thread for every library that could start more, before numpy loads
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402

from gammon import Position  # noqa: E402
from gammon.engine.net.encode import encode, race_mask  # noqa: E402
from gammon.engine.net.neural import NeuralEvaluator  # noqa: E402
from gammon.engine.search.searcher import ROLLS, expand  # noqa: E402


def best_rate(work: Callable[[], int], seconds: float) -> float:
    """Items a second of ``work`` (which returns how many it did): the best of repeated runs for
    about ``seconds``, after one run to warm up."""
    work()
    best = 0.0
    end = time.perf_counter() + seconds
    while True:
        start = time.perf_counter()
        n = work()
        now = time.perf_counter()
        best = max(best, n / (now - start))
        if now >= end:
            return best


def matmul_peak(m: int, k: int, n: int, seconds: float) -> float:
    """Multiply-adds a second of a float32 ``(m, k) @ (k, n)`` product in numpy."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    out = np.empty((m, n), dtype=np.float32)

    def product() -> int:
        np.matmul(a, b, out=out)
        return m * k * n

    return best_rate(product, seconds)


def sample_groups(positions: int, seed: int) -> list[np.ndarray]:
    """Every play of every roll of ``positions`` positions of random games, one array of boards a
    position (the plays of one roll after another, as the search evaluates them)."""
    rng = random.Random(seed)
    groups = []
    while len(groups) < positions:
        p = Position.initial()
        while not p.is_game_over() and len(groups) < positions:
            children, _ = expand(np.array([p.board], dtype=np.int8), ROLLS)
            groups.append(children)
            plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            p = rng.choice(plays).after if plays else p.flip()
    return groups


def changed_inputs(x: np.ndarray, race: np.ndarray) -> float:
    """Mean inputs that differ from the board before of the same net (the first of each net: its
    non-zero inputs), the rows an incremental evaluation adds (roughly: play folds some scalars
    into the points' rows and starts from scratch when more than about 40 changed)."""
    total = 0
    for net in (False, True):
        rows = x[race == net]
        if len(rows):
            total += int(np.count_nonzero(rows[0])) + int(np.count_nonzero(rows[1:] != rows[:-1]))
    return total / len(x)


def gnubg_rate(boards: np.ndarray, seconds: float) -> float | None:
    """GNU Backgammon 0-ply evaluations a second, one board a call, each board met once (its
    evaluation cache would answer a board met again): the best of chunks of 1,000 boards."""
    try:
        import gnubg
    except ImportError:
        return None
    cube = gnubg.cubeinfo()
    ctx0 = gnubg.evalcontext(0, 0, 0, 0, 0.0)
    chunks = iter(np.array_split(boards, max(1, len(boards) // 1000)))
    evaluate = gnubg.evaluate

    best = 0.0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        chunk = next(chunks, None)
        if chunk is None:
            break
        gboards = [Position.trusted(tuple(int(v) for v in b)).to_gnubg_board() for b in chunk]
        start = time.perf_counter()
        for g in gboards:
            evaluate(g, cube, ctx0)
        best = max(best, len(gboards) / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="positions whose plays are evaluated")
    parser.add_argument("--seconds", type=float, default=2.0, help="time each measurement about this long")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    shipped = NeuralEvaluator.default()
    ev = NeuralEvaluator(shipped.contact, shipped.race, cache_bytes=0)
    groups = sample_groups(args.positions, args.seed)
    boards = np.concatenate(groups)
    race = race_mask(boards)
    x = encode(boards)
    n_in, c_hidden = shipped.contact.w1.shape
    r_hidden = shipped.race.w1.shape[1]
    share_race = float(race.mean())
    dense = (1 - share_race) * (n_in * c_hidden + c_hidden * 5) + share_race * (
        n_in * r_hidden + r_hidden * 5
    )
    hidden = (1 - share_race) * c_hidden + share_race * r_hidden
    nonzero = float(np.count_nonzero(x, axis=1).mean())
    changed = changed_inputs(x, race)
    print(
        f"nets: contact {n_in}x{c_hidden}x5, race {n_in}x{r_hidden}x5; {len(boards):,} boards "
        f"({share_race:.0%} races) of the plays of {len(groups)} positions"
    )
    print(
        f"multiply-adds an evaluation: dense {dense:,.0f}; from scratch (non-zero inputs only, "
        f"{nonzero:.1f} a board) {nonzero * hidden + hidden * 5:,.0f}; incremental in a batch "
        f"({changed:.1f} inputs changed a board) {changed * hidden + hidden * 5:,.0f}"
    )

    square = matmul_peak(1024, 1024, 1024, args.seconds)
    shaped = matmul_peak(4096, n_in, c_hidden, args.seconds)
    peak = max(square, shaped)
    print(
        f"numpy float32 matmul, one thread: 1024^3 {square / 1e9:.1f} G multiply-adds/s; "
        f"(4096 x {n_in}) @ ({n_in} x {c_hidden}) {shaped / 1e9:.1f} G/s; peak {peak / 1e9:.1f} G/s "
        f"= {peak / dense / 1e6:.2f} M dense evaluations/s"
    )

    def batched() -> int:
        for g in groups:
            ev.evaluate(g)
        return len(boards)

    singles = boards[:: max(1, len(boards) // 5000)]

    def one_at_a_time() -> int:
        for i in range(len(singles)):
            ev.evaluate(singles[i : i + 1])
        return len(singles)

    batched_rate = best_rate(batched, args.seconds)
    single_rate = best_rate(one_at_a_time, args.seconds)
    for what, rate, inputs in (
        ("batched, a position's plays a call", batched_rate, changed),
        ("one board a call", single_rate, nonzero),
    ):
        print(
            f"gammon 0-ply, {what:34s}: {rate:11,.0f} evaluations/s = {rate * dense / peak:6.1%} of "
            f"the peak (dense count); the work done {rate * (inputs * hidden + hidden * 5) / peak:6.1%}"
        )
    reference = gnubg_rate(boards, args.seconds)
    if reference is None:
        print("gnubg (PyPI) not installed: no reference")
    else:
        print(
            f"gnubg 0-ply evaluate, one board a call         : {reference:11,.0f} evaluations/s; "
            f"gammon batched {batched_rate / reference:.1f}x that, one board a call "
            f"{single_rate / reference:.2f}x"
        )
    print(
        f"gammon reaches {batched_rate * dense / peak:.0%} of the core's float32 matmul peak "
        f"(dense-equivalent, batched as the search evaluates; one board a call "
        f"{single_rate * dense / peak:.0%})"
    )


if __name__ == "__main__":
    main()
