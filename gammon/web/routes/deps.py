"""What the routes take from their app (set on ``app.state`` by :func:`gammon.web.app.create_app`),
as FastAPI dependencies, and the seat a token opens."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from gammon.errors import NotAuthorizedError
from gammon.web.hub import Hub
from gammon.web.limits import AddressLimits
from gammon.web.schemas import ErrorResponse
from gammon.web.session import LiveMatch
from gammon.web.study import Study


def get_hub(conn: HTTPConnection) -> Hub:
    hub: Hub = conn.app.state.hub
    return hub


def get_limits(conn: HTTPConnection) -> AddressLimits:
    limits: AddressLimits = conn.app.state.limits
    return limits


def get_study(conn: HTTPConnection) -> Study:
    study: Study = conn.app.state.study
    return study


HubDep = Annotated[Hub, Depends(get_hub)]
LimitsDep = Annotated[AddressLimits, Depends(get_limits)]
StudyDep = Annotated[Study, Depends(get_study)]


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of a route's error answers: the API's one shape, ``{"error": ...}``."""
    return {code: {"model": ErrorResponse} for code in codes}


async def seat_for(hub: Hub, match_id: str, token: str | None) -> tuple[LiveMatch, int | None]:
    """The match and the seat ``token`` opens (None: both seats of a local game); the seat is seen."""
    live = await hub.get(match_id)
    if not token:
        raise NotAuthorizedError("this needs the seat token (header X-Gammon-Token)")
    seat = live.seat_of(token)
    hub.presence.seen(live.id, seat)
    return live, seat
