"""Every order of single steps that makes each legal play, so the browser can move one checker at a
time and only ever offer steps that lead to a legal play.

The single-step rule is movegen's own ``_target`` (one code path for the rules); a sequence counts only
when it ends on the result of a play from ``Position.legal_plays`` with the same number of steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from gammon.movegen import _target
from gammon.play import Play
from gammon.position import Position

Step = tuple[int, int]
Sequences = list[tuple[int, tuple[Step, ...]]]


def step_sequences(position: Position, dice: Sequence[int]) -> tuple[list[Play], Sequences]:
    """The legal plays and, for each order of steps that makes one, ``(play index, steps)``."""
    return _cached(position, (int(dice[0]), int(dice[1])))


@lru_cache(maxsize=4096)
def _cached(position: Position, dice: tuple[int, int]) -> tuple[list[Play], Sequences]:
    plays = position.legal_plays(dice)
    if not plays:
        return plays, []
    length = len(plays[0].steps)
    goal = {play.after.flip().board: i for i, play in enumerate(plays)}
    dice_left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    out: Sequences = []
    seen: set[tuple[Step, ...]] = set()
    board = np.array(position.board, dtype=np.int8)

    def search(path: list[Step], left: list[int]) -> None:
        if len(path) == length:
            index = goal.get(tuple(int(x) for x in board))
            key = tuple(path)
            if index is not None and key not in seen:
                seen.add(key)
                out.append((index, key))
            return
        for k, die in enumerate(left):
            if die in left[:k]:
                continue  # the same die value again gives the same steps
            for src in range(25, 0, -1):
                dst = int(_target(board, src, die))
                if dst < 0:
                    continue
                hit = _step(board, src, dst)
                path.append((src, dst))
                search(path, left[:k] + left[k + 1:])
                path.pop()
                _unstep(board, src, dst, hit)

    search([], dice_left)
    return plays, out


def _step(b: np.ndarray, src: int, dst: int) -> bool:
    b[src] -= 1
    if dst == 0:
        return False
    if b[dst] == -1:
        b[dst] = 1
        b[0] -= 1
        return True
    b[dst] += 1
    return False


def _unstep(b: np.ndarray, src: int, dst: int, hit: bool) -> None:
    b[src] += 1
    if dst == 0:
        return
    if hit:
        b[dst] = -1
        b[0] += 1
    else:
        b[dst] -= 1
