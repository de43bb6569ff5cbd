"""Exact one-sided bear-off database: every position of up to 15 checkers on the six home points
(54,264 of them) with the distribution of the number of rolls needed to bear off.

Two distributions per position, each played to minimise its own expectation:

* ``off``: rolls to bear off every checker (the race);
* ``first``: rolls to bear off at least one checker (saving the gammon; meaningful with 15).

Beside them, ``few``: the same ``off`` distribution for every side of up to five checkers anywhere
on its 24 points (:mod:`gammon.engine.bearoff.few_checkers`), and ``near_off`` and ``near_first``:
both distributions for every side one roll from home, one or two checkers just outside its home
board that the smallest roll brings in (:mod:`gammon.engine.bearoff.near_home`). The database values
every race where each side has all its checkers home, at most five left or is one roll from home
(:func:`in_database_board`), from the two sides' distributions.

gammon builds it itself (numba, moves from :mod:`gammon.movegen`) and ships the result beside this
module (``bearoff_one_sided.npz``, 20 MB: ``off`` and ``first`` exact float64, the others float32),
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

from gammon.engine.bearoff import few_checkers, near_home
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
    """The one-sided database: ``off`` and ``first``, float64 ``(POSITIONS, MAX_ROLLS)``, ``few``,
    float32 ``(few_checkers.POSITIONS, MAX_ROLLS)``, ``near_off`` and ``near_first``, float32
    ``(near_home.POSITIONS, MAX_ROLLS)`` and ``(near_home.FULL_POSITIONS, MAX_ROLLS)``.
    ``BearoffDatabase.load()`` is the shipped one, ``generate()`` builds it afresh."""

    def __init__(self, off: np.ndarray, first: np.ndarray, few: np.ndarray, near_off: np.ndarray,
                 near_first: np.ndarray) -> None:
        self._tables: tuple[np.ndarray, np.ndarray, np.ndarray] | None = _joined(off, first, few, near_off,
                                                                                  near_first)
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
        return self._read()[2][:NEAR_OFF_AT]

    @property
    def near_off(self) -> np.ndarray:
        return self._read()[2][NEAR_OFF_AT:NEAR_FIRST_AT]

    @property
    def near_first(self) -> np.ndarray:
        return self._read()[2][NEAR_FIRST_AT:]

    def _read(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(off, first, rows)``: ``rows`` the float32 tables one after another (:data:`KernelTables`)."""
        if self._tables is None:
            assert self._path is not None  # set by _lazy whenever the tables are not
            self._tables = _joined(*_read_tables(self._path))
        return self._tables

    def kernel_tables(self, read: bool = False) -> KernelTables:
        """``(off, first, binom, rows, few_binom)`` for the kernels (:mod:`gammon.engine.search.leaves`);
        before the file is read (and unless ``read``), tables of no rows."""
        if self._tables is None and not read:
            return NO_TABLES
        off, first, rows = self._read()
        return off, first, BINOM, rows, FEW_BINOM

    @cached_property
    def mean_rolls(self) -> np.ndarray:
        return (self.off * np.arange(MAX_ROLLS)).sum(axis=1)

    @classmethod
    def generate(cls) -> BearoffDatabase:
        """Build the tables (about 30 s, plus 10-15 s to compile the builders the first time)."""
        off, first = build(POINTS, CHECKERS, BINOM, MAX_ROLLS)
        near_off, near_first = near_home.generate_tables(off, first, BINOM)
        return cls(off, first, few_checkers.generate_table(MAX_ROLLS), near_off, near_first)

    @classmethod
    def load(cls, path: str | Path | None = None) -> BearoffDatabase:
        """The database in ``path`` (a file written by :meth:`save`), or the shipped one. The shipped
        file is read when a bear-off position first needs it (reading takes about 0.15 s)."""
        if path is None:
            return cls._lazy(SHIPPED)
        return cls(*_read_tables(Path(path)))

    def save(self, path: str | Path) -> None:
        """Write the tables to ``path``, exactly that name (numpy would add ``.npz`` to a bare one)."""
        with open(path, "wb") as f:
            np.savez_compressed(f, off=self.off, first=self.first, few=self.few, near_off=self.near_off,
                                near_first=self.near_first)

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
        _race_kernel(b, self.kernel_tables(read=True), out)
        return out


