"""Players' accounts: sign up, sign in and out, who am I, the password, deleting the account, the
export of its games, claiming a guest's seats; ratings (the leaderboard, a player's history) and
the profile (its summary, and match files uploaded to it).

Sessions and CSRF: gammon.web.auth. Hashing a password costs tens of milliseconds, so the service's
calls run in threads, off the event loop. Sign-ins are throttled per name and per address (the
address as the rate limits see it), with one answer for unknown and known names.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import threading
import unicodedata
import weakref
from collections.abc import Callable
from pathlib import PurePath
from typing import Annotated, Literal, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field, model_validator
from starlette.requests import HTTPConnection

from gammon.accounts import Account
from gammon.accounts.errors import InvalidNameError, NotSignedInError, SignInError
from gammon.accounts.export import export_account
from gammon.accounts.games import delete_account
from gammon.accounts.names import name_key
from gammon.accounts.rated import rated_matches, rating_history
from gammon.accounts.standings import MAX_OFFSET, PAGE, leaderboard_page
from gammon.errors import GammonError, InvalidNotationError, cut
from gammon.i18n import tr
from gammon.profile.importer import seat_of
from gammon.profile.source import read_match_file
from gammon.profile.summary import profile_summary
from gammon.web.auth import (
    SESSION_COOKIE,
    check_origin,
    clear_session,
    required_session,
    session_of,
    set_session,
)
from gammon.web.decisions import decision_json
from gammon.web.hub import Hub
from gammon.web.limits import address
from gammon.web.members import Members
from gammon.web.routes.deps import HubDep, error_responses
from gammon.web.schemas import Strict, error_response
from gammon.web.session import LiveMatch
from gammon.web.study import MAX_MAT, MAX_XG
from gammon.web.uploads import MAX_ACTIONS, check_work, count_actions, cut_quotes

T = TypeVar("T")
log = logging.getLogger(__name__)
router = APIRouter()
ERRORS = error_responses(401, 403, 409, 422, 429)
UPLOAD_PATH = "/api/account/uploads"
MAX_SEAT_TOKENS = 200  # the seats a browser remembers, claimed at once
ACTIVE_DAYS = 30
MAX_NAME_ECHO = 100  # characters of a file's player name an upload's answer repeats
# An account's analyses waiting at once: each upload keeps its file in the database and costs the
# analysis worker up to a minute, so that without a bound one account filled both at will.
MAX_PENDING = 20
_queueing = threading.Lock()  # the count and the queueing together: uploads sent at once count too
# An upload is read (and replayed) in this process, up to seconds of CPU for a large file: one at
# a time per account and READING at once in all, waiting their turn off the threads, so that a
# burst of uploads holds neither the CPU nor the threads every other request's work runs in.
READING = 2
_reading: set[tuple[int, int]] = set()  # (the Members' id, the account's)
_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()
# Hashing a password (a sign-up, a sign-in, a password asked again) costs tens of milliseconds of
# CPU and memory: HASHING at once, the others waiting their turn off the threads, so that a flood
# of sign-ins does not hold the threads every other request's work runs in.
HASHING = 2
_hash_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _turn(turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore],
          at_once: int) -> asyncio.Semaphore:
    """This event loop's semaphore of ``turns`` (a semaphore belongs to one loop; tests run several)."""
    return turns.setdefault(asyncio.get_running_loop(), asyncio.Semaphore(at_once))


async def hashing(work: Callable[..., T], *args: object) -> T:
    """``work(*args)``, which hashes a password, in a thread when its turn comes."""
    async with _turn(_hash_turns, HASHING):
        return await asyncio.to_thread(work, *args)


def get_members(conn: HTTPConnection) -> Members:
    members: Members = conn.app.state.members
    return members


MembersDep = Annotated[Members, Depends(get_members)]


SeatToken = Annotated[str, Field(max_length=128)]


class Credentials(Strict):
    name: str = Field(max_length=64)
    password: str = Field(max_length=1024)
    client: Literal["browser", "api"] = Field(
        "browser", description="browser: the session in an HttpOnly cookie; api: the token in the answer"
    )
    seat_tokens: list[SeatToken] = Field(
        [], max_length=MAX_SEAT_TOKENS, description="seat tokens of guest games to claim for the account"
    )


