"""The tutor's check of an action before the page sends it (see gammon.web.tutoring): rate limited
as hints are, off in online games as hints are, and only for the seat that decides now."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Header, HTTPException
from pydantic import BaseModel, Field

from gammon.errors import IllegalActionError, NotAuthorizedError, StaleActionError
from gammon.game import ActionKind, Request
from gammon.i18n import tr
from gammon.web.engine_pool import EngineUnavailableError
from gammon.web.routes.deps import HubDep, error_responses, seat_for
from gammon.web.schemas import Strict

router = APIRouter()
TUTORED = ("play", "roll", "double", "take", "pass", "beaver")  # the choices the tutor judges


class TutorCheck(Strict):
    action: Literal["play", "roll", "double", "take", "pass", "beaver"]
    play: str | None = Field(None, max_length=80, description="a play's notation, e.g. '13/7 8/7'")
    level: Literal["doubtful", "bad", "very bad"] = Field(
        "doubtful", description="warn from this mark: doubtful, bad or very bad"
    )
    version: int | None = Field(None, ge=0, description="the state version the client acts on")


class TutorWarningView(BaseModel):
    mark: Literal["doubtful", "bad", "very bad"]
    error: float = Field(description="the equity the choice loses against the best, in EMG")
    cost: float = Field(description="the same in match winning chances in a match (points in money)")
    unit: Literal["mwc", "emg"] = Field(description="'mwc' in a match, 'emg' in a money game")
    chosen: str = Field(description="the player's choice in words")
    best: str = Field(description="the engine's choice in words")
    best_action: str = Field(description="the engine's choice as an action name")
    best_play: str | None = Field(None, description="the engine's play, when the choice is a play")
    equity: float
    best_equity: float
    plies: int


class TutorAnswer(BaseModel):
    version: int
    warning: TutorWarningView | None = Field(description="None: the choice is not flagged")


@router.post(
    "/api/matches/{match_id}/tutor",
    response_model=TutorAnswer,
    responses=error_responses(400, 403, 404, 409, 422, 503),
)
async def tutor_check(
    match_id: str, body: TutorCheck, hub: HubDep, x_gammon_token: str | None = Header(None)
) -> TutorAnswer:
    """Whether the tutor flags ``action`` (and ``play``) of the seat that decides now, at
    ``level``; nothing is made or recorded."""
    live, seat = await seat_for(hub, match_id, x_gammon_token)
    if live.record.mode == "online":
        raise NotAuthorizedError(tr("the tutor is off in online games"))
    async with live.lock:
        acting = live.acting_player()
        if acting is None or (seat is not None and seat != acting):
            raise IllegalActionError(tr("no tutor: nothing for you to decide now"))
        if body.version is not None and body.version != live.version:
            raise StaleActionError(
                tr("the game has moved on (version {version}); look at the board again", version=live.version)
            )
        version, situation = live.version, live.match.game.situation()
    request = Request(ActionKind(body.action), acting, play=body.play)
    try:
        found = await hub.pool.tutor(situation, request, body.level)
    except EngineUnavailableError as e:
        raise HTTPException(503, str(e)) from e  # not the player's fault: 503, try again
    return TutorAnswer(version=version, warning=None if found is None else TutorWarningView(**found))
