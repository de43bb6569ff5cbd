"""One-sided tables of the rolls a side needs to bear off, for any number of points and checkers:
the rank of a side's counts (a row's index), and the builder. The bear-off table (six points, 15
checkers) and the few-checker table (24 points, five) are both made here
(:mod:`gammon.engine.bearoff.one_sided`, :mod:`gammon.engine.bearoff.few_checkers`).

Each position's distributions come from its children's: for each of the 21 rolls the play that
leaves the least expected rolls (the first of them in the move generator's order), so positions
are built in order of their pip count, which every play lowers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.movegen import generate_all


@njit(cache=True)
def rank(counts, points, checkers, binom):
    """Rank of a side's counts ``counts[0..points - 1]`` (points 1 up) among the positions of at
    most ``checkers`` checkers on ``points`` points (``binom[n, k]`` = C(n, k))."""
    idx = 0
    r = checkers
    for point in range(points, 0, -1):
        c = counts[point - 1]
        for v in range(c):
            idx += binom[r - v + point - 1, point - 1]
        r -= c
    return idx


@njit(cache=True)
def unrank(i, points, checkers, binom, counts):
    """``counts[0..points - 1]``: the side whose :func:`rank` is ``i``; returns its pip count."""
    rest = i
    r = checkers
    pips = 0
    for point in range(points, 0, -1):
        v = 0
        while v < r and rest >= binom[r - v + point - 1, point - 1]:
            rest -= binom[r - v + point - 1, point - 1]
            v += 1
        counts[point - 1] = v
        pips += point * v
        r -= v
    return pips


@njit(cache=True)
def build(points, checkers, binom, max_rolls):
    """``(off, first)``, float64 ``(C(checkers + points, points), max_rolls)``: for every position
    of at most ``checkers`` checkers on ``points`` points, by :func:`rank`, P(exactly k rolls) to bear
    off every checker and to bear off at least one (each played to minimise its own expectation)."""
    n = binom[checkers + points, points]
    counts = np.zeros((n, points), dtype=np.int8)
    pips = np.zeros(n, dtype=np.int64)
    for i in range(n):
        pips[i] = unrank(i, points, checkers, binom, counts[i])
    order = np.argsort(pips, kind="mergesort")
    off = np.zeros((n, max_rolls), dtype=np.float64)
    first = np.zeros((n, max_rolls), dtype=np.float64)
    mean_off = np.zeros(n, dtype=np.float64)
    mean_first = np.zeros(n, dtype=np.float64)
    board = np.zeros(26, dtype=np.int8)
    child = np.zeros(points, dtype=np.int8)
    for oi in range(n):
        i = order[oi]
        total = 0
        for p in range(points):
            total += counts[i, p]
        if total == 0:
            off[i, 0] = 1.0
            first[i, 0] = 1.0
            continue
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                w = (1.0 if d1 == d2 else 2.0) / 36.0
                board[:] = 0
                for p in range(points):
                    board[p + 1] = counts[i, p]
                count, _nsteps, boards, _steps = generate_all(board, d1, d2)
                best_off = -1
                best_off_mean = 1e9
                best_first = -1
                best_first_mean = 1e9
                first_done = False
                for k in range(count):
                    # results are seen from the (absent) opponent: our point p is slot 25 - p
                    left = 0
                    for p in range(points):
                        child[p] = -boards[k, 24 - p]
                        left += child[p]
                    j = rank(child, points, checkers, binom)
                    if mean_off[j] < best_off_mean:
                        best_off_mean = mean_off[j]
                        best_off = j
                    if left < total:
                        first_done = True
                    elif mean_first[j] < best_first_mean:
                        best_first_mean = mean_first[j]
                        best_first = j
                mean_off[i] += w * (1.0 + mean_off[best_off])
                for r in range(1, max_rolls):
                    off[i, r] += w * off[best_off, r - 1]
                if first_done:
                    mean_first[i] += w
                    first[i, 1] += w
                else:
                    mean_first[i] += w * (1.0 + mean_first[best_first])
                    for r in range(1, max_rolls):
                        first[i, r] += w * first[best_first, r - 1]
    return off, first