class PasswordChange(Strict):
    old_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


class PasswordGiven(Strict):
    password: str = Field(max_length=1024)


class SeatTokens(Strict):
    seat_tokens: list[SeatToken] = Field(max_length=MAX_SEAT_TOKENS)


class Upload(Strict):
    """A match file for the profile: the text of a ``.mat`` or SGF file, or an ``.xg`` in base64;
    ``player``: the name of the player in the file (default: the account's)."""

    mat: str | None = Field(None, max_length=MAX_MAT)
    sgf: str | None = Field(None, max_length=MAX_MAT)
    xg: str | None = Field(None, max_length=MAX_XG)
    file_name: str | None = Field(None, max_length=200)
    player: str | None = Field(None, max_length=64)

    @model_validator(mode="after")
    def _one_file(self) -> Upload:
        if [self.mat, self.sgf, self.xg].count(None) != 2:
            raise ValueError(tr("give one of mat, sgf or xg (base64)"))
        return self


class AccountView(BaseModel):
    name: str
    rating: float
    experience: int
    created_at: str

    @classmethod
    def of(cls, account: Account) -> AccountView:
        return cls(
            name=account.name,
            rating=account.rating,
            experience=account.experience,
            created_at=account.created_at.isoformat(),
        )


class SignedInView(BaseModel):
    account: AccountView
    token: str | None = Field(None, description="the session token (client 'api' only): send it as a bearer")
    claimed: list[str] = Field(description="the matches whose seats were claimed for the account")
    refused: int = Field(0, description="seat tokens that could not be claimed")


async def _signed_in(request: Request, members: Members, hub: Hub, body: Credentials) -> Response:
    signed = await hashing(members.accounts.sign_in, body.name, body.password, address(request.scope))
    claimed, refused = await asyncio.to_thread(members.claim, signed.token, body.seat_tokens)
    await _show_accounts(hub, claimed)
    view = SignedInView(
        account=AccountView.of(signed.account),
        token=signed.token if body.client == "api" else None,
        claimed=claimed,
        refused=refused,
    )
    response = JSONResponse(view.model_dump())
    if body.client == "browser":
        old = request.cookies.get(SESSION_COOKIE)
        if old:  # the browser's previous session ends: one session per browser
            await asyncio.to_thread(members.accounts.sign_out, old)
        max_age = int(members.accounts.session_lifetime.total_seconds())
        set_session(response, request, signed.token, max_age)
    return response


@router.post("/api/account/sign-up", response_model=SignedInView, responses=ERRORS)
async def sign_up(body: Credentials, request: Request, members: MembersDep, hub: HubDep) -> Response:
    """A new account, signed in; the seats of ``seat_tokens`` are claimed for it."""
    check_origin(request)
    await hashing(members.accounts.sign_up, body.name, body.password, address(request.scope))
    return await _signed_in(request, members, hub, body)


@router.post("/api/account/sign-in", response_model=SignedInView, responses=ERRORS)
async def sign_in(body: Credentials, request: Request, members: MembersDep, hub: HubDep) -> Response:
    """A new session: an HttpOnly cookie (client 'browser') or a token to send as a bearer (client
    'api'). The same refusal for an unknown name and a wrong password; 429 after too many."""
    check_origin(request)
    return await _signed_in(request, members, hub, body)


@router.post("/api/account/sign-out", responses=ERRORS)
async def sign_out(request: Request, members: MembersDep) -> Response:
    found = session_of(request)
    if found is not None:
        await asyncio.to_thread(members.accounts.sign_out, found[0])
    response = JSONResponse({"signed_out": True})
    clear_session(response, request)
    return response


async def _account(request: Request, members: Members) -> tuple[str, Account]:
    token = required_session(request)
    account = await asyncio.to_thread(members.accounts.account_of, token)
    if account is None:
        raise NotSignedInError(tr("not signed in (the session is unknown, ended or expired)"))
    return token, account


async def signed_in_account(request: Request, members: Members) -> Account:
    """The request's account (NotSignedInError when none; a change needs its CSRF header)."""
    return (await _account(request, members))[1]


