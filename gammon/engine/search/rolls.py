"""The 21 distinct rolls in the search's order (``(a, b)`` with ``a <= b``) and the chance of each
(1/36 for a double, 2/36 otherwise), as arrays for the kernels."""

from __future__ import annotations

import numpy as np

from gammon.dice import ALL_ROLLS

ROLLS = np.array(ALL_ROLLS, dtype=np.int64)
ROLL_WEIGHTS = np.array([(1.0 if a == b else 2.0) / 36.0 for a, b in ROLLS])

__all__ = ["ROLLS", "ROLL_WEIGHTS"]
