"""Rule primitives shared by the numba kernels and the Python API: each rule is written once here.

Every function is numba-compiled (``@njit``) for the kernels (search, training, move generation) and
reads a board by index only, so the Python API runs the very same source on a ``Position``'s tuple
through :func:`python_path` (no compile, no array). tests/test_primitives.py holds the compiled and
the interpreted paths together on random positions.

Boards are the 26 slots of :mod:`gammon.position`, seen from the player on roll.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from numba import njit

SINGLE, GAMMON, BACKGAMMON = 1, 2, 3  # as gammon.rules.WinKind


def python_path(kernel: Any) -> Callable[..., Any]:
    """The plain Python function a kernel was compiled from (the kernel itself when numba's JIT is
    disabled): for the Python API, which calls primitives on tuples a few times per turn."""
    return getattr(kernel, "py_func", kernel)


@njit(cache=True)
def win_kind(board):
    """0 while the player not on roll still has a checker on the board; else how much it has won
    by (the player on roll lost): ``SINGLE``; ``GAMMON`` when the loser has borne off none;
    ``BACKGAMMON`` when it also has a checker on the bar or in the winner's home board (its
    points 19-24)."""
    on = 0
    for i in range(26):
        if board[i] < 0:
            return 0
        on += board[i]
    if on < 15:
        return SINGLE
    for i in range(19, 26):
        if board[i] > 0:
            return BACKGAMMON
    return GAMMON


@njit(cache=True)
def gammons_count(money, jacoby, cube_centred):
    """The Jacoby rule: in money play with the rule on, gammons and backgammons count single until
    the cube is turned."""
    return not (money and jacoby and cube_centred)


@njit(cache=True)
def flip_into(board, out):
    """``out`` = ``board`` seen from the opponent: how the turn passes (also after a roll with no
    play)."""
    for i in range(26):
        out[i] = -board[25 - i]


@njit(cache=True)
def pip_counts(board):
    """Pip counts ``(mover, opponent)``: each checker's distance from bearing off (the bar is 25)."""
    mover = 0
    opponent = 0
    for i in range(26):
        v = board[i]
        if v > 0:
            mover += i * v
        elif v < 0:
            opponent -= (25 - i) * v
    return mover, opponent


@njit(cache=True)
def race_win_chance(mover_pips, opponent_pips):
    """Rough chance that the player on roll wins a race, a normal approximation:
    ``Phi((opponent pips - mover pips + 4) / (2.13 * sqrt(mean pips)))``; 4 pips for being on
    roll, 2.13 * sqrt(pips) the spread of the difference of two players' dice totals over a race.
    The 8%-lead doubling point of race theory gives about 0.7, and the taker 12% behind the doubler
    gets about 0.23."""
    spread = 2.13 * math.sqrt(max((mover_pips + opponent_pips) / 2.0, 1.0))
    z = (opponent_pips - mover_pips + 4.0) / spread
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


@njit(cache=True)
def clamp_probabilities(win, wg, wbg, lg, lbg):
    """The five probabilities (see gammon.engine.evaluator) made consistent: each in [0, 1] and
    ``wbg <= wg <= win``, ``lbg <= lg <= 1 - win``. Independent sigmoid outputs can break the
    order by a little, and equities must not inherit that."""
    w = min(max(win, 0.0), 1.0)
    g = min(max(wg, 0.0), w)
    bg = min(max(wbg, 0.0), g)
    og = min(max(lg, 0.0), 1.0 - w)
    obg = min(max(lbg, 0.0), og)
    return w, g, bg, og, obg