@router.get("/api/account", response_model=AccountView, responses=ERRORS)
async def who_am_i(request: Request, members: MembersDep) -> AccountView:
    """The signed-in account (401 when none)."""
    _, account = await _account(request, members)
    return AccountView.of(account)


@router.post("/api/account/password", responses=ERRORS)
async def change_password(body: PasswordChange, request: Request, members: MembersDep) -> JSONResponse:
    """Change the password (the present one is asked); every other session of the account ends."""
    token, account = await _account(request, members)
    change = members.accounts.change_password
    await _password_checked(request, members, account, change, token, body.old_password, body.new_password)
    return JSONResponse({"changed": True})


@router.post("/api/account/delete", responses=ERRORS)
async def delete(body: PasswordGiven, request: Request, members: MembersDep, hub: HubDep) -> Response:
    """Delete the account (its password is asked): its matches stay, its seats anonymous."""
    token, account = await _account(request, members)
    held = await _password_checked(
        request, members, account, delete_account, members.accounts, token, body.password
    )
    await _show_accounts(hub, held)  # its matches' players no longer see its name and rating
    response = JSONResponse({"deleted": True})
    clear_session(response, request)
    return response


async def _password_checked(
    request: Request, members: Members, account: Account, work: Callable[..., T], *args: object
) -> T:
    """Do ``work(*args)``, which checks the account's password: a wrong one counts against the
    sign-in throttle (a stolen session cannot be used to try passwords). What it returns."""
    throttle = members.accounts.throttle
    # counted from the start, so that requests made at once count together
    attempt = throttle.attempt(name_key(account.name), address(request.scope))
    try:
        done = await hashing(work, *args)
    except SignInError:
        raise
    except BaseException:  # no password was found wrong (a new one too short, ...)
        throttle.forgive(attempt)
        raise
    throttle.forgive(attempt)
    return done


@router.get("/api/account/export", responses=ERRORS)
async def export(request: Request, members: MembersDep) -> Response:
    """Everything the server keeps about the account, in one zip: its matches as ``.mat`` and
    ``.sgf`` files, the rest in ``account.json``, its uploads still kept (docs/accounts.md)."""
    _, account = await _account(request, members)
    if account.id in members.exporting:
        return error_response(429, tr("your data is being exported already; wait for that download"))
    members.exporting.add(account.id)
    try:
        data = await asyncio.to_thread(export_account, members.accounts, account.id)
    finally:
        members.exporting.discard(account.id)
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": 'attachment; filename="gammon-account.zip"'},
    )


@router.post("/api/account/claim", responses=ERRORS)
async def claim(body: SeatTokens, request: Request, members: MembersDep, hub: HubDep) -> JSONResponse:
    """Claim the seats of guest games (by their seat tokens) for the account: each one that can be
    (not another account's, not the other seat of one of its own)."""
    token, _ = await _account(request, members)
    claimed, refused = await asyncio.to_thread(members.claim, token, body.seat_tokens)
    await _show_accounts(hub, claimed)
    return JSONResponse({"claimed": claimed, "refused": refused})


async def _show_accounts(hub: Hub, match_ids: list[str]) -> None:
    """The players of these matches see the accounts at their seats, and their ratings, now: here,
    and through the other server processes, told (PostgreSQL) to read the seats again."""
    ids = list(dict.fromkeys(match_ids))
    for match_id in ids:
        if match_id in hub.live:
            await hub.reread_seats(match_id)
    try:
        await asyncio.to_thread(hub.store.notify_seats, ids)
    except Exception:  # the change is stored: the others show it when they next load the match
        log.warning("could not tell the other processes of %d matches' seats", len(ids), exc_info=True)


HistoryLimit = Annotated[int, Query(ge=1, le=PAGE, description="rated matches in the page (the latest)")]
HistoryOffset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="latest rated matches before the page")]


@router.get("/api/account/ratings", responses=ERRORS)
async def my_ratings(
    request: Request, members: MembersDep, limit: HistoryLimit = PAGE, offset: HistoryOffset = 0
) -> JSONResponse:
    """The signed-in account's rated matches, a page at a time: the ``limit`` latest (at most 100)
    after the ``offset`` latest, oldest first; ``matches``: how many there are in all."""
    _, account = await _account(request, members)
    return await _history(members, account, limit, offset)


