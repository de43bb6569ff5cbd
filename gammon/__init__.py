"""gammon: backgammon rules, engine, formats and play."""

from gammon.dice import ALL_ROLLS, Dice, DiceSource, RandomDice, ScriptedDice
from gammon.errors import (
    AmbiguousMoveError,
    GammonError,
    IllegalActionError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
)
from gammon.game import Game, GamePhase
from gammon.match import Match
from gammon.play import Play
from gammon.position import Position
from gammon.rules import GameResult, Rules, WinKind

__version__ = "0.1.0"

__all__ = [
    "ALL_ROLLS",
    "AmbiguousMoveError",
    "Dice",
    "DiceSource",
    "Game",
    "GamePhase",
    "GameResult",
    "GammonError",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Match",
    "Play",
    "Position",
    "RandomDice",
    "Rules",
    "ScriptedDice",
    "WinKind",
]
