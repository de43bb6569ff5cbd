"""A match file's games replayed into a Match: the loop every reader of whole matches shares."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from gammon.errors import GammonError, InvalidNotationError
from gammon.game import Game
from gammon.match import Match
from gammon.rules import Rules

G = TypeVar("G")


def replay_games(rules: Rules, games: Sequence[G], replay: Callable[[Game, G], None],
                 where: Callable[[G], str]) -> Match:
    """A Match under ``rules`` whose games are ``games``, each made by ``replay(game, record)``
    (which raises :class:`InvalidNotationError` for what the file gets wrong); a game that may
    not start (the match is over) is an error named by ``where(record)``."""
    match = Match(rules)
    for k, record in enumerate(games):
        if k:
            try:
                match.new_game()
            except GammonError as e:
                raise InvalidNotationError(f"{where(record)}: {e}") from None
        replay(match.game, record)
    return match
