"""The compiled match equity curves of many positions (cubeful.match_equities) are MatchCube's, bit
for bit, at every score, cube level and owner."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gammon.engine.cube.cubeful import CubeState, MatchCube, match_equities
from gammon.primitives import clamp_probabilities
from gammon.situation import CubeOwner, MatchScore


def test_match_equities_are_the_match_cubes() -> None:
    rng = np.random.default_rng(0)
    probs = np.array([clamp_probabilities(*row) for row in rng.random((60, 5))])
    # certain wins and losses, no gammons, a win chance below MatchCube's 1e-9
    probs[:5] = [[1, 1, 1, 0, 0], [0, 0, 0, 1, 1], [0.5, 0, 0, 0, 0], [1e-10, 0, 0, 0.5, 0],
                 [1, 0.3, 0, 0, 0]]
    x = rng.uniform(0.5, 0.8, len(probs))
    owners = (CubeOwner.CENTRED, CubeOwner.MOVER, CubeOwner.OPPONENT)
    for away, opponent_away in itertools.product(range(1, 8), range(1, 8)):
        for crawford in (False, True):
            if crawford and 1 not in (away, opponent_away):
                continue
            match = MatchScore.from_away(away, opponent_away, crawford)
            states = [CubeState(v, o) for v in (1, 2, 4, 8) for o in owners]
            want = np.array([[MatchCube(p, match, float(xi)).equity(float(p[0]), v, o) for v, o in states]
                             for p, xi in zip(probs, x)])
            assert np.array_equal(match_equities(probs, x, match, states), want), match


def test_cube_values_are_powers_of_two() -> None:
    with pytest.raises(ValueError, match="powers of two"):
        three = [CubeState(3, CubeOwner.CENTRED)]
        match_equities(np.full((1, 5), 0.2), np.array([0.7]), MatchScore(3, 3), three)
