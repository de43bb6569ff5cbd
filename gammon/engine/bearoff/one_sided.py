"""Exact one-sided bear-off database: every position of up to 15 checkers on the six home points
(54,264 of them) with the distribution of the number of rolls needed to bear off.

Two distributions per position, each played to minimise its own expectation:

* ``off``: rolls to bear off every checker (the race);
* ``first``: rolls to bear off at least one checker (saving the gammon; meaningful with 15).

gammon builds it itself (numba, moves from :mod:`gammon.movegen`) and ships the result beside this
module (``bearoff_one_sided.npz``, 4.5 MB, exact float64), because building it on a user's first
run took 15 seconds (mostly compiling the builder). ``python -m gammon.engine.bearoff.one_sided`` rebuilds the
file; a test checks that it equals a fresh build. :func:`race_probabilities` turns two sides'
distributions into cubeless probabilities for the player on roll, exactly for the one-sided model.
"""

from __future__ import annotations

import argparse
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
from numba import njit

from gammon.engine.net.npz import load_npz
from gammon.movegen import generate_all

POINTS = 6
CHECKERS = 15
MAX_ROLLS = 32
POSITIONS = 54264  # C(21, 6): 15 checkers into 6 points plus "off"
SHIPPED = Path(__file__).with_name("bearoff_one_sided.npz")

# BINOM[n, k] = C(n, k)
BINOM = np.zeros((32, 8), dtype=np.int64)
for _n in range(32):
    BINOM[_n, 0] = 1
    for _k in range(1, min(_n, 7) + 1):
        BINOM[_n, _k] = BINOM[_n - 1, _k - 1] + (BINOM[_n - 1, _k] if _k <= _n - 1 else 0)


@njit(cache=True)
def home_index(counts, checkers, binom):
    """Rank of the home-board counts ``counts[0..5]`` (points 1-6) among the positions of at most
    ``checkers`` checkers (15: all 54,264)."""
    idx = 0
    r = checkers
    for point in range(6, 0, -1):
        c = counts[point - 1]
        for v in range(c):
            # compositions of r - v checkers into `point` slots (points below and "off")
            idx += binom[r - v + point - 1, point - 1]
        r -= c
    return idx


@njit(cache=True)
def _generate_tables(binom, max_rolls):
    n = 54264
    # enumerate all positions and their pip counts
    counts = np.zeros((n, 6), dtype=np.int8)
    pips = np.zeros(n, dtype=np.int64)
    c = np.zeros(6, dtype=np.int8)
    for c6 in range(16):
        for c5 in range(16 - c6):
            for c4 in range(16 - c6 - c5):
                for c3 in range(16 - c6 - c5 - c4):
                    for c2 in range(16 - c6 - c5 - c4 - c3):
                        for c1 in range(16 - c6 - c5 - c4 - c3 - c2):
                            c[0] = c1
                            c[1] = c2
                            c[2] = c3
                            c[3] = c4
                            c[4] = c5
                            c[5] = c6
                            i = home_index(c, CHECKERS, binom)
                            counts[i, :] = c
                            pips[i] = c1 + 2 * c2 + 3 * c3 + 4 * c4 + 5 * c5 + 6 * c6
    order = np.argsort(pips)
    off = np.zeros((n, max_rolls), dtype=np.float64)
    first = np.zeros((n, max_rolls), dtype=np.float64)
    mean_off = np.zeros(n, dtype=np.float64)
    mean_first = np.zeros(n, dtype=np.float64)
    board = np.zeros(26, dtype=np.int8)
    child = np.zeros(6, dtype=np.int8)
    for oi in range(n):
        i = order[oi]
        total = 0
        for p in range(6):
            total += counts[i, p]
        if total == 0:
            off[i, 0] = 1.0
            first[i, 0] = 1.0
            continue
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                w = (1.0 if d1 == d2 else 2.0) / 36.0
                board[:] = 0
                for p in range(6):
                    board[p + 1] = counts[i, p]
                count, _nsteps, boards, _steps = generate_all(board, d1, d2)
                best_off = -1
                best_off_mean = 1e9
                best_first = -1
                best_first_mean = 1e9
                first_done = False
                for k in range(count):
                    # results are seen from the (absent) opponent: our point p is slot 25 - p
                    left = 0
                    for p in range(6):
                        child[p] = -boards[k, 24 - p]
                        left += child[p]
                    j = home_index(child, CHECKERS, binom)
                    if mean_off[j] < best_off_mean:
                        best_off_mean = mean_off[j]
                        best_off = j
                    if left < total:
                        first_done = True
                    elif mean_first[j] < best_first_mean:
                        best_first_mean = mean_first[j]
                        best_first = j
                mean_off[i] += w * (1.0 + mean_off[best_off])
                for r in range(1, max_rolls):
                    off[i, r] += w * off[best_off, r - 1]
                if first_done:
                    mean_first[i] += w
                    first[i, 1] += w
                else:
                    mean_first[i] += w * (1.0 + mean_first[best_first])
                    for r in range(1, max_rolls):
                        first[i, r] += w * first[best_first, r - 1]
    return off, first, mean_off


