"""The races one roll from home in the one-sided database: the table against a one-roll lookahead
written here with the public move generator, values checked by hand, the kernel against the
reference formula, and the chances against games played out."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.bearoff import few_checkers, near_home
from gammon.engine.bearoff.one_sided import (
    BINOM,
    BearoffDatabase,
    home_index,
    in_database,
    race_probabilities,
)
from gammon.engine.engine import Engine, default_bearoff
from gammon.engine.rollout.rollouts import RolloutSettings, rollout
from tests.helpers import pos

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


@pytest.fixture(scope="module")
def db() -> BearoffDatabase:
    return default_bearoff()


def _rows(db: BearoffDatabase, side: dict[int, int]) -> tuple[np.ndarray, np.ndarray | None]:
    """A near-home side's ``off`` row and (15 checkers) its ``first`` row, found by the table's index."""
    outside = tuple(sorted(p for p, n in side.items() if p > 6 for _ in range(n)))
    shape = near_home.SHAPES.index(outside)
    home = np.array([side.get(p, 0) for p in range(1, 7)], dtype=np.int8)
    off = db.near_off[near_home.near_index(home, shape, BINOM)].astype(np.float64)
    if sum(side.values()) < 15:
        return off, None
    return off, db.near_first[near_home.first_index(home, shape, BINOM)].astype(np.float64)


def _lookahead(db: BearoffDatabase, side: dict[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The side's distributions from its plays (Position.legal_plays, the other side absent) into
    the bear-off table: for each roll the play home leaving the least expected rolls (and, apart,
    the least expected rolls to a first checker off, or one off at once)."""
    position = Position.from_points(side, {})
    mean_off = db.off @ np.arange(32)
    mean_first = db.first @ np.arange(32)
    total = sum(side.values())
    off, first = np.zeros(32), np.zeros(32)
    for roll in ROLLS:
        w = (1 if roll[0] == roll[1] else 2) / 36
        homes = []
        for play in position.legal_plays(roll):
            board = play.after.board  # the other side's view: our point p is slot 25 - p
            if any(board[25 - p] < 0 for p in range(7, 25)):
                continue
            counts = np.array([-board[25 - p] for p in range(1, 7)], dtype=np.int8)
            homes.append((home_index(counts, 15, BINOM), int(counts.sum())))
        best = min(homes, key=lambda h: mean_off[h[0]])[0]
        off[1:] += w * db.off[best, :-1]
        if any(n < total for _, n in homes):
            first[1] += w
        else:
            best_first = min(homes, key=lambda h: mean_first[h[0]])[0]
            first[1:] += w * db.first[best_first, :-1]
    return off, first


def _random_side(rng: np.random.Generator) -> dict[int, int]:
    shape = near_home.SHAPES[int(rng.integers(len(near_home.SHAPES)))]
    side: dict[int, int] = {}
    for p in shape:
        side[p] = side.get(p, 0) + 1
    home = 15 - len(shape) if rng.random() < 0.4 else int(rng.integers(5, 15 - len(shape) + 1))
    for _ in range(home):
        p = int(rng.integers(1, 7))
        side[p] = side.get(p, 0) + 1
    return side


def test_every_row_is_a_distribution(db: BearoffDatabase) -> None:
    assert db.near_off.shape == (near_home.POSITIONS, 32) == (170544, 32)
    assert db.near_first.shape == (near_home.FULL_POSITIONS, 32) == (52020, 32)
    for table in (db.near_off, db.near_first):
        np.testing.assert_allclose(table.sum(axis=1, dtype=np.float64), 1.0, atol=1e-6)
        assert table.min() >= 0.0


def test_the_table_is_one_roll_of_lookahead(db: BearoffDatabase) -> None:
    rng = np.random.default_rng(7)
    for _ in range(40):
        side = _random_side(rng)
        off, first = _rows(db, side)
        want_off, want_first = _lookahead(db, side)
        np.testing.assert_allclose(off, want_off, atol=1e-6, err_msg=str(side))
        if first is not None:
            np.testing.assert_allclose(first, want_first, atol=1e-6, err_msg=str(side))


def test_a_checker_on_the_seven_point_and_fourteen_on_the_six(db: BearoffDatabase) -> None:
    """The first checker off in one roll: with a 6 (7/6 or 7/1, then 6/off), with 52 or 43 (7/2
    2/off, 7/3 3/off: an exact bear-off), with 66, 22 (7/5 6/4/2/off) or 33 (7/4 6/3/off); not with
    11, 44 or 55, nor the other rolls. 10 + 4 + 3 of 36. All fifteen off in four rolls only with
    four 66s (7/1 and fifteen off: sixteen steps)."""
    off, first = _rows(db, {7: 1, 6: 14})
    assert first is not None
    assert first[1] == pytest.approx(17 / 36, abs=1e-7)
    assert off[:4].sum() == 0.0
    assert off[4] == pytest.approx(36.0**-4, rel=1e-5)


