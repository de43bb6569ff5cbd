"""Match: a sequence of games to ``match_length`` points with the Crawford rule, or a money
session (``match_length`` 0) whose score only accumulates."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from gammon.dice import DiceSource, RandomDice
from gammon.errors import IllegalActionError, InvalidArgumentError, cut
from gammon.game import Game, Request
from gammon.refusal import Refusal, Refused
from gammon.rules import Rules


@dataclass(frozen=True)
class NewGame:
    """The request for the match's next game, once the current one is over (the one request that
    is not a game's action)."""


class Match:
    """Games played one after another from the score 0-0, all with the same rules and dice."""

    def __init__(self, rules: Rules | None = None, dice: DiceSource | None = None) -> None:
        self._rules = Rules() if rules is None else rules
        if not isinstance(self._rules, Rules):
            raise InvalidArgumentError(f"rules must be a Rules, got {cut(repr(rules))}")
        self._dice: DiceSource = RandomDice() if dice is None else dice
        self._games = [Game(self._rules, self._dice)]

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def games(self) -> list[Game]:
        """Every game so far, the current one last (a copy of the list)."""
        return list(self._games)

    @property
    def game(self) -> Game:
        return self._games[-1]

    @property
    def score(self) -> tuple[int, int]:
        """Points won so far, the current game's included once it is over."""
        game = self.game
        return score_after(game) if game.is_over else game.score

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def winner(self) -> int | None:
        length = self._rules.match_length
        if length == 0:
            return None
        score = self.score
        return next((p for p in (0, 1) if score[p] >= length), None)

    @property
    def is_crawford_game(self) -> bool:
        return self.game.crawford_game

    def why_not(self, request: Request | NewGame) -> Refused | None:
        """Why ``request`` would be refused now (:mod:`gammon.refusal`), or None."""
        if not isinstance(request, NewGame):
            return self.game.why_not(request)
        if not self.game.is_over:
            return Refused(Refusal.GAME_NOT_OVER)
        if self.is_over:
            return Refused(Refusal.MATCH_OVER, score=self.score)
        return None

    def apply(self, request: Request | NewGame) -> None:
        """Make ``request``: the next game, or an action of the current game (:meth:`Game.apply`).
        A refused request changes nothing and raises the game's errors."""
        if isinstance(request, NewGame):
            self.new_game()
        else:
            self.game.apply(request)

    def new_game(self) -> Game:
        """Start the next game once the current one is over; returns it."""
        refused = self.why_not(NewGame())
        if refused:
            raise IllegalActionError(f"cannot start a new game: {refused.words()}", refused)
        game = Game(self._rules, self._dice, self.score, crawford_game=self._next_is_crawford())
        self._games.append(game)
        return game

    def __copy__(self) -> Match:
        """``copy.copy(match)``: a match that goes on on its own from here, each game copied (see
        :meth:`Game.__copy__`), drawing from the same dice source."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._games = [copy.copy(game) for game in self._games]
        return twin

    def _next_is_crawford(self) -> bool:
        # The game right after a player FIRST reaches match_length - 1: the last game took a
        # player there, and before it nobody was there.
        rules = self._rules
        if rules.is_money or not rules.crawford:
            return False
        last = self.game
        match_point = rules.match_length - 1
        return match_point in score_after(last) and match_point not in last.score


def score_after(game: Game) -> tuple[int, int]:
    """The score after ``game``, which is over."""
    score = list(game.score)
    if game.result is not None:
        score[game.result.winner] += game.result.points
    return (score[0], score[1])
