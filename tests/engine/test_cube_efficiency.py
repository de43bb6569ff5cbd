"""The fit of benchmarks/strength/cube_efficiency.py: x from cubeful - dead = x (live - dead)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.strength import cube_efficiency as ce


def test_exact_data_gives_x_without_error() -> None:
    dead = np.array([0.2, 0.4, -0.1])
    live = np.array([0.5, 0.3, 0.2])
    x, se = ce.fit(dead, live, dead + 0.7 * (live - dead))
    assert x == pytest.approx(0.7) and se == pytest.approx(0.0, abs=1e-12)


def test_least_squares_by_hand() -> None:
    # gaps 1 and 2, differences 0.5 and 1.6: x = (0.5 + 3.2) / 5 = 0.74; residuals -0.24, 0.12:
    # se = sqrt((0.0576 + 0.0144) / 1 / 5) = 0.12
    x, se = ce.fit(np.zeros(2), np.array([1.0, 2.0]), np.array([0.5, 1.6]))
    assert x == pytest.approx(0.74) and se == pytest.approx(0.12)
