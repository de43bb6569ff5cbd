"""A seat's WebSocket (or a local game's): the match's states out as it changes, actions in."""

from __future__ import annotations

import asyncio
from typing import Literal, NamedTuple

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from gammon.errors import GammonError, NotAuthorizedError, StoreUnavailableError
from gammon.i18n import tr
from gammon.web.auth import socket_session
from gammon.web.hub import Detail, Hub
from gammon.web.invalid import problems
from gammon.web.limits import AddressLimits
from gammon.web.members import Members
from gammon.web.routes.deps import HubDep, LimitsDep, refuse_wrong, seat_for, socket_slot
from gammon.web.routes.language import request_language
from gammon.web.schemas import ActionRequest
from gammon.web.session import LiveMatch
from gammon.web.sockets import (
    POLICY_VIOLATION,
    TRY_AGAIN_LATER,
    Outbox,
    accept,
    background,
    close_reason,
    credential,
    refuse,
    texts,
)

MAX_MESSAGE = 4 * 1024
SEAT_IN_USE = 4409
"""Close code: the seat is connected in another browser; the client may come back with
``takeover=true`` once its user says so."""

router = APIRouter()
Verdict = Literal["act", "skip", "closed"]
"""What comes of a socket's message: it is acted on, left (said why), or the socket was closed."""


class SeatClaim(NamedTuple):
    """Which browser tab a seat's socket comes from, whether it takes the seat over from another,
    and the account whose seat it is when the socket comes signed in to that account."""

    tab: str = ""
    takeover: bool = False
    account: int | None = None


SAME_TAB = SeatClaim()


@router.websocket("/ws/matches/{match_id}")
async def live_socket(
    ws: WebSocket,
    match_id: str,
    hub: HubDep,
    limits: LimitsDep,
    steps: bool = False,
    plays: bool = True,
    tab: str = "",
    takeover: bool = False,
) -> None:
    """Live states of the match, for the seat token given as the subprotocol ``token.<token>``
    beside ``gammon`` (or the X-Gammon-Token header; ``?token=`` still works). To the seat to
    move they carry the legal plays; ``steps=true`` adds their step orders, which the browser
    needs to move one checker at a time; ``plays=false`` leaves the plays out (a client that
    knows the rules: each state is smaller and cheaper to make).

    In an online game a seat's link is its key, and a friend's link goes on working once the
    friend has come: a seat connected in another browser tab (``tab``: the client's name for its
    own) is not taken silently. The socket is refused (:data:`SEAT_IN_USE`) unless it asks to
    ``takeover``; then the other browser's sockets are told and closed (close code 4410,
    :data:`gammon.web.sockets.TAKEN_OVER`), in whichever server process they are
    (gammon.web.seat_tabs).

    A seat linked to an account is that player's on each of its devices: a socket signed in to the
    seat's account (session cookie or bearer header) joins the account's other signed-in sockets of
    the seat without asking and without closing them; all of them see the same states and may act.
    Any other socket of the seat still counts as another browser.

    A seat of a rated match that an account holds is that account's alone: the seat's token is no
    proof of who plays (the maker of a rated match was given both seats' tokens), so a socket not
    signed in to the account is refused (4403), takeover or not. A socket opened while no account
    held the seat is closed (1008, and the browser comes back signed in) when it acts once the seat
    is claimed for an account it is not signed in to."""
    detail: Detail = "steps" if steps else "plays" if plays else "none"
    await accept(ws)
    try:
        live, seat = await seat_for(hub, match_id, credential(ws, "token"))
        await _check_rated_actor(ws, live, seat)
        account = await _seat_owner(ws, live, seat)
        # The match may have left memory while the session was looked up (another process stored
        # an action, or idle matches were let go): a socket kept on the object let go would show
        # the match as it was, act on it, and not hear of the other processes' actions. Nothing
        # waits from here until the socket joins (then the match stays in memory).
        live = await hub.get(match_id)
    except StoreUnavailableError as exc:  # not a wrong link: the client comes back later
        await refuse(ws, str(exc), TRY_AGAIN_LATER)
        return
    except GammonError as exc:
        await refuse_wrong(ws, exc)
        return
    async with socket_slot(ws, limits) as client:
        if client is not None:
            claim = SeatClaim(tab[:64], takeover, account)
            await seat_socket(ws, hub, limits, live, seat, detail, client, claim)


async def _seat_owner(ws: WebSocket, live: LiveMatch, seat: int | None) -> int | None:
    """The account of an online seat when the socket comes signed in to it, else None."""
    session = socket_session(ws)
    if session is None or seat is None or live.record.mode != "online":
        return None
    members: Members = ws.app.state.members
    try:
        return await asyncio.to_thread(members.seat_owner, session, live.id, seat)
    except Exception as e:  # the accounts' database is away
        raise StoreUnavailableError(tr("the database is unavailable; try again")) from e


