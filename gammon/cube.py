"""The doubling cube: its value, its owner, and who may turn it."""

from __future__ import annotations

from dataclasses import dataclass

from gammon.refusal import Refusal, Refused
from gammon.rules import Rules


@dataclass(frozen=True)
class Cube:
    """A cube value and its owner (None = centred: either player may double)."""

    value: int = 1
    owner: int | None = None

    def refusal_to_double(self, player: int, rules: Rules, crawford_game: bool = False) -> Refused | None:
        """Why ``player`` may not double now (on its turn, before rolling), or None if it may."""
        if not rules.use_cube:
            return Refused(Refusal.NO_CUBE)
        if crawford_game:
            return Refused(Refusal.CRAWFORD_GAME)
        if self.owner is not None and self.owner != player:
            return Refused(Refusal.CUBE_OWNED, player=self.owner)
        if not self._within_limit(self.value * 2, rules):
            return Refused(Refusal.CUBE_LIMIT, limit=rules.highest_cube)
        return None

    def refusal_to_beaver(self, rules: Rules) -> Refused | None:
        """Why a double to ``2 * value`` may not be beavered (to ``4 * value``), or None."""
        if not rules.is_money:
            return Refused(Refusal.BEAVER_MATCH_PLAY)
        if not rules.beavers:
            return Refused(Refusal.BEAVERS_OFF)
        if not self._within_limit(self.value * 4, rules):
            return Refused(Refusal.BEAVER_LIMIT, limit=rules.highest_cube)
        return None

    def why_not_double(self, player: int, rules: Rules, crawford_game: bool = False) -> str | None:
        """:meth:`refusal_to_double` in the core's words."""
        refused = self.refusal_to_double(player, rules, crawford_game)
        return refused.words() if refused else None

    def why_not_beaver(self, rules: Rules) -> str | None:
        """:meth:`refusal_to_beaver` in the core's words."""
        refused = self.refusal_to_beaver(rules)
        return refused.words() if refused else None

    def allows_recorded(self, refused: Refused, rules: Rules) -> bool:
        """Whether a recorded double or beaver of this cube, ``refused`` now, stands: it only
        passes the highest cube (:data:`gammon.rules.HIGHEST_CUBE`), within the rules' own limit.
        A game stored before the cube stopped there replays as it was played (and has no Match ID)."""
        factor = {Refusal.CUBE_LIMIT: 2, Refusal.BEAVER_LIMIT: 4}.get(refused.refusal)
        return factor is not None and (rules.cube_limit is None or self.value * factor <= rules.cube_limit)

    def taken(self, taker: int) -> Cube:
        """After a double is taken: twice the value, owned by the taker."""
        return Cube(self.value * 2, taker)

    def beavered(self, beaverer: int) -> Cube:
        """After a double is beavered: four times the value, kept by the player who beavered."""
        return Cube(self.value * 4, beaverer)

    def after_opening_ties(self, ties: int, rules: Rules) -> Cube:
        """The centred cube after ``ties`` tied opening throws under automatic doubles."""
        cube = self
        if rules.is_money and rules.use_cube:
            for _ in range(min(ties, rules.automatic_doubles)):
                if not self._within_limit(cube.value * 2, rules):
                    break
                cube = Cube(cube.value * 2, None)
        return cube

    @staticmethod
    def _within_limit(value: int, rules: Rules) -> bool:
        return value <= rules.highest_cube