def test_which_boards_it_takes() -> None:
    takes = [
        "x 7:1 6:3 5:3 4:3 3:2 2:2; o 17:1 14:1 3:2",  # x one on its 7 point, o four left
        "x 9:1 6:5 5:5; o 6:5 5:5 4:5",  # one on the 9 point: 21 brings it in
        "x 8:1 7:1 6:5 4:5; o 6:3 1:3",  # one on 8 and one on 7
        "x 7:2 6:13; o 7:2 6:13",  # both sides two on the 7 point
    ]
    leaves = [
        "x 10:1 6:5 5:5; o 6:5",  # the 10 point: 21 leaves it out
        "x 8:2 6:5 5:5; o 6:5",  # two on the 8 point: 21 brings one in
        "x 7:3 6:5 5:5; o 6:5",  # three outside
        "x 9:1 7:1 6:5 5:5; o 6:5",  # 9 and 7: four pips to come in
    ]
    boards = np.array([pos(t).board for t in takes + leaves], dtype=np.int8)
    assert in_database(boards).tolist() == [True] * len(takes) + [False] * len(leaves)


def test_the_race_the_net_misjudged(db: BearoffDatabase) -> None:
    """``a1kAADAAIgAAAA``: the player on roll has four checkers left (two outside its home), the
    other nine, one on its 7 point. The race net gave the player on roll 0.939 to win; gammon's
    0-ply rollout of it 0.620, GNU Backgammon 2-ply 0.643; the database, exactly for the one-sided
    model, 0.6416."""
    board = np.array([Position.from_id("a1kAADAAIgAAAA").board], dtype=np.int8)
    assert in_database(board).all()
    assert db.probabilities(board)[0, 0] == pytest.approx(0.6416, abs=1e-4)
    for plies in (0, 1, 2):
        assert Engine(plies=plies).evaluate(Position.from_id("a1kAADAAIgAAAA")).win == pytest.approx(
            0.6416, abs=1e-4)


def test_kernel_matches_the_reference_formula(db: BearoffDatabase) -> None:
    """A near-home side against a near-home, a home or a few-checker side, gammons included: the
    kernel's chances are :func:`race_probabilities` of the two sides' rows."""
    rng = np.random.default_rng(9)
    boards, mine, theirs = [], [], []
    while len(boards) < 200:
        me = _random_side(rng)
        kind = int(rng.integers(3))
        if kind == 0:
            them = _random_side(rng)
        else:
            them = {}
            for _ in range(int(rng.integers(1, 16 if kind == 1 else 6))):
                p = int(rng.integers(1, 7 if kind == 1 else 16))
                them[p] = them.get(p, 0) + 1
        position = Position.from_points(me, them)
        b = np.array(position.board, dtype=np.int8)
        if not in_database(b[None, :])[0]:
            continue  # a few-checker side in contact with this one
        rows = []
        for side in (me, them):
            counts = np.array([side.get(p, 0) for p in range(1, 25)], dtype=np.int8)
            if counts[6:].sum() == 0:
                i = home_index(counts[:6].copy(), 15, BINOM)
                off, first = db.off[i], db.first[i]
            elif counts.sum() <= few_checkers.CHECKERS:
                row = few_checkers.few_index(counts, few_checkers.FEW_BINOM)
                off, first = db.few[row].astype(np.float64), None
            else:
                off, first = _rows(db, side)
            rows.append((off, np.zeros(32) if first is None else first, sum(side.values()) == 15))
        boards.append(b)
        mine.append(rows[0])
        theirs.append(rows[1])
    ref = race_probabilities(np.array([m[0] for m in mine]), np.array([m[1] for m in mine]),
                             np.array([t[0] for t in theirs]), np.array([t[1] for t in theirs]),
                             np.array([m[2] for m in mine]), np.array([t[2] for t in theirs]))
    np.testing.assert_allclose(db.probabilities(np.array(boards)), ref, atol=1e-12)
    assert (ref[:, 1] > 0).any() and (ref[:, 3] > 0).any()  # gammons were tried both ways


def test_its_chances_agree_with_rollouts_played_out(db: BearoffDatabase) -> None:
    """The one-sided model against the game played out: 1,296 trials of each of 8 races with a
    near-home side, all within four standard errors."""
    rng = np.random.default_rng(13)
    engine = Engine(plies=0)
    checked = 0
    while checked < 8:
        me = _random_side(rng)
        them: dict[int, int] = {}
        for _ in range(int(rng.integers(3, 16))):
            p = int(rng.integers(1, 7))
            them[p] = them.get(p, 0) + 1
        position = Position.from_points(me, them)
        b = np.array(position.board, dtype=np.int8)
        result = rollout(engine, position, RolloutSettings(trials=1296, seed=checked))
        expected = db.probabilities(b[None, :])[0]
        se = max(result.standard_error.win, 1e-3)
        assert abs(result.probabilities.win - expected[0]) < 4 * se + 0.003, (position.id, expected)
        checked += 1
