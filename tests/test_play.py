"""Play values: equality by result, and a repr that rebuilds the play."""

from __future__ import annotations

import random

from gammon import Position
from tests.helpers import random_game_positions


def test_repr_rebuilds_every_play_of_random_positions() -> None:
    rng = random.Random(7)
    positions = random_game_positions(3, 4)
    checked = 0
    for position in rng.sample(positions, 120):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        for play in position.legal_plays(dice):
            rebuilt = eval(repr(play), {"Position": Position})
            assert rebuilt == play and rebuilt.after == play.after, repr(play)
            checked += 1
    assert checked > 500


def test_repr_of_an_opening_play() -> None:
    play = Position.initial().parse_play("8/5 6/5", (3, 1))
    assert repr(play) == "Position.from_id('4HPwATDgc/ABMA').parse_play('8/5 6/5', (3, 1))"
