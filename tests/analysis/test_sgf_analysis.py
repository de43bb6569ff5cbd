"""gammon's analysis in GNU Backgammon's SGF: the real gnubg (Debian's ``gnubg -t``) loads the file
and finds the same match, and, for every checker play, the plays gammon considered with gammon's
chances and equities, for every cube decision gammon's no-double and double/take equities, and
gammon's luck of every roll and marks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.gnubg_harness import run_gnubg
from gammon.analysis import CheckerPlay, CubeChoice, Luck, MatchAnalysis, Skill, analyse
from gammon.analysis.sgf_annotations import write_analysed_sgf
from gammon.engine.engine import Engine
from gammon.formats.sgf import read_sgf
from gammon.match import Match
from gammon.rules import Rules
from tests.formats.random_play import play_match
from tests.formats.test_mat_gnubg import _check_same_match
from tests.formats.test_sgf_gnubg import _engine_match, _walk
from tests.helpers import needs_gnubg

pytestmark = needs_gnubg

_LOAD = """
for path in PATHS:
    gnubg.command('load match ' + path)
    emit(gnubg.match(analysis=1, boards=0, statistics=0, verbose=0)['games'])
"""

# gnubg's words for the luck of a roll, from the roller's view
_LUCK_WORDS = {Luck.VERY_LUCKY: "verygood", Luck.LUCKY: "good", Luck.NONE: "none", Luck.UNLUCKY: "bad",
               Luck.VERY_UNLUCKY: "verybad"}
_SKILL_WORDS = {Skill.NONE: "none", Skill.DOUBTFUL: "doubtful", Skill.BAD: "bad", Skill.VERY_BAD: "very bad"}
_TOLERANCE = 2e-6  # the file's 6 decimals, read into C floats


def _steps(play: Any) -> list[list[int]]:
    return [[a, b] for a, b in play.steps]


def _check_game(k: int, records: list[dict[str, Any]], analysis: MatchAnalysis) -> dict[str, int]:
    """gnubg's records of game ``k`` carry gammon's analysis; returns what was compared."""
    game = analysis.games[k]
    plays = [d for d in game.decisions if isinstance(d, CheckerPlay)]
    moves = [r for r in records if r["action"] == "move"]
    assert len(moves) == len(plays), f"game {k + 1}: gnubg has {len(moves)} moves, gammon {len(plays)}"
    seen = {"plays": 0, "cube": 0, "luck": 0, "marks": 0}
    for record, play in zip(moves, plays):
        if play.played is None:  # no legal play: nothing to analyse
            assert not record["move"] and "moves" not in record.get("analysis", {})
            continue
        assert record["move"] == _steps(play.played), f"game {k + 1}: not the same play"
        theirs = record["analysis"]["moves"]
        assert len(theirs) == len(play.candidates)
        assert theirs[record["analysis"]["imove"]]["move"] == _steps(play.played)
        for mine, their in zip(play.candidates, theirs):
            assert their["move"] == _steps(mine.play)
            assert their["score"] == pytest.approx(mine.equity, abs=_TOLERANCE)
            assert their["probs"] == pytest.approx(list(mine.probabilities.as_tuple()), abs=_TOLERANCE)
        seen["plays"] += 1
        assert record["analysis"].get("skill", "none") == _SKILL_WORDS[play.skill]
        seen["marks"] += play.skill is not Skill.NONE
    # the luck of every roll played (gnubg keeps it on the move node)
    rolls = {(r.context.turn, r.context.player): r for r in game.rolls}
    turns = [d.context for d in plays]
    for record, context in zip(moves, turns):
        luck = rolls[(context.turn, context.player)]
        assert record["analysis"]["luck-value"] == pytest.approx(luck.luck, abs=1e-5)
        assert record["analysis"].get("luck", "none") == _LUCK_WORDS[luck.mark]
        seen["luck"] += 1
    # cube decisions, in order: the no-double analysed before a play, and each double
    mine_cube = [d for d in game.decisions
                 if isinstance(d, CubeChoice) and d.action in ("no double", "double")]
    their_cube = [r["analysis"] for r in records if "nd-cubeful-eq" in r.get("analysis", {})]
    assert len(their_cube) == len(mine_cube), f"game {k + 1}: cube decisions differ in number"
    for choice, their in zip(mine_cube, their_cube):
        d = choice.decision
        # EMG for money, match winning chances in a match, as gnubg keeps them
        nd, dt = (d.no_double, d.double_take) if d.match_winning_chances is None \
            else d.match_winning_chances[:2]
        assert their["nd-cubeful-eq"] == pytest.approx(nd, abs=_TOLERANCE)
        assert their["dt-cubeful-eq"] == pytest.approx(dt, abs=_TOLERANCE)
        assert their["probs"] == pytest.approx(list(d.probabilities.as_tuple()), abs=_TOLERANCE)
        mark = their.get("cube-skill" if choice.action == "no double" else "skill", "none")
        assert mark == _SKILL_WORDS[choice.skill]
        seen["cube"] += 1
        seen["marks"] += choice.skill is not Skill.NONE
    return seen


@pytest.mark.slow
def test_gnubg_opens_our_analysis(tmp_path: Path) -> None:
    engine = Engine(plies=0)
    matches: list[Match] = [_engine_match(Rules(match_length=3), seed=5),
                            play_match(11, Rules(), games=2, double=0.15, resign=0.0)]
    analyses = [analyse(m, engine, names=("Alice", "Bob")) for m in matches]
    paths = [tmp_path / "match.sgf", tmp_path / "money.sgf"]
    for match, analysis, path in zip(matches, analyses, paths):
        text = write_analysed_sgf(match, analysis, path)
        assert read_sgf(text).match.score == match.score  # gammon reads it too
    # the match itself is unchanged for gnubg: every position, cube, score and result
    for match, walked in zip(matches, _walk(paths)):
        _check_same_match(match, walked)
        assert walked["names"] == ["Alice", "Bob"]
    loaded = run_gnubg(f"PATHS = {[str(p) for p in paths]!r}\n" + _LOAD)
    assert len(loaded) == len(paths)
    totals = {"plays": 0, "cube": 0, "luck": 0, "marks": 0}
    for games, analysis in zip(loaded, analyses):
        assert len(games) == len(analysis.games)
        for k, g in enumerate(games):
            for key, n in _check_game(k, g["game"], analysis).items():
                totals[key] += n
    # the matches did exercise what the file holds: plays, cube decisions, marked errors
    assert totals["plays"] > 40 and totals["cube"] > 10 and totals["marks"] > 0, totals
    texts = [p.read_text() for p in paths]
    assert any("[double]DA[" in t for t in texts)
