"""Tesauro's pubeval: the published linear move-selection benchmark for backgammon programs.

The weights and the input encoding are those of Gerry Tesauro's ``pubeval.c`` (as shipped with
GNU Backgammon as ``pub_eval.c``): 122 inputs, one weight vector for contact and one for race
positions; the race vector is chosen from the position BEFORE the play. The score is summed in
32-bit floats in the C code's input order, so plays rank exactly as in the C program (ties keep
the first play of :meth:`Position.legal_plays`).

Quirks of the original kept on purpose: the mover's own checkers on the bar are not an input, and
a play that bears off the 15th checker scores 99999999.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from gammon.dice import check_dice
from gammon.movegen import generate_arrays
from gammon.play import Play
from gammon.position import Position

# fmt: off
_RACE = (
    .00000, -.17160, .27010, .29906, -.08471, .00000, -1.40375,
    -1.05121, .07217, -.01351, .00000, -1.29506, -2.16183, .13246,
    -1.03508, .00000, -2.29847, -2.34631, .17253, .08302, .00000,
    -1.27266, -2.87401, -.07456, -.34240, .00000, -1.34640, -2.46556,
    -.13022, -.01591, .00000, .27448, .60015, .48302, .25236, .00000,
    .39521, .68178, .05281, .09266, .00000, .24855, -.06844, -.37646,
    .05685, .00000, .17405, .00430, .74427, .00576, .00000, .12392,
    .31202, -.91035, -.16270, .00000, .01418, -.10839, -.02781, -.88035,
    .00000, 1.07274, 2.00366, 1.16242, .22520, .00000, .85631, 1.06349,
    1.49549, .18966, .00000, .37183, -.50352, -.14818, .12039, .00000,
    .13681, .13978, 1.11245, -.12707, .00000, -.22082, .20178, -.06285,
    -.52728, .00000, -.13597, -.19412, -.09308, -1.26062, .00000, 3.05454,
    5.16874, 1.50680, 5.35000, .00000, 2.19605, 3.85390, .88296, 2.30052,
    .00000, .92321, 1.08744, -.11696, -.78560, .00000, -.09795, -.83050,
    -1.09167, -4.94251, .00000, -1.00316, -3.66465, -2.56906, -9.67677,
    .00000, -2.77982, -7.26713, -3.40177, -12.32252, .00000, 3.42040,
)
_CONTACT = (
    .25696, -.66937, -1.66135, -2.02487, -2.53398, -.16092, -1.11725,
    -1.06654, -.92830, -1.99558, -1.10388, -.80802, .09856, -.62086,
    -1.27999, -.59220, -.73667, .89032, -.38933, -1.59847, -1.50197,
    -.60966, 1.56166, -.47389, -1.80390, -.83425, -.97741, -1.41371,
    .24500, .10970, -1.36476, -1.05572, 1.15420, .11069, -.38319, -.74816,
    -.59244, .81116, -.39511, .11424, -.73169, -.56074, 1.09792, .15977,
    .13786, -1.18435, -.43363, 1.06169, -.21329, .04798, -.94373, -.22982,
    1.22737, -.13099, -.06295, -.75882, -.13658, 1.78389, .30416, .36797,
    -.69851, .13003, 1.23070, .40868, -.21081, -.64073, .31061, 1.59554,
    .65718, .25429, -.80789, .08240, 1.78964, .54304, .41174, -1.06161,
    .07851, 2.01451, .49786, .91936, -.90750, .05941, 1.83120, .58722,
    1.28777, -.83711, -.33248, 2.64983, .52698, .82132, -.58897, -1.18223,
    3.35809, .62017, .57353, -.07276, -.36214, 4.37655, .45481, .21746,
    .10504, -.61977, 3.54001, .04612, -.18108, .63211, -.87046, 2.47673,
    -.48016, -1.27157, .86505, -1.11342, 1.24612, -.82385, -2.77082,
    1.23606, -1.59529, .10438, -1.30206, -4.11520, 5.62596, -2.75800,
)
# fmt: on

RACE_WEIGHTS: np.ndarray = np.array(_RACE, dtype=np.float32)
CONTACT_WEIGHTS: np.ndarray = np.array(_CONTACT, dtype=np.float32)
RACE_WEIGHTS.flags.writeable = False
CONTACT_WEIGHTS.flags.writeable = False

ALL_OFF_SCORE = np.float32(99999999.0)
"""pubeval's score for a play that bears off the last checker."""


