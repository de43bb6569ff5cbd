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
The offsets come from the least-squares fit of :func:`fit_offset` on contact positions of gammon's
own self-play only (GNU Backgammon plays no part; the fit refuses judge-set positions), each rolled
out cubeless with 144 trials at 0 ply (variance reduction, 1 worker)::

    python benchmarks/cube_bias.py --set own --positions 80 --trials 144 --seed 11 --save own80.jsonl
    python benchmarks/cube_bias.py --set own --positions 200 --trials 144 --seed 13 --games 3000 \
        --take-zone 0.8 1.2 --save take.jsonl
    python benchmarks/cube_bias.py --fit own80.jsonl take.jsonl

Fitted again for the weights of training step 5 (docs/training.md), with the offsets at 0 while the
positions were chosen and rolled out: 280 positions, 220 of them within the zone: DT -0.110 +-
0.016, ND -0.091 +- 0.012 (on the 200 take-zone positions the net's 2-ply probabilities against the
rollouts: win +0.010 +- 0.002, win gammon +0.022 +- 0.002, cubeless equity +0.038 +- 0.005; the
weights before step 5: DT -0.087 +- 0.018, ND -0.071 +- 0.012, win gammon +0.012 +- 0.002). Races
and match play are left as the search gives them. The offsets belong to the shipped weights: fit
them again when the net changes.
"""

from __future__ import annotations

import numpy as np

HALF_WIDTH = 0.3
DT_OFFSET = -0.110
ND_OFFSET = -0.091


def zone_weight(dt: np.ndarray | float) -> np.ndarray:
    """The triangle weight of a double/take equity: 1 at 1, 0 beyond ``1 +- HALF_WIDTH``."""
    return np.maximum(0.0, 1.0 - np.abs(np.asarray(dt, dtype=np.float64) - 1.0) / HALF_WIDTH)


def corrected_values(values: np.ndarray, owner_column: int) -> np.ndarray:
    """Cubeful money values (per cube state, :data:`gammon.engine.cubeful.OWNER_COLUMNS`) of a
    contact position whose cube is centred or owned by the player on roll (``owner_column`` 0 or
    1), corrected: ND (that column) by ``ND_OFFSET``, DT (twice the opponent-owned column, 2) by
    ``DT_OFFSET``, both times the weight of the uncorrected DT."""
    if owner_column not in (0, 1):
        raise ValueError(f"only the player who may double has a DT to correct, got column {owner_column!r}")
    out = np.array(values, dtype=np.float64)
    w = float(zone_weight(2.0 * out[2]))
    out[owner_column] += ND_OFFSET * w
    out[2] += DT_OFFSET * w / 2.0
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
