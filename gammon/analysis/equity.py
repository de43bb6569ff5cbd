"""Cubeful equity in EMG for the analysis: the cube and score seen by one player, and the value of
a position for the player on roll at that cube and score.

Every equity of the analysis is, as in GNU Backgammon, the cubeful equity of the player concerned
in EMG (equivalent to money game): money equity per unit of the current cube, or in a match the
match winning chances (MWC) scaled so that losing the current cube's worth is -1 and winning it +1
(Kazaross-XG2 table). A position's cubeful value comes from its cubeless probabilities through the
engine's cube model (Janowski for money, the match equity curves in matches) and includes the
option of the player on roll to double: it is the equity after that player's best cube action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gammon.engine.cube.cubeful import MatchCube, cube_efficiency, mwc_after
from gammon.engine.cube.decision import match_cube_decision, money_cube_decision
from gammon.engine.net.evaluator import Probabilities
from gammon.situation import CubeOwner, MatchScore

if TYPE_CHECKING:
    from gammon.game import Game
    from gammon.position import Position
    from gammon.situation import Situation


@dataclass(frozen=True)
class Stakes:
    """What is at stake for ``player``: the cube, the score and the rules that value a game, as
    that player sees them; its equities are measured in them. (A
    :class:`~gammon.situation.Situation` is one decision; these are one player's stakes, the same
    for every decision of a turn.)

    ``owner`` is from ``player``'s view; ``match`` None for money; ``can_double``: the cube may be
    turned by ``player`` at its turn (rules, Crawford game, ownership, cube limit); ``use_cube``
    False for games played without the cube (the equity is then that of a dead cube)."""

    player: int
    value: int
    owner: CubeOwner
    match: MatchScore | None
    jacoby: bool
    beavers: bool
    can_double: bool
    use_cube: bool

    @classmethod
    def of(cls, game: Game, player: int) -> Stakes:
        """``player``'s view of ``game``'s cube and score as they stand (a double still waiting
        for its answer has not turned the cube)."""
        cube = game.cube
        rules = game.rules
        owner = CubeOwner.seen_by(cube.owner, player)
        match = None
        if rules.match_length:
            match = MatchScore.from_away(rules.match_length - game.score[player],
                                         rules.match_length - game.score[1 - player], game.crawford_game)
        can_double = cube.why_not_double(player, rules, game.crawford_game) is None
        return cls(player, cube.value, owner, match, rules.jacoby, rules.beavers, can_double,
                   rules.use_cube)

    @classmethod
    def seen_in(cls, situation: Situation, opponent: bool = False) -> Stakes:
        """The stakes of ``situation``'s player on roll (player 0 here), or with ``opponent`` of
        its opponent (player 1): what :meth:`of` gives for the same game and player."""
        rules = situation.rules
        owner = situation.cube_owner
        match = situation.match
        if opponent:
            owner = {CubeOwner.MOVER: CubeOwner.OPPONENT,
                     CubeOwner.OPPONENT: CubeOwner.MOVER}.get(owner, owner)
            match = match.flip() if match is not None else None
        can_double = (rules.use_cube and not situation.crawford_game and owner is not CubeOwner.OPPONENT
                      and (rules.cube_limit is None or 2 * situation.cube_value <= rules.cube_limit))
        return cls(int(opponent), situation.cube_value, owner, match, rules.jacoby, rules.beavers,
                   can_double, rules.use_cube)

    # --- values ------------------------------------------------------------------------------

    def equity(self, position: Position, probs: Probabilities) -> float:
        """EMG of the player on roll of ``position`` (this view's player), before its roll, with
        cubeless chances ``probs``, after its best cube action."""
        x = cube_efficiency(position.is_race(), position.pip_counts[0])
        if self.match is None:
            if not self.use_cube:  # no cube: the cubeless equity, gammons as the rules count them
                return probs.equity if not self.jacoby else 2.0 * probs.win - 1.0
            return money_cube_decision(probs, self.owner, x, jacoby=self.jacoby,
                                       available=self.can_double, beavers=self.beavers).best_equity
        if not self.use_cube:
            cube = MatchCube(probs.as_array(), self.match, x)
            mwc = probs.win * cube.win_value(self.value) + probs.lose * cube.loss_value(self.value)
            return self.emg(mwc)
        return match_cube_decision(probs, self.match, self.value, self.owner, x,
                                   available=self.can_double).best_equity

    # --- units -------------------------------------------------------------------------------

    def _win_lose(self) -> tuple[float, float]:
        """MWC after winning and after losing the current cube's worth (a single game)."""
        m = self.match
        assert m is not None
        return (mwc_after(m, m.away - self.value, m.opponent_away),
                mwc_after(m, m.away, m.opponent_away - self.value))

    def emg(self, mwc: float) -> float:
        """The EMG of a match winning chance (matches only)."""
        win, lose = self._win_lose()
        return 2.0 * (mwc - lose) / (win - lose) - 1.0 if win > lose else 0.0

    def mwc(self, emg: float) -> float:
        """The match winning chance of an EMG (matches only)."""
        win, lose = self._win_lose()
        return lose + (emg + 1.0) / 2.0 * (win - lose)

    def cost(self, emg: float) -> float:
        """What an EMG difference is worth: MWC in a match, points (times the cube) for money."""
        if self.match is None:
            return emg * self.value
        win, lose = self._win_lose()
        return emg * (win - lose) / 2.0
