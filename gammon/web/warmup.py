"""Load what the server runs before it answers: the net, the bear-off database and every numba kernel
a game runs (numba compiles each on its first call, or loads it from its cache; half a minute and
more on a busy machine where it compiles: a first game that waited on it looked hung).

Each process warms what it runs itself:

* an engine worker (gammon.web.engine_pool, from its initializer when the pool starts with the
  server): a few turns of a money game at each engine level, the computer's plays and cube decisions
  on both sides, and a hint for each roll, through the worker's own entry points; then the bear-off
  database's evaluation, which those turns do not reach;
* the server process (:func:`warm_server`): the legal plays, their single-step orders (the browser's
  steps) and the levels it plays itself (``INLINE_LEVELS``). It loads no evaluation kernel and no
  bear-off database for play; the position editor's hints and evaluations (gammon.web.study), the
  one engine work it does itself, load them when first asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

import numpy as np

from gammon.dice import RandomDice
from gammon.engine.players import ComputerAction, available_levels, computer_player
from gammon.game import Game, GamePhase
from gammon.match import Match
from gammon.position import Position
from gammon.rules import Rules
from gammon.situation import CubeOwner, MatchScore
from gammon.steps import step_sequences

INLINE_LEVELS = ("random",)
"""Computer levels cheap enough to play on the event loop: no engine, one random pick."""

_ACTIONS = 12  # the opening, a few plays each, a double and its answer (a second each, at most)

Decide = Callable[[Game], ComputerAction]
OnRoll = Callable[[Position, tuple[int, int]], object]


def play_warm_up(decide: Decide, on_roll: OnRoll, seed: int = 1) -> None:
    """A few turns of a money game, ``decide`` acting for both sides (with a double and its answer),
    ``on_roll`` called on each roll to play."""
    game = Match(Rules(), RandomDice(seed)).game
    for step in range(_ACTIONS):
        if game.phase is GamePhase.OVER:
            break
        if game.phase is GamePhase.OPENING:
            game.roll()
            continue
        if game.phase is GamePhase.MOVE and game.dice is not None:
            on_roll(game.position, game.dice)
        if step == _ACTIONS - 4 and game.can_double():
            game.double()  # so that the answer to a double is loaded too
            continue
        decide(game).perform(game)


def warm_worker(
    levels: Iterable[str], act: Callable[[str, Game], ComputerAction], hint: OnRoll | None
) -> None:
    """In an engine worker: a warm-up game for each of ``levels``, ``act(level, game)`` finding the
    computer's actions and ``hint`` (if given) the hints of each roll."""
    # deferred to the worker: it loads the engine, which the server process starts without
    from gammon.engine.bearoff.one_sided import default_bearoff
    from gammon.engine.cube.cubeful import CubeState, match_equities

    for level in levels:
        play_warm_up(partial(act, level), hint or _nothing)
    # the bear-off database's arithmetic, which those few turns never reach
    default_bearoff().probabilities(np.array([Position.from_points({1: 2, 3: 1}, {2: 2}).as_array()]))
    # and the match equity curves of a match's cube decisions (the warm-up game is for money)
    match_equities(np.full((1, 5), 0.2), np.array([0.7]), MatchScore(3, 3), [CubeState(1, CubeOwner.CENTRED)])


def warm_server(levels: Iterable[str] | None = None) -> None:
    """In the server process: the levels it offers (which reads the net, to know whether it is
    installed), and a warm-up game for each level it plays itself (by default the inline levels),
    with the step orders of each roll."""
    available_levels()
    for level in INLINE_LEVELS if levels is None else levels:
        play_warm_up(computer_player(level, seed=1).next_action, step_sequences)


def _nothing(position: Position, dice: tuple[int, int]) -> None:
    return None
