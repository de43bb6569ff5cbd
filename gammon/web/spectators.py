"""Spectators: a read-only link that follows a match live over the server's WebSocket updates.

A match's watch key is derived from its stored seat hashes (no new column in the store, the same key
after a restart); it opens nothing but the view, never a seat. A players' seat token gets the link
(``/api/matches/{id}/watch-link``). The spectator's view is what anyone at the table sees, from
player 0's side: board, dice, cube, score and log, with no actions, no legal plays and nothing of
the players' presence. Spectator sockets are one "seat" of the Hub (:data:`SPECTATOR`), so the
per-seat cap bounds them and they never take the players' places under the per-match cap.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from importlib.resources import files
from typing import TYPE_CHECKING

from fastapi import APIRouter, Header, Query, Request, WebSocket
from fastapi.responses import FileResponse

from gammon.errors import GammonError, NotAuthorizedError
from gammon.web.limits import AddressLimits, address
from gammon.web.schemas import ErrorResponse, MatchView
from gammon.web.security import site_url
from gammon.web.sockets import POLICY_VIOLATION, accept, credential, refuse, texts
from gammon.web.views import match_view

if TYPE_CHECKING:
    from gammon.store import MatchRecord
    from gammon.web.app import Hub
    from gammon.web.session import LiveMatch

STATIC = files("gammon.web") / "static"
SPECTATOR = -1  # the Hub's seat key of spectator sockets
KEY_LENGTH = 24
READ_ONLY = "spectators cannot act: this link is read-only"


def watch_key(record: MatchRecord) -> str:
    """The spectators' key of a match: a one-way function of its seat hashes."""
    digest = hashlib.sha256(b"gammon-watch\0" + "\0".join(record.seat_hashes).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:KEY_LENGTH]


def check_watch_key(live: LiveMatch, key: str) -> None:
    if not hmac.compare_digest(watch_key(live.record).encode(), key.encode()):
        raise NotAuthorizedError("this link does not open this match to spectators")


def spectator_view(live: LiveMatch) -> MatchView:
    """What a spectator sees: the table from player 0's side, and nothing to act on."""
    view = match_view(live, 0)
    return view.model_copy(update={"seat": None, "actions": [], "plays": [], "sequences": [],
                                   "opponent_away": None, "claim_in": None,
                                   "opponent_joined": None})


def spectator_router(hub: Hub, limits: AddressLimits) -> APIRouter:
    """The watch link, the spectators' view and socket, and their page."""
    router = APIRouter()
    errors: dict[int | str, dict] = {code: {"model": ErrorResponse} for code in (403, 404, 422)}

    @router.get("/api/matches/{match_id}/watch-link", responses=errors)
    async def watch_link(match_id: str, request: Request,
                         x_gammon_token: str | None = Header(None)) -> dict[str, str]:
        """The read-only link for spectators of this match (for a player: the seat token)."""
        live = await hub.get(match_id)
        live.seat_of(x_gammon_token or "")
        key = watch_key(live.record)
        base = site_url(request)
        return {"key": key, "url": f"{base}/watch/{live.id}#key={key}"}

    @router.get("/api/watch/{match_id}", response_model=MatchView, responses=errors)
    async def watch(match_id: str, key: str = Query("", max_length=64)) -> MatchView:
        """The spectators' view of the match (``key`` from the watch link)."""
        live = await hub.get(match_id)
        check_watch_key(live, key)
        async with live.lock:
            return spectator_view(live)

    @router.websocket("/ws/watch/{match_id}")
    async def watch_socket(ws: WebSocket, match_id: str) -> None:
        """The view now, then each change as the match goes on; messages are refused. The watch key
        comes as the subprotocol ``key.<key>`` beside ``gammon`` (``?key=`` still works)."""
        await accept(ws)
        try:
            live = await hub.get(match_id)
            check_watch_key(live, credential(ws, "key")[:64])
        except GammonError as exc:
            await refuse(ws, str(exc), 4403 if isinstance(exc, NotAuthorizedError) else 4404)
            return
        client = address(ws.scope)
        refused = limits.open_socket(client)  # held until the connection ends, dropped or not
        if refused is not None:
            await refuse(ws, refused, POLICY_VIOLATION)
            return
        try:
            async with hub.outbox(ws, lambda _why: hub.leave(match_id, out, SPECTATOR)) as out:
                watching = sum(1 for _, s, _ in hub.sockets.get(match_id, ()) if s == SPECTATOR)
                refused = (f"this match has {watching} spectators already (the limit)"
                           if watching >= hub.caps.per_seat else hub.join(match_id, out, SPECTATOR))
                if refused is not None:
                    await refuse(ws, refused, POLICY_VIOLATION)
                    return
                try:
                    await hub.greet(live, out, SPECTATOR, "none")
                    async for _text in texts(ws, out, lambda: limits.allow("message", client)):
                        out.send_json({"type": "error", "error": READ_ONLY})
                finally:
                    hub.leave(match_id, out, SPECTATOR)
        finally:
            limits.close_socket(client)

    @router.get("/watch/{match_id}", include_in_schema=False)
    async def watch_page(match_id: str) -> FileResponse:
        return FileResponse(str(STATIC / "watch.html"))

    return router


__all__ = ["SPECTATOR", "check_watch_key", "spectator_router", "spectator_view", "watch_key"]
