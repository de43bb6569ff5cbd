"""Match: a sequence of games to ``match_length`` points with the Crawford rule, or a money
session (``match_length`` 0) whose score only accumulates."""

from __future__ import annotations

from gammon.dice import DiceSource, RandomDice
from gammon.errors import IllegalActionError
from gammon.game import Game
from gammon.rules import Rules


class Match:
    """Games played one after another from the score 0-0, all with the same rules and dice."""

    def __init__(self, rules: Rules | None = None, dice: DiceSource | None = None) -> None:
        self._rules = Rules() if rules is None else rules
        if not isinstance(self._rules, Rules):
            raise ValueError(f"rules must be a Rules, got {rules!r}")
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

    def new_game(self) -> Game:
        """Start the next game once the current one is over; returns it."""
        if not self.game.is_over:
            raise IllegalActionError("cannot start a new game: the current game is not over")
        if self.is_over:
            raise IllegalActionError(
                f"cannot start a new game: the match is over, {self.score[0]}-{self.score[1]}")
        game = Game(self._rules, self._dice, self.score, crawford_game=self._next_is_crawford())
        self._games.append(game)
        return game

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
