"""Judged error: mean equity lost per decision against GNU Backgammon 2-ply, for Engine(),
Engine(plies=0) and GNU Backgammon 0-ply side by side.

Decisions (``--set``): ``selfplay`` (default) is the judge set, ``benchmarks/data/judge_set.tsv``
(written by ``benchmarks/strength/make_judge_set.py``: positions from GNU Backgammon 0-ply self-play with
noise, contact and race alternating); ``wildbg`` is the wildbg benchmark positions, each with a
seeded random roll (engine_speed.decisions). Positions with fewer than two legal plays are skipped.
Every play is judged by the cubeless money equity GNU Backgammon gives its resulting position at 2
ply (``gnubg.evaluate``, deterministic, pruning nets as in its 2-ply levels, Jacoby off). The
reference best is the best of GNU Backgammon 2-ply's own choice and the plays judged, so no loss is
negative. Plays are compared by resulting Position ID (PyPI gnubg cuts move tuples at a bear-off;
such a choice is matched to the legal play with the same 2-ply score). Targets:
Engine(plies=0) <= 3.0 mEMG, Engine() <= 1.5 mEMG, blunders (> 80 mEMG) no more than gnubg 0-ply's.
Each mean loss comes with its standard error over the decisions (two nets judged in two runs
differ clearly when their means differ by several of them). Contact decisions are also split by
the points the mover holds in the opponent's home board (none, one: holding games, two or more:
back games), where the nets have been weakest.

    python -m benchmarks.strength.judge [--set selfplay|wildbg] [--decisions N] [--seed 1]
        [--extra 1 2 2plain] [--players 2 0] [--weights FILE] [--blunders]

``--decisions`` defaults to the whole judge set (2,000 for wildbg); the table is also printed every
``--report-every`` decisions, so a cut-short run still leaves a result. ``--extra`` adds players:
``1`` / ``2`` = Engine(plies=1 / 2), ``2plain`` = 2 ply with GNU Backgammon's single move filter.
``--blunders`` lists each player's blunders at the end: Position ID, dice, its play and the loss.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: BLAS threads only add waiting

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gnubg  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks.speed.engine_speed import decisions  # noqa: E402
from benchmarks.strength.judge_set import read_judge_set  # noqa: E402
from gammon import Position  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402
from gammon.engine.net.encode import anchors, borne_off_mask  # noqa: E402
from gammon.engine.net.neural import NeuralEvaluator  # noqa: E402
from gammon.engine.search.searcher import PLAIN_FILTERS, SearchSettings  # noqa: E402
from gammon.play import Play  # noqa: E402

BLUNDER = 0.08  # a play that loses more than this (cubeless money equity) is a blunder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=["selfplay", "wildbg"], default="selfplay")
    parser.add_argument("--decisions", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1, help="roll seed for --set wildbg")
    parser.add_argument("--report-every", type=int, default=500)
    parser.add_argument("--extra", nargs="*", default=[], choices=["1", "2", "2plain"])
    parser.add_argument(
        "--players",
        nargs="+",
        default=["2", "0"],
        choices=["0", "1", "2"],
        help="Engine plies judged (2: Engine(), the default)",
    )
    parser.add_argument("--blunders", action="store_true", help="list each player's blunders")
    parser.add_argument(
        "--weights", type=Path, default=None, help="a weights file instead of the shipped net"
    )
    args = parser.parse_args()
    if args.set == "selfplay":
        work = [(d.position, d.dice) for d in read_judge_set()][: args.decisions]
        source = "judge set: GNU Backgammon 0-ply self-play with noise"
    else:
        work = decisions(args.decisions or 2000, args.seed)
        source = f"wildbg positions, seeded rolls {args.seed}"
    cube = gnubg.cubeinfo()
    cube["jacoby"] = 0
    ctx2 = gnubg.evalcontext(0, 2, 1, 1, 0.0)
    ctx0 = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    ev = None if args.weights is None else NeuralEvaluator.load(args.weights)
    engines = {
        ("Engine()" if plies == "2" else f"Engine(plies={plies})"): Engine(plies=int(plies), evaluator=ev)
        for plies in args.players
    }
    for extra in args.extra:
        if extra == "2plain":
            engines["2-ply plain filter"] = Engine(
                settings=SearchSettings(plies=2, filters=PLAIN_FILTERS), evaluator=ev
            )
        else:
            engines[f"Engine(plies={extra})"] = Engine(plies=int(extra), evaluator=ev)
    names = [*engines, "gnubg 0-ply"]
    first = next(iter(engines.values()))
    lost: dict[str, list[float]] = {n: [] for n in names}
    blunders: dict[str, list[str]] = {n: [] for n in names}
    seconds = dict.fromkeys(names, 0.0)
    cache: dict[str, float] = {}

    def judged(after: Position) -> float:
        """The mover's 2-ply cubeless equity of a play with this result."""
        key = after.id
        if key not in cache:
            cache[key] = -gnubg.evaluate(after.to_gnubg_board(), cube, ctx2)[5]
        return cache[key]

    contact: list[bool] = []
    # points the mover holds in the opponent's home board (0, 1, 2: two or more), all boards at once
    boards = np.array([p.board for p, _ in work], dtype=np.int8).reshape(-1, 26)
    held = np.minimum(anchors(boards)[:, 0], 2)
    borne = borne_off_mask(boards)  # a side with a checker off and another out (the borne-off head's)
    start = time.perf_counter()

    def report(n: int) -> None:
        print(
            f"{n} decisions ({source}); reference: GNU Backgammon 2-ply cubeless; evaluator: "
            f"{type(first.evaluator).__name__} {args.weights or '(shipped)'}; "
            f"{time.perf_counter() - start:.0f} s"
        )
        is_contact = np.array(contact[:n])
        arrays = {name: np.array(lost[name][:n]) for name in names}
        print(
            f"{'player':<20}{'mean loss (mEMG)':>18}{'+- se':>7}{'contact':>9}{'race':>7}"
            f"{'blunders > 0.08':>17}{'same as ref':>13}{'time/dec':>11}"
        )
        for name, arr in arrays.items():
            se = 1000 * arr.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
            print(
                f"{name:<20}{1000 * arr.mean():>18.2f}{se:>7.2f}{1000 * arr[is_contact].mean():>9.2f}"
                f"{1000 * arr[~is_contact].mean():>7.2f}{int((arr > BLUNDER).sum()):>17}"
                f"{(arr < 1e-9).mean():>12.1%}{1000 * seconds[name] / n:>9.1f}ms"
            )
        print(
            f"({int(is_contact.sum())} contact and {int((~is_contact).sum())} race decisions; mEMG = "
            "millipoints of cubeless money equity; targets: Engine(plies=0) <= 3.0, Engine() <= 1.5, "
            "blunders <= gnubg 0-ply's)"
        )
        groups = [(f"{k}{'+' if k == 2 else ''}", is_contact & (held[:n] == k)) for k in (0, 1, 2)]
        print(
            "contact decisions by the points the mover holds in the opponent's home board: "
            + "; ".join(f"{label}: {int(mask.sum())}" for label, mask in groups)
        )
        for name, arr in arrays.items():
            print(
                f"  {name:<18}"
                + "".join(
                    f"{label:>4}: {1000 * arr[mask].mean():6.2f}" for label, mask in groups if mask.any()
                )
            )
        off_out = is_contact & borne[:n]
        if off_out.any():
            print(
                f"contact decisions where a side has a checker off and another out: {int(off_out.sum())}; "
                + "; ".join(f"{name} {1000 * arr[off_out].mean():.2f}" for name, arr in arrays.items())
            )
        sys.stdout.flush()

    for k, (p, dice) in enumerate(work, 1):
        contact.append(not p.is_race())
        plays = p.legal_plays(dice)
        chosen: dict[str, Play] = {}
        for name, engine in engines.items():
            t = time.perf_counter()
            play = engine.best_play(p, dice)
            assert play is not None  # the judge set holds decisions with two or more legal plays
            chosen[name] = play
            seconds[name] += time.perf_counter() - t
        t = time.perf_counter()
        zero = [-gnubg.evaluate(play.after.to_gnubg_board(), cube, ctx0)[5] for play in plays]
        seconds["gnubg 0-ply"] += time.perf_counter() - t
        chosen["gnubg 0-ply"] = plays[int(np.argmax(zero))]
        top = gnubg.findbestmoves(p.to_gnubg_board(), cube, ctx2, dice)[0]
        reference = None if len(top["move"]) % 2 else p.after_gnubg_move(top["move"])  # odd: cut at a 0
        if reference is None:  # cut tuple: the legal play whose 2-ply score is gnubg's
            reference = min((pl.after for pl in plays), key=lambda a: abs(judged(a) - top["score"]))
        best = max(judged(reference), *(judged(a.after) for a in chosen.values()))
        for name, play in chosen.items():
            lost[name].append(best - judged(play.after))
            if lost[name][-1] > BLUNDER:
                blunders[name].append(f"{p.id} {dice[0]}{dice[1]} {play}: {1000 * lost[name][-1]:.0f} mEMG")
        if k % 100 == 0:
            print(f"  {k} decisions, {time.perf_counter() - start:.0f} s", file=sys.stderr)
        if k % args.report_every == 0 and k < len(work):
            report(k)

    report(len(work))
    if args.blunders:
        for name, found in blunders.items():
            print(f"{name}: {len(found)} blunders > 80 mEMG (Position ID, dice, play, loss)")
            for line in found:
                print(f"  {line}")


if __name__ == "__main__":
    main()
