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
from gammon.play import Play
from gammon.position import Position

__version__ = "0.1.0"

__all__ = [
    "ALL_ROLLS",
    "AmbiguousMoveError",
    "Dice",
    "DiceSource",
    "GammonError",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Play",
    "Position",
    "RandomDice",
    "ScriptedDice",
]
