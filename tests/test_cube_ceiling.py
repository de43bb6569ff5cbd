"""The highest cube of any game, 32768 (GNU Backgammon's): a game refuses a double or a beaver past
it, while a game recorded past it (stored before the cube stopped there) still replays."""

from __future__ import annotations

import pytest

from gammon.analysis import analyse
from gammon.dice import RandomDice
from gammon.engine.engine import Engine
from gammon.errors import IllegalActionError, InvalidArgumentError
from gammon.formats.matchid import gnubg_id
from gammon.game import ActionKind, Beaver, Double, Game, GamePhase
from gammon.protocols.gnubg_external import GnubgExternalPlayer
from gammon.refusal import Refusal
from gammon.rules import Rules

BEAVERS = Rules(beavers=True)


def doubled_to(value: int) -> Game:
    """A money game with beavers where the player on turn has just doubled to ``value``: every
    turn its player doubles and the opponent takes, then rolls and makes the first legal play."""
    game = Game(BEAVERS, RandomDice(5))
    game.roll()
    while True:
        if game.phase is GamePhase.MOVE:
            game.play(game.legal_plays()[0])
        elif game.phase is GamePhase.ROLL and game.can_double():
            game.double()
            if game.cube_value * 2 == value:
                return game
            game.take()
        else:
            game.roll()
        assert game.phase is not GamePhase.OVER


def test_a_beaver_past_32768_is_refused_and_the_take_stands() -> None:
    game = doubled_to(32768)
    assert ActionKind.BEAVER not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="past 32768, the highest cube of any game") as e:
        game.beaver()
    assert e.value.refused is not None and e.value.refused.refusal is Refusal.BEAVER_LIMIT
    game.take()
    assert game.cube_value == 32768 and gnubg_id(game)  # the Match ID holds it
    game.roll()
    if game.phase is GamePhase.MOVE:
        game.play(game.legal_plays()[0])
    assert game.turn == game.cube_owner  # the taker's turn: its cube is at the top
    assert not game.can_double() and ActionKind.DOUBLE not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="the cube is at 32768, the highest cube of any game"):
        game.double()


def test_a_beaver_to_32768_is_allowed() -> None:
    game = doubled_to(16384)
    assert ActionKind.BEAVER in game.legal_actions()
    game.beaver()
    assert game.cube_value == 32768


def test_a_game_recorded_past_32768_replays_as_it_was_played() -> None:
    game = doubled_to(32768)
    history = [*game.history, Beaver(1 - game.history[-1].player, 65536)]
    replayed = Game.replay(history, BEAVERS)
    assert replayed.history == history and replayed.cube_value == 65536
    assert isinstance(history[-2], Double)
    assert not replayed.can_double()  # the cube stays where the record left it
    # a rules' own limit is still kept in a record
    with pytest.raises(IllegalActionError, match="limit of 16384"):
        Game.replay(game.history, Rules(beavers=True, cube_limit=16384))


class _BeaveringGnubg(GnubgExternalPlayer):
    """GNU Backgammon answering every double with a beaver (it is not told the highest cube)."""

    def _cube_word(self, game: Game, words: tuple[str, ...]) -> str:
        return "beaver"


def test_gnu_backgammon_s_beaver_past_32768_is_a_take() -> None:
    player = _BeaveringGnubg("localhost", 1)
    game = doubled_to(32768)
    assert player.next_action(game).kind is ActionKind.TAKE
    assert player.next_action(doubled_to(16384)).kind is ActionKind.BEAVER


def test_a_game_recorded_past_32768_is_refused_by_the_analysis_with_its_reason() -> None:
    game = doubled_to(32768)
    game = Game.replay([*game.history, Beaver(1 - game.history[-1].player, 65536)], BEAVERS)
    game.roll()  # a decision with the cube at 65536, which no Match ID holds
    with pytest.raises(InvalidArgumentError, match="cube reached 65536, past 32768, the highest"):
        analyse([game], Engine(plies=0))
