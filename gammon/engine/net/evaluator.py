"""The evaluator protocol, probability helpers, and fake evaluators for tests.

An evaluator turns boards into cubeless probabilities. Boards are ``int8`` arrays ``(N, 26)`` in the
layout of :mod:`gammon.position`, each seen from the player on roll, none of them a finished game.
The result is ``float64 (N, 5)``: ``[win, win_gammon, win_backgammon, lose_gammon,
lose_backgammon]`` for the player on roll; gammon columns include backgammons (as GNU Backgammon).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
from numba import njit

from gammon.primitive_kernels import pip_counts, race_win_chance

WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)


@runtime_checkable
class Evaluator(Protocol):
    """Anything with ``evaluate(boards) -> probabilities`` (see the module docstring). An
    evaluator whose ``has_cube_chances`` is true (:class:`gammon.engine.net.neural.NeuralEvaluator` with
    a cube head or a borne-off head) also has ``evaluate_for_cube(boards)``, the chances its cube
    decisions value, and ``evaluate_with_cube(boards)``, both from one pass of the net (what a
    cubeful search's leaves and a cubeful rollout's cube actions use). One may also have
    ``at_zero_ply()``, the evaluator ``Engine(plies=0)`` plays with, whose ranking the 2-ply search's
    move filters keep too (:meth:`gammon.engine.search.searcher.Searcher.zero_ply_leaf`)."""

    def evaluate(self, boards: np.ndarray) -> np.ndarray: ...


def flip_probabilities(probs: np.ndarray) -> np.ndarray:
    """The same outcomes seen by the other player: win <-> lose, gammons swapped."""
    p = np.asarray(probs, dtype=np.float64)
    out = np.empty_like(p)
    out[..., 0] = 1.0 - p[..., WIN]
    out[..., 1] = p[..., LOSE_GAMMON]
    out[..., 2] = p[..., LOSE_BACKGAMMON]
    out[..., 3] = p[..., WIN_GAMMON]
    out[..., 4] = p[..., WIN_BACKGAMMON]
    return out


def cubeless_equity(probs: np.ndarray) -> np.ndarray:
    """Cubeless money equity of each row: ``2 win - 1 + wg + wbg - lg - lbg`` (gammons include
    backgammons, so a backgammon adds one more point on top of its gammon)."""
    p = np.asarray(probs, dtype=np.float64)
    return (2.0 * p[..., WIN] - 1.0 + p[..., WIN_GAMMON] + p[..., WIN_BACKGAMMON]
            - p[..., LOSE_GAMMON] - p[..., LOSE_BACKGAMMON])


def _check_boards(boards: np.ndarray) -> np.ndarray:
    b = np.asarray(boards)
    if b.ndim != 2 or b.shape[1] != 26:
        raise ValueError(f"boards must have shape (N, 26), got {b.shape}")
    return b


@njit(cache=True)
def _race_chances(boards, pips, win):
    """Pip counts (mover, opponent) and the race formula's chance to win of each board."""
    for r in range(boards.shape[0]):
        mover, opponent = pip_counts(boards[r])
        pips[r, 0] = mover
        pips[r, 1] = opponent
        win[r] = race_win_chance(mover, opponent)


