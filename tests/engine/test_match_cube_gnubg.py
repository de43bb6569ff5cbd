"""The match cube model against GNU Backgammon's (oracle): fed GNU Backgammon 0-ply's own chances,
gammon's cubeful MWC of a centred cube is that player's at every score, the trailer's cube access
included. The cash points are a live cube's, from the top of the cube's ladder down (the module
docstring of gammon.engine.cube.cubeful); take points read off the blended curves one level up,
as gammon had them before, left the trailer 0.02-0.04 EMG short and the leader as much over."""

from __future__ import annotations

import json
import re

import numpy as np

from benchmarks.gnubg_harness import run_gnubg
from gammon import Position
from gammon.engine.cube.cubeful import CONTACT_EFFICIENCY, MatchCube
from gammon.engine.cube.stakes import Stakes
from gammon.formats.matchid import gnubg_id
from gammon.situation import CubeOwner, MatchScore, Situation
from tests.helpers import needs_gnubg

# Runs inside gnubg: the static evaluation (chances and cubeful equity) of each ID.
STATIC = r'''
CONFIG = json.loads(%(config)r)
capture("set jacoby off")
capture("set evaluation chequerplay evaluation plies 0")
capture("set evaluation cubedecision evaluation plies 0")
for gid in CONFIG:
    capture("set gnubgid " + gid)
    emit(capture("eval"))
'''
_STATIC = re.compile(r"^\s*static:" + r"\s+([-+]?\d+\.\d+)" * 7, re.MULTILINE)
# every pair but 2-away each, where GNU Backgammon calls the cube dead (the first double is right)
SCORES = [(a, b) for a in (2, 3, 4, 5, 7, 9) for b in (2, 3, 4, 5, 7, 9) if (a, b) != (2, 2)]
OPENINGS = (((5, 3), "8/3 6/3"), ((6, 4), "24/14"))


def _after_opening(away: int, opponent_away: int, dice: tuple[int, int], text: str) -> Situation:
    """The opponent on roll, cube centred, after the opening play ``text`` at this score."""
    start = Position.initial()
    play = next(p for p in start.legal_plays(dice) if str(p) == text)
    return Situation.at(play.after, match=MatchScore.from_away(opponent_away, away))


@needs_gnubg
def test_a_centred_cube_is_worth_what_gnubg_says_at_every_score() -> None:
    situations = [_after_opening(a, b, dice, text) for a, b in SCORES for dice, text in OPENINGS]
    texts = run_gnubg(STATIC % {"config": json.dumps([gnubg_id(s) for s in situations])},
                      timeout=None, expect=len(situations))
    diffs = []
    for s, text in zip(situations, texts):
        found = _STATIC.search(text)
        assert found is not None, text[:300]
        values = [float(v) for v in found.groups()]
        chances, cubeful = np.array(values[:5]), values[6]
        assert s.match is not None
        mwc = MatchCube(chances, s.match, CONTACT_EFFICIENCY).equity(float(chances[0]), 1, CubeOwner.CENTRED)
        diffs.append(Stakes.seen_in(s).emg(mwc) - cubeful)
    # gnubg prints three decimals: its chances carry up to 0.0005 each
    worst = int(np.argmax(np.abs(diffs)))
    assert abs(diffs[worst]) < 0.004, (situations[worst].match, diffs[worst])
    assert abs(float(np.mean(diffs))) < 0.001
