"""Move generation speed: gammon's legal_plays against GNU Backgammon on the same work.

For each of the 2,000 wildbg positions and each of the 21 rolls, gammon builds every legal play
(`Position.legal_plays`, Play objects included) and GNU Backgammon's `findbestmoves` (C move
generation plus a 0-ply evaluation of each play) does the same work in the same run.

    python -m benchmarks.speed.movegen [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import gnubg

from benchmarks import WILDBG
from gammon import ALL_ROLLS, Position
from gammon.movegen import generate_arrays


def load_ids() -> list[str]:
    return [line.strip() for name in ("contact", "race")
            for line in (WILDBG / f"{name}.csv").read_text().splitlines() if line.strip()]


def best_of(repeat: int, fn) -> tuple[float, int]:
    best = float("inf")
    count = 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = fn()
        best = min(best, time.perf_counter() - start)
    return best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side; the best counts")
    args = parser.parse_args()
    ids = load_ids()
    positions = [Position.from_id(i) for i in ids]
    boards = [p.to_gnubg_board() for p in positions]
    cube = gnubg.cubeinfo()
    ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    positions[0].legal_plays((3, 1))  # compile / load the kernel before timing

    def ours() -> int:
        return sum(len(p.legal_plays(r)) for p in positions for r in ALL_ROLLS)

    def kernel() -> int:
        return sum(len(generate_arrays(p.as_array(), r)[1]) for p in positions for r in ALL_ROLLS)

    def theirs() -> int:
        return sum(len(gnubg.findbestmoves(b, cube, ctx, r)) for b in boards for r in ALL_ROLLS)

    t_gnubg, n_gnubg = best_of(args.repeat, theirs)
    t_ours, n_ours = best_of(args.repeat, ours)
    t_kernel, _ = best_of(args.repeat, kernel)
    calls = len(positions) * len(ALL_ROLLS)
    print(f"{len(positions)} positions x {len(ALL_ROLLS)} rolls = {calls} calls")
    print(f"gnubg findbestmoves      : {t_gnubg:7.3f} s  {n_gnubg:,} plays  {calls / t_gnubg:10,.0f} calls/s")
    print(f"gammon legal_plays       : {t_ours:7.3f} s  {n_ours:,} plays  {calls / t_ours:10,.0f} calls/s")
    print(f"gammon kernel (no Plays) : {t_kernel:7.3f} s  {calls / t_kernel:10,.0f} calls/s")
    print(f"time ratio gammon/gnubg  : {t_ours / t_gnubg:.2f}x (target <= 1.0x)")
    if n_ours != n_gnubg:
        raise SystemExit(f"play counts differ: gammon {n_ours} vs gnubg {n_gnubg}")


if __name__ == "__main__":
    main()
