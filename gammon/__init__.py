"""gammon: backgammon rules, engine, formats and play."""

import importlib

import gammon.compiled.numba_cache  # noqa: F401  (first: where numba caches, before any kernel is defined)
from gammon.dice import ALL_ROLLS, Dice, DiceSource, RandomDice, ScriptedDice
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

__version__ = "0.1.0"

_LAZY = {"Engine": "gammon.engine.engine", "Probabilities": "gammon.engine.net.evaluator",
         "CubeDecision": "gammon.engine.cube.decision"}


def __getattr__(name: str) -> object:
    # The engine pulls in numba kernels and the bear-off database: load it on first use only.
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'gammon' has no attribute {name!r}")


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
