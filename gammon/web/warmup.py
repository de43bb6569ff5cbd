"""Load the engine before the server answers: the net, the bear-off database and every numba kernel a
game runs (numba compiles each on its first call, half a minute and more on a busy machine; a first
game that waited on it looked hung).

A short money game with the computer's cube decisions on both sides goes through the kernels the
server uses: the legal plays and their single-step orders (the browser's steps), the strongest
computer level's plays, doubles, takes and hints.
"""

from __future__ import annotations

from gammon.dice import RandomDice
from gammon.engine.players import available_levels, computer_player
from gammon.game import GamePhase
from gammon.match import Match
from gammon.rules import Rules
from gammon.web.hints import default_advisor, hints
from gammon.web.steps import step_sequences

_ACTIONS = 12  # the opening, a few plays each, a double and its answer (a second each, at most)


def warm_up(seed: int = 1) -> None:
    """Play a few turns of a money game with the strongest level here on both sides."""
    player = computer_player(available_levels()[-1])
    advisor = default_advisor()
    game = Match(Rules(), RandomDice(seed)).game
    for step in range(_ACTIONS):
        if game.phase is GamePhase.OVER:
            break
        if game.phase is GamePhase.OPENING:
            game.roll()
            continue
        if game.phase is GamePhase.MOVE and game.dice is not None:
            step_sequences(game.position, game.dice)
            hints(advisor, game.position, game.dice)
        if step == _ACTIONS - 4 and game.can_double():
            game.double()  # so that the answer to a double is compiled too
            continue
        action = player.next_action(game)
        action.perform(game)
