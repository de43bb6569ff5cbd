"""What the routes take from their app (set on ``app.state`` by :func:`gammon.web.app.create_app`),
as FastAPI dependencies, and the seat a token opens."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from gammon.errors import GammonError, NotAuthorizedError
from gammon.i18n import tr
from gammon.web.hub import Hub
from gammon.web.limits import AddressLimits, address
from gammon.web.schemas import ErrorResponse
from gammon.web.session import LiveMatch
from gammon.web.sockets import POLICY_VIOLATION, refuse
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
        raise NotAuthorizedError(tr("this needs the seat token (header X-Gammon-Token)"))
    seat = live.seat_of(token)
    hub.presence.seen(live.id, seat)
    return live, seat


async def refuse_wrong(ws: WebSocket, exc: GammonError) -> None:
    """Refuse a socket opened for no such match (4404) or with a wrong secret (4403)."""
    await refuse(ws, str(exc), 4403 if isinstance(exc, NotAuthorizedError) else 4404)


@asynccontextmanager
async def socket_slot(ws: WebSocket, limits: AddressLimits) -> AsyncIterator[str | None]:
    """Count the socket against its client address while the block runs, dropped or not: the
    address, or None when the address has its sockets already (the socket is then refused)."""
    client = address(ws.scope)
    refused = limits.open_socket(client)
    if refused is not None:
        await refuse(ws, refused, POLICY_VIOLATION)
        yield None
        return
    try:
        yield client
    finally:
        limits.close_socket(client)
