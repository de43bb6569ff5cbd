"""Judged error: mean equity lost per decision against GNU Backgammon 2-ply (or 3-ply), for
Engine(), Engine(plies=0) and GNU Backgammon 0-ply (and 2-ply) side by side.

Decisions (``--set``): ``selfplay`` (default) is the judge set, ``benchmarks/data/judge_set.tsv``
(written by ``benchmarks/strength/make_judge_set.py``: positions from GNU Backgammon 0-ply self-play with
noise, contact and race alternating); ``classes`` is the second set, ``judge_set_classes.tsv``
(1,500 contact, 750 crashed and 750 race decisions of other games, the kinds alternating);
``wildbg`` is the wildbg benchmark positions, each with a seeded random roll
(engine_speed.decisions). Positions with fewer than two legal plays are skipped. Every play is
judged by the cubeless money equity GNU Backgammon gives its resulting position at ``--judge``
plies (``gnubg.evaluate``, deterministic, pruning nets as in its 2-ply levels, Jacoby off). The
reference best is the best of the judge's own choice (``findbestmoves`` at its plies) and the plays
judged, so no loss is negative. Plays are compared by resulting Position ID (PyPI gnubg cuts move
tuples at a bear-off; such a choice is matched to the legal play with the same score). With
``--judge 3`` GNU Backgammon 2-ply (``findbestmoves``, its default move filters) is judged too: the
target there is that Engine() loses no more than it. Targets by the 2-ply judge: Engine(plies=0) <= 3.0
mEMG (and no more than gnubg 0-ply), Engine() <= 1.5 mEMG, blunders (> 80 mEMG) no more than gnubg
0-ply's. Each mean loss comes with its standard error over the decisions, and each player's mean
difference from a reference player (gnubg 2-ply, else gnubg 0-ply) with the standard error of the
paired differences (two players differ clearly when it is several of them). Losses are reported by
kind (contact, crashed, race: GNU Backgammon's classes) and contact decisions also by the points
the mover holds in the opponent's home board (none, one: holding games, two or more: back games),
where the nets have been weakest.

    python -m benchmarks.strength.judge [--set selfplay|classes|wildbg] [--judge 2|3]
        [--decisions N] [--seed 1] [--extra 1 2 2plain] [--players 2 0] [--weights FILE] [--blunders]

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
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import gnubg  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks.speed.engine_speed import decisions  # noqa: E402
from benchmarks.strength.judge_set import CLASSES_SET, JUDGE_SET, KINDS, kind_of, read_judge_set  # noqa: E402
from gammon import Position  # noqa: E402
from gammon.engine.engine import Engine  # noqa: E402
from gammon.engine.net.encode import anchors, borne_off_mask  # noqa: E402
from gammon.engine.net.neural import NeuralEvaluator  # noqa: E402
from gammon.engine.search.searcher import PLAIN_FILTERS, SearchSettings  # noqa: E402
from gammon.play import Play  # noqa: E402

BLUNDER = 0.08  # a play that loses more than this (cubeless money equity) is a blunder
SETS = {"selfplay": JUDGE_SET, "classes": CLASSES_SET}


class Gnubg:
    """GNU Backgammon through PyPI ``gnubg``: the judge's values, cached by resulting position,
    and the choices of its levels."""

    def __init__(self, judge_plies: int) -> None:
        self.cube = gnubg.cubeinfo()
        self.cube["jacoby"] = 0
        self.contexts = {n: gnubg.evalcontext(0, n, 1, int(n > 0), 0.0) for n in (0, 2, judge_plies)}
        self.judge_plies = judge_plies
        self.values: dict[tuple[int, str], float] = {}

    def value(self, after: Position, plies: int | None = None) -> float:
        """The mover's cubeless equity of a play with this result, at ``plies`` (the judge's)."""
        plies = self.judge_plies if plies is None else plies
        key = (plies, after.id)
        if key not in self.values:
            self.values[key] = -gnubg.evaluate(after.to_gnubg_board(), self.cube, self.contexts[plies])[5]
        return self.values[key]

    def zero_ply_choice(self, plays: list[Play]) -> Position:
        """GNU Backgammon 0-ply's play: the best of every legal play evaluated at 0 ply."""
        zero = [
            -gnubg.evaluate(play.after.to_gnubg_board(), self.cube, self.contexts[0])[5] for play in plays
        ]
        return plays[int(np.argmax(zero))].after

    def choice(self, position: Position, dice: tuple[int, int], plays: list[Play], plies: int) -> Position:
        """The play GNU Backgammon at ``plies`` chooses (``findbestmoves``, its move filters)."""
        top = gnubg.findbestmoves(position.to_gnubg_board(), self.cube, self.contexts[plies], dice)[0]
        if len(top["move"]) % 2 == 0:
            return position.after_gnubg_move(top["move"])
        # odd: the tuple was cut at a bear-off's 0; the legal play with gnubg's score is its play
        return min((pl.after for pl in plays), key=lambda a: abs(self.value(a, plies) - top["score"]))


