"""Analyses of finished games (of a match on this server, or of an uploaded ``.mat``, SGF or ``.xg``
file) started in the background, and the jobs' status, progress and result (gammon.web.jobs)."""

from __future__ import annotations

from functools import partial

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gammon.errors import IllegalActionError
from gammon.i18n import tr
from gammon.web.jobs import UnknownJobError
from gammon.web.routes.deps import HubDep, StudyDep, error_responses
from gammon.web.schemas import error_response
from gammon.web.study import ANALYSES_PATH, AnalysisRequest, analyse_snapshot, snapshot
from gammon.web.uploads import TooMuchWork, analyse_upload, check_work
from gammon.web.views import shown_names

router = APIRouter()
ERRORS = error_responses(403, 404, 409, 413, 422, 429)


@router.post(ANALYSES_PATH, status_code=202, responses=ERRORS)
async def start_analysis(
    req: AnalysisRequest, request: Request, hub: HubDep, study: StudyDep
) -> JSONResponse:
    """Analyse finished games in the background; poll ``/api/jobs/{id}`` for the progress and,
    when done, the result (``gammon analyse --json``'s object with boards and a chart)."""
    s = study.settings
    uploads = {"mat": req.mat, "sgf": req.sgf, "xg": req.xg}
    if any(text is not None for text in uploads.values()):
        # read in the worker: the job's limits are checked before anything is parsed
        kind, text = next((k, t) for k, t in uploads.items() if t is not None)
        assert text is not None
        work = partial(analyse_upload, kind, text, s.engine, req.plies, s.max_actions)
        return study.start("analysis", request, work)
    assert req.match_id is not None
    live = await hub.get(req.match_id)
    live.seat_of(req.token or "")  # a seat's token shows its match
    async with live.lock:
        if live.record.mode == "online" and not live.match.is_over:
            # hints are off in online games: the engine's view of a game just played is help too
            raise IllegalActionError(
                tr("this online match is still being played: its games are analysed once it is over")
            )
        played = live.match.games
        if req.game is not None:
            if req.game > len(played):
                raise IllegalActionError(
                    tr("no game {number}: the match has {n}", number=req.game, n=len(played))
                )
            chosen = [played[req.game - 1]]
            if chosen[0].result is None:
                raise IllegalActionError(
                    tr("game {number} is not over yet: only finished games are analysed", number=req.game)
                )
        else:
            chosen = [g for g in played if g.result is not None]
            if not chosen:
                raise IllegalActionError(
                    tr("no game of this match is over yet: only finished games are analysed")
                )
        games = snapshot(chosen)
    names = shown_names(live)  # the analysis shows them: in the request's language
    try:
        check_work(sum(len(history) for history, *_ in games), req.plies, s.max_actions)
    except TooMuchWork as exc:
        return error_response(422, str(exc))
    return study.start("analysis", request, partial(analyse_snapshot, games, names, s.engine, req.plies))


@router.get("/api/jobs/{job_id}", responses=ERRORS)
async def get_job(job_id: str, study: StudyDep) -> JSONResponse:
    """A job's status (queued, running, done, failed, cancelled), progress and result."""
    try:
        return JSONResponse(study.jobs.view(study.jobs.get(job_id)))
    except UnknownJobError as exc:
        return error_response(404, str(exc))


@router.delete("/api/jobs/{job_id}", responses=ERRORS)
async def cancel_job(job_id: str, study: StudyDep) -> JSONResponse:
    """Stop a job (at its next progress report)."""
    try:
        return JSONResponse(study.jobs.view(study.jobs.cancel(job_id)))
    except UnknownJobError as exc:
        return error_response(404, str(exc))