@router.get("/api/players/{name}/ratings", responses=ERRORS)
async def player_ratings(
    name: str, members: MembersDep, limit: HistoryLimit = PAGE, offset: HistoryOffset = 0
) -> JSONResponse:
    """A player's rating and rated matches, a page at a time as ``/api/account/ratings`` gives them."""
    if len(name) > 64:
        raise InvalidNameError(tr("no account has a name that long"))
    account = await asyncio.to_thread(members.accounts.by_name, name)
    if account is None:
        return JSONResponse({"error": tr("no player of that name")}, status_code=404)
    return await _history(members, account, limit, offset)


async def _history(members: Members, account: Account, limit: int, offset: int) -> JSONResponse:
    # A page: the whole history of a player of thousands of rated matches, public, was megabytes
    # of JSON for any request.
    entries = await asyncio.to_thread(rating_history, members.accounts, account.id, limit, offset)
    total = await asyncio.to_thread(rated_matches, members.accounts, account.id)
    return JSONResponse(
        {
            "name": account.name,
            "rating": account.rating,
            "experience": account.experience,
            "matches": total,
            "history": [
                {
                    "match_id": e.match_id,
                    "opponent": e.opponent,
                    "match_length": e.match_length,
                    "won": e.won,
                    "rating_before": e.rating_before,
                    "rating_after": e.rating_after,
                    "played_at": e.played_at.isoformat(),
                }
                for e in entries
            ],
        }
    )


@router.get("/api/leaderboard", responses=ERRORS)
async def get_leaderboard(
    members: MembersDep,
    active: bool = False,
    limit: int = Query(PAGE, ge=1, le=PAGE, description="standings in the page"),
    offset: int = Query(0, ge=0, le=MAX_OFFSET, description="standings before the page"),
) -> JSONResponse:
    """Every account by rating, highest first, a page at a time: ``limit`` standings (at most
    100) after the first ``offset``; a page shorter than ``limit`` is the last. ``active=true``:
    those with a rated match in the last 30 days."""
    standings = await asyncio.to_thread(
        leaderboard_page, members.accounts, ACTIVE_DAYS if active else None, limit=limit, offset=offset
    )
    return JSONResponse(
        [{"rank": s.rank, "name": s.name, "rating": s.rating, "experience": s.experience} for s in standings]
    )


@router.get("/api/account/profile", responses=ERRORS)
async def profile(request: Request, members: MembersDep) -> JSONResponse:
    """The account's profile: its analysed matches with their PR, error rates (mEMG per decision)
    and luck (mEMG per move), the PR trend with its moving average, the record against each
    opponent, luck, the worst decisions with their boards; and how many analyses are waiting."""
    _, account = await _account(request, members)
    summary = await asyncio.to_thread(profile_summary, members.store, account.id)
    pending = await asyncio.to_thread(members.queue.pending, account.id)
    return JSONResponse(
        {
            "name": account.name,
            "pr": summary.pr,
            "luck_total": summary.luck_total,
            "luck_rate": summary.luck_rate,
            "pending": pending,
            "matches": [
                {
                    "played_at": m.played_at.isoformat(),
                    "opponent": m.opponent,
                    "match_length": m.match_length,
                    "score": [m.player_score, m.opponent_score],
                    "result": m.result,
                    "pr": m.pr,
                    "checker_error_rate": m.checker_error_rate,
                    "cube_error_rate": m.cube_error_rate,
                    "luck_rate": m.luck_rate,
                    "source": m.source,
                    "source_name": m.source_name,
                }
                for m in summary.matches
            ],
            "pr_trend": [
                {"played_at": p.played_at.isoformat(), "pr": p.pr, "average": p.average}
                for p in summary.pr_trend
            ],
            "opponents": [
                {"name": o.name, "played": o.played, "won": o.won, "lost": o.lost} for o in summary.opponents
            ],
            "worst": [decision_json(d) for d in summary.worst],
        }
    )


