"""The engine: best plays, evaluations, hints, cube decisions and rollouts (:class:`Engine`).

Its rooms: ``net/`` (the inputs, the nets and their weights, the evaluation cache, the evaluator
interface and its :class:`Probabilities`), ``search/`` (plays searched to 0-2 plies with move
filters, the compiled leaves), ``cube/`` (cubeful equities, the match equity table, the cubeful
search, the cube decision), ``rollout/`` (settings, results, the trials and the worker pools),
``bearoff/`` (the one- and two-sided databases); ``engine.py`` (the Engine), ``players.py`` (the
computer players) and ``pubeval.py`` (Tesauro's benchmark player) beside them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gammon.engine.bearoff.one_sided import BearoffDatabase, default_bearoff
    from gammon.engine.cube.cubeful import CubeState
    from gammon.engine.cube.decision import CubeAction, CubeDecision
    from gammon.engine.engine import DEFAULT_PLIES, Engine, Hint, default_evaluator
    from gammon.engine.net.evaluator import Evaluator, PipCountEvaluator, Probabilities
    from gammon.engine.net.neural import NeuralEvaluator
    from gammon.engine.rollout.rollouts import (
        CubeRollout,
        PlayRollout,
        RolloutProgress,
        RolloutResult,
        StandardErrors,
    )
    from gammon.engine.rollout.settings import RolloutSettings
    from gammon.engine.search.searcher import MoveFilter, SearchSettings

_EXPORTS = {
    "BearoffDatabase": "gammon.engine.bearoff.one_sided",
    "default_bearoff": "gammon.engine.bearoff.one_sided",
    "CubeState": "gammon.engine.cube.cubeful",
    "CubeAction": "gammon.engine.cube.decision",
    "CubeDecision": "gammon.engine.cube.decision",
    "DEFAULT_PLIES": "gammon.engine.engine",
    "Engine": "gammon.engine.engine",
    "Hint": "gammon.engine.engine",
    "default_evaluator": "gammon.engine.engine",
    "Evaluator": "gammon.engine.net.evaluator",
    "PipCountEvaluator": "gammon.engine.net.evaluator",
    "Probabilities": "gammon.engine.net.evaluator",
    "NeuralEvaluator": "gammon.engine.net.neural",
    "CubeRollout": "gammon.engine.rollout.rollouts",
    "PlayRollout": "gammon.engine.rollout.rollouts",
    "RolloutProgress": "gammon.engine.rollout.rollouts",
    "RolloutResult": "gammon.engine.rollout.rollouts",
    "StandardErrors": "gammon.engine.rollout.rollouts",
    "RolloutSettings": "gammon.engine.rollout.settings",
    "MoveFilter": "gammon.engine.search.searcher",
    "SearchSettings": "gammon.engine.search.searcher",
}


def __getattr__(name: str) -> object:
    # Loaded on first use: importing one room (gammon.engine.net.encode, say) must not load the
    # whole engine and its kernels.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gammon.engine' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "BearoffDatabase",
    "CubeAction",
    "CubeDecision",
    "CubeRollout",
    "CubeState",
    "DEFAULT_PLIES",
    "Engine",
    "Evaluator",
    "Hint",
    "MoveFilter",
    "NeuralEvaluator",
    "PipCountEvaluator",
    "PlayRollout",
    "Probabilities",
    "RolloutProgress",
    "RolloutResult",
    "RolloutSettings",
    "SearchSettings",
    "StandardErrors",
    "default_bearoff",
    "default_evaluator",
]
