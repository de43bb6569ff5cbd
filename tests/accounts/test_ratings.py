"""The FIBS rating formula, against its published description and worked numbers."""

from __future__ import annotations

import math

import pytest

from gammon.ratings import (
    START_RATING,
    experience_factor,
    rating_change,
    upset_probability,
    win_probability,
)


def test_the_formula_as_fibs_publishes_it() -> None:
    """FIBS's ``help formula`` (quoted at https://bkgm.com/rgb/rgb.cgi?view+1093 and
    https://stason.org/TULARC/games/backgammon/14-FIBS-RATINGS-First-Internet-Backgammon-Server.html):
    P_upset = 1/(10^(D*sqrt(n)/2000)+1); P = 1-P_upset if the underdog wins, P_upset if the
    favourite does; K = max(1, -experience/100+5); the winner gains 4*K*sqrt(n)*P, the loser
    loses as much (with its own K)."""
    d, n = 100, 7
    upset = 1 / (10 ** (d * math.sqrt(n) / 2000) + 1)
    assert upset_probability(1850, 1750, n) == pytest.approx(upset)
    assert upset_probability(1750, 1850, n) == pytest.approx(upset)  # D is the absolute difference
    favourite_wins = rating_change(1850, 1750, n)
    assert favourite_wins.winner_change == pytest.approx(4 * math.sqrt(n) * upset)
    assert favourite_wins.loser_change == pytest.approx(-4 * math.sqrt(n) * upset)
    underdog_wins = rating_change(1750, 1850, n)
    assert underdog_wins.winner_change == pytest.approx(4 * math.sqrt(n) * (1 - upset))
    assert win_probability(1850, 1750, n) == pytest.approx(1 - upset)
    assert START_RATING == 1500


@pytest.mark.parametrize(
    ("length", "difference", "win", "loss"),
    [
        (1, 0, 2.0, -2.0),
        (3, 0, 3.5, -3.5),
        (5, 0, 4.5, -4.5),
        (9, 0, 6.0, -6.0),
        (5, 250, 5.9, -5.9),  # the underdog (opponent 250 higher) wins / the favourite loses
        (5, -250, 3.1, -3.1),
        (3, 500, 5.1, -5.1),
        (7, 500, 8.7, -8.7),
        (9, 1000, 11.6, -11.6),
        (1, -1000, 1.0, -1.0),
    ],
)
def test_worked_changes_for_experienced_players(
    length: int, difference: int, win: float, loss: float
) -> None:
    """The table of changes for players with 400 experience or more (K = 1) at
    https://m.goldtoken.com/games/wiki?wiki=Ratings%20in%20Practice : a player whose opponent is
    rated ``difference`` higher gains ``win`` by winning a ``length``-point match (the opponent
    loses as much), to one decimal."""
    change = rating_change(1500, 1500 + difference, length, 400, 400)
    assert round(change.winner_change, 1) == win
    assert round(change.loser_change, 1) == loss
    # and the same match the other way round: the opponent wins
    back = rating_change(1500 + difference, 1500, length, 400, 400)
    assert back.winner_change + change.winner_change == pytest.approx(4 * math.sqrt(length))


def test_new_players_ratings_move_faster_until_400_experience() -> None:
    """K = max(1, 5 - experience/100): 5 for a new player, 1 from 400 experience on."""
    assert [experience_factor(e) for e in (0, 50, 100, 399, 400, 1000)] == [
        5,
        4.5,
        4,
        pytest.approx(1.01),
        1,
        1,
    ]
    change = rating_change(1500, 1500, 5, winner_experience=0, loser_experience=400)
    assert change.winner_change == pytest.approx(5 * 4 * math.sqrt(5) * 0.5)
    assert change.loser_change == pytest.approx(-4 * math.sqrt(5) * 0.5)


@pytest.mark.parametrize("length", [0, -1, 1.5, True])
def test_only_matches_to_a_length_are_rated(length: object) -> None:
    with pytest.raises(ValueError, match="at least 1 point"):
        upset_probability(1500, 1500, length)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="experience"):
        experience_factor(-1)


def test_a_far_favourite_over_a_long_match_is_no_overflow() -> None:
    """10^(D*sqrt(n)/2000) passes a float's range when D*sqrt(n) passes 616,000 (a 10,000-point
    gap over a 3,844-point match): the underdog's chance is about 0 then, not an OverflowError."""
    assert 0 <= upset_probability(11_500, 1_500, 3_844) < 1e-300
    assert upset_probability(1_501_500, 1_500, 1) == 0.0
    change = rating_change(11_500, 1_500, 3_844)
    assert (change.winner_change, change.loser_change) == (pytest.approx(0.0), pytest.approx(0.0))
    assert rating_change(1_500, 11_500, 3_844).winner_change == pytest.approx(4 * 62)
    assert win_probability(1_500, 11_500, 3_844) < 1e-300
    assert upset_probability(1850, 1750, 7) == pytest.approx(
        1 / (10 ** (100 * math.sqrt(7) / 2000) + 1), rel=1e-15
    )