class TooManyUploadsError(GammonError):
    """An account with :data:`MAX_PENDING` analyses waiting already (HTTP 429)."""


def _read(upload: Upload) -> tuple[bytes, str]:
    """The file's bytes and a name with its format's extension (which the reader goes by)."""
    kind = "mat" if upload.mat is not None else "sgf" if upload.sgf is not None else "xg"
    if upload.xg is not None:
        try:
            data = base64.b64decode(upload.xg, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidNotationError(tr("the .xg file is not in base64")) from None
    else:
        data = (upload.mat or upload.sgf or "").encode()
    stem = PurePath((upload.file_name or "upload").replace("\\", "/")).stem
    # shown in the profile, and stored: PostgreSQL refuses text holding NUL
    stem = "".join(c for c in stem if not unicodedata.category(c).startswith("C"))[:100] or "upload"
    return data, f"{stem}.{kind}"


def _queue_upload(members: Members, account: Account, upload: Upload) -> dict[str, object]:
    data, name = _read(upload)
    try:
        read = read_match_file(data, name)
    except (GammonError, ValueError) as e:
        raise InvalidNotationError(
            tr("cannot read {name}: {problem}", name=name, problem=cut_quotes(str(e)))
        ) from None
    # the same bound on work as the analysis page's uploads, at the profile's depth
    check_work(count_actions(read.match.games), min(members.settings.plies, 2), MAX_ACTIONS)
    player = upload.player or account.name
    seat = seat_of(read.names, player)
    if seat is None:
        raise InvalidNotationError(
            tr(
                "{player} is not one player of the file (its players: {first}, {second}); give the name you "
                "played under as player",
                player=cut(repr(player), 40),
                first=cut(repr(read.names[0]), 40),
                second=cut(repr(read.names[1]), 40),
            )
        )
    with _queueing:
        waiting = members.queue.pending(account.id)
        if waiting >= MAX_PENDING:
            raise TooManyUploadsError(
                tr(
                    "your account has reached its limit of analyses waiting ({n}): upload more once "
                    "they are done",
                    n=waiting,
                )
            )
        job = members.queue.add_file(account.id, seat, data, name, read.format, plies=members.settings.plies)
    # a file's names are its writer's to choose: a hostile one's are not sent back whole
    return {"job": job, "seat": seat, "names": [cut(n, MAX_NAME_ECHO) for n in read.names]}


@router.post(UPLOAD_PATH, status_code=202, responses=error_responses(401, 403, 409, 413, 422, 429))
async def upload(body: Upload, request: Request, members: MembersDep) -> JSONResponse:
    """Queue a ``.mat``, SGF or ``.xg`` file for the account's profile, from the seat of the player
    named so in the file (``player``, default the account's name)."""
    _, account = await _account(request, members)
    key = (id(members), account.id)
    if key in _reading:
        return error_response(429, tr("your previous upload is being read still; send this one once it is"))
    _reading.add(key)
    try:
        async with _turn(_turns, READING):
            queued = await asyncio.to_thread(_queue_upload, members, account, body)
    except TooManyUploadsError as exc:
        return error_response(429, str(exc))
    finally:
        _reading.discard(key)
    return JSONResponse(queued, status_code=202)


async def creator_session(request: Request, members: Members, rated: bool) -> str | None:
    """The session of a match's creator, whose seat its account takes: None for a guest (also a
    browser whose request lacks the CSRF header: it is made as a guest's). A rated match needs one
    (NotSignedInError)."""
    try:
        found = session_of(request)
    except GammonError:
        if rated:
            raise
        found = None
    account = None if found is None else await asyncio.to_thread(members.accounts.account_of, found[0])
    if account is None:
        if rated:
            raise NotSignedInError(
                tr("a rated match is made signed in (your friend claims seat 1 signed in)")
            )
        return None
    assert found is not None
    return found[0]


async def seat_creator(members: Members, live: LiveMatch, session: str, seat_token: str) -> None:
    """Link the creator's seat (0) to its account; the view shows it at once."""
    await asyncio.to_thread(members.claim, session, [seat_token])
    live.accounts = await asyncio.to_thread(members.seat_accounts, live.id)
