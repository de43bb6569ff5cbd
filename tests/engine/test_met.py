"""Kazaross-XG2 match equity table, and its pattern beyond 25 away."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.engine.cube.met import match_equity


def test_symmetry() -> None:
    for a in range(1, 26):
        for b in range(1, 26):
            assert match_equity(a, b) + match_equity(b, a) == pytest.approx(1.0, abs=1e-9)


def test_known_values() -> None:
    assert match_equity(2, 2) == 0.5
    assert match_equity(1, 2) == pytest.approx(0.67736)  # Crawford game, leader
    assert match_equity(3, 2) == pytest.approx(0.40053)
    assert match_equity(2, 1, post_crawford=True) == pytest.approx(0.48803)  # free drop
    assert match_equity(1, 1, post_crawford=True) == 0.5


def test_won_and_lost_matches() -> None:
    assert match_equity(0, 5) == 1.0
    assert match_equity(-1, 3) == 1.0
    assert match_equity(5, 0) == 0.0
    assert match_equity(np.int64(3), np.int64(5)) == match_equity(3, 5)  # type: ignore[arg-type]


def test_closer_to_winning_is_better() -> None:
    for b in range(1, 26):
        values = [match_equity(a, b) for a in range(1, 26)]
        assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("bad", [2.5, True, -0.5, "3", None, float("nan")])
def test_bad_scores_are_refused(bad: object) -> None:
    """-0.5 away counted as a won match (1.0), "3" and None failed comparing with 0."""
    with pytest.raises(ValueError, match="points away"):
        match_equity(bad, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="points away"):
        match_equity(3, bad, post_crawford=True)  # type: ignore[arg-type]


LONG = range(1, 100)  # the browser offers matches of up to 99 points


def test_beyond_the_table_closer_to_winning_is_better_and_the_sides_add_to_one() -> None:
    for b in LONG:
        values = [match_equity(a, b) for a in LONG]
        assert values == sorted(values, reverse=True)
        assert all(match_equity(a, b) + match_equity(b, a) == pytest.approx(1.0, abs=1e-9) for a in LONG)
    post = [match_equity(a, 1, post_crawford=True) for a in LONG[1:]]
    assert post == sorted(post, reverse=True) and post[-1] > 0.0
    leader = [match_equity(1, a, post_crawford=True) for a in LONG[1:]]
    assert leader == pytest.approx([1.0 - p for p in post])
    assert match_equity(40, 40) == 0.5 and match_equity(30, 31) > 0.5


@pytest.mark.gnubg
def test_beyond_the_table_agrees_with_gnubg() -> None:
    """GNU Backgammon extends its tables to 64 away in its own way; the two extensions agree to a
    hundredth of a match winning chance (the judge only: gammon's comes from its own table)."""
    gnubg = pytest.importorskip("gnubg")
    pre, post, _ = gnubg.met(64)
    for a in range(1, 65):
        assert match_equity(a, 1, post_crawford=True) == pytest.approx(post[a - 1], abs=1e-4)
        for b in range(1, 65):
            assert match_equity(a, b) == pytest.approx(pre[a - 1][b - 1], abs=0.01)


@pytest.mark.gnubg
def test_same_table_as_gnubg() -> None:
    """GNU Backgammon's default table is Kazaross-XG2: the same numbers to its float32 storage,
    except the post-Crawford 25-away entry, which the PyPI gnubg replaces by its own extension of the
    row (0.00118); the table's 0.00123 is kept."""
    gnubg = pytest.importorskip("gnubg")
    pre, post, _ = gnubg.met(25)
    for a in range(1, 25):
        assert match_equity(a, 1, post_crawford=True) == pytest.approx(post[a - 1], abs=1e-6)
        for b in range(1, 26):
            assert match_equity(a, b) == pytest.approx(pre[a - 1][b - 1], abs=1e-6)