@njit(cache=True)
def score_kernel(after_boards, weights):
    """pubeval of each row of ``after_boards`` (int8[n, 26], seen from the opponent, as the move
    generator returns them), for the player who just moved; float32 like the C code."""
    n = after_boards.shape[0]
    out = np.empty(n, dtype=np.float32)
    half = np.float32(0.5)
    for r in range(n):
        a = after_boards[r]
        # The mover's own view: pos[p] = -a[25 - p]; pos[0] is the opponent's bar (<= 0).
        on_board = 0
        for i in range(26):
            if a[i] < 0:
                on_board -= a[i]
        off = 15 - on_board
        if off == 15:
            out[r] = ALL_OFF_SCORE
            continue
        score = np.float32(0.0)
        # C input order: j = 1..24 reads pos[25 - j], i.e. a[j], inputs 5 * (j - 1) + 0..4.
        for j in range(1, 25):
            v = -a[j]
            if v == 0:
                continue
            base = 5 * (j - 1)
            if v == -1:
                score += weights[base] * np.float32(1.0)
            elif v >= 1:
                if v == 1:
                    score += weights[base + 1] * np.float32(1.0)
                else:
                    score += weights[base + 2] * np.float32(1.0)
                    if v == 3:
                        score += weights[base + 3] * np.float32(1.0)
                    elif v >= 4:
                        score += weights[base + 4] * (np.float32(v - 3) * half)
        opponent_bar = a[25]  # pos[0] = -a[25]; x[120] = -pos[0] / 2
        if opponent_bar != 0:
            score += weights[120] * (np.float32(opponent_bar) * half)
        if off != 0:
            score += weights[121] * np.float32(off / 15.0)
        out[r] = score
    return out


def pubeval_board_scores(after_boards: np.ndarray, race: bool) -> np.ndarray:
    """Scores of resulting boards (int8[n, 26], each seen from the opponent, now on roll) for
    the player who moved; ``race`` is whether the position before the play was a race."""
    boards = np.ascontiguousarray(after_boards, dtype=np.int8)
    if boards.ndim != 2 or boards.shape[1] != 26:
        raise ValueError(f"after_boards must have shape (n, 26), got {boards.shape}")
    return score_kernel(boards, RACE_WEIGHTS if race else CONTACT_WEIGHTS)


def pubeval_scores(position: Position, plays: Sequence[Play]) -> np.ndarray:
    """pubeval's score of each play of ``position`` (higher is better for the mover)."""
    if not plays:
        return np.empty(0, dtype=np.float32)
    boards = np.array([p.after.board for p in plays], dtype=np.int8)
    return pubeval_board_scores(boards, position.is_race())


def pubeval_best_play(position: Position, dice: Sequence[int]) -> Play | None:
    """The play pubeval picks for ``dice``, or None when no legal play exists."""
    d1, d2 = check_dice(dice)
    _, boards, steps = generate_arrays(position.as_array(), (d1, d2))
    if len(boards) == 0:
        return None
    best = int(np.argmax(pubeval_board_scores(boards, position.is_race())))
    return Play.from_kernel(position, (d1, d2), steps[best].tolist(), boards[best].tolist())


def pubeval_ranked_plays(position: Position, dice: Sequence[int]) -> list[tuple[Play, float]]:
    """Every legal play with its score, best first (stable: ties keep move-generation order)."""
    plays = position.legal_plays(dice)
    scores = pubeval_scores(position, plays)
    order = np.argsort(-scores, kind="stable")
    return [(plays[i], float(scores[i])) for i in order]
