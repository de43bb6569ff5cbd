"""The races one roll from the bear-off table: a side with one or two checkers just outside its home
board that every roll brings home, with the distribution of the rolls it needs to bear off.

A side is *near home* when it has no checker on the bar, one or two checkers outside its home board,
and the smallest roll (2-1) brings them home: one checker on its 7, 8 or 9 point, or two on the 7
point, or one on the 7 and one on the 8 (:data:`SHAPES`, the other checkers on points 1-6). Every
roll then has a play that leaves the side home, in the bear-off table, so one roll's lookahead gives
its distributions exactly: for each of the 21 rolls the play into the table that leaves the least
expected rolls (the table's own rule), ``off`` (rolls to bear off every checker) and, for a side of
15 checkers, ``first`` (rolls to bear off one: saving the gammon). A play that leaves a checker out
is never chosen; bringing it home is the bear-in every player makes, and the table cannot value the
rest.

Such sides end many races: a side with a checker on its 8 point and the rest home, against a side
bearing off or with a straggler or two. The race net misjudged the rarer of them by up to a third of
a game (`DIAIYC0DCAAAAA` with 53: the race after 15/7, a side of nine checkers one of them on its 7
point, 0.939 to win for the other side where the game played out gives 0.620); valued from the two
sides' distributions as a bear-off is, they are exact at every ply.

The table's rows: for each shape in turn, the home boards of at most ``15 - len(shape)`` checkers
ranked as :func:`gammon.engine.bearoff.one_sided.home_index` ranks them (:func:`near_index`).
``first`` is kept for the sides of 15 checkers alone (:func:`first_index`): with fewer the side has
borne off, and no gammon is left to save. gammon builds both with its own move generator and ships
them in the bear-off database's file, float32.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from gammon.engine.bearoff.tables import rank, unrank
from gammon.movegen import generate_all

CHECKERS = 15
SHAPES = ((7,), (8,), (9,), (7, 7), (7, 8))
"""The checkers outside the home board of a near-home side, by the points they are on."""
OUTSIDE = np.array([len(s) for s in SHAPES], dtype=np.int64)
"""The kernels' copy of :data:`SHAPES`: each shape's checkers outside, and the points they are on."""
OUTSIDE_POINTS = np.array([s + (0,) * (2 - len(s)) for s in SHAPES], dtype=np.int64)

# rows of the home boards of at most ``15 - len(shape)`` checkers, and of exactly that many
_HOME_ROWS = [comb(CHECKERS - len(s) + 6, 6) for s in SHAPES]
_FULL_ROWS = [comb(CHECKERS - len(s) + 5, 5) for s in SHAPES]
SHAPE_START = np.array([sum(_HOME_ROWS[:i]) for i in range(len(SHAPES))], dtype=np.int64)
"""The first row of each shape in the ``off`` table."""
FIRST_START = np.array([sum(_FULL_ROWS[:i]) for i in range(len(SHAPES))], dtype=np.int64)
"""The first row of each shape in the ``first`` table (its sides of 15 checkers)."""
POSITIONS = sum(_HOME_ROWS)  # 170,544
FULL_POSITIONS = sum(_FULL_ROWS)  # 52,020


@njit(cache=True, _nrt=False)
def shape_of(outside_low: int, outside_high: int, outside: int) -> int:
    """The shape (index in :data:`SHAPES`) of a side's ``outside`` checkers beyond its home board,
    the lowest on ``outside_low`` and the highest on ``outside_high``; -1 when it is not near home."""
    if outside == 1:
        return outside_low - 7 if 7 <= outside_low <= 9 else -1
    if outside == 2 and outside_low == 7:
        if outside_high == 7:
            return 3
        if outside_high == 8:
            return 4
    return -1


@njit(cache=True, _nrt=False)
def near_index(home, shape, binom):
    """Row in the ``off`` table of a near-home side: ``home`` its counts of points 1-6 (the checkers
    of ``shape`` left out), ``binom`` the bear-off table's (:data:`gammon.engine.bearoff.one_sided.BINOM`)."""
    return SHAPE_START[shape] + rank(home, 6, CHECKERS - OUTSIDE[shape], binom)


@njit(cache=True, _nrt=False)
def first_index(home, shape, binom):
    """Row in the ``first`` table of a near-home side of 15 checkers (``home`` as :func:`near_index`):
    a home board of exactly ``15 - n`` checkers is its points 1-5, at most that many, the rest on 6."""
    return FIRST_START[shape] + rank(home, 5, CHECKERS - OUTSIDE[shape], binom)


@njit(cache=True)
def _build(home_off, home_first, home_mean, first_mean, binom):
    max_rolls = home_off.shape[1]
    off = np.zeros((POSITIONS, max_rolls), dtype=np.float64)
    first = np.zeros((FULL_POSITIONS, max_rolls), dtype=np.float64)
    counts = np.zeros(6, dtype=np.int8)
    child = np.zeros(6, dtype=np.int8)
    board = np.zeros(26, dtype=np.int8)
    for shape in range(len(SHAPES)):
        n = OUTSIDE[shape]
        rest = CHECKERS - n
        for row in range(binom[rest + 6, 6]):
            unrank(row, 6, rest, binom, counts)
            total = n
            board[:] = 0
            for p in range(6):
                board[p + 1] = counts[p]
                total += counts[p]
            for k in range(n):
                board[OUTSIDE_POINTS[shape, k]] += 1
            full = total == CHECKERS
            i = SHAPE_START[shape] + row
            j_first = first_index(counts, shape, binom) if full else -1
            for d1 in range(1, 7):
                for d2 in range(d1, 7):
                    w = (1.0 if d1 == d2 else 2.0) / 36.0
                    count, _nsteps, boards, _steps = generate_all(board.copy(), d1, d2)
                    best_off = -1
                    best_first = -1
                    first_done = False
                    for k in range(count):
                        # results are seen from the (absent) opponent: our point p is slot 25 - p
                        home = True
                        left = 0
                        for p in range(1, 25):
                            c = -boards[k, 25 - p]
                            left += c
                            if p <= 6:
                                child[p - 1] = c
                            elif c > 0:
                                home = False
                        if not home:
                            continue
                        j = rank(child, 6, CHECKERS, binom)
                        if best_off < 0 or home_mean[j] < home_mean[best_off]:
                            best_off = j
                        if left < total:
                            first_done = True
                        elif best_first < 0 or first_mean[j] < first_mean[best_first]:
                            best_first = j
                    for r in range(1, max_rolls):
                        off[i, r] += w * home_off[best_off, r - 1]
                    if full:
                        if first_done:
                            first[j_first, 1] += w
                        else:
                            for r in range(1, max_rolls):
                                first[j_first, r] += w * home_first[best_first, r - 1]
    return off, first


def generate_tables(home_off: np.ndarray, home_first: np.ndarray,
                    binom: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(off, first)``, float32 ``(POSITIONS, max_rolls)`` and ``(FULL_POSITIONS, max_rolls)``, from the
    bear-off table's ``off`` and ``first`` (float64)."""
    rolls = np.arange(home_off.shape[1], dtype=np.float64)
    off, first = _build(home_off, home_first, home_off @ rolls, home_first @ rolls, binom)
    return off.astype(np.float32), first.astype(np.float32)
