"""The JSON API of a match: create it, see it, act on it, and what a seat may ask of it (hints,
replay frames, the ``.mat`` file), and the computer levels on offer."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse

from gammon.engine.players import available_levels
from gammon.errors import IllegalActionError, NotAuthorizedError
from gammon.formats.mat import format_mat, mat_names
from gammon.game import GamePhase
from gammon.i18n import tr
from gammon.web.auth import session_of
from gammon.web.frames import game_frames
from gammon.web.routes.accounts import MembersDep, creator_session, seat_creator
from gammon.web.routes.deps import HubDep, error_responses, seat_for
from gammon.web.schemas import (
    ActionRequest,
    CreateMatchRequest,
    CreateMatchResponse,
    CubeHint,
    Frame,
    Hint,
    HintResponse,
    MatchView,
)
from gammon.web.security import site_url
from gammon.web.views import log_names, player_names

router = APIRouter()
ERRORS = error_responses(400, 401, 403, 404, 409, 422)


@router.post("/api/matches", response_model=CreateMatchResponse, responses=ERRORS)
async def create_match(
    req: CreateMatchRequest, request: Request, hub: HubDep, members: MembersDep
) -> CreateMatchResponse:
    """A new match; a signed-in creator's seat is its account's (a guest's otherwise)."""
    session = await creator_session(request, members, req.rated) if req.mode != "local" else None
    try:
        live, tokens = await hub.create(req)
    except ValueError as exc:
        bad = [{"loc": ("body",), "msg": str(exc), "type": "value_error"}]
        raise RequestValidationError(bad) from exc
    if session is not None:
        await seat_creator(members, live, session, tokens[0])
    base = site_url(request)
    url = f"{base}/play/{live.id}#token={tokens[0]}"
    invite = f"{base}/play/{live.id}#token={tokens[1]}" if req.mode == "online" else None
    return CreateMatchResponse(
        match_id=live.id, token=tokens[0], seat=None if req.mode == "local" else 0, url=url, invite_url=invite
    )


@router.get("/api/matches/{match_id}", response_model=MatchView, responses=ERRORS)
async def get_match(
    match_id: str,
    hub: HubDep,
    x_gammon_token: str | None = Header(None),
    steps: bool = False,
) -> MatchView:
    """The match as the token's seat sees it, its log in the reader's language; ``steps=true``
    adds the step orders of the legal plays (``sequences``) for the seat to move."""
    live, seat = await seat_for(hub, match_id, x_gammon_token)
    return await hub.view(live, seat, "steps" if steps else "plays")


@router.post("/api/matches/{match_id}/actions", response_model=MatchView, responses=ERRORS)
async def post_action(
    match_id: str,
    req: ActionRequest,
    request: Request,
    hub: HubDep,
    members: MembersDep,
    x_gammon_token: str | None = Header(None),
    steps: bool = False,
) -> MatchView:
    live, seat = await seat_for(hub, match_id, x_gammon_token)
    if live.rated and seat is not None:
        found = session_of(request)
        await asyncio.to_thread(members.check_rated_actor, found and found[0], live.id, seat)
    view = await hub.act(live, seat, req, detail="steps" if steps else "plays")
    assert view is not None
    return view


@router.get("/api/levels", response_model=list[str])
async def levels() -> list[str]:
    """The computer levels this server can play."""
    return list(available_levels())


@router.get("/api/matches/{match_id}/hint", response_model=HintResponse, responses=ERRORS)
async def hint(
    match_id: str, hub: HubDep, x_gammon_token: str | None = Header(None), n: int = Query(5, ge=1, le=20)
) -> HintResponse:
    """The engine's advice for the seat that decides now (not in online games: that would be help
    from outside): the ``n`` best plays of the dice (``kind`` "plays", ranked by match winning
    chances in a match, by cubeless equity in a money game), or the cube decision (``kind``
    "cube") before a roll the player may double on, and when a double is offered."""
    live, seat = await seat_for(hub, match_id, x_gammon_token)
    if live.record.mode == "online":
        raise NotAuthorizedError(tr("hints are off in online games"))
    async with live.lock:
        game = live.match.game
        acting = live.acting_player()
        deciding = acting is not None and (seat is None or seat == acting)
        moving = game.phase is GamePhase.MOVE and bool(game.legal_plays())
        cube = game.phase is GamePhase.DOUBLED or game.can_double()
        if not deciding or not (moving or cube):
            raise IllegalActionError(
                tr("no hint: nothing for you to decide now ({reason})", reason=game.awaiting())
            )
        situation = game.situation()
    found = await hub.pool.advice(situation, n)
    head = {"source": hub.pool.hint_source, **{k: found[k] for k in ("kind", "unit", "plies")}}
    if found["kind"] == "cube":
        return HintResponse(**head, cube=CubeHint(**{k: found[k] for k in CubeHint.model_fields}))
    return HintResponse(**head, hints=[Hint(play=p, score=v) for p, v in found["hints"]])


@router.get("/api/matches/{match_id}/games/{number}/frames", response_model=list[Frame], responses=ERRORS)
async def frames(
    match_id: str, number: int, hub: HubDep, x_gammon_token: str | None = Header(None)
) -> list[Frame]:
    """Game ``number`` (from 1) as boards after each move, to replay it move by move; the moves'
    texts in the reader's language."""
    live, seat = await seat_for(hub, match_id, x_gammon_token)
    async with live.lock:
        games = live.match.games
        if not 1 <= number <= len(games):
            raise IllegalActionError(tr("no game {number}: the match has {n}", number=number, n=len(games)))
        return game_frames(games[number - 1], 0 if seat is None else seat, log_names(live))


@router.get("/api/matches/{match_id}/match.mat", response_class=PlainTextResponse, responses=ERRORS)
async def download_mat(
    match_id: str, hub: HubDep, token: str = "", x_gammon_token: str | None = Header(None)
) -> PlainTextResponse:
    """The match so far as a Jellyfish/GNU Backgammon ``.mat`` file (token as header or ?token=); an
    online match's once it is over."""
    live, _ = await seat_for(hub, match_id, x_gammon_token or token)
    names = mat_names(player_names(live))
    async with live.lock:
        if live.record.mode == "online" and not live.match.is_over:
            # Posted back to the analysis page, the file was the engine's view of the games played
            # so far, which an online match's own analysis waits for its end to give.
            raise IllegalActionError(
                tr("this online match is still being played: its .mat file is offered once it is over")
            )
        text = format_mat(live.match, names, tags={"Site": "gammon", "Match ID": live.id})
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="gammon-{live.id}.mat"'}
    )
