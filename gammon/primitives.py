"""Rule primitives shared by the numba kernels and the Python API: each rule is written once here.

These are plain Python functions over a board read by index only (a ``Position``'s tuple or an int8
array), so the Python API calls them as they are, without importing numba (``import gammon`` stays
fast), and :mod:`gammon.primitive_kernels` compiles the very same functions for the kernels (search,
training, move generation). They call no other function of this module: a compiled primitive may
only call compiled code. tests/test_primitives.py holds the compiled and the Python paths together
on random positions.

Boards are the 26 slots of :mod:`gammon.position`, seen from the player on roll.
"""

from __future__ import annotations

import math
from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import numpy as np

Board: TypeAlias = "Sequence[int] | np.ndarray"  # read by index only

# The board's layout (gammon.position): what every layer above reads a board with.
CHECKERS = 15
BAR = 25  # the mover's bar
OPPONENT_BAR = 0

SINGLE, GAMMON, BACKGAMMON = 1, 2, 3  # as gammon.rules.WinKind


def win_kind(board: Board) -> int:
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


def gammons_count(money: bool, jacoby: bool, cube_centred: bool) -> bool:
    """The Jacoby rule: in money play with the rule on, gammons and backgammons count single until
    the cube is turned."""
    return not (money and jacoby and cube_centred)


def flip_into(board: Board, out: MutableSequence[int] | np.ndarray) -> None:
    """``out`` = ``board`` seen from the opponent: how the turn passes (also after a roll with no
    play)."""
    for i in range(26):
        out[i] = -board[25 - i]


def pip_counts(board: Board) -> tuple[int, int]:
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


def race_win_chance(mover_pips: float, opponent_pips: float) -> float:
    """Rough chance that the player on roll wins a race, a normal approximation:
    ``Phi((opponent pips - mover pips + 4) / (2.13 * sqrt(mean pips)))``; 4 pips for being on
    roll, 2.13 * sqrt(pips) the spread of the difference of two players' dice totals over a race.
    The 8%-lead doubling point of race theory gives about 0.7, and the taker 12% behind the doubler
    gets about 0.23."""
    spread = 2.13 * math.sqrt(max((mover_pips + opponent_pips) / 2.0, 1.0))
    z = (opponent_pips - mover_pips + 4.0) / spread
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def checkers_on_board(board: Board) -> tuple[int, int]:
    """``(mover, opponent)``: each side's checkers not yet borne off (the bar counted)."""
    mover = 0
    opponent = 0
    for i in range(26):
        v = board[i]
        if v > 0:
            mover += v
        else:
            opponent -= v
    return mover, opponent


def clamp_probabilities(win: float, wg: float, wbg: float, lg: float, lbg: float, mover_on: int = CHECKERS,
                        opponent_on: int = CHECKERS) -> tuple[float, float, float, float, float]:
    """The five probabilities (see gammon.engine.net.evaluator) made consistent: each in [0, 1] and
    ``wbg <= wg <= win``, ``lbg <= lg <= 1 - win``, and no gammon (nor backgammon) that the board
    rules out: a side that has borne off a checker (``mover_on``, ``opponent_on``: the board's
    :func:`checkers_on_board`) can never be gammoned. Independent sigmoid outputs can break the
    order by a little, a net need not learn that a checker borne off ends the gammon chances (left
    alone, it kept some per cent of gammons there, which cost cube decisions most), and equities
    must not inherit either."""
    w = min(max(win, 0.0), 1.0)
    g = min(max(wg, 0.0), w) if opponent_on == CHECKERS else 0.0
    bg = min(max(wbg, 0.0), g)
    og = min(max(lg, 0.0), 1.0 - w) if mover_on == CHECKERS else 0.0
    obg = min(max(lbg, 0.0), og)
    return w, g, bg, og, obg