class BearoffDatabase:
    """The one-sided database: ``off`` and ``first``, float64 ``(POSITIONS, MAX_ROLLS)``.
    ``BearoffDatabase.load()`` is the shipped one, ``generate()`` builds it afresh."""

    def __init__(self, off: np.ndarray, first: np.ndarray) -> None:
        _check_tables(off, first)
        self._tables: tuple[np.ndarray, np.ndarray] | None = (off, first)
        self._path: Path | None = None

    @classmethod
    def _lazy(cls, path: Path) -> BearoffDatabase:
        """A database whose file is read on first use of its tables."""
        db = object.__new__(cls)
        db._tables, db._path = None, path
        return db

    @property
    def off(self) -> np.ndarray:
        return self._read()[0]

    @property
    def first(self) -> np.ndarray:
        return self._read()[1]

    def _read(self) -> tuple[np.ndarray, np.ndarray]:
        if self._tables is None:
            assert self._path is not None  # set by _lazy whenever the tables are not
            self._tables = _read_tables(self._path)
        return self._tables

    def kernel_tables(self, read: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(off, first, binom)`` for the kernels (:mod:`gammon.engine.search.leaves`); before the file is
        read (and unless ``read``), tables of no rows."""
        if self._tables is None and not read:
            return NO_TABLES
        off, first = self._read()
        return off, first, BINOM

    @cached_property
    def mean_rolls(self) -> np.ndarray:
        return (self.off * np.arange(MAX_ROLLS)).sum(axis=1)

    @classmethod
    def generate(cls) -> BearoffDatabase:
        """Build the tables (about 3 s, plus 10-15 s to compile the builder the first time)."""
        off, first, _ = _generate_tables(BINOM, MAX_ROLLS)
        return cls(off, first)

    @classmethod
    def load(cls, path: str | Path | None = None) -> BearoffDatabase:
        """The database in ``path`` (a file written by :meth:`save`), or the shipped one. The shipped
        file is read when a bear-off position first needs it (reading takes about 0.2 s)."""
        if path is None:
            return cls._lazy(SHIPPED)
        return cls(*_read_tables(Path(path)))

    def save(self, path: str | Path) -> None:
        """Write the tables to ``path``, exactly that name (numpy would add ``.npz`` to a bare one)."""
        with open(path, "wb") as f:
            np.savez_compressed(f, off=self.off, first=self.first)

    def index(self, counts: tuple[int, ...] | list[int]) -> int:
        """Index of the home-board counts of points 1-6."""
        c = np.asarray(counts, dtype=np.int8)
        if c.shape != (6,) or c.min() < 0 or c.sum() > CHECKERS:
            raise ValueError(f"bear-off counts must be six numbers >= 0 summing to <= 15, got {counts!r}")
        return int(home_index(c, CHECKERS, BINOM))

    def rolls_distribution(self, counts: tuple[int, ...] | list[int]) -> np.ndarray:
        """P(exactly k rolls to bear off every checker), k = 0 .. MAX_ROLLS - 1."""
        return self.off[self.index(counts)]

    def expected_rolls(self, counts: tuple[int, ...] | list[int]) -> float:
        return float(self.mean_rolls[self.index(counts)])

    def probabilities(self, boards: np.ndarray) -> np.ndarray:
        """Cubeless probabilities for the player on roll of bear-off boards (see
        :func:`is_bearoff`)."""
        b = np.ascontiguousarray(boards, dtype=np.int8)
        out = np.empty((b.shape[0], 5))
        _race_kernel(b, self.off, self.first, BINOM, out)
        return out


@lru_cache(maxsize=1)
def default_bearoff() -> BearoffDatabase:
    """The one-sided bear-off database shipped in the package, read when first needed."""
    return BearoffDatabase.load()


NO_TABLES = (np.zeros((0, MAX_ROLLS)), np.zeros((0, MAX_ROLLS)), BINOM)
"""The kernels' tables of a database not read yet (:meth:`BearoffDatabase.kernel_tables`)."""


def _check_tables(off: np.ndarray, first: np.ndarray) -> None:
    shape = (POSITIONS, MAX_ROLLS)
    if off.shape != shape or first.shape != shape:
        raise ValueError(f"bear-off tables must have shape {shape}, got {off.shape} and {first.shape}")


def _read_tables(path: Path) -> tuple[np.ndarray, np.ndarray]:
    data = load_npz(path, "a gammon bear-off database")
    off, first = data["off"], data["first"]
    if off.dtype != np.float64 or first.dtype != np.float64:
        raise ValueError(f"{str(path)!r}: bear-off tables must be float64, got {off.dtype} and {first.dtype}")
    _check_tables(off, first)
    return off, first


@njit(cache=True)
def _race_kernel(boards, off, first, binom, out):
    """The arithmetic of :func:`race_probabilities`, row by row, on bear-off boards."""
    for r in range(boards.shape[0]):
        race_row(boards[r], off, first, binom, out, r)


@njit(cache=True, _nrt=False)
def race_row(board, off, first, binom, out, r):
    """``out[r]``: the cubeless probabilities of one bear-off board (:func:`_race_kernel`)."""
    my_n = 0
    their_n = 0
    mine = 0
    theirs = 0
    # the ranks of the two sides' home boards (home_index of counts of points 1-6)
    rest = CHECKERS
    rest_theirs = CHECKERS
    for point in range(6, 0, -1):
        c = board[point]
        my_n += c
        for v in range(c):
            mine += binom[rest - v + point - 1, point - 1]
        rest -= c
        c = -board[25 - point]
        their_n += c
        for v in range(c):
            theirs += binom[rest_theirs - v + point - 1, point - 1]
        rest_theirs -= c
    win = 0.0
    win_g = 0.0
    lose_g = 0.0
    tail_off = 0.0  # P(their rolls >= i), built from the top down
    tail_first = 0.0
    my_first_after = 0.0  # P(my first-off rolls > i)
    for i in range(off.shape[1] - 1, -1, -1):
        tail_off += off[theirs, i]
        tail_first += first[theirs, i]
        win += off[mine, i] * tail_off
        win_g += off[mine, i] * tail_first
        lose_g += off[theirs, i] * my_first_after
        my_first_after += first[mine, i]
    out[r, 0] = win
    out[r, 1] = win_g if their_n == 15 else 0.0
    out[r, 2] = 0.0
    out[r, 3] = lose_g if my_n == 15 else 0.0
    out[r, 4] = 0.0


@njit(cache=True)
def is_bearoff_board(b) -> bool:
    """Both sides have every checker in their home boards (none on the bar): the database applies."""
    for i in range(26):
        if (b[i] > 0 and i >= 7) or (b[i] < 0 and i < 19):
            return False
    return True


@njit(cache=True)
def _bearoff_rows(boards):
    out = np.empty(boards.shape[0], dtype=np.bool_)
    for r in range(boards.shape[0]):
        out[r] = is_bearoff_board(boards[r])
    return out


def is_bearoff(boards: np.ndarray) -> np.ndarray:
    """Rows (int8 (N, 26)) where :func:`is_bearoff_board` holds."""
    return _bearoff_rows(np.ascontiguousarray(boards, dtype=np.int8))


def race_probabilities(my_off: np.ndarray, my_first: np.ndarray, their_off: np.ndarray,
                       their_first: np.ndarray, my_full: np.ndarray, their_full: np.ndarray) -> np.ndarray:
    """Probabilities for the player on roll from rolls-to-finish distributions (rows of
    ``MAX_ROLLS``). The player on roll finishing in ``i`` rolls wins when the opponent needs
    ``>= i``. Gammons only where the loser still has 15 checkers (``*_full``); no backgammon is
    possible once both sides are home."""
    # tail[k] = P(X >= k)
    def tail(d: np.ndarray) -> np.ndarray:
        return np.cumsum(d[:, ::-1], axis=1)[:, ::-1]

    n = my_off.shape[0]
    out = np.zeros((n, 5))
    out[:, 0] = (my_off * tail(their_off)).sum(axis=1)
    # win gammon: I finish before the opponent's first checker: their first >= my finish
    out[:, 1] = np.where(their_full, (my_off * tail(their_first)).sum(axis=1), 0.0)
    # lose gammon: they finish (their turn i) before my first checker off (my turn > i)
    strictly_after = np.concatenate([tail(my_first)[:, 1:], np.zeros((n, 1))], axis=1)
    out[:, 3] = np.where(my_full, (their_off * strictly_after).sum(axis=1), 0.0)
    return out


def main(argv: list[str] | None = None) -> None:
    """``python -m gammon.engine.bearoff.one_sided [PATH]``: rebuild the shipped file (or write PATH)."""
    parser = argparse.ArgumentParser(
        prog="python -m gammon.engine.bearoff.one_sided",
        description="Build the one-sided bear-off database and write it.",
    )
    parser.add_argument("path", nargs="?", type=Path, default=SHIPPED, metavar="PATH",
                        help="the file to write (default: the one shipped in the package)")
    target: Path = parser.parse_args(argv).path
    BearoffDatabase.generate().save(target)
    print(f"wrote {target} ({target.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
