"""A :class:`Play` object that is no legal play is refused with the reason the notation gives."""

import re

import pytest

from gammon import IllegalMoveError
from gammon.dice import ScriptedDice
from gammon.game import Game
from gammon.i18n import use_language
from gammon.play import Play
from gammon.position import Position


def _rolled(d1: int, d2: int) -> Game:
    game = Game(dice=ScriptedDice([(d1, d2)]))
    game.roll()
    return game


def _short_play(game: Game) -> Play:
    # 24/22 alone with 6-2: a start of a legal play that leaves the 6 unused
    position = game.position
    board = list(position.board)
    board[24] -= 1
    board[22] += 1
    return Play(position, (6, 2), ((24, 22),), Position(board).flip())


def test_a_short_play_object_says_why_with_the_dice_as_a_roll() -> None:
    game = _rolled(6, 2)
    with pytest.raises(IllegalMoveError) as e:
        game.play(_short_play(game))
    words = str(e.value)
    assert words.startswith("'24/22' is not a legal play in position 4HPwATDgc/ABMA with 6-2: "
                            "you must use both dice; legal plays include ")
    assert "62" not in words


def test_a_play_object_of_another_roll_names_the_rule_it_breaks() -> None:
    game = _rolled(6, 2)
    other = game.position.legal_plays((3, 1))[0]
    with pytest.raises(IllegalMoveError, match=re.escape("with 6-2: no die of 6-2 moves a checker")):
        game.play(other)


def test_a_play_object_of_another_position_says_so() -> None:
    game = _rolled(6, 2)
    elsewhere = game.position.legal_plays((6, 2))[0].after.flip()
    stray = elsewhere.legal_plays((6, 2))[0]
    with pytest.raises(IllegalMoveError, match=re.escape(f"is a play from position {elsewhere.id}, not in "
                                                         "position 4HPwATDgc/ABMA with 6-2")):
        game.play(stray)


def test_a_play_object_is_refused_in_every_language() -> None:
    game = _rolled(6, 2)
    for lang, words in (("pl", "musisz użyć obu kostek"), ("cs", "musíte použít obě kostky"),
                        ("sk", "musíš použiť obe kocky")):
        with use_language(lang), pytest.raises(IllegalMoveError, match=re.escape(words)):
            game.play(_short_play(game))
    elsewhere = game.position.legal_plays((6, 2))[0].after.flip()
    with use_language("pl"), pytest.raises(IllegalMoveError, match=re.escape("to ruch z pozycji")):
        game.play(elsewhere.legal_plays((6, 2))[0])
