"""Match equity table: Kazaross-XG2, the table GNU Backgammon ships (met/Kazaross-XG2.xml), with its
post-Crawford row. Numbers in ``met_kazaross_xg2.json`` beside this module.

Scores are given as "away" (points still needed). ``match_equity(mine, theirs)`` is the chance that
the player ``mine`` away wins the match against one ``theirs`` away, at the start of a game.

The table stops at 25 away (:data:`MAX_AWAY`); longer matches (a 31-point match, a 99-point one in
the browser) go on by the table's own pattern (:func:`match_equity`), so that the engine plays,
hints and analyses them as well.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from statistics import NormalDist

import numpy as np

MAX_AWAY = 25
"""The scores the table gives: 1 to 25 away."""
_EDGE = 6
"""How many of the last entries of a row of the table give its pattern beyond the table."""
_DATA = Path(__file__).with_name("met_kazaross_xg2.json")
_NORMAL = NormalDist()


@lru_cache(maxsize=1)
def _tables() -> tuple[np.ndarray, np.ndarray]:
    data = json.loads(_DATA.read_text())
    pre = np.array(data["pre_crawford"], dtype=np.float64)
    post = np.array(data["post_crawford"], dtype=np.float64)
    pre.flags.writeable = False
    post.flags.writeable = False
    return pre, post


def _check_away(value: int, name: str) -> None:
    """A whole number (0 or less: that side has won)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be a whole number of points away, got {value!r}")


def _geometric(row: np.ndarray, n: int) -> float:
    """Entry ``n`` (1-based, past the end) of a ``row`` of chances that shrink by a steady factor
    every two points, as the trailer's in the Crawford game and after it do in the table (about
    0.6 every two points, odd and even scores each in their own step)."""
    last = len(row) if (n - len(row)) % 2 == 0 else len(row) - 1
    ratio = float(row[-1] / row[-3])
    return float(row[last - 1]) * ratio ** ((n - last) / 2)


@lru_cache(maxsize=MAX_AWAY)
def _spread(mine: int) -> float:
    """``k`` of the normal model ``Phi(k (theirs - mine) / sqrt(mine + theirs))`` that the table's
    row ``mine`` (2-25 away) follows at its end, fitted to its last :data:`_EDGE` entries; the
    table's longest scores follow the model to a thousandth (k = 0.543 at 20-25 away)."""
    pre, _ = _tables()
    ks = []
    for theirs in range(MAX_AWAY - _EDGE + 1, MAX_AWAY + 1):
        if theirs != mine:
            z = _NORMAL.inv_cdf(float(pre[mine - 1, theirs - 1]))
            ks.append(z * math.sqrt(mine + theirs) / (theirs - mine))
    return sum(ks) / len(ks)


def _pre_crawford(mine: int, theirs: int) -> float:
    """The table's entry, or beyond it (a side more than 25 away) the table's pattern: with a side
    1 away (the Crawford game) the trailer's chance shrinks geometrically (:func:`_geometric`);
    else the normal model of :func:`_spread`, with the spread of the row of the side nearer to
    winning (its 25-away row when both are past the table)."""
    pre, _ = _tables()
    if mine <= MAX_AWAY and theirs <= MAX_AWAY:
        return float(pre[mine - 1, theirs - 1])
    if mine > theirs:
        return 1.0 - _pre_crawford(theirs, mine)
    if mine == 1:
        return 1.0 - _geometric(1.0 - pre[0], theirs)
    k = _spread(min(mine, MAX_AWAY))
    return _NORMAL.cdf(k * (theirs - mine) / math.sqrt(mine + theirs))


def match_equity(mine: int, theirs: int, post_crawford: bool = False) -> float:
    """Chance to win the match when needing ``mine`` points against ``theirs``.

    ``post_crawford`` marks a game after the Crawford game (one side 1 away, the cube free again);
    with one side 1 away and ``post_crawford`` False the game is the Crawford game. A side at 0 or
    less away has won.
    """
    _check_away(mine, "mine")
    _check_away(theirs, "theirs")
    mine, theirs = int(mine), int(theirs)
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    _, post = _tables()
    if post_crawford and (mine == 1 or theirs == 1):
        if mine == 1 and theirs == 1:
            return 0.5
        trailer = theirs if mine == 1 else mine
        chance = float(post[trailer - 1]) if trailer <= MAX_AWAY else _geometric(post, trailer)
        return 1.0 - chance if mine == 1 else chance
    return _pre_crawford(mine, theirs)


@lru_cache(maxsize=4096)  # the cube search asks for the same few scores at every leaf
def equity_after(mine: int, theirs: int, crawford_done: bool) -> float:
    """Match equity at the start of the next game once the score is ``mine``/``theirs`` away,
    given whether the Crawford game has been played (``crawford_done``): a side that has just
    reached 1 away for the first time plays the Crawford game next."""
    return match_equity(mine, theirs, post_crawford=crawford_done)
