"""Exact two-sided bear-off database: for every pair of bear-offs with at most six checkers a side
(924 positions a side, 853,776 pairs), the cubeless win chance of the player on roll and its
cubeful money equities, as GNU Backgammon's two-sided database holds them.

With six checkers or fewer each side has borne off nine or more, so no gammon is possible and the
win chance is all there is to the cubeless value. The cubeful equities are those of perfect cube
play, per unit of the current cube, playing on without a cube action now (the ``values`` of
:mod:`gammon.engine.cube.cubeful_search`, columns :data:`gammon.engine.cube.cubeful.OWNER_COLUMNS`):

* centred: ``R_C(a, b)``, the mean over the 21 rolls of the best play's ``-C(b, a')``, where the
  opponent, on roll at ``(b, a')``, first takes its cube action: ``C = max(R_C, min(2 R_X, 1))``
  (it doubles when the taker's best answer, double/take or double/pass, beats playing on);
* owned by the player on roll: the opponent cannot double, so ``-R_X(b, a')``;
* owned by the opponent: ``-O(b, a')``, ``O = max(R_O, min(2 R_X, 1))``;
* bearing off the last checker wins one cube.

Each play is the best for its own cube state (the three can differ), found by dynamic programming
in order of the pair's total pip count, which every play lowers. gammon builds it from its own move
generator, in about a second, when a process first needs it (:func:`two_sided`), and keeps it in
memory (14 MB, float32); nothing is shipped.

Where it applies, the money cube needs neither Janowski's formula nor a search: the cubeful search
(:mod:`gammon.engine.cube.cubeful_search`) and the cube actions inside cubeful rollouts read it. The
cubeless chances of checker play and of the training labels stay the one-sided database's (at most
0.014 off the exact win chance here), so that the documented training runs still give the shipped
weights bit for bit.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from gammon.dice import ALL_ROLLS
from gammon.engine.bearoff.one_sided import BINOM, home_index, is_bearoff_board
from gammon.movegen import generate_all

CHECKERS = 6
SIDE = 924  # C(12, 6): up to 6 checkers on 6 points (the rest off)
ROLLS = 21
_MAX_CHILDREN = 64

_ROLL_WEIGHTS = np.array([(1.0 if a == b else 2.0) / 36.0 for a, b in ALL_ROLLS])  # in ALL_ROLLS's order


@njit(cache=True)
def _side_positions(binom):
    """Home-board counts (SIDE, 6) and pip counts of every side position, by index."""
    counts = np.zeros((SIDE, 6), dtype=np.int8)
    pips = np.zeros(SIDE, dtype=np.int64)
    c = np.zeros(6, dtype=np.int8)
    for code in range(7 ** 6):
        rest = code
        total = 0
        pip = 0
        for p in range(6):
            c[p] = rest % 7
            rest //= 7
            total += c[p]
            pip += (p + 1) * c[p]
        if total <= CHECKERS:
            i = home_index(c, CHECKERS, binom)
            counts[i, :] = c
            pips[i] = pip
    return counts, pips


@njit(cache=True)
def _side_children(counts, rolls, binom):
    """For each side position and roll (``rolls`` (ROLLS, 2)), the positions its legal plays leave.
    The move generator gives one play per distinct result, so they are distinct."""
    children = np.zeros((SIDE, ROLLS, _MAX_CHILDREN), dtype=np.int32)
    n_children = np.zeros((SIDE, ROLLS), dtype=np.int32)
    board = np.zeros(26, dtype=np.int8)
    child = np.zeros(6, dtype=np.int8)
    for i in range(1, SIDE):  # index 0: nothing left
        for k in range(ROLLS):
            board[:] = 0
            for p in range(6):
                board[p + 1] = counts[i, p]
            count, _nsteps, boards, _steps = generate_all(board, rolls[k, 0], rolls[k, 1])
            for r in range(count):
                # results are seen from the (absent) opponent: our point p is slot 25 - p
                for p in range(6):
                    child[p] = -boards[r, 24 - p]
                children[i, k, r] = home_index(child, CHECKERS, binom)
            n_children[i, k] = count
    return children, n_children


@njit(cache=True)
def _build(pips, children, n_children, weights):
    """``win`` (SIDE, SIDE) and cubeful ``values`` (SIDE, SIDE, 3) for the player on roll with side
    index ``a`` against ``b`` (``weights``: each roll's chance); rows or columns 0 (a side already
    off) stay zero."""
    win = np.zeros((SIDE, SIDE))
    values = np.zeros((SIDE, SIDE, 3))
    total = np.empty(SIDE * SIDE, dtype=np.int64)
    for a in range(SIDE):
        for b in range(SIDE):
            total[a * SIDE + b] = pips[a] + pips[b]
    order = np.argsort(total, kind="mergesort")
    for o in range(SIDE * SIDE):
        a = order[o] // SIDE
        b = order[o] % SIDE
        if a == 0 or b == 0:
            continue
        p_sum = 0.0
        c_sum = 0.0
        o_sum = 0.0
        x_sum = 0.0
        for k in range(ROLLS):
            best_p = -1.0
            best_c = -2.0
            best_o = -2.0
            best_x = -2.0
            for q in range(n_children[a, k]):
                j = children[a, k, q]
                if j == 0:  # the last checker is off: one cube won
                    p, vc, vo, vx = 1.0, 1.0, 1.0, 1.0
                else:
                    # the opponent on roll at (b, j) with its cube action taken
                    rc, ro, rx = values[b, j, 0], values[b, j, 1], values[b, j, 2]
                    doubled = min(2.0 * rx, 1.0)
                    p = 1.0 - win[b, j]
                    vc = -max(rc, doubled)
                    vo = -rx  # we own the cube: the opponent cannot double
                    vx = -max(ro, doubled)  # the opponent owns it
                best_p = max(best_p, p)
                best_c = max(best_c, vc)
                best_o = max(best_o, vo)
                best_x = max(best_x, vx)
            p_sum += weights[k] * best_p
            c_sum += weights[k] * best_c
            o_sum += weights[k] * best_o
            x_sum += weights[k] * best_x
        # sums of 21 weights may stray a rounding error past the bounds
        win[a, b] = min(max(p_sum, 0.0), 1.0)
        values[a, b, 0] = min(max(c_sum, -1.0), 1.0)
        values[a, b, 1] = min(max(o_sum, -1.0), 1.0)
        values[a, b, 2] = min(max(x_sum, -1.0), 1.0)
    return win, values


@njit(cache=True)
def _is_covered(b) -> bool:
    """A bear-off where each side has one to six checkers left."""
    if not is_bearoff_board(b):
        return False
    mine = 0
    theirs = 0
    for p in range(6):
        mine += b[p + 1]
        theirs -= b[24 - p]
    return 0 < mine <= CHECKERS and 0 < theirs <= CHECKERS


@njit(cache=True)
def _covered_rows(boards):
    out = np.empty(boards.shape[0], dtype=np.bool_)
    for r in range(boards.shape[0]):
        out[r] = _is_covered(boards[r])
    return out


def covered(boards: np.ndarray) -> np.ndarray:
    """bool (N,): the boards (int8 (N, 26)) the two-sided database holds (without building it)."""
    return _covered_rows(np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 26))


@njit(cache=True)
def _lookup(boards, win, values, binom, probs, cubeful):
    """Fill ``probs`` (N, 5) and ``cubeful`` (N, 3) of boards the database holds."""
    c = np.zeros(6, dtype=np.int8)
    for r in range(boards.shape[0]):
        b = boards[r]
        for p in range(6):
            c[p] = b[p + 1]
        i = home_index(c, CHECKERS, binom)
        for p in range(6):
            c[p] = -b[24 - p]
        j = home_index(c, CHECKERS, binom)
        probs[r, :] = 0.0
        probs[r, 0] = win[i, j]
        for k in range(3):
            cubeful[r, k] = values[i, j, k]


class TwoSidedBearoff:
    """``win`` (SIDE, SIDE) and ``values`` (SIDE, SIDE, 3), indexed by the player on roll's side
    position and then its opponent's (:meth:`index`)."""

    def __init__(self, win: np.ndarray, values: np.ndarray) -> None:
        if win.shape != (SIDE, SIDE) or values.shape != (SIDE, SIDE, 3):
            raise ValueError(f"two-sided tables must have shapes {(SIDE, SIDE)} and {(SIDE, SIDE, 3)}, "
                             f"got {win.shape} and {values.shape}")
        self.win = win
        self.values = values

    @classmethod
    def generate(cls) -> TwoSidedBearoff:
        counts, pips = _side_positions(BINOM)
        children, n_children = _side_children(counts, np.array(ALL_ROLLS, dtype=np.int64), BINOM)
        win, values = _build(pips, children, n_children, _ROLL_WEIGHTS)
        return cls(win.astype(np.float32), values.astype(np.float32))

    @staticmethod
    def index(counts: tuple[int, ...] | list[int]) -> int:
        """Index of one side's home-board counts of points 1-6 (at most six checkers)."""
        c = np.asarray(counts, dtype=np.int8)
        if c.shape != (6,) or c.min() < 0 or c.sum() > CHECKERS:
            raise ValueError(f"two-sided bear-off counts must be six numbers >= 0 summing to <= 6, "
                             f"got {counts!r}")
        return int(home_index(c, CHECKERS, BINOM))

    def lookup(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(probabilities (N, 5), values (N, 3))`` for the player on roll of boards (int8 (N, 26))
        that the database holds (:func:`covered`)."""
        b = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 26)
        if not covered(b).all():
            raise ValueError(f"not in the two-sided bear-off database: {b[~covered(b)][0].tolist()!r}")
        probs, cubeful = np.empty((len(b), 5)), np.empty((len(b), 3))
        _lookup(b, self.win, self.values, BINOM, probs, cubeful)
        return probs, cubeful


@lru_cache(maxsize=1)
def two_sided() -> TwoSidedBearoff:
    """The database, built on first use in this process."""
    return TwoSidedBearoff.generate()
