"""The money cube model with the Jacoby rule against GNU Backgammon's: fed gnubg 0-ply's own
cubeless chances, gammon's Janowski equities give gnubg 0-ply's no-double equity with the cube
centred, so that the two differ by their chances alone."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmarks.gnubg_harness import run_gnubg
from benchmarks.strength.cube_judge import gnubg_chances, parse_hint
from gammon.engine.cube.cubeful import money_equities
from gammon.engine.cube.cubeful_search import efficiencies
from gammon.engine.net.encode import race_mask
from gammon.formats.matchid import MatchState
from tests.helpers import needs_gnubg, random_game_positions

pytest.importorskip("gnubg")

SCRIPT = r'''
CONFIG = json.loads(%r)
capture("set jacoby on")
capture("set evaluation cubedecision evaluation plies 0")
for gid in CONFIG:
    capture("set gnubgid " + gid)
    emit(capture("hint"))
'''


@needs_gnubg
def test_no_double_with_the_jacoby_rule_is_gnubgs() -> None:
    # contact positions, where both take the cube efficiency 0.68 (in a bear-off gnubg reads its
    # databases); counting no gammons at all, as gammon did, was 0.04 off on average
    found = random_game_positions(11, 12)
    boards = np.array([p.as_array() for p in found], dtype=np.int8)
    positions = [p for p, race in zip(found, race_mask(boards)) if not race][::3][:60]
    centred = MatchState(cube_value=1, cube_owner=None, player_on_roll=1, turn=1, jacoby=True).id
    hints = run_gnubg(SCRIPT % json.dumps([f"{p.id}:{centred}" for p in positions]), timeout=None,
                      expect=len(positions))
    theirs = np.array([parse_hint(text)[0].nd for text in hints])
    chances = gnubg_chances(positions, 0)
    x = efficiencies(np.array([p.as_array() for p in positions], dtype=np.int8))
    ours = money_equities(chances, x, jacoby=True)[:, 0]
    off = np.abs(ours - theirs)
    assert len(positions) == 60 and off.mean() < 0.005 and np.mean(off < 0.02) >= 0.95, off