@lru_cache(maxsize=1)
def default_bearoff() -> BearoffDatabase:
    """The one-sided bear-off database shipped in the package, read when first needed."""
    return BearoffDatabase.load()


Tables = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""``(off, first, few, near_off, near_first)``: the database's tables, in a file under these names."""
TABLE_NAMES = ("off", "first", "few", "near_off", "near_first")
_TABLE_ROWS = (POSITIONS, POSITIONS, few_checkers.POSITIONS, near_home.POSITIONS, near_home.FULL_POSITIONS)
_TABLE_TYPES = (np.float64, np.float64, np.float32, np.float32, np.float32)
_TABLE_WHAT = ("bear-off table 'off'", "bear-off table 'first'", "few-checker table",
               "near-home table 'near_off'", "near-home table 'near_first'")

NEAR_OFF_AT = few_checkers.POSITIONS
NEAR_FIRST_AT = NEAR_OFF_AT + near_home.POSITIONS
KernelTables = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""``(off, first, binom, rows, few_binom)``: what the kernels read (:meth:`BearoffDatabase.kernel_tables`).
``rows`` holds the float32 tables one after another: ``few`` from row 0, ``near_off`` from
:data:`NEAR_OFF_AT`, ``near_first`` from :data:`NEAR_FIRST_AT`; one array, not three, because each
array in the tuple the leaf kernel is handed costs its callers two atomic counts a board."""

NO_TABLES: KernelTables = (np.zeros((0, MAX_ROLLS)), np.zeros((0, MAX_ROLLS)), BINOM,
                           np.zeros((0, MAX_ROLLS), dtype=np.float32), FEW_BINOM)
"""The kernels' tables of a database not read yet (:meth:`BearoffDatabase.kernel_tables`)."""


