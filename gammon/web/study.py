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
from typing import TYPE_CHECKING, Any, Literal

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import Field, model_validator

from gammon.dice import parse_dice
from gammon.errors import GammonError, InvalidNotationError, cut
from gammon.formats.ids import SetUp, read_id, situation_json
from gammon.game import Game
from gammon.i18n import tr
from gammon.rules import Rules
from gammon.situation import Situation
from gammon.web.jobs import Jobs, Progress, TooManyJobsError
from gammon.web.limits import address
from gammon.web.schemas import Strict, error_response
from gammon.web.uploads import MAX_ACTIONS, cut_quotes

if TYPE_CHECKING:
    from gammon.engine.engine import Engine
ANALYSES_PATH = "/api/analyses"
MAX_MAT = 256 * 1024  # characters of an uploaded .mat or .sgf
MAX_UPLOAD_BODY = 2 * MAX_MAT  # bytes of its request (JSON escapes newlines and quotes)
MAX_XG = 4 * (MAX_MAT + MAX_MAT // 2) // 3  # base64 characters of an uploaded .xg: 384 KB of file
MAX_ID = 80  # an XGID has about 60 characters
COSTLY_PATHS = ("/api/positions/hint", "/api/positions/eval")  # rate-limited as hints are
# The depth of an analysis unless asked: gammon.analysis.DEFAULT_PLIES, the terminal's, so that a
# match gets the same figures in both (not imported: it loads the engine, which the server starts
# without; a test keeps the two equal). The bounds of uploads.MAX_ACTIONS let every real match of
# the test corpus through at 2 ply.
ANALYSIS_PLIES = 2


def default_engine(plies: int) -> Engine:
    # deferred to first use: it loads the engine, which the server process starts without
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
    plies: int = Field(ANALYSIS_PLIES, ge=0, le=2, description="depth of the analysis (0 fast, 2 strongest)")

    @model_validator(mode="after")
    def _one_source(self) -> AnalysisRequest:
        if [self.mat, self.sgf, self.xg, self.match_id].count(None) != 3:
            raise ValueError(
                tr(
                    "give one of match_id (with its token), mat (the text of a .mat file), sgf (the text of "
                    "a "
                    "GNU Backgammon SGF file) or xg (an eXtreme Gammon .xg file in base64)"
                )
            )
        return self


class PositionSetup(Strict):
    """A position set up in the editor, from the view of the player on roll (you, at the bottom)."""

    board: list[int] = Field(min_length=26, max_length=26, description="as MatchView.board")
    dice: tuple[int, int] | None = None
    cube_value: int = Field(1, ge=1, le=1 << 15)
    cube_owner: Literal["centred", "you", "opponent"] = "centred"
    # the lobby's lengths go to 99, but an ID (which fills the editor's form) holds up to 32767
    match_length: int = Field(0, ge=0, le=32767)
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


Snapshot = list[tuple[list[Any], Rules, tuple[int, int], bool]]


def snapshot(games: list[Game]) -> Snapshot:
    """What it takes to rebuild finished games away from the live match (which goes on)."""
    return [(list(g.history), g.rules, g.score, g.crawford_game) for g in games]


def analyse_snapshot(
    games_snapshot: Snapshot,
    names: tuple[str, str],
    engine: Callable[[int], Engine],
    plies: int,
    progress: Progress,
) -> dict[str, Any]:
    """In a worker: rebuild the games, then analyse them (the engine is made here too: the first
    one loads the net)."""
    # deferred to first use: it loads the engine, which the server process starts without
    from gammon.web.study_work import analyse_games

    games = [
        Game.replay(history, rules, score, crawford) for history, rules, score, crawford in games_snapshot
    ]
    return analyse_games(games, names, engine(plies), progress)


class BadInput(Exception):
    """Input the study routes refuse (HTTP 422), with a message that quotes little of it."""


def read_context(text: str) -> Situation:
    """Read an ID; its errors quote at most 40 characters of it."""

    try:
        return read_id(text)
    except (InvalidNotationError, ValueError) as exc:
        message = str(exc)
        for quoted in (text, text.strip()):
            message = message.replace(repr(quoted), repr(cut(quoted, 40)))
        raise BadInput(cut_quotes(message)) from None


def setup_context(setup: PositionSetup) -> Situation:

    try:
        xgid = SetUp(
            setup.board,
            setup.dice,
            setup.cube_value,
            setup.cube_owner,
            setup.match_length,
            setup.score,
            setup.crawford,
            setup.jacoby,
            setup.beavers,
            setup.double_offered,
        ).xgid()
    except (GammonError, ValueError) as exc:
        raise BadInput(tr("not a position to study: {problem}", problem=cut(str(exc), 160))) from None
    return read_context(xgid)


def hint_answer(
    engine: Callable[[int], Engine], plies: int, text: str, dice: str | None, n: int
) -> dict[str, Any]:
    """The best plays of the ID ``text`` with ``dice`` (else its own), as JSON."""
    # deferred to first use: it loads the engine, which the server process starts without
    from gammon.advice import hint_json

    context = read_context(text)
    if dice:
        try:
            roll = parse_dice(dice)
        except (InvalidNotationError, ValueError) as exc:
            raise BadInput(cut(str(exc), 120)) from None
    elif context.dice is not None:
        roll = context.dice
    else:
        raise BadInput(tr("no dice: set the dice for a hint"))
    if context.position.is_game_over():
        raise BadInput(tr("the game is over in this position: nothing to play"))
    return hint_json(engine(plies), context, roll, n)


def position_json(text: str) -> dict[str, Any]:
    """A position read from the ID ``text``: its board, dice, cube, score and IDs, as JSON."""

    return situation_json(read_context(text))


def setup_json(setup: PositionSetup) -> dict[str, Any]:
    """The same for a position set up in the editor."""

    return situation_json(setup_context(setup))


def eval_answer(engine: Callable[[int], Engine], plies: int, text: str) -> dict[str, Any]:
    """The evaluation of the ID ``text``, as JSON."""
    # deferred to first use: it loads the engine, which the server process starts without
    from gammon.advice import eval_json

    context = read_context(text)
    if context.position.is_game_over():
        raise BadInput(tr("the game is over in this position: nothing to evaluate"))
    return eval_json(engine(plies), context)


def rollout_answer(
    engine: Callable[[int], Engine], req: RolloutRequest, context: Situation, progress: Progress
) -> dict[str, Any]:
    """In a job's worker: the rollout ``req`` asks for, as JSON."""
    # deferred to first use: it loads the engine, which the server process starts without
    from gammon.engine.rollout.settings import RolloutSettings
    from gammon.web.study_work import rollout_json

    settings = RolloutSettings(trials=req.trials, truncate=req.truncate, seed=req.seed, cubeful=req.cubeful)
    return rollout_json(engine(0), context, req.kind, settings, req.n, progress)


class Study:
    """One app's study: its settings, its jobs, and the bound on its quick engine work."""

    def __init__(self, settings: StudySettings | None = None) -> None:
        self.settings = settings if settings is not None else StudySettings()
        self.jobs = self.settings.jobs
        self.at_once = asyncio.Semaphore(self.settings.at_once)

    async def quick(self, fn: Callable[..., dict[str, Any]], *args: Any) -> JSONResponse:
        """A short piece of engine work in a thread, a few at a time; bad input is a 422."""
        async with self.at_once:
            try:
                return JSONResponse(await asyncio.to_thread(fn, *args))
            except BadInput as exc:
                return error_response(422, str(exc))

    def start(self, kind: str, request: Request, work: Callable[[Progress], dict[str, Any]]) -> JSONResponse:
        """Start a job for the request's client: 202 with its view, or 429 past its share."""
        try:
            # the client's address as the other limits count it: an IPv6 /64 is one client
            job = self.jobs.start(kind, address(request.scope), work)
        except TooManyJobsError as exc:
            return error_response(429, str(exc))
        return JSONResponse(self.jobs.view(job), status_code=202)


__all__ = ["ANALYSES_PATH", "COSTLY_PATHS", "MAX_UPLOAD_BODY", "BadInput", "Study", "StudySettings"]
