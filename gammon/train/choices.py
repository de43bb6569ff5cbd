"""How well a net chooses among the plays of a roll, judged by gammon's own deeper search.

A label set of alternatives (``python -m gammon.train label --alternatives K``) holds, for each
decision (a position of the games and a drawn roll), the boards after the K plays its net ranks
best at 0 ply, each labelled by the search (file field ``decisions``: the decision of each board).
A net's 0-ply pick among those boards gives up the cubeless equity between the best of them by
the labels and the one it picks: the mean over the decisions of the held-out end of the set (the
positions :func:`gammon.train.supervised.split` keeps out of a fit) measures checker play at 0 ply
against gammon's own 2-ply, with no outside engine, so fits can be compared by it. Only the plays
the labelling net ranked best are there, so it measures how a net ranks those, not every play.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gammon.engine.engine import default_bearoff
from gammon.engine.net.encode import race_mask
from gammon.engine.net.evaluator import cubeless_equity
from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.net.npz import load_npz
from gammon.engine.search.searcher import Searcher
from gammon.train.campaign import plays_of
from gammon.train.labels import LabelSet
from gammon.train.supervised import held_out_start


@dataclass(frozen=True)
class Decisions:
    """The decisions of a label set of alternatives: ``starts[i]:starts[i + 1]`` are the rows of
    decision ``i`` (two boards or more: a single play is no choice)."""

    labels: LabelSet
    starts: np.ndarray
    stops: np.ndarray

    @classmethod
    def load(cls, path: str | Path, holdout: float = 0.05) -> Decisions:
        """The decisions in the last ``holdout`` share of the file's positions (all with 0); a
        folder is a label campaign's (:func:`gammon.train.campaign.decisions_of`)."""
        path = Path(path)
        if path.is_dir():
            labels, decisions = plays_of(path)
            return cls.of(labels, decisions, held_out_start(len(labels), holdout) if holdout else 0)
        data = load_npz(path, "a gammon label file")
        labels = LabelSet.from_arrays(data, path)
        if "decisions" not in data:
            raise ValueError(f"{str(path)!r} has no decisions: make it with label --alternatives")
        decisions = np.asarray(data["decisions"], dtype=np.int64)
        first = held_out_start(len(labels), holdout) if holdout else 0
        return cls.of(labels, decisions, first)

    @classmethod
    def of(cls, labels: LabelSet, decisions: np.ndarray, first: int = 0) -> Decisions:
        """The decisions of ``labels`` (``decisions``: each row's decision, runs of equal values)
        whose rows all lie at ``first`` or after."""
        if len(decisions) != len(labels) or np.any(np.diff(decisions) < 0):
            raise ValueError("decisions must give each position its decision, in order")
        edges = np.flatnonzero(np.diff(decisions)) + 1
        starts = np.concatenate([[0], edges])
        stops = np.concatenate([edges, [len(decisions)]])
        keep = (starts >= first) & (stops - starts >= 2)
        return cls(labels, starts[keep], stops[keep])

    def __len__(self) -> int:
        return len(self.starts)

    def rows(self) -> np.ndarray:
        return np.concatenate([np.arange(a, b) for a, b in zip(self.starts, self.stops)])

    def losses(self, opponent_probs: np.ndarray) -> np.ndarray:
        """Equity given up in each decision by picking the board whose ``opponent_probs`` (one row
        for each of :meth:`rows`, the player on roll's: the opponent of the one who chose) are
        worst for the opponent; the first such board on a tie."""
        label_eq = -cubeless_equity(self.labels.targets.astype(np.float64))
        pick_eq = np.full(len(self.labels), np.nan)
        pick_eq[self.rows()] = -cubeless_equity(np.asarray(opponent_probs, dtype=np.float64))
        out = np.empty(len(self))
        for i, (a, b) in enumerate(zip(self.starts, self.stops)):
            out[i] = label_eq[a:b].max() - label_eq[a + int(np.argmax(pick_eq[a:b]))]
        return out

    def races(self) -> np.ndarray:
        """Whether each decision's boards are a race."""
        return race_mask(self.labels.boards[self.starts])


def net_losses(ev: NeuralEvaluator, decisions: Decisions) -> np.ndarray:
    """:meth:`Decisions.losses` of ``ev``'s 0-ply picks, as ``Engine(plies=0)`` evaluates."""
    boards = np.ascontiguousarray(decisions.labels.boards[decisions.rows()])
    return decisions.losses(Searcher(ev, default_bearoff()).leaf(boards))


def report(names: list[str], losses: list[np.ndarray], races: np.ndarray) -> list[str]:
    """A line per net: mean loss in mEMG (contact, race), wrong picks, and the paired difference
    from the first net with its standard error."""

    def mean(x: np.ndarray) -> str:
        return f"{1000 * x.mean():.3f}" if len(x) else "-"

    lines: list[str] = []
    for name, loss in zip(names, losses):
        n = len(loss)
        line = (
            f"{name}: {mean(loss)} mEMG a decision +- {1000 * loss.std() / np.sqrt(n):.3f} "
            f"(contact {mean(loss[~races])}, race {mean(loss[races])}; "
            f"{np.mean(loss > 0):.1%} not the labels' best; {n:,} decisions)"
        )
        if lines:
            diff = loss - losses[0]
            line += f"; minus the first {1000 * diff.mean():+.3f} +- {1000 * diff.std() / np.sqrt(n):.3f}"
        lines.append(line)
    return lines
