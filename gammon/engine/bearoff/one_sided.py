"""Exact one-sided bear-off database: every position of up to 15 checkers on the six home points
(54,264 of them) with the distribution of the number of rolls needed to bear off.

Two distributions per position, each played to minimise its own expectation:

* ``off``: rolls to bear off every checker (the race);
* ``first``: rolls to bear off at least one checker (saving the gammon; meaningful with 15).

Beside them, ``few``: the same ``off`` distribution for every side of up to five checkers anywhere
on its 24 points (:mod:`gammon.engine.bearoff.few_checkers`). The database values every race where
each side has all its checkers home or at most five left (:func:`in_database_board`), from the two
sides' distributions.

gammon builds it itself (numba, moves from :mod:`gammon.movegen`) and ships the result beside this
module (``bearoff_one_sided.npz``, 11 MB: ``off`` and ``first`` exact float64, ``few`` float32),
because building it on a user's first run took 15 seconds (mostly compiling the builder).
``python -m gammon.engine.bearoff.one_sided`` rebuilds the file; a test checks that it equals a
fresh build. :func:`race_probabilities` turns two sides' distributions into cubeless probabilities
for the player on roll, exactly for the one-sided model.
"""

from __future__ import annotations

import argparse
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
from numba import njit

from gammon.engine.bearoff import few_checkers
from gammon.engine.bearoff.few_checkers import FEW_BINOM
from gammon.engine.bearoff.tables import build, rank
from gammon.engine.net.npz import load_npz

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
    return rank(counts, POINTS, checkers, binom)


