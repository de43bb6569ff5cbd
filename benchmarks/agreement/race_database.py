"""How far the race net and GNU Backgammon 0-ply are from rollouts in the races beyond the home
bear-offs that the one-sided database now values, and how far the database is.

The positions are the race label campaign's (``data/labels-race``: races of self-play and races set
up after a hit, each rolled out 144 times at 0 ply) where the database takes over beyond its home
bear-offs: a race in which each side has every checker home, at most five left or is one roll from
home (one or two checkers just outside that the smallest roll brings in), and one side has a checker
outside its home board. They are reported in two groups: the races of few checkers (no side one
roll from home with more than five left) and the races with such a side. Each estimate's chance to
win is compared with the rollout's (root mean square, mean, largest), and the equity the same way::

    python -m benchmarks.agreement.race_database [--folder data/labels-race]

The rollouts carry their own noise (the mean of their standard errors in the chance to win is
printed): an estimate that matches them to about that is as close as they can tell. The campaign's
shards made before the database existed rolled out these races with plays the race net chose;
the rollouts' outcomes are played to the end all the same.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
from pathlib import Path  # noqa: E402

import gnubg  # noqa: E402
import numpy as np  # noqa: E402

from gammon import Position  # noqa: E402
from gammon.engine.bearoff.one_sided import default_bearoff, in_database, is_bearoff  # noqa: E402
from gammon.engine.net.evaluator import cubeless_equity  # noqa: E402
from gammon.engine.net.neural import NeuralEvaluator  # noqa: E402
from gammon.train.campaign import load_shard, shard_files  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("data/labels-race"))
    folder = parser.parse_args().folder
    shards = [load_shard(p) for p in shard_files(folder)]
    boards = np.concatenate([s.boards for s in shards])
    targets = np.concatenate([s.targets for s in shards]).astype(np.float64)
    errors = np.concatenate([s.standard_errors for s in shards]).astype(np.float64)
    beyond = in_database(boards) & ~is_bearoff(boards)
    near = beyond & (_near_side(boards) | _near_side(-boards[:, ::-1]))
    print(f"{folder}: {len(shards)} shards")
    groups = (("races of few checkers", beyond & ~near), ("races with a side one roll from home", near))
    for group, rows in groups:
        _report(group, boards[rows], targets[rows], errors[rows])


def _near_side(boards: np.ndarray) -> np.ndarray:
    """Rows where the player on roll has a checker outside its home board and more than five left."""
    mine = np.clip(boards[:, 1:25], 0, None)
    return (mine[:, 6:].sum(axis=1) > 0) & (mine.sum(axis=1) > 5)


def _report(group: str, boards: np.ndarray, targets: np.ndarray, errors: np.ndarray) -> None:
    if len(boards) == 0:
        print(f"{group}: none")
        return
    print(f"{group}: {len(boards):,}; the rollouts' standard error in the chance to win "
          f"{errors[:, 0].mean():.4f} on average")
    cube = {**gnubg.cubeinfo(), "jacoby": 0}
    zero = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    estimates = {
        "race net (0 ply)": NeuralEvaluator.default().evaluate(boards),
        "GNU Backgammon 0-ply": np.array(
            [gnubg.evaluate(Position(b.tolist()).to_gnubg_board(), cube, zero)[:5] for b in boards]
        ),
        "the database": default_bearoff().probabilities(boards),
    }
    print(f"{'estimate':<22}{'win: rms':>10}{'mean':>9}{'largest':>9}{'equity: rms':>13}{'mean':>9}")
    for name, probs in estimates.items():
        win = probs[:, 0] - targets[:, 0]
        equity = cubeless_equity(probs) - cubeless_equity(targets)
        print(f"{name:<22}{np.sqrt((win ** 2).mean()):>10.4f}{win.mean():>+9.4f}{np.abs(win).max():>9.3f}"
              f"{np.sqrt((equity ** 2).mean()):>13.4f}{equity.mean():>+9.4f}")


if __name__ == "__main__":
    main()
