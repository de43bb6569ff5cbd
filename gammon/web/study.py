"""Study in the browser: analyses of finished games (of a match on this server, or of an uploaded
``.mat``, SGF or ``.xg`` file), the position editor's reading of IDs, hints, evaluations and rollouts.

Analyses and rollouts are jobs (gammon.web.jobs): started by a POST, polled at ``/api/jobs/{id}``
for their progress and result. An uploaded file is read in the job's worker (gammon.web.uploads),
and an analysis is bounded in actions at each depth. Hints and evaluations are short and answered
at once, in a thread.
Errors have the API's one shape, ``{"error": ...}``, quoting at most 40 characters of bad input.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import Field, model_validator

from gammon.errors import GammonError, IllegalActionError, InvalidNotationError, cut
from gammon.web.jobs import Jobs, Progress, TooManyJobsError, UnknownJobError
from gammon.web.schemas import ErrorResponse, Strict
from gammon.web.uploads import MAX_ACTIONS, TooMuchWork, analyse_upload, check_work, cut_quotes

if TYPE_CHECKING:
    from gammon.engine.engine import Engine
    from gammon.game import Game
    from gammon.rules import Rules
    from gammon.situation import Situation
    from gammon.web.app import Hub

STATIC = files("gammon.web") / "static"
ANALYSES_PATH = "/api/analyses"
MAX_MAT = 256 * 1024           # characters of an uploaded .mat or .sgf
MAX_UPLOAD_BODY = 2 * MAX_MAT  # bytes of its request (JSON escapes newlines and quotes)
MAX_XG = 4 * (MAX_MAT + MAX_MAT // 2) // 3  # base64 characters of an uploaded .xg: 384 KB of file
MAX_ID = 80                    # an XGID has about 60 characters
COSTLY_PATHS = ("/api/positions/hint", "/api/positions/eval")  # rate-limited as hints are


def default_engine(plies: int) -> Engine:
    from gammon.engine.engine import Engine

    return Engine(plies=plies)


@dataclass
class StudySettings:
    """``engine(plies)`` makes the engine of a job or a hint (tests give a fast one); ``jobs`` runs
    the jobs (by default one worker thread, two unfinished jobs per client; ``gammon serve`` gives
    them a worker process, :class:`gammon.web.jobs.ProcessRunner`); ``max_actions``: the most actions
    an analysis goes through at 0, 1 and 2 ply."""

    engine: Callable[[int], Engine] = default_engine
    jobs: Jobs = field(default_factory=Jobs)
    max_trials: int = 1296
    max_actions: tuple[int, int, int] = MAX_ACTIONS
    at_once: int = 2  # hints and evaluations computed at the same time (more wait their turn)



def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class AnalysisRequest(Strict):
    """A match of this server (``match_id`` and a seat ``token``; ``game`` one game, else every
    finished game), the text of a ``.mat`` file (``mat``) or of GNU Backgammon's SGF (``sgf``),
    or an eXtreme Gammon ``.xg`` file in base64 (``xg``)."""

    match_id: str | None = Field(None, max_length=64)
    token: str | None = Field(None, max_length=128)
    game: int | None = Field(None, ge=1, le=10_000)
    mat: str | None = Field(None, max_length=MAX_MAT)
    sgf: str | None = Field(None, max_length=MAX_MAT)
    xg: str | None = Field(None, max_length=MAX_XG, description="an eXtreme Gammon .xg file, in base64")
    plies: int = Field(0, ge=0, le=2, description="depth of the analysis (0 fast, 2 strongest)")

    @model_validator(mode="after")
    def _one_source(self) -> AnalysisRequest:
        if [self.mat, self.sgf, self.xg, self.match_id].count(None) != 3:
            raise ValueError("give one of match_id (with its token), mat (the text of a .mat file), "
                             "sgf (the text of a GNU Backgammon SGF file) or xg (an eXtreme Gammon "
                             ".xg file in base64)")
        return self


class PositionSetup(Strict):
    """A position set up in the editor, from the view of the player on roll (you, at the bottom)."""

    board: list[int] = Field(min_length=26, max_length=26, description="as MatchView.board")
    dice: tuple[int, int] | None = None
    cube_value: int = Field(1, ge=1, le=1 << 15)
    cube_owner: Literal["centred", "you", "opponent"] = "centred"
    match_length: int = Field(0, ge=0, le=99)  # as the lobby
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = True
    beavers: bool = False
    double_offered: bool = False


class RolloutRequest(Strict):
    id: str = Field(max_length=MAX_ID, description="Position ID, GNU Backgammon ID or XGID")
    kind: Literal["position", "plays", "cube"] = "position"
    trials: int = Field(216, ge=1, le=1_000_000)
    truncate: int | None = Field(None, ge=0, le=1000)
    cubeful: bool = False
    n: int = Field(3, ge=1, le=8, description="plays: how many of the best plays")
    seed: int | None = Field(None, ge=0, le=2**32 - 1)


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


class BadInput(Exception):
    """Input the study routes refuse (HTTP 422), with a message that quotes little of it."""


def _context(text: str) -> Situation:
    """Read an ID; its errors quote at most 40 characters of it."""
    from gammon.formats.ids import read_id

    try:
        return read_id(text)
    except (InvalidNotationError, ValueError) as exc:
        message = str(exc)
        for quoted in (text, text.strip()):
            message = message.replace(repr(quoted), repr(cut(quoted, 40)))
        raise BadInput(cut_quotes(message)) from None


def _setup_context(setup: PositionSetup) -> Situation:
    from gammon.formats.ids import SetUp

    try:
        xgid = SetUp(setup.board, setup.dice, setup.cube_value, setup.cube_owner, setup.match_length,
                     setup.score, setup.crawford, setup.jacoby, setup.beavers, setup.double_offered).xgid()
    except (GammonError, ValueError) as exc:
        raise BadInput(f"not a position to study: {cut(str(exc), 160)}") from None
    return _context(xgid)


def _hint(engine: Callable[[int], Engine], plies: int, text: str, dice: str | None, n: int) -> dict[str, Any]:
    from gammon.advice import hint_json
    from gammon.dice import parse_dice

    context = _context(text)
    if dice:
        try:
            roll = parse_dice(dice)
        except (InvalidNotationError, ValueError) as exc:
            raise BadInput(cut(str(exc), 120)) from None
    elif context.dice is not None:
        roll = context.dice
    else:
        raise BadInput("no dice: set the dice for a hint")
    if context.position.is_game_over():
        raise BadInput("the game is over in this position: nothing to play")
    return hint_json(engine(plies), context, roll, n)


def _eval(engine: Callable[[int], Engine], plies: int, text: str) -> dict[str, Any]:
    from gammon.advice import eval_json

    context = _context(text)
    if context.position.is_game_over():
        raise BadInput("the game is over in this position: nothing to evaluate")
    return eval_json(engine(plies), context)


def _rollout(engine: Callable[[int], Engine], req: RolloutRequest, context: Situation,
             progress: Progress) -> dict[str, Any]:
    from gammon.web.study_work import rollout_json

    return rollout_json(engine(0), context, req.kind, req.trials, req.truncate, req.cubeful, req.n, req.seed,
                        progress)


def study_router(hub: Hub, settings: StudySettings | None = None) -> APIRouter:
    """The routes of the study pages, over the live matches of ``hub``."""
    s = settings if settings is not None else StudySettings()
    jobs = s.jobs
    # the jobs stop at their next progress report, so the server's worker threads end with it
    router = APIRouter(on_shutdown=[jobs.shutdown])
    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorResponse} for code in (403, 404, 409, 413, 422, 429)}

    at_once = asyncio.Semaphore(s.at_once)

    async def quick(fn: Callable[..., dict[str, Any]], *args: Any) -> JSONResponse:
        """A short piece of engine work in a thread, a few at a time; bad input is a 422."""
        async with at_once:
            try:
                return JSONResponse(await asyncio.to_thread(fn, *args))
            except BadInput as exc:
                return _error(422, str(exc))

    def client_of(request: Request) -> str:
        return request.client.host if request.client else ""

    def start(kind: str, request: Request, work: Callable[[Progress], dict[str, Any]]) -> JSONResponse:
        try:
            job = jobs.start(kind, client_of(request), work)
        except TooManyJobsError as exc:
            return _error(429, str(exc))
        return JSONResponse(jobs.view(job), status_code=202)

    @router.post(ANALYSES_PATH, status_code=202, responses=errors)
    async def start_analysis(req: AnalysisRequest, request: Request) -> JSONResponse:
        """Analyse finished games in the background; poll ``/api/jobs/{id}`` for the progress and,
        when done, the result (``gammon analyse --json``'s object with boards and a chart)."""
        uploads = {"mat": req.mat, "sgf": req.sgf, "xg": req.xg}
        if any(text is not None for text in uploads.values()):
            # read in the worker: the job's limits are checked before anything is parsed
            kind, text = next((k, t) for k, t in uploads.items() if t is not None)
            assert text is not None
            work = partial(analyse_upload, kind, text, s.engine, req.plies, s.max_actions)
            return start("analysis", request, work)
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
        try:
            check_work(sum(len(history) for history, *_ in snapshot), req.plies, s.max_actions)
        except TooMuchWork as exc:
            return _error(422, str(exc))
        return start("analysis", request, partial(_analyse_snapshot, snapshot, names, s.engine, req.plies))

    @router.get("/api/jobs/{job_id}", responses=errors)
    async def get_job(job_id: str) -> JSONResponse:
        """A job's status (queued, running, done, failed, cancelled), progress and result."""
        try:
            return JSONResponse(jobs.view(jobs.get(job_id)))
        except UnknownJobError as exc:
            return _error(404, str(exc))

    @router.delete("/api/jobs/{job_id}", responses=errors)
    async def cancel_job(job_id: str) -> JSONResponse:
        """Stop a job (at its next progress report)."""
        try:
            return JSONResponse(jobs.view(jobs.cancel(job_id)))
        except UnknownJobError as exc:
            return _error(404, str(exc))

    identifier = Query(max_length=MAX_ID, description="a Position ID, GNU Backgammon ID or XGID")

    @router.get("/api/positions", responses=errors)
    async def read_position(id: str = identifier) -> JSONResponse:
        """A position read from an ID: its board (the player on roll's view), dice, cube and score,
        and its IDs in the three forms."""
        from gammon.formats.ids import situation_json

        return await quick(lambda: situation_json(_context(id)))

    @router.post("/api/positions", responses=errors)
    async def set_up_position(setup: PositionSetup) -> JSONResponse:
        """The same for a position set up in the editor."""
        from gammon.formats.ids import situation_json

        return await quick(lambda: situation_json(_setup_context(setup)))

    @router.get("/api/positions/hint", responses=errors)
    async def position_hint(id: str = identifier, dice: str | None = Query(None, max_length=3),
                            n: int = Query(5, ge=1, le=10),
                            plies: int = Query(0, ge=0, le=2)) -> JSONResponse:
        """The best plays of the ID's dice (or ``dice``, e.g. 31), best first: cubeless equity for
        money, match winning chance in a match."""
        return await quick(_hint, s.engine, plies, id, dice, n)

    @router.get("/api/positions/eval", responses=errors)
    async def position_eval(id: str = identifier, plies: int = Query(0, ge=0, le=2)) -> JSONResponse:
        """Chances, cubeless equity and the cube decision at the ID's cube and score."""
        return await quick(_eval, s.engine, plies, id)

    @router.post("/api/positions/rollout", status_code=202, responses=errors)
    async def position_rollout(req: RolloutRequest, request: Request) -> JSONResponse:
        """Roll out the position, the best plays of its dice, or its cube decision (0 ply) in the
        background; poll ``/api/jobs/{id}`` for the running equity and the result."""
        if req.trials > s.max_trials:
            return _error(422, f"at most {s.max_trials} trials on this server, not {req.trials}")
        try:
            context = await asyncio.to_thread(_context, req.id)
        except BadInput as exc:
            return _error(422, str(exc))
        if context.position.is_game_over():
            return _error(422, "the game is over in this position: nothing to roll out")
        if req.kind == "plays" and context.dice is None:
            return _error(422, "a rollout of the plays needs the dice: set them first")
        return start("rollout", request, partial(_rollout, s.engine, req, context))

    @router.get("/editor", include_in_schema=False)
    async def editor_page() -> FileResponse:
        return FileResponse(str(STATIC / "editor.html"))

    @router.get("/analysis", include_in_schema=False)
    @router.get("/analysis/{match_id}", include_in_schema=False)
    async def analysis_page(match_id: str = "") -> FileResponse:
        return FileResponse(str(STATIC / "analysis.html"))

    return router


__all__ = ["ANALYSES_PATH", "COSTLY_PATHS", "MAX_UPLOAD_BODY", "StudySettings", "study_router"]
