"""The FIBS rating formula: how a rated match changes its two players' ratings.

As FIBS publishes it (``help formula``): for an ``n``-point match between ratings ``r1`` and ``r2``,
with ``D = |r1 - r2|``,

* ``P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1)``, the chance that the underdog wins;
* ``P = 1 - P_upset`` if the underdog wins, ``P = P_upset`` if the favourite does;
* each player's ``K = max(1, 5 - experience / 100)``, from their own experience before the match;
* the winner gains ``4 * K * sqrt(n) * P``, the loser loses ``4 * K * sqrt(n) * P`` (each with
  their own K, so the two changes differ while either player has under 400 experience);
* experience is the sum of the lengths of the matches a player finished: ``n`` more per match.

Every player starts at :data:`START_RATING` with no experience. Pure arithmetic, no storage.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0
"""The rating of a new player."""
SETTLED_EXPERIENCE = 400
"""From this much experience on, K is 1: ratings move at their slowest."""


def upset_probability(rating_a: float, rating_b: float, match_length: int) -> float:
    """The chance that the lower-rated player wins an ``match_length``-point match (0.5 when the
    ratings are equal)."""
    _check_length(match_length)
    difference = abs(rating_a - rating_b)
    # 1 / (10^x + 1) written as 10^-x / (1 + 10^-x): the same, but 10^x overflows (OverflowError)
    # once x passes 308, where the chance is only too small for a float.
    tiny = math.pow(10.0, -difference * math.sqrt(match_length) / 2000.0)
    return tiny / (1.0 + tiny)


def win_probability(rating: float, opponent_rating: float, match_length: int) -> float:
    """The chance that the player rated ``rating`` wins, as the formula sees it."""
    upset = upset_probability(rating, opponent_rating, match_length)
    return upset if rating < opponent_rating else 1.0 - upset


def experience_factor(experience: int) -> float:
    """K: up to 5 for a new player, falling to 1 at :data:`SETTLED_EXPERIENCE`."""
    if experience < 0:
        raise ValueError(f"experience must be >= 0, got {experience!r}")
    return max(1.0, 5.0 - experience / 100.0)


@dataclass(frozen=True)
class RatingChange:
    """What one rated match does to its winner's and loser's ratings (``loser_change`` <= 0)."""

    winner_change: float
    loser_change: float


def rating_change(
    winner_rating: float,
    loser_rating: float,
    match_length: int,
    winner_experience: int = SETTLED_EXPERIENCE,
    loser_experience: int = SETTLED_EXPERIENCE,
) -> RatingChange:
    """The changes of a ``match_length``-point match won by the player rated ``winner_rating``."""
    upset = upset_probability(winner_rating, loser_rating, match_length)
    # The points at stake: the chance the result had of not happening.
    p = 1.0 - upset if winner_rating < loser_rating else upset
    stake = 4.0 * math.sqrt(match_length) * p
    return RatingChange(
        winner_change=experience_factor(winner_experience) * stake,
        loser_change=-experience_factor(loser_experience) * stake,
    )


def _check_length(match_length: int) -> None:
    # Money sessions have no length and are not rated.
    if isinstance(match_length, bool) or not isinstance(match_length, int) or match_length < 1:
        raise ValueError(f"a rated match has a length of at least 1 point, got {match_length!r}")
