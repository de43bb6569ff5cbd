"""The races of few checkers in the one-sided database: values checked by hand, the table against
the bear-off table where both hold a side, which boards it takes, and its chances against rollouts."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.bearoff import few_checkers
from gammon.engine.bearoff.one_sided import (
    BINOM,
    BearoffDatabase,
    home_index,
    in_database,
    is_bearoff,
    race_probabilities,
)
from gammon.engine.engine import Engine, default_bearoff
from gammon.engine.rollout.rollouts import RolloutSettings, rollout
from tests.helpers import pos


@pytest.fixture(scope="module")
def db() -> BearoffDatabase:
    return default_bearoff()


def _few_row(db: BearoffDatabase, points: dict[int, int]) -> np.ndarray:
    counts = np.zeros(24, dtype=np.int8)
    for point, n in points.items():
        counts[point - 1] = n
    return db.few[few_checkers.few_index(counts, few_checkers.FEW_BINOM)]


def test_every_row_is_a_distribution(db: BearoffDatabase) -> None:
    assert db.few.shape == (few_checkers.POSITIONS, 32)
    np.testing.assert_allclose(db.few.sum(axis=1, dtype=np.float64), 1.0, atol=1e-6)
    assert db.few.min() >= 0.0


def test_a_side_both_tables_hold_has_the_same_distribution(db: BearoffDatabase) -> None:
    """Up to five checkers on the home points: the few-checker row is the bear-off table's."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        counts = np.zeros(24, dtype=np.int8)
        for _ in range(int(rng.integers(1, 6))):
            counts[int(rng.integers(0, 6))] += 1
        few = db.few[few_checkers.few_index(counts, few_checkers.FEW_BINOM)]
        home = db.off[home_index(counts[:6].copy(), 15, BINOM)]
        np.testing.assert_allclose(few, home, atol=1e-7, err_msg=str(counts[:6]))


def test_a_lone_checker_outside(db: BearoffDatabase) -> None:
    """On the 7 point it is off in one roll with the 9 rolls of two dice making 7 or more (18 of
    36) and 22 33 44 55 66; on the 24 point only 66 does it at once, and 12 (3 pips a roll) makes
    the slowest, 8 rolls."""
    assert _few_row(db, {7: 1})[1] == pytest.approx(23 / 36, abs=1e-6)
    far = _few_row(db, {24: 1}).astype(np.float64)
    assert far[1] == pytest.approx(1 / 36, abs=1e-7)
    assert far[8] > 0.0 and far[9:].sum() == 0.0


def test_two_checkers_far_apart_race_a_short_bear_off(db: BearoffDatabase) -> None:
    """x: checkers on its 8 and ace points; o: on its 2 and ace points, sure to finish next roll.
    x finishes now only with 33, 44, 55 or 66."""
    board = np.array([pos("x 8:1 1:1; o 2:1 1:1").board], dtype=np.int8)
    assert in_database(board).all() and not is_bearoff(board).any()
    probs = db.probabilities(board)[0]
    assert probs[0] == pytest.approx(4 / 36)
    assert probs[1] == probs[3] == 0.0


def test_a_gammon_against_fifteen_checkers_home(db: BearoffDatabase) -> None:
    """x has one checker left, on its 9 point; o has all 15 home: x wins in two rolls at most, o
    cannot bear off 15 checkers in one, so x always wins, a gammon when o is still all on."""
    board = np.array([pos("x 9:1; o 6:5 5:5 4:5").board], dtype=np.int8)
    assert in_database(board).all()
    probs = db.probabilities(board)[0]
    assert probs[0] == pytest.approx(1.0)
    # o bears off a checker in its first roll with every roll but 21; x gammons when it finishes
    # first: in one roll (a checker 9 away: 12 of 36), or later while o has still borne off none
    x = _few_row(db, {9: 1}).astype(np.float64)
    o_first = db.first[db.index([0, 0, 0, 5, 5, 5])]
    assert o_first[1] == pytest.approx(34 / 36)
    assert x[1] == pytest.approx(12 / 36, abs=1e-7)
    o_first_or_later = np.cumsum(o_first[::-1])[::-1]
    assert probs[1] == pytest.approx(float((x * o_first_or_later).sum()), abs=1e-12)
    assert x[1] < probs[1] < x[1] + 2 / 36
    assert probs[3] == 0.0


def test_which_boards_it_takes() -> None:
    takes = [
        "x 14:1 3:2; o 6:2 4:1 3:2 2:1 1:2",  # x has three left; o is home
        "x 20:2 12:3; o 4:3 3:3",  # x has five left, far away; o is home
        "x 6:2 1:1; o 9:5",  # o has five left
        "x 6:5 5:5; o 6:2 1:2",  # both home: the bear-off table's own
        "x 14:1 3:2; o 7:1 6:2 4:1 3:2 2:1 1:2",  # o has nine left, one just outside: near home
    ]
    leaves = [
        "x 20:3 12:3; o 4:3 3:3",  # six left and not home
        "x 14:1 3:2; o 10:1 6:2 4:1 3:2 2:1 1:2",  # o has nine left, one a roll of 21 cannot bring in
        "x 14:1; o 20:1 1:2",  # contact: o's checker on x's 5 point is behind x's
        "x bar:1 1:1; o 1:2",  # a checker on the bar
        "x 1:1; o bar:1",
    ]
    boards = np.array([pos(t).board for t in takes + leaves], dtype=np.int8)
    assert in_database(boards).tolist() == [True] * len(takes) + [False] * len(leaves)


