"""Crashed positions: contact where a side has few checkers left in play, the class of position
GNU Backgammon plays with a net of its own, and where a net fitted mostly to other contact
positions loses most (the judge's classes, benchmarks/strength/judge.py)."""

from __future__ import annotations

import numpy as np

from gammon.engine.net.encode import race_mask

CRASHED_AT = 6
"""A side with at most this many checkers still in play has crashed (:func:`crashed_mask`)."""


def crashed_mask(boards: np.ndarray) -> np.ndarray:
    """bool (N,): the contact boards where a side has crashed: at most :data:`CRASHED_AT` of its
    checkers still in play, not counting those buried on its 1 and 2 points, counted as GNU
    Backgammon counts them for its crashed class (whose positions its third net plays): with two
    or more on its 1 point, those are buried, and then with two or more on its 2 point all of
    those but one; with at most one on its 1 point, all but one on its 2 point."""
    b = np.asarray(boards).astype(np.int16)
    out = np.zeros(b.shape[0], dtype=np.bool_)
    # each side from its own 1 point: the mover's points 1, 2, the opponent's 24, 23 (its 1, 2)
    for side, ace, two in (
        (np.maximum(b[:, 1:26], 0), b[:, 1], b[:, 2]),
        (np.maximum(-b[:, 0:25], 0), -b[:, 24], -b[:, 23]),
    ):
        total = side.sum(axis=1)
        ace, two = np.maximum(ace, 0), np.maximum(two, 0)
        deep = np.where(two > 1, total - ace - two + 1, total)
        in_play = np.where(ace > 1, np.minimum(total - ace, deep), total - np.maximum(two - 1, 0))
        out |= (total <= CRASHED_AT) | (in_play <= CRASHED_AT)
    return out & ~race_mask(boards)
