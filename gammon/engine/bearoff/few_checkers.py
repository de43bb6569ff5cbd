"""The few-checker races of the one-sided database: every position of up to five checkers anywhere
on a side's 24 points (118,755 of them) with the distribution of the number of rolls it needs to
bear them all off, each roll played to minimise the expected rolls left.

A race where each side either has every checker home (the bear-off table of
:mod:`gammon.engine.bearoff.one_sided`), has at most :data:`CHECKERS` left anywhere or is one roll
from home (:mod:`gammon.engine.bearoff.near_home`) is then valued as a bear-off is: from the two
sides' distributions. Such races follow a hit late in a
game (a side with a few checkers far from home against one bearing off its last), and self-play's
races seldom hold them: the race net's chance to win there was 0.077 from 144-trial rollouts in
root mean square over the 1,074 such races of the race label campaign, at worst 0.76; the
database's 0.006, the rollouts' own noise. A side of five checkers or fewer has borne off ten, so
it can be neither gammoned nor backgammoned, and the other side's gammon comes from the bear-off
table's ``first``.

The table's index of a side (:func:`few_index`) ranks its counts of points 1-24 as
:func:`gammon.engine.bearoff.one_sided.home_index` ranks six points
(:func:`gammon.engine.bearoff.tables.rank`, for both). gammon builds the table with
its own move generator (about 10 s) and ships it in the bear-off database's file, float32.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.bearoff.tables import build, rank

CHECKERS = 5
POINTS = 24
POSITIONS = 118755  # C(29, 5): up to 5 checkers into 24 points plus "off"

# FEW_BINOM[n, k] = C(n, k), for the ranks of up to CHECKERS checkers on POINTS points
FEW_BINOM = np.zeros((CHECKERS + POINTS + 1, POINTS + 1), dtype=np.int64)
for _n in range(FEW_BINOM.shape[0]):
    FEW_BINOM[_n, 0] = 1
    for _k in range(1, min(_n, POINTS) + 1):
        FEW_BINOM[_n, _k] = FEW_BINOM[_n - 1, _k - 1] + (FEW_BINOM[_n - 1, _k] if _k <= _n - 1 else 0)


@njit(cache=True)
def few_index(counts, binom):
    """Rank of a side's counts ``counts[0..23]`` (points 1-24, at most :data:`CHECKERS` in all)
    among the :data:`POSITIONS` positions of the table."""
    return rank(counts, POINTS, CHECKERS, binom)


def generate_table(max_rolls: int) -> np.ndarray:
    """The table, float32 ``(POSITIONS, max_rolls)``: P(exactly k rolls to bear off every checker)."""
    return build(POINTS, CHECKERS, FEW_BINOM, max_rolls)[0].astype(np.float32)
