"""How a label campaign of plays (source ``crashed-plays`` or ``contact-plays``: the boards after
the best plays of a roll, each rolled out, a roll's plays on the same dice) judges the picks of
gammon at 0 ply (``Engine(plies=0)``, its own 0-ply nets), of its search at 0, 1 and 2 ply (the
nets ``Engine()`` reads) and of GNU Backgammon at 0 and 1 ply among each decision's boards: the
cubeless equity a pick gives up against the best board by the rollouts, mean over the decisions of
two boards or more, with its standard error and each player's paired difference from gammon 0-ply.

It tells whether the rollouts carry a signal beyond the net (a teacher that ranks deeper players
higher), with GNU Backgammon as a judge of the teacher, never as one: nothing it says is kept.

    python -m benchmarks.strength.plays_labels [data/labels-crashed-plays] [--decisions N]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from benchmarks.strength.cube_judge import gnubg_chances
from gammon import Position
from gammon.engine.engine import default_bearoff
from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.search.searcher import Searcher
from gammon.train.campaign import plays_of
from gammon.train.choices import Decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=Path("data/labels-crashed-plays"))
    parser.add_argument("--decisions", type=int, default=None, help="the first N decisions only")
    args = parser.parse_args()
    labels, row_decisions = plays_of(args.folder)  # the shards read once
    every = Decisions.of(labels, row_decisions)
    most = len(every) if args.decisions is None else args.decisions
    decisions = Decisions(every.labels, every.starts[:most], every.stops[:most])
    boards = np.ascontiguousarray(labels.boards[decisions.rows()])
    searcher = Searcher(NeuralEvaluator.default(), default_bearoff())
    positions = [Position(b.tolist()) for b in boards]
    # each player's chances of the boards after the plays, the opponent on roll: its pick.
    # Engine(plies=0) plays with its own 0-ply nets; the search reads the others at every depth.
    zero_ply = searcher.zero_ply_leaf(boards)  # None: the evaluator plays 0 ply with its own nets
    picks = {"gammon 0-ply": searcher.leaf(boards) if zero_ply is None else zero_ply}
    picks.update({f"gammon search {p}-ply": searcher.evaluate_boards(boards, p) for p in (0, 1, 2)})
    picks.update({f"GNU Backgammon {p}-ply": gnubg_chances(positions, p) for p in (0, 1)})
    print(f"{args.folder}: {len(decisions):,} decisions of two plays or more, {len(boards):,} boards")
    base = None
    for name, chances in picks.items():
        loss = 1000 * decisions.losses(chances)
        base = loss if base is None else base
        diff = loss - base
        print(f"{name:22} {loss.mean():6.2f} +- {loss.std(ddof=1) / np.sqrt(len(loss)):.2f} mE a decision;"
              f" - gammon 0-ply {diff.mean():+.2f} +- {diff.std(ddof=1) / np.sqrt(len(diff)):.2f};"
              f" the rollouts' best picked {np.mean(loss == 0):.0%}")


if __name__ == "__main__":
    main()
