"""Cubeful equity in EMG: the cube and score seen by one player, and the value of a position for
the player on roll at that cube and score. The analysis measures every decision in it, and the
engine ranks its plays in a match by it (``Engine.hint``).

Every equity of the analysis is, as in GNU Backgammon, the cubeful equity of the player concerned
in EMG (equivalent to money game): money equity per unit of the current cube, or in a match the
match winning chances (MWC) scaled so that losing the current cube's worth is -1 and winning it +1
(Kazaross-XG2 table). A position's cubeful value comes from its cubeless probabilities through the
engine's cube model (Janowski for money, the match equity curves in matches) and includes the
option of the player on roll to double: it is the equity after that player's best cube action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gammon.engine.cube.cubeful import (
    OWNER_COLUMNS,
    CubeState,
    MatchCube,
    cube_efficiencies,
    cube_efficiency,
    match_equities,
    money_equities,
    mwc_after,
)
from gammon.engine.cube.decision import CubeAction, classify, match_cube_decision, money_cube_decision
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
            match = MatchScore.from_away(
                rules.match_length - game.score[player],
                rules.match_length - game.score[1 - player],
                game.crawford_game,
                crawford_rule=rules.crawford,
            )
        can_double = cube.why_not_double(player, rules, game.crawford_game) is None
        return cls(player, cube.value, owner, match, rules.jacoby, rules.beavers, can_double, rules.use_cube)

    @classmethod
    def seen_in(cls, situation: Situation, opponent: bool = False) -> Stakes:
        """The stakes of ``situation``'s player on roll (player 0 here), or with ``opponent`` of
        its opponent (player 1): what :meth:`of` gives for the same game and player."""
        rules = situation.rules
        owner = situation.cube_owner
        match = situation.match
        if opponent:
            owner = owner.flip()
            match = match.flip() if match is not None else None
        can_double = (
            rules.use_cube
            and not situation.crawford_game
            and owner is not CubeOwner.OPPONENT
            and 2 * situation.cube_value <= rules.highest_cube
        )
        return cls(
            int(opponent),
            situation.cube_value,
            owner,
            match,
            rules.jacoby,
            rules.beavers,
            can_double,
            rules.use_cube,
        )

    # --- values ------------------------------------------------------------------------------

    def equity(self, position: Position, probs: Probabilities) -> float:
        """EMG of the player on roll of ``position`` (this view's player), before its roll, with
        cubeless chances ``probs``, after its best cube action."""
        x = cube_efficiency(position.is_race(), position.pip_counts[0])
        if self.match is None:
            if not self.use_cube:  # no cube: the cubeless equity, gammons as the rules count them
                return probs.equity if not self.jacoby else 2.0 * probs.win - 1.0
            return money_cube_decision(
                probs, self.owner, x, jacoby=self.jacoby, available=self.can_double, beavers=self.beavers
            ).best_equity
        if not self.use_cube:
            cube = MatchCube(probs.as_array(), self.match, x)
            mwc = probs.win * cube.win_value(self.value) + probs.lose * cube.loss_value(self.value)
            return self.emg(mwc)
        return match_cube_decision(
            probs, self.match, self.value, self.owner, x, available=self.can_double
        ).best_equity

    def equities(self, positions: Sequence[Position], probs: Sequence[Probabilities]) -> list[float]:
        """:meth:`equity` of each position with its chances, the same numbers, the cube valued for all
        of them at once (:func:`gammon.engine.cube.cubeful.match_equities`, the compiled match equity
        curves, and :func:`gammon.engine.cube.cubeful.money_equities`): the analysis values every
        candidate play and the plays of all 21 rolls so."""
        if not self.use_cube or not positions:  # no cube: cheap one by one
            return [self.equity(p, q) for p, q in zip(positions, probs)]
        x = cube_efficiencies(
            np.array([p.is_race() for p in positions]), np.array([p.pip_counts[0] for p in positions])
        )
        chances = np.array([q.as_tuple() for q in probs], dtype=np.float64)
        if self.match is None:
            values = money_equities(chances, x, self.jacoby)
            nd = values[:, OWNER_COLUMNS.index(self.owner)].tolist()
            dt = (2.0 * values[:, OWNER_COLUMNS.index(CubeOwner.OPPONENT)]).tolist()
            available = self.can_double and self.owner is not CubeOwner.OPPONENT
            return [_best(n, d, 1.0, available, n, d, 1.0) for n, d in zip(nd, dt)]
        m, v = self.match, self.value
        mwcs = match_equities(chances, x, m, [CubeState(v, self.owner), CubeState(2 * v, CubeOwner.OPPONENT)])
        dp = mwc_after(m, m.away - v, m.opponent_away)
        win1 = dp
        lose1 = mwc_after(m, m.away, m.opponent_away - v)

        def emg(mwc: float) -> float:  # as match_cube_decision scales them
            return 2.0 * (mwc - lose1) / (win1 - lose1) - 1.0 if win1 > lose1 else 0.0

        available = (
            self.can_double and not m.crawford_game and self.owner is not CubeOwner.OPPONENT and v < m.away
        )
        return [_best(n, d, dp, available, emg(n), emg(d), emg(dp)) for n, d in mwcs.tolist()]

    # --- units -------------------------------------------------------------------------------

    def _win_lose(self) -> tuple[float, float]:
        """MWC after winning and after losing the current cube's worth (a single game)."""
        m = self.match
        assert m is not None
        return (
            mwc_after(m, m.away - self.value, m.opponent_away),
            mwc_after(m, m.away, m.opponent_away - self.value),
        )

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


def _best(
    nd: float, dt: float, dp: float, available: bool, nd_emg: float, dt_emg: float, dp_emg: float
) -> float:
    """:attr:`CubeDecision.best_equity` of the decision :func:`classify` makes of ``nd``, ``dt``,
    ``dp``, in the equities ``*_emg``."""
    action, _ = classify(nd, dt, dp, available)
    if action in (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS):
        return min(dt_emg, dp_emg)
    return nd_emg