BASELINE = " [baseline]"
"""What the names of the players with the ``--baseline`` weights end in."""


def make_players(args: argparse.Namespace) -> dict[str, Engine]:
    """gammon's players judged: the engines of ``--players`` and ``--extra``, and with
    ``--baseline`` those of ``--players`` with the baseline's weights (``BASELINE`` names them)."""
    ev = None if args.weights is None else NeuralEvaluator.load(args.weights)
    engines = {
        ("Engine()" if plies == "2" else f"Engine(plies={plies})"): Engine.with_weights(ev, int(plies))
        for plies in args.players
    }
    if args.baseline is not None:
        base = None if args.baseline == "shipped" else NeuralEvaluator.load(args.baseline)
        engines.update(
            {
                f"{name}{BASELINE}": Engine.with_weights(base, engine.settings.plies)
                for name, engine in list(engines.items())
            }
        )
    for extra in args.extra:
        if extra == "2plain":
            engines["2-ply plain filter"] = Engine(
                settings=SearchSettings(plies=2, filters=PLAIN_FILTERS), evaluator=ev
            )
        else:
            engines[f"Engine(plies={extra})"] = Engine.with_weights(ev, int(extra))
    return engines


class Tally:
    """Each player's loss on each decision, its blunders and its time, and the decisions' kinds."""

    def __init__(self, names: list[str], boards: np.ndarray) -> None:
        self.names = names
        self.lost: dict[str, list[float]] = {n: [] for n in names}
        self.blunders: dict[str, list[str]] = {n: [] for n in names}
        self.seconds = dict.fromkeys(names, 0.0)
        self.kinds: list[str] = []
        # points the mover holds in the opponent's home board (0, 1, 2: two or more), all boards at once
        self.held = np.minimum(anchors(boards)[:, 0], 2)
        self.borne = borne_off_mask(
            boards
        )  # a side with a checker off and another out (the borne-off head's)

    def add(
        self,
        p: Position,
        dice: tuple[int, int],
        chosen: dict[str, Play | Position],
        best: float,
        value: Callable[[Position], float],
    ) -> None:
        self.kinds.append(kind_of(p))
        for name, play in chosen.items():
            after = play if isinstance(play, Position) else play.after
            self.lost[name].append(best - value(after))
            if self.lost[name][-1] > BLUNDER:
                shown = play if isinstance(play, Play) else f"(to {after.id})"
                self.blunders[name].append(
                    f"{p.id} {dice[0]}{dice[1]} {shown}: {1000 * self.lost[name][-1]:.0f} mEMG"
                )

    def report(self, n: int, heading: str, reference: str) -> None:
        kinds = np.array(self.kinds[:n])
        arrays = {name: np.array(self.lost[name][:n]) for name in self.names}
        print(heading)
        w = max(20, *(len(name) + 2 for name in self.names))  # the players' column
        print(
            f"{'player':<{w}}{'mean loss (mEMG)':>18}{'+- se':>7}{'contact':>9}{'crashed':>9}{'race':>7}"
            f"{'blunders > 0.08':>17}{'same as ref':>13}{'time/dec':>11}{'- ' + reference:>22}"
        )
        for name, arr in arrays.items():
            se = 1000 * arr.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
            by_kind = "".join(
                f"{1000 * arr[kinds == k].mean():>{w}.2f}" if (kinds == k).any() else f"{'-':>{w}}"
                for k, w in zip(KINDS, (9, 9, 7), strict=True)
            )
            diff = 1000 * (arr - arrays[reference])
            paired = (
                f"{diff.mean():+.2f} +- {diff.std(ddof=1) / np.sqrt(n):.2f}"
                if name != reference and n > 1
                else ""
            )
            print(
                f"{name:<{w}}{1000 * arr.mean():>18.2f}{se:>7.2f}{by_kind}{int((arr > BLUNDER).sum()):>17}"
                f"{(arr < 1e-9).mean():>12.1%}{1000 * self.seconds[name] / n:>9.1f}ms{paired:>22}"
            )
        counts = ", ".join(f"{int((kinds == k).sum())} {k}" for k in KINDS)
        print(
            f"({counts} decisions; mEMG = millipoints of cubeless money equity; last column: the mean "
            f"difference from {reference} on the same decisions, with its standard error)"
        )
        contact = kinds != "race"
        groups = [(f"{k}{'+' if k == 2 else ''}", contact & (self.held[:n] == k)) for k in (0, 1, 2)]
        print(
            "contact decisions (crashed included) by the points the mover holds in the opponent's home "
            "board: " + "; ".join(f"{label}: {int(mask.sum())}" for label, mask in groups)
        )
        for name, arr in arrays.items():
            print(
                f"  {name:<{w - 2}}"
                + "".join(
                    f"{label:>4}: {1000 * arr[mask].mean():6.2f}" for label, mask in groups if mask.any()
                )
            )
        for name, arr in arrays.items():
            base = arrays.get(f"{name}{BASELINE}")
            if base is None:
                continue
            diff = 1000 * (arr - base)
            by_kind = "; ".join(f"{k} {_mean_se(diff[kinds == k])}" for k in KINDS if (kinds == k).sum() > 1)
            print(
                f"{name} - its baseline, same decisions: {_mean_se(diff)} mEMG ({by_kind}); "
                f"{int((diff != 0).sum())} differ"
            )
        off_out = contact & self.borne[:n]
        if off_out.any():
            print(
                f"contact decisions where a side has a checker off and another out: {int(off_out.sum())}; "
                + "; ".join(f"{name} {1000 * arr[off_out].mean():.2f}" for name, arr in arrays.items())
            )
        sys.stdout.flush()


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=[*SETS, "wildbg"], default="selfplay")
    parser.add_argument("--judge", type=int, choices=[2, 3], default=2, help="the judge's plies")
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
        "--baseline",
        help="judge the players of --players with these weights too ('shipped': the shipped net), and "
        "each player's paired difference from its baseline",
    )
    parser.add_argument(
        "--weights", type=Path, default=None, help="a weights file instead of the shipped net"
    )
    return parser.parse_args()