class PipCountEvaluator:
    """A fake for tests and the fallback without a trained net: the race formula
    (:func:`gammon.primitives.race_win_chance`, the normal approximation of the pip-count race the
    computer players use) with rough gammon chances for the side that is far behind and has borne
    off nothing. Fast, monotone in pips, not strong."""

    def evaluate(self, boards: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(_check_boards(boards), dtype=np.int64)
        n = b.shape[0]
        pips = np.empty((n, 2), dtype=np.int64)
        win = np.empty(n)
        _race_chances(b, pips, win)
        my_pips, their_pips = pips[:, 0], pips[:, 1]
        win = np.clip(win, 0.001, 0.999)
        out = np.zeros((n, 5))
        out[:, WIN] = win
        my_off = 15 - np.where(b > 0, b, 0).sum(axis=1)
        their_off = 15 + np.where(b < 0, b, 0).sum(axis=1)
        # A gammon needs the loser to have borne off nothing; scale by how far behind it is.
        g_for = np.where(their_off == 0, np.clip((their_pips - my_pips - 20) / 150.0, 0.0, 0.5), 0.0)
        g_against = np.where(my_off == 0, np.clip((my_pips - their_pips - 20) / 150.0, 0.0, 0.5), 0.0)
        out[:, WIN_GAMMON] = np.minimum(g_for, win)
        out[:, LOSE_GAMMON] = np.minimum(g_against, 1.0 - win)
        return out


class ConstantEvaluator:
    """A fake that gives every board the same probabilities (for cube and search tests)."""

    def __init__(self, probabilities: Sequence[float]) -> None:
        p = np.asarray(probabilities, dtype=np.float64)
        if p.shape != (5,) or not np.all((p >= 0) & (p <= 1)):
            raise ValueError(f"probabilities must be five numbers in [0, 1], got {probabilities!r}")
        self.probabilities = p
        self.calls = 0

    def evaluate(self, boards: np.ndarray) -> np.ndarray:
        b = _check_boards(boards)
        self.calls += 1
        return np.tile(self.probabilities, (b.shape[0], 1))


class CountingEvaluator:
    """Wraps an evaluator and counts calls and boards (to check batching in tests)."""

    def __init__(self, inner: Evaluator) -> None:
        self.inner = inner
        self.calls = 0
        self.boards = 0

    def evaluate(self, boards: np.ndarray) -> np.ndarray:
        self.calls += 1
        self.boards += len(boards)
        return self.inner.evaluate(boards)

    def at_zero_ply(self) -> Evaluator:
        """The inner evaluator's 0-ply one, uncounted (see :class:`Evaluator`); this one where the
        inner plays 0 ply as it is."""
        zero = zero_ply_evaluator(self.inner)
        return self if zero is self.inner else zero


def zero_ply_evaluator(evaluator: Evaluator) -> Evaluator:
    """The evaluator ``Engine(plies=0)`` plays with in place of ``evaluator``: its optional
    ``at_zero_ply()`` (see :class:`Evaluator`), or ``evaluator`` itself."""
    at_zero_ply = getattr(evaluator, "at_zero_ply", None)
    return at_zero_ply() if at_zero_ply is not None else evaluator


@dataclass(frozen=True)
class Probabilities:
    """Cubeless outcome chances for the player on roll; gammons include backgammons."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    def __post_init__(self) -> None:
        values = self.as_tuple()
        if not all(0.0 <= v <= 1.0 for v in values):
            raise ValueError(f"probabilities must lie in [0, 1], got {values!r}")

    @classmethod
    def from_array(cls, probs: Sequence[float] | np.ndarray) -> Probabilities:
        p = [float(v) for v in np.asarray(probs, dtype=np.float64).reshape(5)]
        return cls(*[min(max(v, 0.0), 1.0) for v in p])

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    @property
    def equity(self) -> float:
        """Cubeless money equity for the player on roll."""
        return float(cubeless_equity(np.array(self.as_tuple())))

    def as_tuple(self) -> tuple[float, float, float, float, float]:
        return (self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon)

    def as_array(self) -> np.ndarray:
        return np.array(self.as_tuple(), dtype=np.float64)

    def flip(self) -> Probabilities:
        """The same chances for the opponent."""
        return Probabilities.from_array(flip_probabilities(self.as_array()))

    def __str__(self) -> str:
        return (f"for the player on roll: win {self.win:.1%} (gammon {self.win_gammon:.1%}, backgammon "
                f"{self.win_backgammon:.1%}), lose {self.lose:.1%} (gammon {self.lose_gammon:.1%}, "
                f"backgammon {self.lose_backgammon:.1%}), equity {self.equity:+.3f}")
