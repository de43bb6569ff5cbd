"""Every order of single steps that makes each legal play, so the browser can move one checker at a
time and only ever offer steps that lead to a legal play.

The single-step rule is movegen's own kernel (``step_target``/``apply_step``/``undo_step``: one code
path for the rules); an order counts only when it ends on the result of a play from ``Position.legal_plays``
with the same number of steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from numba import njit

from gammon.movegen import Board, apply_step, step_target, undo_step
from gammon.play import Play
from gammon.position import Position

Step = tuple[int, int]
Sequences = list[tuple[int, tuple[Step, ...]]]
_CAPACITY = 1 << 15  # orders of one roll; the worst doubles give a few thousand


@njit(cache=True)
def _orders(
    board: Board,
    dice: npt.NDArray[np.int64],
    n_dice: int,
    length: int,
    out_steps: npt.NDArray[np.int64],
    out_boards: Board,
) -> int:
    """Depth-first over (die, checker) choices; records each order of ``length`` steps and its board.
    Returns the count, or -1 when ``out_*`` are too small."""
    b = board.copy()
    used = np.zeros(4, np.bool_)
    k_at = np.zeros(5, np.int64)
    src_at = np.full(5, 25, np.int64)
    step_src = np.zeros(4, np.int64)
    step_dst = np.zeros(4, np.int64)
    step_hit = np.zeros(4, np.int64)
    count = 0
    depth = 0
    while True:
        if depth == length:
            if count == out_steps.shape[0]:
                return -1
            for d in range(length):
                out_steps[count, d, 0] = step_src[d]
                out_steps[count, d, 1] = step_dst[d]
            out_boards[count, :] = b
            count += 1
            depth -= 1
            if depth < 0:
                return count
            undo_step(b, step_src[depth], step_dst[depth], step_hit[depth])
            used[k_at[depth]] = False
            continue
        found = False
        while k_at[depth] < n_dice:
            k = k_at[depth]
            skip = used[k]
            for j in range(k):  # equal dice give equal steps: try only the first unused one
                if not used[j] and dice[j] == dice[k]:
                    skip = True
            if not skip:
                while src_at[depth] >= 1:
                    s = src_at[depth]
                    src_at[depth] -= 1
                    t = step_target(b, s, dice[k])
                    if t >= 0:
                        step_src[depth], step_dst[depth] = s, t
                        step_hit[depth] = apply_step(b, s, t)
                        used[k] = True
                        found = True
                        break
            if found:
                break
            k_at[depth] += 1
            src_at[depth] = 25
        if found:
            depth += 1
            k_at[depth] = 0
            src_at[depth] = 25
        else:
            if depth == 0:
                return count
            depth -= 1
            undo_step(b, step_src[depth], step_dst[depth], step_hit[depth])
            used[k_at[depth]] = False


def step_sequences(position: Position, dice: Sequence[int]) -> tuple[list[Play], Sequences]:
    """The legal plays and, for each order of steps that makes one, ``(play index, steps)``."""
    return _cached(position, (int(dice[0]), int(dice[1])))


@lru_cache(maxsize=4096)
def _cached(position: Position, dice: tuple[int, int]) -> tuple[list[Play], Sequences]:
    plays = position.legal_plays(dice)
    if not plays:
        return plays, []
    length = len(plays[0].steps)
    goal = {play.after.flip().as_array().tobytes(): i for i, play in enumerate(plays)}
    doubles = dice[0] == dice[1]
    die_array = np.array([dice[0]] * 4 if doubles else [dice[0], dice[1], 0, 0], dtype=np.int64)
    # Room for the most orders at once (3 MB, only the pages written are touched): no retry loop.
    out_steps = np.empty((_CAPACITY, 4, 2), dtype=np.int64)
    out_boards = np.empty((_CAPACITY, 26), dtype=np.int8)
    count = _orders(position.as_array(), die_array, 4 if doubles else 2, length, out_steps, out_boards)
    if count < 0:
        raise RuntimeError(f"more than {_CAPACITY} step orders for {dice} from {position.id}")
    out: Sequences = []
    seen: set[tuple[Step, ...]] = set()
    for n in range(count):
        index = goal.get(out_boards[n].tobytes())
        if index is None:
            continue
        steps = tuple((int(a), int(b)) for a, b in out_steps[n, :length])
        if steps not in seen:
            seen.add(steps)
            out.append((index, steps))
    return plays, out
