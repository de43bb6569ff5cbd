"""One-sided bear-off database: exact values checked by hand, the shipped file against a fresh build."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gammon import Position
from gammon.engine.bearoff.one_sided import POSITIONS, BearoffDatabase, is_bearoff
from gammon.engine.engine import default_bearoff
from tests.helpers import bad_npz_files, pos


@pytest.fixture(scope="module")
def db() -> BearoffDatabase:
    return default_bearoff()


def test_every_distribution_is_a_distribution(db: BearoffDatabase) -> None:
    assert db.off.shape[0] == POSITIONS == 54264
    np.testing.assert_allclose(db.off.sum(axis=1), 1.0, atol=1e-9)
    np.testing.assert_allclose(db.first.sum(axis=1), 1.0, atol=1e-9)
    assert db.off[db.index([0] * 6), 0] == 1.0  # nothing left: zero rolls


def test_one_checker_on_the_ace_point_takes_one_roll(db: BearoffDatabase) -> None:
    assert db.expected_rolls([1, 0, 0, 0, 0, 0]) == pytest.approx(1.0)
    assert db.rolls_distribution([2, 0, 0, 0, 0, 0])[1] == pytest.approx(1.0)


def test_one_checker_on_the_six_point(db: BearoffDatabase) -> None:
    # 11, 12, 21, 13, 31, 14, 41, 23, 32 (9 of 36) leave it on the board; the next roll finishes
    assert db.expected_rolls([0, 0, 0, 0, 0, 1]) == pytest.approx(1 + 9 / 36)


def test_two_checkers_on_the_six_point_need_doubles_or_66_in_one_roll(db: BearoffDatabase) -> None:
    dist = db.rolls_distribution([0, 0, 0, 0, 0, 2])
    assert dist[1] == pytest.approx(4 / 36)  # 33, 44, 55, 66


def test_fewer_pips_never_take_longer(db: BearoffDatabase) -> None:
    assert db.expected_rolls([0, 0, 0, 0, 0, 15]) > db.expected_rolls([0, 0, 0, 0, 1, 14])
    assert db.expected_rolls([3, 0, 0, 0, 0, 0]) < db.expected_rolls([0, 0, 3, 0, 0, 0])


def test_index_rejects_bad_counts(db: BearoffDatabase) -> None:
    with pytest.raises(ValueError, match="16"):
        db.index([16, 0, 0, 0, 0, 0])


def test_race_probabilities(db: BearoffDatabase) -> None:
    # two checkers on my 6-point against one on the opponent's ace point: I must finish now
    b = np.array([pos("x 6:2; o 1:1").board], dtype=np.int8)
    assert is_bearoff(b).all()
    probs = db.probabilities(b)[0]
    assert probs[0] == pytest.approx(4 / 36)
    assert probs[1] == probs[3] == 0.0  # both sides have borne off checkers: no gammon
    # one checker left on my ace point against 15 opponent checkers: a certain gammon
    probs = db.probabilities(np.array([pos("x 1:1; o 6:5 5:5 4:5").board], dtype=np.int8))[0]
    assert probs[0] == pytest.approx(1.0) and probs[1] == pytest.approx(1.0)


def test_not_bearoff_when_a_checker_is_outside() -> None:
    b = np.array([pos("x 7:1; o 1:1").board, pos("x 1:1; o 7:1").board, pos("x bar:1; o 1:1").board],
                 dtype=np.int8)
    assert not is_bearoff(b).any()


def test_kernel_matches_the_reference_formula(db: BearoffDatabase) -> None:
    from gammon.engine.bearoff.one_sided import race_probabilities

    rng = np.random.default_rng(0)
    boards = []
    for _ in range(300):
        b = np.zeros(26, dtype=np.int8)
        for _ in range(rng.integers(1, 16)):
            b[rng.integers(1, 7)] += 1
        for _ in range(rng.integers(1, 16)):
            b[rng.integers(19, 25)] -= 1
        boards.append(b)
    b = np.array(boards)
    mine = [db.index(row[1:7].tolist()) for row in b]
    theirs = [db.index((-row[24:18:-1]).tolist()) for row in b]
    ref = race_probabilities(db.off[mine], db.first[mine], db.off[theirs], db.first[theirs],
                             b[:, 1:7].sum(axis=1) == 15, -b[:, 19:25].sum(axis=1) == 15)
    np.testing.assert_allclose(db.probabilities(b), ref, atol=1e-12)


@pytest.mark.slow
def test_the_shipped_file_is_what_gammon_builds() -> None:
    """The file in the package is gammon's own build, bit for bit (``python -m
    gammon.engine.bearoff.one_sided`` rewrites it)."""
    fresh = BearoffDatabase.generate()
    shipped = BearoffDatabase.load()
    np.testing.assert_array_equal(shipped.off, fresh.off)
    np.testing.assert_array_equal(shipped.first, fresh.first)
    np.testing.assert_array_equal(shipped.few, fresh.few)
    np.testing.assert_array_equal(shipped.near_off, fresh.near_off)
    np.testing.assert_array_equal(shipped.near_first, fresh.near_first)


def test_the_shipped_file_is_read_only_when_needed() -> None:
    lazy = BearoffDatabase.load()
    assert lazy._tables is None
    assert lazy.expected_rolls([1, 0, 0, 0, 0, 0]) == pytest.approx(1.0)
    assert lazy._tables is not None


def test_file_round_trip(db: BearoffDatabase, tmp_path) -> None:
    path = tmp_path / "bearoff.npz"
    db.save(path)
    again = BearoffDatabase.load(path)
    np.testing.assert_array_equal(again.off, db.off)
    np.testing.assert_array_equal(again.first, db.first)
    np.testing.assert_array_equal(again.few, db.few)
    np.testing.assert_array_equal(again.near_off, db.near_off)
    np.testing.assert_array_equal(again.near_first, db.near_first)


def test_a_bad_file_is_named(tmp_path) -> None:
    for bad in bad_npz_files(tmp_path):
        with pytest.raises(ValueError, match=re.escape(f"{str(bad)!r} is not a gammon bear-off database: ")):
            BearoffDatabase.load(bad)
    path = tmp_path / "bearoff.npz"
    np.savez(path, off=np.zeros((3, 32)))
    with pytest.raises(ValueError, match=re.escape(f"{str(path)!r} is not a gammon bear-off database: it "
                                                   "has no array 'first'")):
        BearoffDatabase.load(path)
    np.savez(path, off=np.zeros((3, 32)), first=np.zeros((3, 32)))
    with pytest.raises(ValueError, match=re.escape(f"{str(path)!r} is not a gammon bear-off database: it "
                                                   "has no array 'few'")):
        BearoffDatabase.load(path)
    small = np.zeros((3, 32), dtype=np.float32)
    np.savez(path, off=np.zeros((3, 32)), first=np.zeros((3, 32)), few=small)
    with pytest.raises(ValueError, match=re.escape(f"{str(path)!r} is not a gammon bear-off database: it "
                                                   "has no array 'near_off'")):
        BearoffDatabase.load(path)
    np.savez(path, off=np.zeros((3, 32)), first=np.zeros((3, 32)), few=small, near_off=small,
             near_first=small)
    with pytest.raises(ValueError, match=r"\(3, 32\)"):
        BearoffDatabase.load(path)
    db = BearoffDatabase.load()
    np.savez(path, off=db.off, first=db.first, few=small, near_off=db.near_off, near_first=db.near_first)
    with pytest.raises(ValueError, match=r"few-checker table must have shape \(118755, 32\), got \(3, 32\)"):
        BearoffDatabase.load(path)
    np.savez(path, off=db.off, first=db.first, few=db.few, near_off=db.near_off, near_first=small)
    with pytest.raises(ValueError, match=r"near-home table 'near_first' must have shape \(52020, 32\)"):
        BearoffDatabase.load(path)
    np.savez(path, off=db.off, first=db.first, few=db.few, near_off=db.near_off.astype(np.float64),
             near_first=db.near_first)
    with pytest.raises(ValueError, match=r"the near-home table 'near_off' must be float32, got float64"):
        BearoffDatabase.load(path)


@pytest.mark.gnubg
def test_matches_gnubg_one_sided_bearoff(db: BearoffDatabase) -> None:
    """GNU Backgammon's one-sided database (used there when a side has more than 6 checkers) gives
    the same probabilities, gammons included, to its float32 storage."""
    gnubg = pytest.importorskip("gnubg")
    cube = {**gnubg.cubeinfo(), "jacoby": 0}
    ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    rng = np.random.default_rng(1)
    checked = 0
    while checked < 100:
        b = [0] * 26
        mine, theirs = (int(n) for n in rng.integers(1, 16, size=2))
        if max(mine, theirs) <= 6:
            continue  # both small: gnubg uses its exact two-sided database instead
        for _ in range(mine):
            b[int(rng.integers(1, 7))] += 1
        for _ in range(theirs):
            b[int(rng.integers(19, 25))] -= 1
        theirs_probs = gnubg.evaluate(Position(b).to_gnubg_board(), cube, ctx)[:5]
        ours = db.probabilities(np.array([b], dtype=np.int8))[0]
        np.testing.assert_allclose(ours, theirs_probs, atol=1e-4, err_msg=str(b))
        checked += 1


def test_the_rebuild_command_answers_help_without_writing_a_file(tmp_path: Path) -> None:
    """`python -m gammon.engine.bearoff.one_sided --help` took '--help' for the path to write: it
    spent the build, left a 4.5 MB '--help.npz' behind and ended in a traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "gammon.engine.bearoff.one_sided", "--help"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout and "PATH" in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_save_writes_the_path_it_is_given(db: BearoffDatabase, tmp_path: Path) -> None:
    """numpy adds '.npz' to a name without it, and the rebuild command then reported a file that
    did not exist (FileNotFoundError): save writes exactly the path named."""
    target = tmp_path / "bearoff"
    db.save(target)
    assert [p.name for p in tmp_path.iterdir()] == ["bearoff"]
    copy = BearoffDatabase.load(target)
    np.testing.assert_array_equal(copy.off, db.off)
    np.testing.assert_array_equal(copy.first, db.first)
