"""Why a cube decision cannot be rolled out: the player on roll may not double, or a double gains
it nothing. Light (the core only), so that a server refuses such a rollout before it starts one."""

from __future__ import annotations

from gammon.i18n import tr
from gammon.situation import CubeOwner, Situation


def cube_rollout_refusal(s: Situation) -> str | None:
    """Why the cube decision of the player on roll in ``s`` is no decision to roll out, or None."""
    match = s.match
    if s.cube_owner is CubeOwner.OPPONENT:
        return tr("the opponent owns the cube: the player on roll may not double")
    if not s.rules.use_cube:
        return tr("these rules play without the cube: the player on roll may not double")
    if match is not None and match.crawford_game:
        return tr("the Crawford game has no cube: the player on roll may not double")
    if not s.can_double:
        return tr("the cube is at {value}, its limit {limit}: the player on roll may not double",
                  value=s.cube_value, limit=s.rules.cube_limit)
    if match is not None and s.cube_value >= match.away:
        return tr("the cube at {value} already wins the match for the player on roll, {away} away: "
                  "a double gains nothing", value=s.cube_value, away=match.away)
    return None


__all__ = ["cube_rollout_refusal"]
