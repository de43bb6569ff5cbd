"""Study in the browser: analyses of finished games (of a match on this server, or of an uploaded
``.mat``), the position editor's reading of IDs, hints, evaluations and rollouts.

Analyses and rollouts are jobs (gammon.web.jobs): started by a POST, polled at ``/api/jobs/{id}``
for their progress and result. Hints and evaluations are short and answered at once, in a thread.
Errors have the API's one shape, ``{"error": ...}``, quoting at most 40 characters of bad input.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import Field, model_validator

from gammon.errors import GammonError, IllegalActionError
from gammon.web.jobs import Jobs, Progress, TooManyJobsError, UnknownJobError
from gammon.web.schemas import ErrorResponse, Strict

if TYPE_CHECKING:
    from gammon.engine.engine import Engine
    from gammon.game import Game
    from gammon.rules import Rules
    from gammon.web.app import Hub

STATIC = files("gammon.web") / "static"
ANALYSES_PATH = "/api/analyses"
MAX_MAT = 256 * 1024           # characters of an uploaded .mat
MAX_UPLOAD_BODY = 2 * MAX_MAT  # bytes of its request (JSON escapes newlines and quotes)
MAX_ID = 80                    # an XGID has about 60 characters


def default_engine(plies: int) -> Engine:
    from gammon.engine.engine import Engine

    return Engine(plies=plies)


@dataclass
class StudySettings:
    """``engine(plies)`` makes the engine of a job or a hint (tests give a fast one); ``jobs`` runs
    the jobs (by default one worker thread, two unfinished jobs per client)."""

    engine: Callable[[int], Engine] = default_engine
    jobs: Jobs = field(default_factory=Jobs)
    max_trials: int = 1296


def _cut(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class AnalysisRequest(Strict):
    """A match of this server (``match_id`` and a seat ``token``; ``game`` one game, else every
    finished game) or the text of a ``.mat`` file (``mat``)."""

    match_id: str | None = Field(None, max_length=64)
    token: str | None = Field(None, max_length=128)
    game: int | None = Field(None, ge=1, le=10_000)
    mat: str | None = Field(None, max_length=MAX_MAT)
    plies: int = Field(0, ge=0, le=2, description="depth of the analysis (0 fast, 2 strongest)")

    @model_validator(mode="after")
    def _one_source(self) -> AnalysisRequest:
        if (self.mat is None) == (self.match_id is None):
            raise ValueError("give either match_id (with its token) or mat, the text of a .mat file")
        return self


Snapshot = list[tuple[list[Any], "Rules", tuple[int, int], bool]]


def _snapshot(games: list[Game]) -> Snapshot:
    """What it takes to rebuild finished games away from the live match (which goes on)."""
    return [(list(g.history), g.rules, g.score, g.crawford_game) for g in games]


def _analyse_snapshot(snapshot: Snapshot, names: tuple[str, str], engine: Callable[[int], Engine], plies: int,
                      progress: Progress) -> dict[str, Any]:
    """In a worker: rebuild the games, then analyse them (the engine is made here too: the first
    one loads the net)."""
    from gammon.game import Game
    from gammon.web.study_work import analyse_games

    games = [Game.replay(history, rules, score, crawford) for history, rules, score, crawford in snapshot]
    return analyse_games(games, names, engine(plies), progress)


def _read_mat(text: str) -> tuple[list[Game], tuple[str, str]]:
    from gammon.formats.mat import read_mat, to_match

    record = read_mat(text)
    return to_match(record).games, record.names


def study_router(hub: Hub, settings: StudySettings | None = None) -> APIRouter:
    """The routes of the study pages, over the live matches of ``hub``."""
    s = settings if settings is not None else StudySettings()
    jobs = s.jobs
    router = APIRouter()
    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorResponse} for code in (403, 404, 409, 413, 422, 429)}

    def client_of(request: Request) -> str:
        return request.client.host if request.client else ""

    def start(kind: str, request: Request, work: Callable[[Progress], dict[str, Any]]) -> JSONResponse:
        try:
            job = jobs.start(kind, client_of(request), work)
        except TooManyJobsError as exc:
            return _error(429, str(exc))
        return JSONResponse(job.to_dict(), status_code=202)

    @router.post(ANALYSES_PATH, status_code=202, responses=errors)
    async def start_analysis(req: AnalysisRequest, request: Request) -> JSONResponse:
        """Analyse finished games in the background; poll ``/api/jobs/{id}`` for the progress and,
        when done, the result (``gammon analyse --json``'s object with boards and a chart)."""
        if req.mat is not None:
            try:
                games, names = await asyncio.to_thread(_read_mat, req.mat)
            except (GammonError, ValueError) as exc:
                return _error(422, f"cannot read the .mat file: {_cut(str(exc), 200)}")
            if not games:
                return _error(422, "the .mat file has no games")
            snapshot = _snapshot(games)
        else:
            assert req.match_id is not None
            live = await hub.get(req.match_id)
            live.seat_of(req.token or "")  # a seat's token shows its match
            from gammon.web.views import player_names

            async with live.lock:
                played = live.match.games
                if req.game is not None:
                    if req.game > len(played):
                        raise IllegalActionError(f"no game {req.game}: the match has {len(played)}")
                    chosen = [played[req.game - 1]]
                    if chosen[0].result is None:
                        raise IllegalActionError(f"game {req.game} is not over yet: only finished games "
                                                 "are analysed")
                else:
                    chosen = [g for g in played if g.result is not None]
                    if not chosen:
                        raise IllegalActionError("no game of this match is over yet: only finished games "
                                                 "are analysed")
                snapshot = _snapshot(chosen)
            names = player_names(live)
        return start("analysis", request, partial(_analyse_snapshot, snapshot, names, s.engine, req.plies))

    @router.get("/api/jobs/{job_id}", responses=errors)
    async def get_job(job_id: str) -> JSONResponse:
        """A job's status (queued, running, done, failed, cancelled), progress and result."""
        try:
            return JSONResponse(jobs.get(job_id).to_dict())
        except UnknownJobError as exc:
            return _error(404, str(exc))

    @router.delete("/api/jobs/{job_id}", responses=errors)
    async def cancel_job(job_id: str) -> JSONResponse:
        """Stop a job (at its next progress report)."""
        try:
            return JSONResponse(jobs.cancel(job_id).to_dict())
        except UnknownJobError as exc:
            return _error(404, str(exc))

    @router.get("/analysis", include_in_schema=False)
    @router.get("/analysis/{match_id}", include_in_schema=False)
    async def analysis_page(match_id: str = "") -> FileResponse:
        return FileResponse(str(STATIC / "analysis.html"))

    return router


__all__ = ["ANALYSES_PATH", "MAX_UPLOAD_BODY", "StudySettings", "study_router"]
