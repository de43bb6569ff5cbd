"""The rule primitives of :mod:`gammon.primitives` compiled by numba, for the kernels: the same
functions the Python API runs, not a second copy. Kept apart so that importing the core does not
import numba."""

from __future__ import annotations

from numba import njit

from gammon import primitives

win_kind = njit(cache=True)(primitives.win_kind)
gammons_count = njit(cache=True)(primitives.gammons_count)
flip_into = njit(cache=True)(primitives.flip_into)
pip_counts = njit(cache=True)(primitives.pip_counts)
race_win_chance = njit(cache=True)(primitives.race_win_chance)
clamp_probabilities = njit(cache=True)(primitives.clamp_probabilities)
checkers_on_board = njit(cache=True)(primitives.checkers_on_board)
