"""The position editor's engine work: a position read from an ID or set up on the board, its hint
and evaluation (answered at once, in a thread, a few at a time) and its rollouts (a job, polled at
``/api/jobs/{id}``: see gammon.web.routes.jobs)."""

from __future__ import annotations

import asyncio
from functools import partial

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from gammon.engine.rollout.cube_check import cube_rollout_refusal, cubeful_rollout_refusal
from gammon.i18n import tr
from gammon.web.routes.deps import StudyDep, error_responses
from gammon.web.schemas import error_response
from gammon.web.study import (
    MAX_ID,
    BadInput,
    PositionSetup,
    RolloutRequest,
    eval_answer,
    hint_answer,
    position_json,
    read_context,
    rollout_answer,
    setup_json,
)

router = APIRouter()
ERRORS = error_responses(403, 404, 409, 413, 422, 429)
IDENTIFIER = Query(max_length=MAX_ID, description="a Position ID, GNU Backgammon ID or XGID")


@router.get("/api/positions", responses=ERRORS)
async def read_position(study: StudyDep, id: str = IDENTIFIER) -> JSONResponse:
    """A position read from an ID: its board (the player on roll's view), dice, cube and score,
    and its IDs in the three forms."""
    return await study.quick(position_json, id)


@router.post("/api/positions", responses=ERRORS)
async def set_up_position(setup: PositionSetup, study: StudyDep) -> JSONResponse:
    """The same for a position set up in the editor."""
    return await study.quick(setup_json, setup)


@router.get("/api/positions/hint", responses=ERRORS)
async def position_hint(
    study: StudyDep,
    id: str = IDENTIFIER,
    dice: str | None = Query(None, max_length=3),
    n: int = Query(5, ge=1, le=10),
    plies: int = Query(0, ge=0, le=2),
) -> JSONResponse:
    """The best plays of the ID's dice (or ``dice``, e.g. 31), best first: cubeless equity for
    money, match winning chance in a match."""
    return await study.quick(hint_answer, study.settings.engine, plies, id, dice, n)


@router.get("/api/positions/eval", responses=ERRORS)
async def position_eval(
    study: StudyDep, id: str = IDENTIFIER, plies: int = Query(0, ge=0, le=2)
) -> JSONResponse:
    """Chances, cubeless equity and the cube decision at the ID's cube and score."""
    return await study.quick(eval_answer, study.settings.engine, plies, id)


@router.post("/api/positions/rollout", status_code=202, responses=ERRORS)
async def position_rollout(req: RolloutRequest, request: Request, study: StudyDep) -> JSONResponse:
    """Roll out the position, the best plays of its dice, or its cube decision (0 ply) in the
    background; poll ``/api/jobs/{id}`` for the running equity and the result."""
    if req.trials > study.settings.max_trials:
        limit = study.settings.max_trials
        message = tr("at most {limit} trials on this server, not {n}", limit=limit, n=req.trials)
        return error_response(422, message)
    try:
        context = await asyncio.to_thread(read_context, req.id)
    except BadInput as exc:
        return error_response(422, str(exc))
    if context.position.is_game_over():
        return error_response(422, tr("the game is over in this position: nothing to roll out"))
    if req.kind == "plays" and context.dice is None:
        return error_response(422, tr("a rollout of the plays needs the dice: set them first"))
    # else it would fail in the worker, holding a job slot
    if req.kind == "cube" and (refusal := cube_rollout_refusal(context)) is not None:
        return error_response(422, refusal)
    if req.cubeful and (refusal := cubeful_rollout_refusal(context)) is not None:
        return error_response(422, refusal)
    return study.start("rollout", request, partial(rollout_answer, study.settings.engine, req, context))
