"""Checker play at a match score: Engine.hint and best_play rank the plays by the mover's cubeful
match winning chance after them, which the score can order otherwise than money equity."""

from __future__ import annotations

import pytest

from benchmarks.strength.judge_set import CLASSES_SET, read_judge_set
from gammon import Game, Position, Rules, ScriptedDice
from gammon.engine.cube.cubeful import mwc_after
from gammon.engine.engine import MATCH_CANDIDATES, Engine
from gammon.engine.players import EnginePlayer
from gammon.situation import CubeOwner, MatchScore, Situation

CLASSES_DECISIONS = [(d.position, d.dice) for d in read_judge_set(CLASSES_SET)]

DMP = Rules(match_length=7)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(plies=0)


def _dmp(position: Position, dice: tuple[int, int]) -> Situation:
    """Double match point: only winning counts, gammons and the cube play no part."""
    return Situation(position, dice=dice, score=(6, 6), rules=DMP)


def test_at_double_match_point_plays_are_ranked_by_the_chance_to_win(engine: Engine) -> None:
    """At 1-away each the match winning chance after a play is its win chance, and the plays come
    best first by it; the money ranking (a bare Position) gives some of these decisions another
    best play, where gammons decide between plays of near equal winning chances."""
    differ = 0
    for position, dice in CLASSES_DECISIONS[:120]:
        hints = engine.hint(_dmp(position, dice), n=3)
        assert hints, position.id
        for h in hints:
            assert h.mwc == pytest.approx(h.probabilities.win, abs=1e-9)
        assert [h.mwc for h in hints] == sorted((h.mwc for h in hints), reverse=True)
        assert engine.best_play(_dmp(position, dice)) == hints[0].play
        money = engine.hint(position, dice, n=3)
        assert all(h.mwc is None for h in money)
        differ += money[0].play != hints[0].play
    assert differ >= 5, differ  # 14% of such decisions at DMP when this test was written


def test_a_play_that_wins_the_game_is_worth_the_match_score_it_reaches(engine: Engine) -> None:
    """Two checkers left on the ace point, the opponent's 15 on its midpoint: bearing both off
    wins a gammon, at 5-away against 3-away with the cube at 2 four points, the table's 1-away
    against 3-away with the Crawford game to come."""
    position = Position.from_points({1: 2}, {12: 15})
    s = Situation(position, dice=(1, 1), cube_value=2, score=(2, 4), rules=DMP)
    best = engine.hint(s, n=1)[0]
    match = MatchScore.from_away(5, 3)
    assert best.mwc == pytest.approx(mwc_after(match, 5 - 2 * 2, 3), abs=1e-12)


def test_a_game_in_a_match_is_played_as_its_situation(engine: Engine) -> None:
    """Engine.best_play of a Game, and so the computer player, ranks by the match's score."""
    game = Game(Rules(match_length=7), ScriptedDice([(6, 4)]), score=(6, 6))
    game.roll()
    s = game.situation()
    assert engine.best_play(game) == engine.hint(s, n=1)[0].play
    player = EnginePlayer(engine, "engine-0ply")
    assert player.choose_play(game) == engine.best_play(s)


def test_a_match_hint_searches_at_least_the_candidates_and_cuts_to_n(engine: Engine) -> None:
    position, dice = CLASSES_DECISIONS[0]
    assert len(engine.hint(_dmp(position, dice), n=1)) == 1
    many = engine.hint(_dmp(position, dice), n=MATCH_CANDIDATES + 3)
    assert len(many) == min(MATCH_CANDIDATES + 3, len(position.legal_plays(dice)))


def test_at_0_ply_a_match_ranks_every_play_not_only_the_best_five_by_money(engine: Engine) -> None:
    """4-away against 2-away, the mover owning the cube at 2: the play best by match winning
    chances is not among the five best by money equity, and 0 ply, which evaluates every play
    anyway, finds it."""
    s = Situation.at(Position.from_id("9RsAANhmIxkQAA"), cube_value=2, cube_owner=CubeOwner.MOVER,
                     match=MatchScore.from_away(4, 2), dice=(5, 4))
    money = {h.play for h in engine.hint(s.position, (5, 4), n=MATCH_CANDIDATES)}
    every = engine.hint(s, n=100)
    assert len(every) == len(s.position.legal_plays((5, 4)))
    assert engine.best_play(s) == every[0].play and every[0].play not in money
    assert every[0].mwc == max(h.mwc for h in every if h.mwc is not None)