def _mean_se(x: np.ndarray) -> str:
    """``mean +- standard error`` of ``x``."""
    return f"{x.mean():+.2f} +- {x.std(ddof=1) / np.sqrt(len(x)):.2f}"


def main() -> None:
    args = parse_args()
    if args.set in SETS:
        work = [(d.position, d.dice) for d in read_judge_set(SETS[args.set])][: args.decisions]
        source = f"{SETS[args.set].name}: GNU Backgammon 0-ply self-play with noise"
    else:
        work = decisions(args.decisions or 2000, args.seed)
        source = f"wildbg positions, seeded rolls {args.seed}"
    judge = Gnubg(args.judge)
    engines = make_players(args)
    gnubg_players = ["gnubg 0-ply", *(["gnubg 2-ply"] if args.judge == 3 else [])]
    reference = gnubg_players[-1]
    tally = Tally(
        [*engines, *gnubg_players], np.array([p.board for p, _ in work], dtype=np.int8).reshape(-1, 26)
    )
    evaluator = next(iter(engines.values())).evaluator
    start = time.perf_counter()

    def report(n: int) -> None:
        tally.report(
            n,
            f"{n} decisions ({source}); reference: GNU Backgammon {args.judge}-ply cubeless; evaluator: "
            f"{type(evaluator).__name__} {args.weights or '(shipped)'}; {time.perf_counter() - start:.0f} s",
            reference,
        )

    for k, (p, dice) in enumerate(work, 1):
        plays = p.legal_plays(dice)
        chosen: dict[str, Play | Position] = {}
        for name, engine in engines.items():
            t = time.perf_counter()
            play = engine.best_play(p, dice)
            assert play is not None  # the judge sets hold decisions with two or more legal plays
            chosen[name] = play
            tally.seconds[name] += time.perf_counter() - t
        t = time.perf_counter()
        chosen["gnubg 0-ply"] = judge.zero_ply_choice(plays)
        tally.seconds["gnubg 0-ply"] += time.perf_counter() - t
        if args.judge == 3:
            t = time.perf_counter()
            chosen["gnubg 2-ply"] = judge.choice(p, dice, plays, 2)
            tally.seconds["gnubg 2-ply"] += time.perf_counter() - t
        own = judge.choice(p, dice, plays, args.judge)
        afters = [c if isinstance(c, Position) else c.after for c in chosen.values()]
        best = max(judge.value(own), *(judge.value(a) for a in afters))
        tally.add(p, dice, chosen, best, judge.value)
        if k % 100 == 0:
            print(f"  {k} decisions, {time.perf_counter() - start:.0f} s", file=sys.stderr)
        if k % args.report_every == 0 and k < len(work):
            report(k)

    report(len(work))
    if args.blunders:
        for name, found in tally.blunders.items():
            print(f"{name}: {len(found)} blunders > 80 mEMG (Position ID, dice, play, loss)")
            for line in found:
                print(f"  {line}")


if __name__ == "__main__":
    main()
