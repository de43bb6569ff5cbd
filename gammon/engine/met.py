"""Match equity table: Kazaross-XG2, the table GNU Backgammon ships (met/Kazaross-XG2.xml), with its
post-Crawford row. Numbers in ``met_kazaross_xg2.json`` beside this module.

Scores are given as "away" (points still needed). ``match_equity(mine, theirs)`` is the chance that
the player ``mine`` away wins the match against one ``theirs`` away, at the start of a game.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

MAX_AWAY = 25
_DATA = Path(__file__).with_name("met_kazaross_xg2.json")


@lru_cache(maxsize=1)
def _tables() -> tuple[np.ndarray, np.ndarray]:
    data = json.loads(_DATA.read_text())
    pre = np.array(data["pre_crawford"], dtype=np.float64)
    post = np.array(data["post_crawford"], dtype=np.float64)
    pre.flags.writeable = False
    post.flags.writeable = False
    return pre, post


def _check_away(value: int, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_AWAY:
        raise ValueError(f"{name} must be a whole number of points away from 1 to {MAX_AWAY}, got {value!r}")


def match_equity(mine: int, theirs: int, post_crawford: bool = False) -> float:
    """Chance to win the match when needing ``mine`` points against ``theirs``.

    ``post_crawford`` marks a game after the Crawford game (one side 1 away, the cube free again);
    with one side 1 away and ``post_crawford`` False the game is the Crawford game. A side at 0 or
    less away has won.
    """
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    _check_away(mine, "mine")
    _check_away(theirs, "theirs")
    pre, post = _tables()
    if post_crawford and (mine == 1 or theirs == 1):
        if mine == 1 and theirs == 1:
            return 0.5
        return 1.0 - float(post[theirs - 1]) if mine == 1 else float(post[mine - 1])
    return float(pre[mine - 1, theirs - 1])


@lru_cache(maxsize=4096)  # the cube search asks for the same few scores at every leaf
def equity_after(mine: int, theirs: int, crawford_done: bool) -> float:
    """Match equity at the start of the next game once the score is ``mine``/``theirs`` away,
    given whether the Crawford game has been played (``crawford_done``): a side that has just
    reached 1 away for the first time plays the Crawford game next."""
    return match_equity(mine, theirs, post_crawford=crawford_done)
