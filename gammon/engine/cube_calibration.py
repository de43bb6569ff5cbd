"""A correction of money cube equities in CONTACT positions near the take point, fitted to gammon's
own rollouts.

Why: where the engine's double/take (DT) is close to the take point (DT near 1, the close take/pass
decisions), the net's probabilities are optimistic for the doubler: gammon's own cubeless rollouts
of such positions from its own self-play, valued by the same Janowski arithmetic, give a lower DT
and a lower no double (ND) than the engine's search. The engine picks these positions BECAUSE its
estimate says DT is near 1, so its errors there do not average out (a winner's curse), and the
bias decides takes and passes. Away from the take point the same rollouts find no bias worth
correcting.

The correction is ``offset * weight``, the weight a triangle in the engine's DT: 1 at DT = 1,
falling to 0 at ``1 +- HALF_WIDTH``, so the corrected DT stays increasing in the uncorrected one.
The offsets depend on how many points of the doubler's home board the taker holds (0, 1, 2 or
more: :func:`anchor_class`): the rollouts find the net's optimism grows with the taker's anchors
there (a holding or back game, where the net overrates the doubler's gammons), and one offset for
all over-corrects the positions without an anchor and under-corrects those with two. Each pair
comes from the least-squares fit of :func:`fit_offset` on contact positions of gammon's own
self-play only (GNU Backgammon plays no part; the fit refuses judge-set positions), chosen and
rolled out with the correction off, each rolled out cubeless with 144 trials at 0 ply (variance
reduction, 1 worker)::

    python -m benchmarks.strength.cube_bias --set own --positions 80 --trials 144 --seed 11 --save own80.jsonl
    python -m benchmarks.strength.cube_bias --set own --positions 200 --trials 144 --seed 13 --games 3000 \
        --take-zone 0.8 1.2 --save take.jsonl
    python -m benchmarks.strength.cube_bias --set own --positions 60 --trials 144 --seed 17 --games 20000 \
        --take-zone 0.8 1.2 --anchors 2 --save anchors.jsonl
    python -m benchmarks.strength.cube_bias --fit own80.jsonl take.jsonl anchors.jsonl

Zero for the shipped weights, so the correction leaves the search's equities as they are: the
cube head (:mod:`gammon.train.cube_head`) does what these offsets did, position by position (the
offsets fitted for earlier weights: docs/training.md, "The take-point correction's offsets").
The half width, 0.45, is the smallest of 0.3, 0.45, 0.6 at which every class's DT offset keeps the
corrected DT increasing. Races and match play are left as the search gives them. The offsets
belong to the shipped weights: fit them again when the net changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gammon.engine.encode import anchors

HALF_WIDTH = 0.45
# by anchor_class: the taker holds 0, 1, 2+ points of the doubler's home board
DT_OFFSETS = (0.0, 0.0, 0.0)
ND_OFFSETS = (0.0, 0.0, 0.0)
ANCHOR_CLASSES = len(DT_OFFSETS)


def anchor_class(board: Sequence[int] | np.ndarray) -> int:
    """How many points of the home board of the player on roll (points 1-6) the opponent holds
    with two or more checkers, 2 standing for two or more."""
    return min(ANCHOR_CLASSES - 1, int(anchors(np.asarray(board).reshape(1, 26))[0, 1]))


def zone_weight(dt: np.ndarray | float) -> np.ndarray:
    """The triangle weight of a double/take equity: 1 at 1, 0 beyond ``1 +- HALF_WIDTH``."""
    return np.maximum(0.0, 1.0 - np.abs(np.asarray(dt, dtype=np.float64) - 1.0) / HALF_WIDTH)


def corrected_values(values: np.ndarray, owner_column: int, anchors: int) -> np.ndarray:
    """Cubeful money values (per cube state, :data:`gammon.engine.cubeful.OWNER_COLUMNS`) of a
    contact position whose cube is centred or owned by the player on roll (``owner_column`` 0 or
    1) and whose :func:`anchor_class` is ``anchors``, corrected: ND (that column) by the class's
    ND offset, DT (twice the opponent-owned column, 2) by its DT offset, both times the weight of
    the uncorrected DT."""
    if owner_column not in (0, 1):
        raise ValueError(f"only the player who may double has a DT to correct, got column {owner_column!r}")
    out = np.array(values, dtype=np.float64)
    w = float(zone_weight(2.0 * out[2]))
    out[owner_column] += ND_OFFSETS[anchors] * w
    out[2] += DT_OFFSETS[anchors] * w / 2.0
    return out


def fit_offset(engine_values: np.ndarray, rolled_values: np.ndarray,
               engine_dt: np.ndarray) -> tuple[float, float]:
    """Least-squares ``c`` of ``rolled - engine = c * zone_weight(engine_dt)`` and its standard
    error (NaN with fewer than two weighted positions)."""
    w = zone_weight(engine_dt)
    d = np.asarray(rolled_values, np.float64) - np.asarray(engine_values, np.float64)
    ww = float((w * w).sum())
    if ww == 0.0:
        raise ValueError("no position near the take point: nothing to fit")
    c = float((w * d).sum() / ww)
    n = int((w > 0).sum())
    if n < 2:
        return c, float("nan")
    residual = d - c * w
    return c, float(np.sqrt((residual[w > 0] ** 2).sum() / (n - 1) / ww))
