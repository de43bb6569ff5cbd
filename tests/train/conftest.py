"""Training tests run on one numba thread."""

from __future__ import annotations

import numba
import pytest


@pytest.fixture(autouse=True)
def one_thread():
    # Deterministic updates need one numba thread (more threads share weights without locks).
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)
