"""A resignation on offer judged by the engine: what resigning leaves the player who offers it
against what playing on is worth to it, from the cube decision of the position it would be played
on from (:func:`judged_situation`). The resigner may be the player on roll (playing on: its proper
cube action), or its opponent (``Situation.opponent_resigns``): before the player on roll rolls
(playing on: minus the value of the player on roll's proper cube action), or instead of answering
its double (playing on: the resigner's better of take and pass). The player asked accepts when
resigning gives the resigner no less than playing on would."""

from __future__ import annotations

from typing import NamedTuple

from gammon.engine.cube.cubeful import mwc_after
from gammon.engine.cube.decision import CubeDecision
from gammon.situation import CubeOwner, Situation


class ResignationAnswer(NamedTuple):
    """The answer to the resignation on offer: ``points`` (the cube and Jacoby applied); ``given``,
    what resigning leaves the resigner, and ``kept``, what playing on is worth to it (each side's
    proper cube action taken), both cubeful equity per cube for money, match winning chances in a
    match, for the resigner; the player asked accepts when ``given <= kept``."""

    points: int
    given: float
    kept: float

    @property
    def accept(self) -> bool:
        return self.given <= self.kept


def judged_situation(context: Situation) -> Situation:
    """The Situation whose cube decision values playing on: ``context`` without the resignation
    (and its roll: valued before it), a double the resigner was to answer still on offer."""
    return context.replace(dice=None, resignation=None, opponent_resigns=False)


def resignation_answer(decision: CubeDecision, context: Situation) -> ResignationAnswer | None:
    """The answer to ``context``'s resignation on offer (None when there is none), from the cube
    decision of :func:`judged_situation`'s position (the player on roll's)."""
    kind = context.resignation
    if kind is None:
        return None
    owner = None if context.cube_owner is CubeOwner.CENTRED else 0  # only a centred cube matters (Jacoby)
    points = context.rules.points(kind, context.cube_value, owner)
    mine = not context.opponent_resigns  # the player on roll resigns
    match = context.match
    if match is None:
        on_roll = _on_roll_value(context, decision.double_take, decision.double_pass, decision.best_equity)
        return ResignationAnswer(points, -points / context.cube_value, on_roll if mine else -on_roll)
    assert decision.match_winning_chances is not None
    nd, dt, dp = decision.match_winning_chances
    on_roll = _on_roll_value(context, dt, dp, min(dt, dp) if decision.should_double else nd)
    if mine:
        return ResignationAnswer(points, mwc_after(match, match.away, match.opponent_away - points), on_roll)
    return ResignationAnswer(points, 1.0 - mwc_after(match, match.away - points, match.opponent_away),
                             1.0 - on_roll)


def _on_roll_value(context: Situation, dt: float, dp: float, best: float) -> float:
    """What playing on is worth to the player on roll: after its double on offer, the worse for it
    of take and pass (the taker answers); else ``best``, its proper cube action taken."""
    return min(dt, dp) if context.double_offered else best