class BearoffDatabase:
    """The one-sided database: ``off`` and ``first``, float64 ``(POSITIONS, MAX_ROLLS)``, and
    ``few``, float32 ``(few_checkers.POSITIONS, MAX_ROLLS)``. ``BearoffDatabase.load()`` is the
    shipped one, ``generate()`` builds it afresh."""

    def __init__(self, off: np.ndarray, first: np.ndarray, few: np.ndarray) -> None:
        _check_tables(off, first, few)
        self._tables: tuple[np.ndarray, np.ndarray, np.ndarray] | None = (off, first, few)
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

    @property
    def few(self) -> np.ndarray:
        return self._read()[2]

    def _read(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._tables is None:
            assert self._path is not None  # set by _lazy whenever the tables are not
            self._tables = _read_tables(self._path)
        return self._tables

    def kernel_tables(self, read: bool = False) -> KernelTables:
        """``(off, first, binom, few, few_binom)`` for the kernels (:mod:`gammon.engine.search.leaves`);
        before the file is read (and unless ``read``), tables of no rows."""
        if self._tables is None and not read:
            return NO_TABLES
        off, first, few = self._read()
        return off, first, BINOM, few, FEW_BINOM

    @cached_property
    def mean_rolls(self) -> np.ndarray:
        return (self.off * np.arange(MAX_ROLLS)).sum(axis=1)

    @classmethod
    def generate(cls) -> BearoffDatabase:
        """Build the tables (about 13 s, plus 10-15 s to compile the builders the first time)."""
        off, first = build(POINTS, CHECKERS, BINOM, MAX_ROLLS)
        return cls(off, first, few_checkers.generate_table(MAX_ROLLS))

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
            np.savez_compressed(f, off=self.off, first=self.first, few=self.few)

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
        """Cubeless probabilities for the player on roll of boards in the database (see
        :func:`in_database`)."""
        b = np.ascontiguousarray(boards, dtype=np.int8)
        out = np.empty((b.shape[0], 5))
        _race_kernel(b, *self.kernel_tables(read=True), out)
        return out


@lru_cache(maxsize=1)
def default_bearoff() -> BearoffDatabase:
    """The one-sided bear-off database shipped in the package, read when first needed."""
    return BearoffDatabase.load()


KernelTables = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""``(off, first, binom, few, few_binom)``: what the kernels read (:meth:`BearoffDatabase.kernel_tables`)."""

NO_TABLES: KernelTables = (np.zeros((0, MAX_ROLLS)), np.zeros((0, MAX_ROLLS)), BINOM,
                           np.zeros((0, MAX_ROLLS), dtype=np.float32), FEW_BINOM)
"""The kernels' tables of a database not read yet (:meth:`BearoffDatabase.kernel_tables`)."""


def _check_tables(off: np.ndarray, first: np.ndarray, few: np.ndarray) -> None:
    shape = (POSITIONS, MAX_ROLLS)
    if off.shape != shape or first.shape != shape:
        raise ValueError(f"bear-off tables must have shape {shape}, got {off.shape} and {first.shape}")
    few_shape = (few_checkers.POSITIONS, MAX_ROLLS)
    if few.shape != few_shape:
        raise ValueError(f"the few-checker table must have shape {few_shape}, got {few.shape}")


def _read_tables(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    data = load_npz(path, "a gammon bear-off database")
    off, first, few = data["off"], data["first"], data["few"]
    if off.dtype != np.float64 or first.dtype != np.float64 or few.dtype != np.float32:
        raise ValueError(f"{str(path)!r}: bear-off tables must be float64, float64 and float32, got "
                         f"{off.dtype}, {first.dtype} and {few.dtype}")
    _check_tables(off, first, few)
    return off, first, few


@njit(cache=True)
def _race_kernel(boards, off, first, binom, few, few_binom, out):
    """The arithmetic of :func:`race_probabilities`, row by row, on boards in the database."""
    for r in range(boards.shape[0]):
        race_row(boards[r], off, first, binom, few, few_binom, out, r)


@njit(cache=True, _nrt=False)
def _side_rank(board, mover, binom, few_binom):
    """``(rank, home, checkers)`` of one side of a board in the database: its row in ``off`` and
    ``first`` (``home``: every checker on points 1-6) or else in ``few``, and its checkers left."""
    n = 0
    home = True
    for point in range(1, 25):
        c = board[point] if mover else -board[25 - point]
        if c > 0:
            n += c
            home &= point <= 6
    # the side's row: in the bear-off table (6 points, 15 checkers) or in the few-checker one
    points, rest, table = (6, CHECKERS, binom) if home else (24, few_checkers.CHECKERS, few_binom)
    rank = 0
    for point in range(points, 0, -1):
        c = max(board[point] if mover else -board[25 - point], 0)
        for v in range(c):
            rank += table[rest - v + point - 1, point - 1]
        rest -= c
    return rank, home, n


@njit(cache=True, _nrt=False)
def race_row(board, off, first, binom, few, few_binom, out, r):
    """``out[r]``: the cubeless probabilities of one board in the database (:func:`_race_kernel`).
    A side's ``first`` (saving the gammon) matters only with 15 checkers, so only for a home side."""
    mine, my_home, my_n = _side_rank(board, True, binom, few_binom)
    theirs, their_home, their_n = _side_rank(board, False, binom, few_binom)
    win = 0.0
    win_g = 0.0
    lose_g = 0.0
    tail_off = 0.0  # P(their rolls >= i), built from the top down
    tail_first = 0.0
    my_first_after = 0.0  # P(my first-off rolls > i)
    for i in range(off.shape[1] - 1, -1, -1):
        my_off = off[mine, i] if my_home else np.float64(few[mine, i])
        their_off = off[theirs, i] if their_home else np.float64(few[theirs, i])
        tail_off += their_off
        if their_home:
            tail_first += first[theirs, i]
        win += my_off * tail_off
        win_g += my_off * tail_first
        lose_g += their_off * my_first_after
        if my_home:
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
def in_database_board(b) -> bool:
    """The database values the board: a race (no checker on the bar) where each side has every
    checker home (:func:`is_bearoff_board`'s sides) or at most ``few_checkers.CHECKERS`` left."""
    # each side's rearmost checker, looked for from its own back: in contact both are found a
    # slot or two in, and the leaf evaluations, which ask this of every board, go on to the net
    mover_back = 25
    while mover_back > 0 and b[mover_back] <= 0:
        mover_back -= 1
    opponent_back = 0
    while opponent_back < 26 and b[opponent_back] >= 0:
        opponent_back += 1
    if mover_back >= opponent_back or mover_back == 25 or opponent_back == 0:
        return False  # contact, or a checker on the bar
    mover = 0
    for i in range(1, mover_back + 1):
        mover += max(b[i], 0)
    opponent = 0
    for i in range(opponent_back, 25):
        opponent -= min(b[i], 0)
    return ((mover_back <= 6 or mover <= few_checkers.CHECKERS)
            and (opponent_back >= 19 or opponent <= few_checkers.CHECKERS))


@njit(cache=True)
def _bearoff_rows(boards):
    out = np.empty(boards.shape[0], dtype=np.bool_)
    for r in range(boards.shape[0]):
        out[r] = is_bearoff_board(boards[r])
    return out


@njit(cache=True)
def _database_rows(boards):
    out = np.empty(boards.shape[0], dtype=np.bool_)
    for r in range(boards.shape[0]):
        out[r] = in_database_board(boards[r])
    return out


def is_bearoff(boards: np.ndarray) -> np.ndarray:
    """Rows (int8 (N, 26)) where :func:`is_bearoff_board` holds."""
    return _bearoff_rows(np.ascontiguousarray(boards, dtype=np.int8))


def in_database(boards: np.ndarray) -> np.ndarray:
    """Rows (int8 (N, 26)) where :func:`in_database_board` holds."""
    return _database_rows(np.ascontiguousarray(boards, dtype=np.int8))


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
