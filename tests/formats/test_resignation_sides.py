"""A resignation offered by a player not on roll (the opponent of the player to roll, or the
player doubled instead of answering): its Situation, GNU Backgammon ID and XGID."""

from __future__ import annotations

import pytest

from benchmarks.gnubg_harness import run_gnubg
from gammon import InvalidNotationError
from gammon.dice import ScriptedDice
from gammon.formats.ids import read_id
from gammon.formats.matchid import MatchState, gnubg_id, read_gnubg_id
from gammon.formats.xgid import XGID
from gammon.game import Game
from gammon.position import Position
from gammon.rules import WinKind
from gammon.situation import Situation
from tests.helpers import needs_gnubg

AFTER_31 = "sGfwATDgc/ABMA"  # 31 played 8/5 6/5 by player 1, seen by player 0, to roll


def _after_opening() -> Game:
    game = Game(dice=ScriptedDice([(1, 3)]))  # player 1 throws the 3: it plays 31
    game.roll()
    game.play("8/5 6/5")
    assert game.turn == 0
    return game


def test_the_opponent_of_the_player_to_roll_resigns_seen_by_the_player_to_roll() -> None:
    """Player 1 resigns while player 0 is about to roll: the Situation was player 1's, as if it
    were to roll (``4HPwATCwZ/ABMA:MCkAAAAAAAAA``); it is player 0's, who answers."""
    game = _after_opening()
    before = game.situation()
    game.resign(WinKind.SINGLE, player=1)
    s = game.situation()
    assert s == before.replace(resignation=WinKind.SINGLE, opponent_resigns=True)
    # GNU Backgammon's convention: on roll and to decide both player 0; the resigner is the other
    assert gnubg_id(game) == f"{AFTER_31}:MCEAAAAAAAAA"
    state = MatchState.from_id("MCEAAAAAAAAA")
    assert (state.player_on_roll, state.turn, state.resignation) == (0, 0, 1)
    assert read_id(gnubg_id(game)) == s
    assert gnubg_id(s) == gnubg_id(game)
    game.reject_resignation()
    assert game.situation() == before


def test_the_taker_resigns_instead_of_answering_seen_by_the_doubler() -> None:
    game = _after_opening()
    game.double()
    doubled = game.situation()
    game.resign(WinKind.SINGLE)  # player 1, instead of taking or passing
    s = game.situation()
    assert s == doubled.replace(resignation=WinKind.SINGLE, opponent_resigns=True)
    assert s.double_offered and s.position == Position.from_id(AFTER_31)
    assert gnubg_id(game) == f"{AFTER_31}:MDEAAAAAAAAA"
    assert read_gnubg_id(gnubg_id(game)) == s == read_id(gnubg_id(game))
    assert gnubg_id(s) == gnubg_id(game)


def test_the_player_on_roll_resigning_is_seen_as_before() -> None:
    game = _after_opening()
    game.resign(WinKind.GAMMON)
    s = game.situation()
    assert (s.resignation, s.opponent_resigns, s.position.id) == (WinKind.GAMMON, False, AFTER_31)
    assert gnubg_id(game) == f"{AFTER_31}:MEkAAAAAAAAA"
    assert read_id(gnubg_id(game)) == s


@needs_gnubg
def test_the_takers_resignation_id_is_gnubgs() -> None:
    """GNU Backgammon, doubled after the same opening, resigns instead of answering, then has the
    resignation rejected: its IDs are ours."""
    script = """
for c in ['set player 0 human', 'set player 1 human', 'new session',
          'set gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA', 'set dice 3 1', 'move 8/5 6/5', 'double']:
    gnubg.command(c)
emit(gnubg.gnubgid())
gnubg.command('resign single')
emit(gnubg.gnubgid())
gnubg.command('reject')
emit(gnubg.gnubgid())
"""
    expected = run_gnubg(script, expect=3)
    game = _after_opening()
    game.double()
    got = [gnubg_id(game)]
    game.resign(WinKind.SINGLE)
    got.append(gnubg_id(game))
    game.reject_resignation()
    got.append(gnubg_id(game))
    assert got == expected


def test_a_situation_says_who_resigns_and_refuses_what_no_game_has() -> None:
    p = Position.from_id(AFTER_31)
    with pytest.raises(ValueError, match="no resignation is offered"):
        Situation(p, opponent_resigns=True)
    with pytest.raises(ValueError, match="no dice"):
        Situation(p, dice=(3, 1), resignation=WinKind.SINGLE, opponent_resigns=True)
    with pytest.raises(ValueError, match="doubler's resignation"):
        Situation(p, double_offered=True, resignation=WinKind.SINGLE)
    # the doubler resigning with its double on offer: refused in the ID too
    with pytest.raises(InvalidNotationError, match="both on offer"):
        read_id(f"{AFTER_31}:MDkAAAAAAAAA")


def test_an_xgid_refuses_a_resignation_it_cannot_hold() -> None:
    game = _after_opening()
    game.resign(WinKind.SINGLE, player=1)
    with pytest.raises(ValueError, match="XGID cannot hold a resignation"):
        XGID.from_game(game)
    with pytest.raises(ValueError, match="XGID cannot hold a resignation"):
        XGID.from_situation(game.situation())


@needs_gnubg
def test_a_resignation_after_the_roll_keeps_the_dice_as_gnubg_does() -> None:
    """The player who rolled 31 resigns a gammon: GNU Backgammon's ID keeps the roll
    (``cMEFAAAAAAAA``); ours dropped it (``cEEAAAAAAAAA``), and the Situation had no dice."""
    script = """
for c in ['set player 0 human', 'set player 1 human', 'new session',
          'set gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA', 'set dice 3 1', 'resign gammon']:
    gnubg.command(c)
emit(gnubg.gnubgid())
"""
    [expected] = run_gnubg(script, expect=1)
    game = Game(dice=ScriptedDice([(1, 3)]))
    game.roll()
    game.resign(WinKind.GAMMON)
    assert gnubg_id(game) == expected == "4HPwATDgc/ABMA:cMEFAAAAAAAA"
    s = game.situation()
    assert (s.dice, s.resignation, s.opponent_resigns) == ((3, 1), WinKind.GAMMON, False)
    assert read_id(expected) == s
    game.reject_resignation()
    assert game.situation() == s.replace(resignation=None)
