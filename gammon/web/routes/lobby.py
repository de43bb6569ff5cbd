"""The players' lobby: its page, its WebSocket (who is online, the invitations, live) and the API
that posts, cancels, declines and accepts invitations. Commands go over HTTP (with the session
cookie, the CSRF header; or a bearer token), the socket only tells; see gammon.web.lobby and
docs/accounts.md ("The lobby")."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from pydantic import Field, model_validator
from starlette.requests import HTTPConnection

from gammon.accounts import Account
from gammon.accounts.errors import NotSignedInError
from gammon.accounts.lobby import Claimed, Terms
from gammon.i18n import tr
from gammon.store import MatchRecord
from gammon.web.auth import SESSION_COOKIE, required_session, session_of
from gammon.web.hub import Hub
from gammon.web.lobby import GUEST, Lobby, Viewer, hello
from gammon.web.members import Members
from gammon.web.routes.accounts import MembersDep
from gammon.web.routes.deps import HubDep, LimitsDep, error_responses, socket_slot
from gammon.web.routes.pages import STATIC
from gammon.web.schemas import CreateMatchRequest, Strict
from gammon.web.security import site_url
from gammon.web.sockets import POLICY_VIOLATION, accept, refuse, texts

router = APIRouter()
log = logging.getLogger(__name__)
ERRORS = error_responses(401, 403, 409, 422, 429)
MAX_MESSAGE = 256
"""The longest message a lobby socket takes (it takes only ``{"type": "ping"}``)."""


def get_lobby(conn: HTTPConnection) -> Lobby:
    lobby: Lobby = conn.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(get_lobby)]
InvitationId = Annotated[str, Path(max_length=32)]


class InvitationRequest(Strict):
    """An invitation's terms; ``to``: the one player it is for (None: anyone)."""

    to: str | None = Field(
        None, max_length=64, description="the name of the one player invited; none: anyone"
    )
    match_length: int = Field(1, ge=0, le=99, description="points to win; 0 = money game")
    crawford: bool = True
    jacoby: bool = True
    beavers: bool = False
    rated: bool = Field(False, description="rated when it ends (a match to a length only)")

    @model_validator(mode="after")
    def _rated_to_a_length(self) -> InvitationRequest:
        if self.rated and self.match_length < 1:
            raise ValueError(tr("only a match to a length may be rated"))
        return self

    def terms(self) -> Terms:
        return Terms(self.match_length, self.crawford, self.jacoby, self.beavers, self.rated)


async def signed_account(request: Request, members: Members) -> Account:
    """The account of the request's session (NotSignedInError); a cookie needs the CSRF header."""
    account = await asyncio.to_thread(members.accounts.account_of, required_session(request))
    if account is None:
        raise NotSignedInError(tr("sign in to post or accept invitations"))
    return account


async def viewer_of(conn: HTTPConnection, members: Members) -> Viewer:
    """Who opened the lobby: the account of its session cookie or bearer header, else a guest."""
    header = conn.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    token = value.strip() if scheme.lower() == "bearer" else conn.cookies.get(SESSION_COOKIE, "")
    account = await asyncio.to_thread(members.accounts.account_of, token) if token else None
    return GUEST if account is None else Viewer(account.id, account.name, account.rating)


@router.get("/lobby", include_in_schema=False)
async def lobby_page() -> FileResponse:
    return FileResponse(str(STATIC / "lobby.html"))


@router.get("/api/lobby", responses=ERRORS)
async def get_lobby_now(request: Request, members: MembersDep, lobby: LobbyDep) -> JSONResponse:
    """The lobby now, as the requester sees it: the ``hello`` message of its WebSocket."""
    if session_of(request) is None:
        viewer = GUEST
    else:
        viewer = await viewer_of(request, members)
    snap = await asyncio.to_thread(lobby.read)
    return JSONResponse(hello(snap, viewer))


@router.post("/api/lobby/invitations", status_code=201, responses=ERRORS)
async def post_invitation(
    body: InvitationRequest, request: Request, members: MembersDep, lobby: LobbyDep
) -> JSONResponse:
    """Post an invitation (at most 3 open per account)."""
    account = await signed_account(request, members)
    invitation_id = await asyncio.to_thread(lobby.invitations.post, account.id, body.terms(), body.to or None)
    lobby.changed()
    return JSONResponse({"id": invitation_id}, status_code=201)


@router.post("/api/lobby/invitations/{invitation_id}/cancel", responses=ERRORS)
@router.post("/api/lobby/invitations/{invitation_id}/decline", responses=ERRORS)
async def withdraw_invitation(
    invitation_id: InvitationId, request: Request, members: MembersDep, lobby: LobbyDep
) -> JSONResponse:
    """Its poster cancels an open invitation, or the player it names declines it."""
    account = await signed_account(request, members)
    await asyncio.to_thread(lobby.invitations.withdraw, invitation_id, account.id)
    lobby.changed()
    return JSONResponse({"withdrawn": invitation_id})


