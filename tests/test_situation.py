"""Situation: what Game, the GNU Backgammon ID and the XGID say of one decision agree."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import CubeOwner, Game, GamePhase, MatchScore, Position, Rules, Situation
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import PipCountEvaluator
from gammon.errors import IllegalActionError
from gammon.formats.matchid import gnubg_id, read_gnubg_id
from gammon.formats.xgid import XGID, read_xgid
from gammon.game import PlayMade
from tests.formats.random_play import play_match

RULES = st.sampled_from([Rules(), Rules(jacoby=False), Rules(match_length=5), Rules(match_length=7),
                         Rules(beavers=True)])


def _states(seed: int, rules: Rules) -> list[Game]:
    """Every state of a short random match or session in which something is decided."""
    out = []
    for game in play_match(seed, rules, games=2, double=0.15, resign=0.03).games:
        history = game.history
        for k in range(1, len(history) + 1):
            if k < len(history) and isinstance(history[k], PlayMade) and history[k].play is None:
                continue  # a pass is made by the roll before it
            state = Game.replay(history[:k], game.rules, game.score, game.crawford_game)
            if state.phase not in (GamePhase.OPENING, GamePhase.OVER):
                out.append(state)
    return out


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000), RULES)
def test_a_games_situation_round_trips_through_the_gnubg_id(seed: int, rules: Rules) -> None:
    for game in _states(seed, rules):
        s = game.situation()
        s = s.replace(rules=replace(s.rules, beavers=False))  # a Match ID does not say
        assert read_gnubg_id(gnubg_id(s)) == s
        assert read_gnubg_id(gnubg_id(game)) == s  # the game's own ID reads as its situation


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000), RULES)
def test_a_games_situation_round_trips_through_the_xgid(seed: int, rules: Rules) -> None:
    for game in _states(seed, rules):
        if game.phase is GamePhase.RESIGNED:
            continue  # an XGID has no resignation
        s = game.situation()
        assert read_xgid(str(XGID.from_situation(s))) == s
        assert read_xgid(str(XGID.from_game(game))) == s


def test_the_view_while_a_double_or_a_resignation_awaits_its_answer() -> None:
    game = Game(Rules(match_length=5))
    game.roll()
    game.play(game.legal_plays()[0])
    doubler = game.turn
    game.double()
    s = game.situation()
    assert game.turn == 1 - doubler and s.double_offered and s.is_answer_pending
    assert s.position == game.position_for(doubler)
    assert s.dice is None and s.cube_value == 1 and s.cube_owner is CubeOwner.CENTRED
    game.take()
    s = game.situation()
    assert s.cube_value == 2 and s.cube_owner is CubeOwner.OPPONENT and not s.is_answer_pending
    game.resign(1)
    s = game.situation()
    assert s.resignation == 1 and s.position == game.position_for(doubler)


def test_a_double_cannot_be_on_offer_while_the_opponent_owns_the_cube() -> None:
    position = Game().position
    for owner in (CubeOwner.CENTRED, CubeOwner.MOVER):
        assert Situation(position, cube_value=2, cube_owner=owner, double_offered=True).double_offered
    with pytest.raises(ValueError, match="a double is offered, but the opponent owns the cube"):
        Situation(position, cube_value=2, cube_owner=CubeOwner.OPPONENT, double_offered=True)


def test_nothing_is_decided_before_the_opening_roll_or_after_the_end() -> None:
    with pytest.raises(IllegalActionError, match="opening roll"):
        Game().situation()


def test_a_position_is_the_money_shorthand() -> None:
    p = Position.initial()
    s = Situation.of(p)
    assert s == Situation(p) and s.is_money and s.jacoby and s.match is None and s.can_double
    assert Situation.at(p, match=MatchScore(2, 4)).match == MatchScore(2, 4)
    with pytest.raises(ValueError, match="cube value"):
        Situation(p, cube_value=3)
    with pytest.raises(ValueError, match="already won"):
        Situation(p, score=(5, 0), rules=Rules(match_length=5))


def test_a_crawford_flag_without_a_side_1_away_counts_nowhere() -> None:
    """GNU Backgammon's reading: the flag is ignored at 0-0, by the score and the cube alike (the
    cube was dead there, and the engine said the cube was not available)."""
    five = Rules(match_length=5)
    ignored = Situation(Position.initial(), crawford_game=True, rules=five)
    assert not ignored.match.crawford_game and ignored.can_double  # type: ignore[union-attr]
    crawford = Situation(Position.initial(), score=(4, 2), crawford_game=True, rules=five)
    assert crawford.match.crawford_game and not crawford.can_double  # type: ignore[union-attr]


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10_000), RULES)
def test_the_engine_decides_a_situation_as_it_decided_the_explicit_cube(seed: int, rules: Rules) -> None:
    """``cube_decision(game)`` (through ``game.situation()``) equals the decision of the position
    with the cube and score spelled out, as the engine took them before Situation existed."""
    engine = Engine(plies=0, evaluator=PipCountEvaluator())
    for game in _states(seed, rules):
        doubled = game.phase is GamePhase.DOUBLED
        if not (doubled or game.can_double()):
            continue
        player = 1 - game.turn if doubled else game.turn
        match = None
        if rules.match_length:
            match = MatchScore.from_away(rules.match_length - game.score[player],
                                         rules.match_length - game.score[1 - player], game.crawford_game)
        explicit = Situation.at(game.position_for(player), cube_value=game.cube.value,
                                cube_owner=CubeOwner.seen_by(game.cube.owner, player), match=match,
                                jacoby=rules.jacoby, beavers=rules.beavers)
        assert engine.cube_decision(game) == engine.cube_decision(explicit)
        assert engine.cube_decision(game.situation()) == engine.cube_decision(explicit)
    for game in _states(seed, rules)[:40]:
        if game.phase is GamePhase.MOVE:
            # plays: the Game's own score; a bare position is a money game (in a match the
            # ranking by match winning chances can differ: tests/engine/test_match_play.py)
            s = game.situation()
            match = s.match
            explicit = Situation.at(game.position, cube_value=game.cube.value, cube_owner=s.cube_owner,
                                    match=match, jacoby=rules.jacoby, beavers=rules.beavers, dice=game.dice)
            assert engine.hint(s, n=3) == engine.hint(explicit, n=3)
            assert engine.best_play(s) == engine.best_play(game) == engine.best_play(explicit)
            if match is None:
                assert engine.hint(s, n=3) == engine.hint(s.position, game.dice, n=3)


def test_a_cube_owner_seen_by_the_other_player() -> None:
    assert [o.flip() for o in CubeOwner] == [CubeOwner.CENTRED, CubeOwner.OPPONENT, CubeOwner.MOVER]
    assert all(o.flip().flip() is o for o in CubeOwner)