def test_kernel_matches_the_reference_formula(db: BearoffDatabase) -> None:
    """Races of a few checkers each side, or a few against a home board: the kernel's chances are
    :func:`race_probabilities` of the two sides' rows, gammons included."""
    rng = np.random.default_rng(5)
    boards, rows = [], []
    while len(boards) < 300:
        b = np.zeros(26, dtype=np.int8)
        mover_home = rng.random() < 0.3
        n = int(rng.integers(1, 16 if mover_home else 6))
        top = 6 if mover_home else int(rng.integers(1, 25))
        for _ in range(n):
            b[int(rng.integers(1, top + 1))] += 1
        their_home = rng.random() < 0.5
        m = int(rng.integers(1, 16 if their_home else 6))
        low = 19 if their_home else top + 1
        if low > 24:
            continue
        for _ in range(m):
            b[int(rng.integers(low, 25))] -= 1
        if not in_database(b[None, :])[0]:
            continue
        sides = []
        for counts in (np.clip(b[1:25], 0, None), np.clip(-b[24:0:-1], 0, None)):
            c = counts.astype(np.int8)
            if c[6:].sum() == 0:
                i = home_index(c[:6].copy(), 15, BINOM)
                sides.append((db.off[i], db.first[i], c.sum() == 15))
            else:
                i = few_checkers.few_index(c, few_checkers.FEW_BINOM)
                sides.append((db.few[i].astype(np.float64), np.zeros(32), False))
        boards.append(b)
        rows.append(sides)
    mine, theirs = zip(*rows)
    ref = race_probabilities(np.array([m[0] for m in mine]), np.array([m[1] for m in mine]),
                             np.array([t[0] for t in theirs]), np.array([t[1] for t in theirs]),
                             np.array([m[2] for m in mine]), np.array([t[2] for t in theirs]))
    np.testing.assert_allclose(db.probabilities(np.array(boards)), ref, atol=1e-12)


def test_the_search_takes_its_values() -> None:
    """At every ply the engine's chances of a few-checker race are the database's, as a
    bear-off's are (the race net gave this one 0.87 to win)."""
    board = pos("x 8:1 1:1; o 2:1 1:1")
    for plies in (0, 1, 2):
        assert Engine(plies=plies).evaluate(board).win == pytest.approx(4 / 36)


def test_its_chances_agree_with_rollouts_played_out(db: BearoffDatabase) -> None:
    """The one-sided model (each side minimising its expected rolls, independently) against the
    game played out: 1,296 trials of each of 12 races, all within four standard errors."""
    rng = np.random.default_rng(11)
    engine = Engine(plies=0)
    checked = 0
    while checked < 12:
        b = np.zeros(26, dtype=np.int8)
        for _ in range(int(rng.integers(2, 6))):
            b[int(rng.integers(1, 16))] += 1
        for _ in range(int(rng.integers(3, 16))):
            b[int(rng.integers(19, 25))] -= 1
        if not in_database(b[None, :])[0] or is_bearoff(b[None, :])[0]:
            continue
        position = Position(b.tolist())
        result = rollout(engine, position, RolloutSettings(trials=1296, seed=checked))
        expected = db.probabilities(b[None, :])[0]
        se = max(result.standard_error.win, 1e-3)
        assert abs(result.probabilities.win - expected[0]) < 4 * se + 0.003, (position.id, expected)
        checked += 1


def _side_taken(outside: list[int], checkers: int) -> bool:
    """A side is home, has few checkers left, or is one roll from home: its checkers outside its
    home board (their points, one entry a checker) are one on its 7, 8 or 9 point, two on its 7, or
    one on its 7 and one on its 8."""
    return (not outside or checkers <= few_checkers.CHECKERS
            or sorted(outside) in ([7], [8], [9], [7, 7], [7, 8]))


def _takes(board: np.ndarray) -> bool:
    """The rule of :func:`in_database_board`, written out plainly (a side without checkers, a
    finished game, is home)."""
    mover = [i for i in range(26) if board[i] > 0]
    opponent = [i for i in range(26) if board[i] < 0]
    if 25 in mover or 0 in opponent or (mover and opponent and max(mover) >= min(opponent)):
        return False
    mover_out = [i for i in mover if i > 6 for _ in range(board[i])]
    opponent_out = [25 - i for i in opponent if i < 19 for _ in range(-board[i])]
    return (_side_taken(mover_out, int(board[board > 0].sum()))
            and _side_taken(opponent_out, int(-board[board < 0].sum())))


def test_which_boards_it_takes_at_random() -> None:
    """Random boards, contact and races of every kind alike, against the rule written out."""
    rng = np.random.default_rng(17)
    boards = []
    for _ in range(4000):
        b = np.zeros(26, dtype=np.int8)
        split = int(rng.integers(0, 27))  # the mover below it, the opponent above, unless mixed
        mixed = rng.random() < 0.3
        for _ in range(int(rng.integers(1, 16))):
            i = int(rng.integers(1, 26 if mixed else max(split, 2)))
            if b[i] >= 0:
                b[i] += 1
        for _ in range(int(rng.integers(1, 16))):
            i = int(rng.integers(0 if mixed else min(split, 24), 25))
            if b[i] <= 0:
                b[i] -= 1
        boards.append(b)
    got = in_database(np.array(boards))
    want = [_takes(b) for b in boards]
    assert got.tolist() == want
    assert 200 < sum(want) < 3800  # both answers are tried often