def _joined(off: np.ndarray, first: np.ndarray, few: np.ndarray, near_off: np.ndarray,
            near_first: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tables checked and held as the kernels read them (:data:`KernelTables`)."""
    for table, rows, what in zip((off, first, few, near_off, near_first), _TABLE_ROWS, _TABLE_WHAT):
        if table.shape != (rows, MAX_ROLLS):
            raise ValueError(f"the {what} must have shape {(rows, MAX_ROLLS)}, got {table.shape}")
    return off, first, np.concatenate([few, near_off, near_first])


def _read_tables(path: Path) -> Tables:
    data = load_npz(path, "a gammon bear-off database")
    off, first, few, near_off, near_first = tables = tuple(data[name] for name in TABLE_NAMES)
    for table, dtype, what in zip(tables, _TABLE_TYPES, _TABLE_WHAT):
        if table.dtype != dtype:
            raise ValueError(f"{str(path)!r}: the {what} must be {np.dtype(dtype).name}, got {table.dtype}")
    return off, first, few, near_off, near_first


@njit(cache=True)
def _race_kernel(boards, tables, out):
    """The arithmetic of :func:`race_probabilities`, row by row, on boards in the database."""
    for r in range(boards.shape[0]):
        race_row(boards[r], tables, out, r)


HOME = 0
FEW = 1
NEAR = 2
"""A side's table (:func:`_side_rows`): the bear-off table, the few-checker table, the near-home one."""


@njit(cache=True, _nrt=False)
def _rank_side(board, mover, points, checkers, binom):
    """:func:`gammon.engine.bearoff.tables.rank` of a side's counts of points 1 to ``points``."""
    row = 0
    rest = checkers
    for point in range(points, 0, -1):
        c = max(board[point] if mover else -board[25 - point], 0)
        for v in range(c):
            row += binom[rest - v + point - 1, point - 1]
        rest -= c
    return row


@njit(cache=True, _nrt=False)
def _side_table(board, mover):
    """``(table, shape, checkers)`` of one side of a race: its table (:data:`HOME` when every checker
    is home, else :data:`FEW` with at most ``few_checkers.CHECKERS`` left, else :data:`NEAR` one roll
    from home; -1: none holds it), its near-home shape (:data:`gammon.engine.bearoff.near_home.SHAPES`)
    and its checkers left."""
    n = 0
    outside = 0
    low = 25
    high = 0
    for point in range(1, 25):
        c = board[point] if mover else -board[25 - point]
        if c > 0:
            n += c
            if point > 6:
                outside += c
                low = min(low, point)
                high = max(high, point)
    if outside == 0:
        return HOME, -1, n
    if n <= few_checkers.CHECKERS:
        return FEW, -1, n
    shape = near_home.shape_of(low, high, outside)
    return (NEAR if shape >= 0 else -1), shape, n


@njit(cache=True, _nrt=False)
def _side_rows(board, mover, binom, few_binom):
    """``(table, row, first_row, checkers)`` of one side of a board in the database: its table
    (:func:`_side_table`), its row there (in the kernels' ``rows`` for the float32 tables), its row of
    ``first`` (-1 where there is none: a few-checker side, a near-home side of fewer than 15
    checkers) and its checkers left."""
    table, shape, n = _side_table(board, mover)
    if table == HOME:
        row = _rank_side(board, mover, 6, CHECKERS, binom)
        return table, row, row, n
    if table == FEW:
        return table, _rank_side(board, mover, 24, few_checkers.CHECKERS, few_binom), -1, n
    rest = CHECKERS - near_home.OUTSIDE[shape]
    row = NEAR_OFF_AT + near_home.SHAPE_START[shape] + _rank_side(board, mover, 6, rest, binom)
    # a near side's home of exactly ``rest`` checkers is its points 1-5 (the rest on the 6 point)
    first_row = -1
    if n == CHECKERS:
        first_row = NEAR_FIRST_AT + near_home.FIRST_START[shape] + _rank_side(board, mover, 5, rest, binom)
    return table, row, first_row, n


@njit(cache=True, _nrt=False)
def race_row(board, tables, out, r):
    """``out[r]``: the cubeless probabilities of one board in the database (:func:`_race_kernel`);
    ``tables`` as :meth:`BearoffDatabase.kernel_tables`. A side's ``first`` (saving the gammon)
    matters only with 15 checkers, which a few-checker side never has."""
    off, first, binom, rows, few_binom = tables
    my_table, mine, my_first_row, my_n = _side_rows(board, True, binom, few_binom)
    their_table, theirs, their_first_row, their_n = _side_rows(board, False, binom, few_binom)
    win = 0.0
    win_g = 0.0
    lose_g = 0.0
    tail_off = 0.0  # P(their rolls >= i), built from the top down
    tail_first = 0.0
    my_first_after = 0.0  # P(my first-off rolls > i)
    for i in range(off.shape[1] - 1, -1, -1):
        my_off = _value(my_table, mine, i, off, rows)
        their_off = _value(their_table, theirs, i, off, rows)
        tail_off += their_off
        if their_first_row >= 0:
            tail_first += _value(their_table, their_first_row, i, first, rows)
        win += my_off * tail_off
        win_g += my_off * tail_first
        lose_g += their_off * my_first_after
        if my_first_row >= 0:
            my_first_after += _value(my_table, my_first_row, i, first, rows)
    out[r, 0] = win
    out[r, 1] = win_g if their_n == 15 else 0.0
    out[r, 2] = 0.0
    out[r, 3] = lose_g if my_n == 15 else 0.0
    out[r, 4] = 0.0


@njit(cache=True, _nrt=False, inline="always")
def _value(table, row, i, home, rows):
    """P(exactly ``i`` rolls) at ``row``: of ``home`` (the bear-off table's ``off`` or ``first``) for
    a home side, else of the float32 ``rows``; float64."""
    return home[row, i] if table == HOME else np.float64(rows[row, i])


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
    checker home (:func:`is_bearoff_board`'s sides), at most ``few_checkers.CHECKERS`` left or is one
    roll from home (:mod:`gammon.engine.bearoff.near_home`)."""
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
    if mover_back <= 6 and opponent_back >= 19:
        return True
    return _side_table(b, True)[0] >= 0 and _side_table(b, False)[0] >= 0


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
