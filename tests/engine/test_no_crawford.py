"""A match played without the Crawford rule: no game is the Crawford game, so a score reaching
1-away is followed by a game with the cube free, valued by the post-Crawford table. The engine's
cube decisions, match-ranked plays and units (Stakes) follow the match's rule, and GNU Backgammon
given a match equity table for such a match (its 1-away entries the post-Crawford ones) judges the
cube as gammon's model does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from benchmarks.gnubg_harness import run_gnubg
from benchmarks.strength.cube_judge import gnubg_chances, parse_hint
from gammon import Game, Position, Rules
from gammon.engine.cube.cubeful import mwc_after
from gammon.engine.cube.cubeful_search import efficiencies
from gammon.engine.cube.decision import CubeAction, match_cube_decision
from gammon.engine.cube.met import match_equity
from gammon.engine.cube.stakes import Stakes
from gammon.engine.engine import Engine
from gammon.engine.net.encode import race_mask
from gammon.engine.net.evaluator import ConstantEvaluator, Probabilities
from gammon.errors import InvalidArgumentError
from gammon.formats.matchid import MatchState
from gammon.situation import CubeOwner, MatchScore, Situation
from tests.helpers import needs_gnubg, random_game_positions

FIVE = Rules(match_length=5)
FIVE_NO_CRAWFORD = Rules(match_length=5, crawford=False)
TRAILER_3_AWAY_POST = 0.32264  # Kazaross-XG2's post-Crawford 3-away against 1-away
TRAILER_3_AWAY_CRAWFORD = 0.24924  # and in the Crawford game


def test_the_match_score_carries_the_rule() -> None:
    s = Situation(Position.initial(), score=(2, 3), rules=FIVE_NO_CRAWFORD)
    assert s.match == MatchScore(3, 2, crawford_rule=False)
    assert s.match is not None and s.match.flip() == MatchScore(2, 3, crawford_rule=False)
    assert s.match.crawford_done and not MatchScore(3, 2).crawford_done
    assert Situation(Position.initial(), score=(2, 3), rules=FIVE).match == MatchScore(3, 2)
    assert not Situation.at(Position.initial(), match=MatchScore(3, 2, crawford_rule=False)).rules.crawford
    game = Game(FIVE_NO_CRAWFORD, score=(3, 4))
    assert Stakes.of(game, 0).match == MatchScore(2, 1, post_crawford=True, crawford_rule=False)


def test_a_match_without_the_rule_has_no_crawford_game() -> None:
    with pytest.raises(InvalidArgumentError, match="without the Crawford rule has no Crawford game"):
        MatchScore(1, 3, crawford_game=True, crawford_rule=False)
    with pytest.raises(InvalidArgumentError, match="without the Crawford rule has no Crawford game"):
        Situation(Position.initial(), score=(4, 2), crawford_game=True, rules=FIVE_NO_CRAWFORD)
    with pytest.raises(InvalidArgumentError, match="crawford_rule must be True or False, got 'no'"):
        MatchScore(3, 2, crawford_rule="no")  # type: ignore[arg-type]


def test_a_score_reaching_1_away_is_valued_post_crawford() -> None:
    """3-away against 2-away, losing a single game: 32.3% to come back with the cube free, not the
    24.9% of a trailer in the Crawford game (the engine used the latter in every match)."""
    loses_one = Situation(Position.initial(), score=(2, 3), rules=FIVE_NO_CRAWFORD)
    assert Stakes.seen_in(loses_one).mwc(-1.0) == pytest.approx(TRAILER_3_AWAY_POST)
    assert Stakes.of(Game(FIVE_NO_CRAWFORD, score=(2, 3)), 0).mwc(-1.0) == pytest.approx(TRAILER_3_AWAY_POST)
    assert Stakes.seen_in(loses_one.replace(rules=FIVE)).mwc(-1.0) == pytest.approx(TRAILER_3_AWAY_CRAWFORD)
    match = MatchScore(3, 2, crawford_rule=False)
    assert mwc_after(match, 3, 1) == match_equity(3, 1, post_crawford=True)
    assert mwc_after(match, 1, 2) == match_equity(1, 2, post_crawford=True)


def test_the_cube_decision_follows_the_rule() -> None:
    """At 3-away against 2-away with 75% to win: with the Crawford rule the 2-away side passes (a
    won 2-cube puts the doubler in the Crawford game at 67.7%), without it it is no double, the
    doubler's win then leaving 1-away against 2-away with the cube free at 51.2%."""
    engine = Engine(plies=0, evaluator=ConstantEvaluator((0.75, 0.1, 0.0, 0.05, 0.0)))
    s = Situation(Position.initial(), score=(2, 3), rules=FIVE_NO_CRAWFORD)
    no_rule = engine.cube_decision(s)
    rule = engine.cube_decision(s.replace(rules=FIVE))
    assert rule.action is CubeAction.DOUBLE_PASS
    assert no_rule.action is CubeAction.NO_DOUBLE and no_rule.take
    certain = Engine(plies=0, evaluator=ConstantEvaluator((1.0, 0.0, 0.0, 0.0, 0.0))).cube_decision(s)
    assert certain.match_winning_chances is not None
    assert certain.match_winning_chances[1] == pytest.approx(1.0 - 0.48803)  # win the 2-cube: 1-away, 2-away
    lost = Engine(plies=0, evaluator=ConstantEvaluator((0.0, 0.0, 0.0, 0.0, 0.0))).cube_decision(s)
    assert lost.match_winning_chances is not None
    assert lost.match_winning_chances[0] == pytest.approx(TRAILER_3_AWAY_POST)


