"""A resignation on offer judged by the engine: what resigning leaves the player who offers it
against what playing on is worth to it (its proper cube action taken), from the cube decision of
its position. The opponent accepts when resigning gives it no less than playing on would."""

from __future__ import annotations

from typing import NamedTuple

from gammon.engine.cube.cubeful import mwc_after
from gammon.engine.cube.decision import CubeDecision
from gammon.situation import CubeOwner, Situation


class ResignationAnswer(NamedTuple):
    """The opponent's answer to the resignation the player on roll offers: ``points`` (the cube
    and Jacoby applied); ``given``, what resigning leaves the player on roll, and ``kept``, what
    playing on is worth to it (its proper cube action taken), both cubeful equity per cube for
    money, match winning chances in a match; the opponent accepts when ``given <= kept``."""

    points: int
    given: float
    kept: float

    @property
    def accept(self) -> bool:
        return self.given <= self.kept


def resignation_answer(decision: CubeDecision, context: Situation) -> ResignationAnswer | None:
    """The answer to ``context``'s resignation on offer (None when there is none), from the cube
    decision of its position."""
    kind = context.resignation
    if kind is None:
        return None
    owner = None if context.cube_owner is CubeOwner.CENTRED else 0  # only a centred cube matters (Jacoby)
    points = context.rules.points(kind, context.cube_value, owner)
    match = context.match
    if match is None:
        return ResignationAnswer(points, -points / context.cube_value, decision.best_equity)
    assert decision.match_winning_chances is not None
    nd, dt, dp = decision.match_winning_chances
    kept = min(dt, dp) if decision.should_double else nd
    return ResignationAnswer(points, mwc_after(match, match.away, match.opponent_away - points), kept)
