"""Crashed positions (gammon/engine/net/crashed.py) are those GNU Backgammon classes so."""

from __future__ import annotations

import gnubg
import numpy as np

from gammon.engine.net.crashed import crashed_mask
from tests.helpers import random_game_positions


def test_crashed_boards_are_those_of_gnubgs_crashed_class() -> None:
    # random games reach every stage: contact, piled home boards, races, bear-offs
    positions = random_game_positions(3, 60)
    boards = np.array([p.as_array() for p in positions], dtype=np.int8)
    ours = crashed_mask(boards)
    theirs = np.array([gnubg.classify(p.to_gnubg_board()) == 9 for p in positions])  # 9: crashed
    assert np.array_equal(ours, theirs)
    assert 50 < ours.sum() < len(ours) - 50  # both kinds, many of each
