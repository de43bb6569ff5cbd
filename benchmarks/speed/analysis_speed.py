"""Match analysis speed against GNU Backgammon, turn about on each match.

For each ``.mat`` file of ``--dir`` (by default GNU Backgammon plays ``--matches`` matches to 3 and
5 points at 0 ply with a little noise and exports them), GNU Backgammon (the Debian program, ``gnubg
-t``) imports it and runs its ``analyse match`` at its default settings, timed inside gnubg, and
gammon analyses it with ``Engine(plies=--plies)`` (``gammon.analysis.analyse``), timed here: the
two alternate which goes first from match to match, so that both meet the same load on a shared
machine. Prints each match's times and the ratio of the totals, with the load average.
(``benchmarks.agreement.analysis_vs_gnubg`` checks what the analyses say; it times GNU Backgammon's
analyses all together before gammon's, at whatever load each phase meets.)

    python -m benchmarks.speed.analysis_speed [--matches 8] [--plies 2] [--dir DIR] [--seed 1]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from benchmarks.gnubg_harness import run_gnubg  # noqa: E402
from gammon import Position  # noqa: E402
from gammon.analysis import analyse  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402
from gammon.formats import read_mat  # noqa: E402

PLAY_SCRIPT = r"""
CONFIG = json.loads(%(config)r)
gnubg.command("set player 0 gnubg")
gnubg.command("set player 1 gnubg")
for p in range(2):
    for what in ("chequerplay", "cubedecision"):
        gnubg.command("set player %%d %%s evaluation plies 0" %% (p, what))
        gnubg.command("set player %%d %%s evaluation noise 0.04" %% (p, what))
for m in CONFIG["matches"]:
    gnubg.command("set seed %%d" %% m["seed"])
    gnubg.command("new match %%d" %% m["length"])
    gnubg.command("export match mat %%s" %% m["file"])
    emit(m["file"])
"""

ANALYSE_SCRIPT = r"""
import time
gnubg.command("import mat %(file)s")
start = time.perf_counter()
gnubg.command("analyse match")
emit(time.perf_counter() - start)
"""


def play_matches(count: int, seed: int, workdir: Path) -> list[Path]:
    """GNU Backgammon plays ``count`` matches (3 and 5 points in turn) and exports them."""
    matches = [
        {"seed": seed * 1000 + i, "length": 3 if i % 2 == 0 else 5, "file": str(workdir / f"m{i:03d}.mat")}
        for i in range(count)
    ]
    run_gnubg(
        PLAY_SCRIPT % {"config": json.dumps({"matches": matches})},
        workdir=workdir,
        timeout=3600,
        expect=count,
    )
    return [Path(str(m["file"])) for m in matches]


def gnubg_seconds(path: Path) -> float:
    return float(run_gnubg(ANALYSE_SCRIPT % {"file": path}, timeout=3600, expect=1)[0])


def gammon_seconds(path: Path, engine: Engine) -> float:
    record = read_mat(path.read_text())
    cache = getattr(engine.evaluator, "cache", None)
    if cache is not None:  # cold, as GNU Backgammon starts each match in a new process
        cache.clear()
    start = time.perf_counter()
    analyse(record, engine)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--plies", type=int, default=2, choices=(0, 1, 2))
    parser.add_argument("--dir", type=Path, default=None, help="analyse the .mat files here instead")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.dir is not None:
        files = sorted(args.dir.glob("*.mat"))
    else:
        files = play_matches(args.matches, args.seed, Path(tempfile.mkdtemp(prefix="analysis_speed_")))
    engine = Engine(plies=args.plies)
    engine.hint(Position.initial(), (3, 1))  # load the kernels and the net before timing
    totals = {"gammon": 0.0, "gnubg": 0.0}
    for i, path in enumerate(files):
        order = ("gnubg", "gammon") if i % 2 == 0 else ("gammon", "gnubg")
        seconds = {}
        for who in order:
            seconds[who] = gnubg_seconds(path) if who == "gnubg" else gammon_seconds(path, engine)
            totals[who] += seconds[who]
        print(
            f"  {path.name}: gnubg {seconds['gnubg']:6.2f} s, gammon {seconds['gammon']:6.2f} s "
            f"({seconds['gammon'] / seconds['gnubg']:.2f}x)",
            flush=True,
        )
    print(
        f"{len(files)} matches from {files[0].parent}: gnubg analyse match {totals['gnubg']:.1f} s, gammon "
        f"analyse ({args.plies} ply) {totals['gammon']:.1f} s = {totals['gammon'] / totals['gnubg']:.2f}x "
        f"(target <= 0.5x); load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


if __name__ == "__main__":
    main()