@router.post("/api/lobby/invitations/{invitation_id}/accept", responses=ERRORS)
async def accept_invitation(
    invitation_id: InvitationId, request: Request, members: MembersDep, lobby: LobbyDep, hub: HubDep
) -> JSONResponse:
    """Accept an invitation: an online match between the poster (seat 0) and you (seat 1), each
    seat bound to its account, rated if the invitation says so. The answer is your seat's link;
    the poster's lobby is told (``started``) and its browser takes its own seat."""
    account = await signed_account(request, members)
    claimed = await asyncio.to_thread(lobby.invitations.claim, invitation_id, account.id)
    try:
        match_id, tokens = await start_match(hub, members, lobby, claimed)
    except BaseException:
        await asyncio.to_thread(lobby.invitations.release, claimed)
        raise
    finally:
        lobby.changed()
    return seat_answer(request, match_id, tokens[1], 1)


async def start_match(hub: Hub, members: Members, lobby: Lobby, claimed: Claimed) -> tuple[str, list[str]]:
    """Make the match of a claimed invitation, its seats bound to the two accounts."""
    t = claimed.terms
    terms = {k: getattr(t, k) for k in ("match_length", "crawford", "jacoby", "beavers", "rated")}
    req = CreateMatchRequest.model_validate(
        {"mode": "online", **terms, "name": claimed.poster, "opponent_name": claimed.acceptor}
    )
    stored: list[str] = []  # the match's id and its seats' tokens, once stored

    def store_match(record: MatchRecord, tokens: list[str]) -> None:
        # the match stored with its seats bound, or not at all (an account deleted meanwhile)
        lobby.invitations.started(claimed, record, tokens[0])
        stored.extend([record.id, *tokens])

    # Neither player is at the table yet: the poster's browser takes its seat later (or never), and
    # the acceptor's opens it once this answer reaches it (or never, if it is lost). No game may be
    # claimed against a player before it came.
    try:
        live, tokens = await hub.create(req, maker=None, store_match=store_match)
    except Exception:
        if not stored:
            raise
        # Its first actions were not stored (the database away): it is made, the invitation
        # accepted, and it is replayed from the store when a player comes. The acceptor's answer,
        # its seat's only key, must not be lost.
        log.warning("match %s was made without its first actions", stored[0], exc_info=True)
        return stored[0], stored[1:]
    try:
        live.accounts = await asyncio.to_thread(members.seat_accounts, live.id)
    except Exception:  # only the views' names and ratings: the match is made, and the acceptor's
        # answer (its seat's only key) must not be lost; the accounts are read again when needed
        log.warning("the accounts of match %s could not be read", live.id, exc_info=True)
    return live.id, tokens


@router.post("/api/lobby/invitations/{invitation_id}/seat", responses=ERRORS)
async def take_seat(
    invitation_id: InvitationId, request: Request, members: MembersDep, lobby: LobbyDep
) -> JSONResponse:
    """The poster of an accepted invitation takes its seat's link, once."""
    account = await signed_account(request, members)
    match_id, token = await asyncio.to_thread(lobby.invitations.take_seat, invitation_id, account.id)
    lobby.changed()
    return seat_answer(request, match_id, token, 0)


def seat_answer(request: Request, match_id: str, token: str, seat: int) -> JSONResponse:
    url = f"{site_url(request)}/play/{match_id}#token={token}"
    return JSONResponse({"match_id": match_id, "token": token, "seat": seat, "url": url})


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket, lobby: LobbyDep, limits: LimitsDep, members: MembersDep) -> None:
    """Who is online and the invitations, live: ``hello`` first, then ``update`` messages; the
    client may send ``{"type": "ping"}`` (answered ``pong``). Signed in by the session cookie (a
    browser) or an ``Authorization: Bearer`` header; a guest otherwise."""
    await accept(ws)
    viewer = await viewer_of(ws, members)
    async with socket_slot(ws, limits) as client:
        if client is None:
            return
        refused = lobby.admit(viewer, client)
        if refused is not None:
            await refuse(ws, refused, POLICY_VIOLATION)
            return
        try:
            async with lobby.hub.outbox(ws, lambda _why: lobby.leave(out)) as out:
                await lobby.join(out, viewer)
                try:
                    async for text in texts(ws, out, lambda: limits.allow("message", client)):
                        out.send_json(answer(text))
                finally:
                    lobby.leave(out)
        finally:
            lobby.release(viewer, client)


def answer(text: str) -> dict[str, str]:
    """The answer to a client's message: ``pong`` to a ping, else an error."""
    if len(text) > MAX_MESSAGE:
        return {
            "type": "error",
            "error": tr(
                "message of {n} characters is over the limit of {limit}", n=len(text), limit=MAX_MESSAGE
            ),
        }
    try:
        message = json.loads(text)
    except ValueError:
        message = None
    if isinstance(message, dict) and message.get("type") == "ping":
        return {"type": "pong"}
    return {
        "type": "error",
        "error": tr("the lobby socket takes only {ping}; use the HTTP API to act", ping='{"type": "ping"}'),
    }


__all__ = ["LobbyDep", "router"]
