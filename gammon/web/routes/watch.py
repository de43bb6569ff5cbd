"""Spectators' routes: the watch link (for a player), the spectators' view, socket and page (see
gammon.web.spectators)."""

from __future__ import annotations

from fastapi import APIRouter, Header, Query, Request, WebSocket
from fastapi.responses import FileResponse

from gammon.errors import GammonError, StoreUnavailableError
from gammon.i18n import tr
from gammon.web.routes.deps import HubDep, LimitsDep, error_responses, refuse_wrong, socket_slot
from gammon.web.routes.language import request_language
from gammon.web.routes.pages import STATIC
from gammon.web.schemas import MatchView
from gammon.web.security import site_url
from gammon.web.sockets import POLICY_VIOLATION, TRY_AGAIN_LATER, accept, credential, refuse, texts
from gammon.web.spectators import READ_ONLY, SPECTATOR, check_watch_key, spectator_view, watch_key

router = APIRouter()
ERRORS = error_responses(403, 404, 422)


@router.get("/api/matches/{match_id}/watch-link", responses=ERRORS)
async def watch_link(
    match_id: str, request: Request, hub: HubDep, x_gammon_token: str | None = Header(None)
) -> dict[str, str]:
    """The read-only link for spectators of this match (for a player: the seat token)."""
    live = await hub.get(match_id)
    live.seat_of(x_gammon_token or "")
    key = watch_key(live.record)
    base = site_url(request)
    return {"key": key, "url": f"{base}/watch/{live.id}#key={key}"}


@router.get("/api/watch/{match_id}", response_model=MatchView, responses=ERRORS)
async def watch(match_id: str, hub: HubDep, key: str = Query("", max_length=64)) -> MatchView:
    """The spectators' view of the match (``key`` from the watch link), its log in the reader's
    language."""
    live = await hub.get(match_id)
    check_watch_key(live, key)
    async with live.lock:
        return spectator_view(live)


@router.websocket("/ws/watch/{match_id}")
async def watch_socket(ws: WebSocket, match_id: str, hub: HubDep, limits: LimitsDep) -> None:
    """The view now, then each change as the match goes on; messages are refused. The watch key
    comes as the subprotocol ``key.<key>`` beside ``gammon`` (``?key=`` still works)."""
    await accept(ws)
    try:
        live = await hub.get(match_id)
        check_watch_key(live, credential(ws, "key")[:64])
    except StoreUnavailableError as exc:  # not a wrong link: the client comes back later
        await refuse(ws, str(exc), TRY_AGAIN_LATER)
        return
    except GammonError as exc:
        await refuse_wrong(ws, exc)
        return
    async with socket_slot(ws, limits) as client:
        if client is None:
            return
        async with hub.outbox(ws, lambda _why: hub.leave(match_id, out, SPECTATOR)) as out:
            out.lang = request_language(ws)
            watching = sum(1 for _, s, _ in hub.sockets.get(match_id, ()) if s == SPECTATOR)
            refused = (
                tr("this match has {n} spectators already (the limit)", n=watching)
                if watching >= hub.caps.per_seat
                else hub.join(match_id, out, SPECTATOR)
            )
            if refused is not None:
                await refuse(ws, refused, POLICY_VIOLATION)
                return
            try:
                try:
                    await hub.greet(live, out, SPECTATOR, "none")
                except StoreUnavailableError as exc:  # come back later
                    out.send_json({"type": "error", "error": str(exc)})
                    await out.close(TRY_AGAIN_LATER, "the database is unavailable")
                    return
                async for _text in texts(ws, out, lambda: limits.allow("message", client)):
                    out.send_json({"type": "error", "error": tr(READ_ONLY)})
            finally:
                hub.leave(match_id, out, SPECTATOR)


@router.get("/watch/{match_id}", include_in_schema=False)
async def watch_page(match_id: str) -> FileResponse:
    return FileResponse(str(STATIC / "watch.html"))
