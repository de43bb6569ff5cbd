"""The types of gammon's top-level names, for type checkers (py.typed).

The engine's names (Engine, Probabilities, CubeDecision) are loaded on first use by the module's
__getattr__, which a type checker reads as returning an object: `from gammon import Engine` would
not be callable. This stub names what they are; tests/test_api_review.py keeps it in step with
__init__.py. (A TYPE_CHECKING import in __init__.py would make the formats import the engine, as
the import contracts read it.)
"""

from gammon.dice import ALL_ROLLS, Dice, DiceSource, RandomDice, ScriptedDice
from gammon.engine.cube.decision import CubeDecision
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import Probabilities
from gammon.errors import (
    AmbiguousMoveError,
    GammonError,
    IllegalActionError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidPositionError,
)
from gammon.game import Action, ActionKind, Game, GamePhase, Request
from gammon.match import Match, NewGame
from gammon.play import Play
from gammon.position import Position
from gammon.refusal import Refusal, Refused
from gammon.rules import GameResult, Rules, WinKind
from gammon.situation import CubeOwner, MatchScore, Situation
from gammon.words import describe

__version__: str

__all__ = [
    "ALL_ROLLS",
    "Action",
    "ActionKind",
    "AmbiguousMoveError",
    "CubeDecision",
    "CubeOwner",
    "Dice",
    "Engine",
    "DiceSource",
    "Game",
    "GamePhase",
    "GameResult",
    "GammonError",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Match",
    "MatchScore",
    "NewGame",
    "Play",
    "Position",
    "Probabilities",
    "RandomDice",
    "Refusal",
    "Refused",
    "Request",
    "Rules",
    "ScriptedDice",
    "Situation",
    "WinKind",
    "describe",
]