async def _check_rated_actor(ws: WebSocket, live: LiveMatch, seat: int | None) -> None:
    """NotAuthorizedError when the socket may not act for a rated seat that an account holds (it is
    not signed in to that account); StoreUnavailableError when the accounts' database is away."""
    if seat is None or not live.rated:
        return
    members: Members = ws.app.state.members
    try:
        await asyncio.to_thread(members.check_rated_actor, socket_session(ws), live.id, seat)
    except GammonError:
        raise
    except Exception as e:  # the accounts' database is away
        raise StoreUnavailableError(tr("the database is unavailable; try again")) from e


async def _may_act(ws: WebSocket, out: Outbox, live: LiveMatch, seat: int | None) -> Verdict:
    """Whether a socket that came signed in to no account holding its seat may still act: the
    seat may have been claimed for an account since. If not, it is told and closed (1008, not a
    wrong link: a browser signed in since comes back as the account, another is refused)."""
    try:
        await _check_rated_actor(ws, live, seat)
    except NotAuthorizedError as exc:
        out.send_json({"type": "error", "error": str(exc)})
        await out.close(POLICY_VIOLATION, close_reason(str(exc)))
        return "closed"
    except StoreUnavailableError as exc:  # not known whose it is: this action is not made
        out.send_json({"type": "error", "error": str(exc)})
        return "skip"
    return "act"


async def seat_socket(
    ws: WebSocket,
    hub: Hub,
    limits: AddressLimits,
    live: LiveMatch,
    seat: int | None,
    detail: Detail,
    client: str,
    claim: SeatClaim = SAME_TAB,
) -> None:
    """A seat's socket (or a local game's), its address counted: states out, actions in."""
    first = seat is not None and not hub.seat_open(live.id, seat)  # the seat comes (back)
    online_seat = seat is not None and live.record.mode == "online"
    elsewhere = hub.seat_elsewhere(live.id, seat, claim.tab) if online_seat else []
    if claim.account is not None:  # the account's own devices are not strangers to each other
        elsewhere = [out for out in elsewhere if out.account != claim.account]
    remote = online_seat and hub.seat_held_elsewhere(live.id, seat, claim.tab, claim.account)
    if (elsewhere or remote) and not claim.takeover:
        await refuse(ws, tr("this seat is in use in another browser"), SEAT_IN_USE)
        return

    def gone(_why: str = "") -> None:  # once: the client left, or it was dropped (too slow)
        if hub.leave(live.id, out, seat, detail):
            hub.presence.closed(live.id, seat)
            if seat is not None and live.record.mode == "online" and not hub.seat_open(live.id, seat):
                background(hub.broadcast(live, {1 - seat}))  # the opponent sees this seat left

    async with hub.outbox(ws, gone) as out:
        out.tab, out.account, out.lang = claim.tab, claim.account, request_language(ws)
        refused = hub.join(live.id, out, seat, detail)
        if refused is not None:
            await refuse(ws, refused, POLICY_VIOLATION)
            return
        hub.let_go(elsewhere)  # taken over: the other browser is told, and let go
        if remote:
            hub.take_over(live.id, seat, claim.tab, claim.account)
        hub.presence.opened(live.id, seat)
        try:
            try:
                await hub.greet(live, out, seat, detail)
            except StoreUnavailableError as exc:  # the match could not be read again: come back later
                out.send_json({"type": "error", "error": str(exc)})
                await out.close(TRY_AGAIN_LATER, "the database is unavailable")
                return
            if seat is not None and first and live.record.mode == "online":
                await hub.broadcast(live, {1 - seat})  # the opponent sees this seat came back
            async for text in texts(ws, out, lambda: limits.allow("message", client)):
                if len(text) > MAX_MESSAGE:
                    out.send_json(
                        {
                            "type": "error",
                            "error": tr(
                                "message of {n} characters is over the limit of {limit}",
                                n=len(text),
                                limit=MAX_MESSAGE,
                            ),
                        }
                    )
                    continue
                verdict = "act" if claim.account is not None else await _may_act(ws, out, live, seat)
                if verdict == "closed":
                    return
                if verdict == "skip":
                    continue
                try:
                    req = ActionRequest.model_validate_json(text)
                    await hub.act(live, seat, req, reply=False)
                except ValidationError as exc:
                    why = problems(exc.errors(), whole="message")
                    out.send_json({"type": "error", "error": tr("invalid message: {problems}", problems=why)})
                except (GammonError, ValueError) as exc:
                    out.send_json({"type": "error", "error": str(exc)})
        finally:
            gone()
