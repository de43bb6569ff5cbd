"""Why a cube decision cannot be rolled out (the player on roll may not double, or a double gains
it nothing) and why a cubeful rollout cannot (the rules restrict the cube). Light (the core only),
so that a server refuses such a rollout before it starts one."""

from __future__ import annotations

from gammon.i18n import tr
from gammon.situation import CubeOwner, Situation


def cubeful_rollout_refusal(s: Situation) -> str | None:
    """Why a cubeful rollout of ``s`` cannot follow its rules, or None: the trials' cube knows no
    rules but the score and Jacoby, so it would double where the rules forbid it."""
    if not s.rules.use_cube:
        return tr("these rules play without the cube: a cubeful rollout would use it "
                  "(roll out with cubeful=False)")
    if s.rules.cube_limit is not None:
        return tr("a cubeful rollout cannot keep to the cube limit of {limit} "
                  "(roll out with cubeful=False, or without the limit)", limit=s.rules.cube_limit)
    return None


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
                  value=s.cube_value, limit=s.rules.highest_cube)
    if match is not None and s.cube_value >= match.away:
        return tr("the cube at {value} already wins the match for the player on roll, {away} away: "
                  "a double gains nothing", value=s.cube_value, away=match.away)
    return cubeful_rollout_refusal(s)  # a cube rollout is cubeful


__all__ = ["cube_rollout_refusal", "cubeful_rollout_refusal"]