def test_a_play_that_wins_the_game_reaches_a_game_with_the_cube_free() -> None:
    """Bearing off the last checker at 2-away against 3-away wins one point: the 1-away leader's
    67.7% with the cube free to come, not the Crawford game's 75.1%."""
    position = Position.from_points({1: 1}, {6: 14})
    game = Situation(position, dice=(2, 1), score=(3, 2), rules=FIVE_NO_CRAWFORD)
    engine = Engine(plies=0)
    assert engine.hint(game, n=1)[0].mwc == pytest.approx(1.0 - TRAILER_3_AWAY_POST, abs=1e-12)
    assert engine.hint(game.replace(rules=FIVE), n=1)[0].mwc == pytest.approx(1.0 - TRAILER_3_AWAY_CRAWFORD,
                                                                             abs=1e-12)


def _no_crawford_met(folder: Path) -> Path:
    """GNU Backgammon's Kazaross-XG2 table as a match without the Crawford rule sees it: reaching
    1-away for the first time is worth what the post-Crawford table says."""
    gnubg = pytest.importorskip("gnubg")
    text = (Path(gnubg.__file__).parent / "data" / "met" / "Kazaross-XG2.xml").read_text()
    head, rest = text.split("<pre-crawford-table", 1)
    pre, tail = rest.split("</pre-crawford-table>", 1)
    rows = [re.findall(r"<me>(.*?)</me>", r) for r in re.findall(r"<row>(.*?)</row>", pre, re.S)]
    post = re.findall(r"<me>(.*?)</me>", tail.split("<post-crawford-table", 1)[1])
    for n in range(1, len(rows)):
        rows[0][n] = repr(1.0 - float(post[n]))
        rows[n][0] = post[n]
    table = "".join("<row>" + "".join(f"<me>{v}</me>" for v in row) + "</row>\n" for row in rows)
    path = folder / "no-crawford.xml"
    path.write_text(f'{head}<pre-crawford-table type="explicit">\n{table}</pre-crawford-table>{tail}')
    return path


SCRIPT = r'''
CONFIG = json.loads(%r)
capture("set matchequitytable " + CONFIG["met"])
capture("set evaluation cubedecision evaluation plies 0")
for gid in CONFIG["ids"]:
    capture("set gnubgid " + gid)
    emit(capture("hint"))
'''


@pytest.mark.gnubg
@needs_gnubg
@pytest.mark.parametrize("length, away, opponent_away", [(5, 3, 2), (7, 3, 4)])
def test_the_cube_model_agrees_with_gnubg_without_the_crawford_rule(
        tmp_path: Path, length: int, away: int, opponent_away: int) -> None:
    """Fed GNU Backgammon 0-ply's chances, gammon's double/take equities are gnubg 0-ply's (with a
    no-Crawford table) within 0.02 and their double and take the same in 38 of 40 contact positions;
    valued as a Crawford match they were 0.36-0.91 off and agreed in 14-34."""
    met = _no_crawford_met(tmp_path)
    found = random_game_positions(11, 12)
    boards = np.array([p.as_array() for p in found], dtype=np.int8)
    positions = [p for p, race in zip(found, race_mask(boards)) if not race][::3][:40]
    state = MatchState(match_length=length, score=(length - opponent_away, length - away), cube_value=1,
                       cube_owner=None, player_on_roll=1, turn=1)
    config = {"met": str(met), "ids": [f"{p.id}:{state.id}" for p in positions]}
    theirs = [parse_hint(text)[0] for text in run_gnubg(SCRIPT % json.dumps(config), timeout=None,
                                                        expect=len(positions))]
    chances = gnubg_chances(positions, 0)
    x = efficiencies(np.array([p.as_array() for p in positions], dtype=np.int8))
    match = Situation(Position.initial(), score=(length - away, length - opponent_away),
                      rules=Rules(match_length=length, crawford=False)).match
    assert match is not None
    ours = [match_cube_decision(Probabilities.from_array(c), match, 1, CubeOwner.CENTRED, float(e))
            for c, e in zip(chances, x)]
    off = np.abs(np.array([d.double_take for d in ours]) - np.array([t.dt for t in theirs]))
    agree = sum((d.should_double, d.take) == (t.should_double, t.should_take) for d, t in zip(ours, theirs))
    assert len(positions) == 40 and off.mean() < 0.02 and agree >= 38, (off, agree)
