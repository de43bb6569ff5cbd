"""Crashed positions: contact where a side has few checkers left in play, the class of position
GNU Backgammon plays with a net of its own, and where a net fitted mostly to other contact
positions loses most (the judge's classes, benchmarks/strength/judge.py). gammon's evaluator
plays them with a crashed net of its own too, where its weights file has one
(:class:`gammon.engine.net.neural.NeuralEvaluator`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.net.encode import race_mask
from gammon.primitive_kernels import checkers_on_board

CRASHED_AT = 6
"""A side with at most this many checkers still in play has crashed (:func:`has_crashed_side`)."""


@njit(cache=True, inline="always")
def _side_crashed(total, ace, two):
    """Whether a side with ``total`` checkers on the board, ``ace`` on its 1 point and ``two`` on its
    2 point has crashed (see :func:`has_crashed_side`)."""
    if total <= CRASHED_AT:
        return True
    if ace > 1:
        in_play = total - ace
        if two > 1:
            in_play = min(in_play, total - ace - two + 1)
    else:
        in_play = total - max(two - 1, 0)
    return in_play <= CRASHED_AT


@njit(cache=True)
def has_crashed_side(board):
    """Whether a side of ``board`` (int8[26], the player on roll's view) has crashed: at most
    :data:`CRASHED_AT` of its checkers still in play, not counting those buried on its 1 and 2
    points, counted as GNU Backgammon counts them for its crashed class: with two or more on its 1
    point, those are buried, and then with two or more on its 2 point all of those but one; with
    at most one on its 1 point, all but one on its 2 point. Whether contact remains is
    :func:`gammon.engine.net.encode.is_race_board`'s question."""
    mover, opponent = checkers_on_board(board)
    # each side from its own 1 point: the mover's points 1, 2, the opponent's 24, 23 (its 1, 2)
    return _side_crashed(mover, max(board[1], 0), max(board[2], 0)) or _side_crashed(
        opponent, max(-board[24], 0), max(-board[23], 0)
    )


@njit(cache=True)
def _crashed_rows(boards, out):
    for r in range(boards.shape[0]):
        out[r] = has_crashed_side(boards[r])


def crashed_mask(boards: np.ndarray) -> np.ndarray:
    """bool (N,): the contact boards where a side has crashed (:func:`has_crashed_side`)."""
    b = np.ascontiguousarray(boards, dtype=np.int8)
    out = np.zeros(b.shape[0], dtype=np.bool_)
    _crashed_rows(b, out)
    return out & ~race_mask(b)
