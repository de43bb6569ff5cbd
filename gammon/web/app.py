"""The ASGI application: JSON API (OpenAPI at /docs), WebSocket for live games, the browser UI.

The server is the authority: it rolls the dice, validates every action with gammon's rules, applies
the actions of one match one at a time and stores each before acknowledging it. The game logic runs
on the event loop (an action costs well under a millisecond); the engine's work runs in a pool of
worker processes (gammon.web.engine_pool) and the writes go to the database in group commits
(gammon.store.batch). On PostgreSQL, several server processes serve the same matches: each commit
notifies the others (LISTEN/NOTIFY), which catch up and push the change to their own sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable, Container, Iterable
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from gammon.dice import DiceSource
from gammon.engine.players import available_levels
from gammon.errors import (
    GammonError,
    IllegalActionError,
    NotAuthorizedError,
    StaleActionError,
    UnknownMatchError,
    cut,
)
from gammon.formats.mat import format_mat
from gammon.rules import Rules
from gammon.store import Store
from gammon.store.batch import BatchWriter
from gammon.store.notify import Listener
from gammon.web.engine_pool import EnginePool
from gammon.web.frames import game_frames
from gammon.web.limits import AddressLimits, RequestLimit, address
from gammon.web.middleware import BodyLimit
from gammon.web.presence import DEFAULT_AWAY_AFTER, Presence, PresenceRelay
from gammon.web.schemas import (
    ActionRequest,
    CreateMatchRequest,
    CreateMatchResponse,
    ErrorResponse,
    Frame,
    Hint,
    HintResponse,
    MatchView,
)
from gammon.web.security import HostCheck, SecurityHeaders, policy_with_scripts, site_url
from gammon.web.session import LiveMatch
from gammon.web.sockets import (
    DEFAULT_QUEUE,
    DEFAULT_SEND_TIMEOUT,
    POLICY_VIOLATION,
    Outbox,
    accept,
    background,
    credential,
    refuse,
    texts,
)
from gammon.web.spectators import SPECTATOR, spectator_router, spectator_view
from gammon.web.study import ANALYSES_PATH, COSTLY_PATHS, MAX_UPLOAD_BODY, StudySettings, study_router
from gammon.web.views import PRESENT, Absence, mat_name, match_view, player_names

if TYPE_CHECKING:
    from gammon.engine.engine import Engine

STATIC = files("gammon.web") / "static"
DOCS_ASSETS = files("fastapi_offline") / "static"  # Swagger UI 5 (OpenAPI 3.1), shipped as a package
MAX_BODY = 16 * 1024
MAX_MESSAGE = 4 * 1024


Detail = Literal["none", "plays", "steps"]
"""What a seat's state carries of the legal plays: nothing, the plays, or the plays and their step
orders (which the browser needs, and which run to hundreds for doubles)."""


class SocketCaps(NamedTuple):
    """The most WebSockets open at once on one seat of a match, on one match, from one address: every
    socket of a match is sent each change, so the caps bound what one action costs (the address's cap
    is kept by gammon.web.limits)."""

    per_seat: int
    per_match: int
    per_address: int


DEFAULT_CAPS = SocketCaps(per_seat=4, per_match=16, per_address=64)


class Hub:
    """The live matches of this process (loaded from the store on first use) and their sockets."""

    def __init__(self, store: Store, dice_factory: Callable[[], DiceSource] | None,
                 max_live: int = 5000, away_after: float = DEFAULT_AWAY_AFTER,
                 clock: Callable[[], float] = time.monotonic, caps: SocketCaps = DEFAULT_CAPS,
                 pool: EnginePool | None = None, queue: int = DEFAULT_QUEUE,
                 send_timeout: float = DEFAULT_SEND_TIMEOUT) -> None:
        self.store = store
        self.pool = pool if pool is not None else EnginePool()
        self.writer = BatchWriter(store)
        self.listener: Listener | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.dice_factory = dice_factory
        self.max_live = max_live
        self.live: dict[str, LiveMatch] = {}
        # Each socket (its outbox) with its seat and what it asked to see of the legal plays.
        self.sockets: dict[str, set[tuple[Outbox, int | None, Detail]]] = {}
        self.caps = caps
        self.queue, self.send_timeout = queue, send_timeout  # each socket's (see gammon.web.sockets)
        self.presence = Presence(away_after, clock)
        self.relay: PresenceRelay | None = None  # presence shared with the other processes
        self._loading = asyncio.Lock()

    def _dice(self) -> DiceSource | None:
        return self.dice_factory() if self.dice_factory else None

    async def get(self, match_id: str) -> LiveMatch:
        live = self.live.pop(match_id, None)
        if live is not None:
            self.live[match_id] = live  # most recently used last
            return live
        async with self._loading:
            live = self.live.get(match_id)
            if live is None:
                live = await asyncio.to_thread(LiveMatch.load, self.store, match_id, self._dice())
                self._remember(live)
                if live.record.mode == "online":
                    for seat in live.players_who_moved():
                        self.presence.seen_if_new(live.id, seat)
        if live.computer_due() and not live.lock.locked():
            async with live.lock:
                await self._computer(live)  # a computer's turn that a restart interrupted
        return live

    async def start(self, warm: bool) -> None:
        """At startup: listen for other processes' commits (PostgreSQL); start the engine workers."""
        self.loop = asyncio.get_running_loop()
        if self.store.notifies:
            self.listener = Listener(self.store.url, self._notified)
            await asyncio.to_thread(self.listener.start)
            self.relay = PresenceRelay(self.store.url, self.presence, self._presence_changed)
            await self.relay.start()
        if warm:
            await self.pool.start()

    async def stop(self) -> None:
        if self.relay is not None:
            await self.relay.stop()
        if self.listener is not None:
            await asyncio.to_thread(self.listener.close)
        await asyncio.to_thread(self.writer.close)
        await asyncio.to_thread(self.pool.close)

    def _notified(self, match_id: str, count: int) -> None:
        """(The listener's thread) a process stored actions of ``match_id``, now ``count`` long."""
        loop = self.loop
        if loop is not None and match_id in self.live:
            loop.call_soon_threadsafe(lambda: loop.create_task(self.catch_up(match_id, count)))

    def _presence_changed(self, match_id: str, seat: int) -> None:
        """A seat came or went in another process: its opponent here sees it."""
        live = self.live.get(match_id)
        if live is not None and live.record.mode == "online" and self.sockets.get(match_id):
            asyncio.get_running_loop().create_task(self.broadcast(live, {1 - seat}))

    async def catch_up(self, match_id: str, count: int) -> None:
        """Another process stored actions of this match: make them here and push it."""
        live = self.live.get(match_id)
        if live is None or live.version >= count:
            return  # our own commit, or a match this process does not hold
        if not self.sockets.get(match_id) and not live.lock.locked():
            del self.live[match_id]  # nobody watches it here: load it again when someone comes
            return
        async with live.lock:
            if live.version >= count:
                return
            await asyncio.to_thread(live.catch_up)
            messages = self._messages(live)
        self._send(messages)

    async def _store(self, live: LiveMatch) -> None:
        """Store the match's unsaved actions (group commit); on failure go back to what is stored."""
        change = live.take_unsaved()
        if change is None:
            return
        try:
            await self.writer.append(live.id, change)
        except Exception:
            await asyncio.to_thread(live.reload)
            raise

    async def _computer(self, live: LiveMatch) -> None:
        """The computer's actions, found by the engine pool (the caller holds the lock)."""
        while live.computer_due():
            assert live.level is not None
            action = await self.pool.computer_action(live.level, live.match.game)
            live.computer_acts(action)
            await self._store(live)

    def _remember(self, live: LiveMatch) -> None:
        """Keep ``live`` in memory; forget the least recently used idle matches beyond ``max_live``
        (they are replayed from the store when someone comes back)."""
        self.live[live.id] = live
        excess = len(self.live) - self.max_live
        for key in list(self.live)[:max(excess, 0)]:
            old = self.live[key]
            if not self.sockets.get(key) and not old.lock.locked():
                del self.live[key]

    async def create(self, req: CreateMatchRequest) -> tuple[LiveMatch, list[str]]:
        rules = Rules(match_length=req.match_length, crawford=req.crawford, jacoby=req.jacoby,
                      beavers=req.beavers, cube_limit=req.cube_limit,
                      use_cube=req.use_cube and Rules.cube_matters(req.match_length))
        live, tokens = await asyncio.to_thread(LiveMatch.create, self.store, req.mode, rules,
                                               req.level if req.mode == "computer" else None, self._dice(),
                                               (req.name, req.opponent_name))
        self._remember(live)
        async with live.lock:
            await self._computer(live)
        if req.mode == "online":
            self.presence.seen(live.id, 0)
        return live, tokens

    async def act(self, live: LiveMatch, seat: int | None, req: ActionRequest, reply: bool = True,
                  detail: Detail = "plays") -> MatchView | None:
        """Apply one action (one at a time per match), store it, then push the new state to every
        socket; returns the acting seat's view when ``reply``, with ``detail`` (see Detail)."""
        async with live.lock:
            if req.version is not None and req.version > live.version:
                await asyncio.to_thread(live.catch_up)  # another process stored actions since
            await self._computer(live)  # a computer's turn left undone (an engine worker failed)
            if req.version is not None and req.version != live.version:
                raise StaleActionError(f"the game has moved on (version {live.version}, you acted on "
                                 f"{req.version}); look at the board again")
            try:
                if req.action == "claim":
                    self._check_claim(live, seat)
                    assert seat is not None
                    live.act(1 - seat, ActionRequest(action="abandon", play=None, kind=None, version=None))
                else:
                    live.act(seat, req)
            finally:
                await self._store(live)  # nothing is acknowledged, or shown, before it is stored
            await self._computer(live)  # the clients see the computer's answer with the action
            # Views are made under the lock, so no other action changes the match meanwhile.
            view = self._view(live, seat, detail) if reply else None
            messages = self._messages(live)
        self._send(messages)
        return view

    def outbox(self, ws: WebSocket, on_drop: Callable[[str], object]) -> Outbox:
        """A new socket's outbox (its sender starts with ``async with``)."""
        return Outbox(ws, self.queue, self.send_timeout, on_drop)

    def join(self, match_id: str, out: Outbox, seat: int | None, detail: Detail = "plays") -> str | None:
        """Count the socket in, or say which cap it is over (then nothing is counted)."""
        sockets = self.sockets.get(match_id, set())
        caps = self.caps
        if sum(1 for _, s, _ in sockets if s == seat) >= caps.per_seat:
            return f"this seat has {caps.per_seat} sockets open already (the limit); close one first"
        if len(sockets) >= caps.per_match:
            return f"this match has {caps.per_match} sockets open already (the limit)"
        self.sockets.setdefault(match_id, set()).add((out, seat, detail))
        return None

    def leave(self, match_id: str, out: Outbox, seat: int | None, detail: Detail = "plays") -> bool:
        """Count the socket out; whether it was in (it leaves once, dropped or closed)."""
        sockets = self.sockets.get(match_id, set())
        was = (out, seat, detail) in sockets
        sockets.discard((out, seat, detail))
        if not sockets:
            self.sockets.pop(match_id, None)
        return was

    def seat_open(self, match_id: str, seat: int | None) -> bool:
        return any(s == seat for _, s, _ in self.sockets.get(match_id, ()))

    async def broadcast(self, live: LiveMatch, seats: Container[int | None] | None = None) -> None:
        """Push the current state to the sockets of the match (of ``seats`` only, if given)."""
        async with live.lock:
            messages = self._messages(live, seats)
        self._send(messages)

    async def greet(self, live: LiveMatch, out: Outbox, seat: int | None, detail: Detail) -> None:
        """Send a new socket its first state."""
        async with live.lock:
            out.put(_state_message(self._view(live, seat, detail)))

    def _messages(self, live: LiveMatch, seats: Container[int | None] | None = None
                  ) -> list[tuple[Outbox, str]]:
        views: dict[tuple[int | None, Detail], str] = {}
        messages = []
        for ws, s, detail in list(self.sockets.get(live.id, ())):
            if seats is not None and s not in seats:
                continue
            if (s, detail) not in views:
                views[(s, detail)] = _state_message(self._view(live, s, detail))
            messages.append((ws, views[(s, detail)]))
        return messages

    @staticmethod
    def _send(messages: list[tuple[Outbox, str]]) -> None:
        for out, text in messages:
            out.put(text)  # never waits: a client that does not keep up is dropped (gammon.web.sockets)

    def _absence(self, live: LiveMatch, seat: int | None) -> Absence:
        """How long the opponent of ``seat`` has been away while the game waits on it, and whether it
        ever came (online)."""
        if live.record.mode != "online" or seat is None:
            return PRESENT
        away = self.presence.away(live.id, 1 - seat)
        if live.acting_player() != 1 - seat:
            return Absence(None, None, away is not None)
        return Absence(away, self.presence.claim_in(live.id, 1 - seat), away is not None)

    def _check_claim(self, live: LiveMatch, seat: int | None) -> None:
        if live.record.mode != "online" or seat is None:
            raise IllegalActionError("only a player of an online game can claim it")
        names = player_names(live)
        away = self._absence(live, seat)
        if away.claim_in is None:
            raise IllegalActionError(f"cannot claim: the game is not waiting on {names[1 - seat]}, "
                                     "or they are still connected")
        if away.claim_in > 0:
            raise IllegalActionError(f"cannot claim yet: {names[1 - seat]} has been away "
                                     f"{away.seconds:.0f} s; wait {away.claim_in:.0f} s more")

    def _view(self, live: LiveMatch, seat: int | None, detail: Detail = "plays") -> MatchView:
        if seat == SPECTATOR:
            return spectator_view(live)
        return match_view(live, seat, self._absence(live, seat), steps=detail == "steps",
                          plays=detail != "none")

    async def view(self, live: LiveMatch, seat: int | None, detail: Detail = "plays") -> MatchView:
        async with live.lock:
            return self._view(live, seat, detail)


def _state_message(view: MatchView) -> str:
    """The WebSocket message carrying ``view`` (pydantic's own serializer: no dict in between)."""
    return '{"type":"state","state":' + view.model_dump_json() + "}"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)



def _status(exc: Exception) -> int:
    if isinstance(exc, UnknownMatchError):
        return 404
    if isinstance(exc, NotAuthorizedError):
        return 403
    if isinstance(exc, GammonError | ValueError):
        return 409
    return 500


def create_app(store: Store, dice_factory: Callable[[], DiceSource] | None = None, *,
               rate: float = 20.0, burst: float = 40.0, max_live: int = 5000,
               away_after: float = DEFAULT_AWAY_AFTER,
               clock: Callable[[], float] = time.monotonic, engine: Engine | None = None,
               ws_per_seat: int = DEFAULT_CAPS.per_seat, ws_per_match: int = DEFAULT_CAPS.per_match,
               ws_per_address: int = DEFAULT_CAPS.per_address, study: StudySettings | None = None,
               engine_workers: int = 1, warm: bool = False, ws_queue: int = DEFAULT_QUEUE,
               ws_send_timeout: float = DEFAULT_SEND_TIMEOUT, body_timeout: float = 30.0,
               public_url: str | None = None, allowed_hosts: Iterable[str] = ()) -> FastAPI:
    """The application. ``dice_factory`` makes each match's dice (default: cryptographic random);
    ``rate``/``burst`` limit the actions a second of one client address (every HTTP request and
    WebSocket handshake; hints to a tenth of that; apart, the messages of all its WebSockets, each
    socket closed past it: see gammon.web.limits); at most ``max_live``
    idle matches are kept in memory; an online player may claim a game its opponent has left for
    ``away_after`` seconds while it had to act, as measured by ``clock`` (seconds; tests pass a
    fake one). ``engine`` gives the hints (by default a 0-ply Engine where the trained net is
    installed, else pubeval's ranking). ``ws_per_seat``, ``ws_per_match`` and ``ws_per_address``
    cap the WebSockets open at once (see SocketCaps). A socket whose client does not keep up, with
    ``ws_queue`` messages waiting or one waiting ``ws_send_timeout`` seconds to go, is dropped (see
    gammon.web.sockets). A request body must all come within ``body_timeout`` seconds (408).
    Links to matches start with ``public_url`` (the server's address as its users reach it) where
    given, else with the request's host, which must be a loopback name, the address connected to,
    or one of ``allowed_hosts`` ("*": any); see gammon.web.security. ``study``: the analysis and
    position pages' engine and job workers (gammon.web.study). ``engine_workers`` processes do the
    engine's work (the computer's actions above the random level, hints); ``warm`` starts them with
    the server rather than on the first engine call."""
    for name, cap in (("ws_per_seat", ws_per_seat), ("ws_per_match", ws_per_match),
                      ("ws_per_address", ws_per_address), ("ws_queue", ws_queue)):
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise ValueError(f"{name} must be a positive whole number, got {cap!r}")
    for name, seconds in (("ws_send_timeout", ws_send_timeout), ("body_timeout", body_timeout)):
        if not seconds > 0:
            raise ValueError(f"{name} must be a positive number of seconds, got {seconds!r}")
    if public_url is not None and not re.fullmatch(r"https?://[^/?#\s]+(/[^?#\s]*)?", public_url):
        raise ValueError(f"public_url must be an http(s) URL without query, got {cut(repr(public_url), 80)}")
    # /docs is served below with Swagger UI's assets from this server (FastAPI's own loads a CDN).
    pool = EnginePool(engine_workers) if engine is None else EnginePool(engine_workers, advisor=engine)
    hub = Hub(store, dice_factory, max_live, away_after, clock,
              SocketCaps(ws_per_seat, ws_per_match, ws_per_address), pool, ws_queue, ws_send_timeout)
    limits = AddressLimits(rate, burst, ws_per_address)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start(warm)
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="gammon", description="Backgammon: play against the computer or a friend.",
                  version="0.1.0", docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.hub = hub
    app.state.limits = limits
    app.state.public_url = public_url and public_url.rstrip("/")

    # inside the rate limit: a refused client is not read; an uploaded .mat may be larger
    app.add_middleware(BodyLimit, limit=MAX_BODY, larger={ANALYSES_PATH: MAX_UPLOAD_BODY},
                       timeout=body_timeout)
    app.add_middleware(HostCheck, allowed_hosts=allowed_hosts, public_url=public_url)
    app.add_middleware(RequestLimit, limits=limits, costly=COSTLY_PATHS)
    app.add_middleware(SecurityHeaders)  # outermost: refusals get the headers too

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return _error(400, "malformed JSON: " + "; ".join(str(e.get("msg")) for e in errors))
        # Quote a short cut of each bad input, never the input whole (it may be as long as MAX_BODY).
        parts = [f"{cut('.'.join(str(x) for x in e.get('loc', ())[1:]) or 'body', 40)}: "
                 f"{cut(str(e.get('msg')), 120)}"
                 + (f" (got {cut(repr(e['input']), 40)})"
                    if "input" in e and e.get("type") != "missing" else "")
                 for e in errors[:5]]
        return _error(422, "invalid request: " + "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Unknown routes, wrong methods, unparsable bodies: the API's error shape, not {"detail": ...}.
        path = cut(repr(request.url.path), 80)
        if exc.status_code == 404:
            message = f"nothing here: {path}"
        elif exc.status_code == 405:
            message = f"method {cut(request.method, 10)} is not allowed on {path}"
        else:
            message = exc.detail if isinstance(exc.detail, str) else "bad request"
        return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, _exc: Exception) -> JSONResponse:
        return _error(500, "internal server error")  # the details go to the log, not to the client

    @app.exception_handler(GammonError)
    async def gammon_error(_request: Request, exc: GammonError) -> JSONResponse:
        return _error(_status(exc), str(exc))

    async def seat_for(match_id: str, token: str | None) -> tuple[LiveMatch, int | None]:
        live = await hub.get(match_id)
        if not token:
            raise NotAuthorizedError("this needs the seat token (header X-Gammon-Token)")
        seat = live.seat_of(token)
        hub.presence.seen(live.id, seat)
        return live, seat

    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorResponse} for code in (400, 403, 404, 409, 422)}

    @app.post("/api/matches", response_model=CreateMatchResponse, responses=errors)
    async def create_match(req: CreateMatchRequest, request: Request) -> CreateMatchResponse:
        try:
            live, tokens = await hub.create(req)
        except ValueError as exc:
            bad = [{"loc": ("body",), "msg": str(exc), "type": "value_error"}]
            raise RequestValidationError(bad) from exc
        base = site_url(request)
        url = f"{base}/play/{live.id}#token={tokens[0]}"
        invite = f"{base}/play/{live.id}#token={tokens[1]}" if req.mode == "online" else None
        return CreateMatchResponse(match_id=live.id, token=tokens[0], seat=None if req.mode == "local" else 0,
                                   url=url, invite_url=invite)

    @app.get("/api/matches/{match_id}", response_model=MatchView, responses=errors)
    async def get_match(match_id: str, x_gammon_token: str | None = Header(None), steps: bool = False
                        ) -> MatchView:
        """The match as the token's seat sees it; ``steps=true`` adds the step orders of the legal
        plays (``sequences``) for the seat to move."""
        live, seat = await seat_for(match_id, x_gammon_token)
        return await hub.view(live, seat, "steps" if steps else "plays")

    @app.post("/api/matches/{match_id}/actions", response_model=MatchView, responses=errors)
    async def post_action(match_id: str, req: ActionRequest,
                          x_gammon_token: str | None = Header(None), steps: bool = False) -> MatchView:
        live, seat = await seat_for(match_id, x_gammon_token)
        view = await hub.act(live, seat, req, detail="steps" if steps else "plays")
        assert view is not None
        return view

    @app.websocket("/ws/matches/{match_id}")
    async def live_socket(ws: WebSocket, match_id: str, steps: bool = False, plays: bool = True) -> None:
        """Live states of the match, for the seat token given as the subprotocol ``token.<token>``
        beside ``gammon`` (or the X-Gammon-Token header; ``?token=`` still works). To the seat to
        move they carry the legal plays; ``steps=true`` adds their step orders, which the browser
        needs to move one checker at a time; ``plays=false`` leaves the plays out (a client that
        knows the rules: each state is smaller and cheaper to make)."""
        detail: Detail = "steps" if steps else "plays" if plays else "none"
        await accept(ws)
        try:
            live, seat = await seat_for(match_id, credential(ws, "token"))
        except GammonError as exc:
            await refuse(ws, str(exc), 4403 if isinstance(exc, NotAuthorizedError) else 4404)
            return
        client = address(ws.scope)
        refused = limits.open_socket(client)  # held until the connection ends, dropped or not
        if refused is not None:
            await refuse(ws, refused, POLICY_VIOLATION)
            return
        try:
            await seat_socket(ws, live, seat, detail, client)
        finally:
            limits.close_socket(client)

    async def seat_socket(ws: WebSocket, live: LiveMatch, seat: int | None, detail: Detail,
                          client: str) -> None:
        """A seat's socket (or a local game's), its address counted: states out, actions in."""
        first = seat is not None and not hub.seat_open(live.id, seat)  # the seat comes (back)

        def gone(_why: str = "") -> None:  # once: the client left, or it was dropped (too slow)
            if hub.leave(live.id, out, seat, detail):
                hub.presence.closed(live.id, seat)
                if seat is not None and live.record.mode == "online" and not hub.seat_open(live.id, seat):
                    background(hub.broadcast(live, {1 - seat}))  # the opponent sees this seat left

        async with hub.outbox(ws, gone) as out:
            refused = hub.join(live.id, out, seat, detail)
            if refused is not None:
                await refuse(ws, refused, POLICY_VIOLATION)
                return
            hub.presence.opened(live.id, seat)
            try:
                await hub.greet(live, out, seat, detail)
                if seat is not None and first and live.record.mode == "online":
                    await hub.broadcast(live, {1 - seat})  # the opponent sees this seat came back
                async for text in texts(ws, out, lambda: limits.allow("message", client)):
                    if len(text) > MAX_MESSAGE:
                        out.send_json({"type": "error", "error": f"message of {len(text)} characters is "
                                                                 f"over the limit of {MAX_MESSAGE}"})
                        continue
                    try:
                        req = ActionRequest.model_validate_json(text)
                        await hub.act(live, seat, req, reply=False)
                    except ValidationError as exc:
                        out.send_json({"type": "error", "error": "invalid message: " + _short(exc)})
                    except (GammonError, ValueError) as exc:
                        out.send_json({"type": "error", "error": str(exc)})
            finally:
                gone()

    @app.get("/api/levels", response_model=list[str])
    async def levels() -> list[str]:
        """The computer levels this server can play."""
        return list(available_levels())

    @app.get("/api/matches/{match_id}/hint", response_model=HintResponse, responses=errors)
    async def hint(match_id: str, x_gammon_token: str | None = Header(None)) -> HintResponse:
        """The best plays for the seat to move (not in online games: that would be help from outside)."""
        live, seat = await seat_for(match_id, x_gammon_token)
        if live.record.mode == "online":
            raise NotAuthorizedError("hints are off in online games")
        async with live.lock:
            game = live.match.game
            position, dice = game.position, game.dice
            if dice is None or live.acting_player() is None or (seat is not None and seat != game.turn) \
                    or not game.legal_plays():
                raise IllegalActionError(f"no hint: nothing for you to move now ({game.awaiting()})")
        found = await hub.pool.hints(position, dice)
        return HintResponse(source=hub.pool.hint_source, hints=[Hint(play=p, score=v) for p, v in found])

    @app.get("/api/matches/{match_id}/games/{number}/frames", response_model=list[Frame], responses=errors)
    async def frames(match_id: str, number: int, x_gammon_token: str | None = Header(None)) -> list[Frame]:
        """Game ``number`` (from 1) as boards after each move, to replay it move by move."""
        live, seat = await seat_for(match_id, x_gammon_token)
        async with live.lock:
            games = live.match.games
            if not 1 <= number <= len(games):
                raise IllegalActionError(f"no game {number}: the match has {len(games)}")
            return game_frames(games[number - 1], 0 if seat is None else seat, player_names(live))

    @app.get("/api/matches/{match_id}/match.mat", response_class=PlainTextResponse, responses=errors)
    async def download_mat(match_id: str, token: str = "", x_gammon_token: str | None = Header(None)
                           ) -> PlainTextResponse:
        """The match so far as a Jellyfish/GNU Backgammon ``.mat`` file (token as header or ?token=)."""
        live, _ = await seat_for(match_id, x_gammon_token or token)
        names = tuple(mat_name(n, f"Player {k + 1}") for k, n in enumerate(player_names(live)))
        async with live.lock:
            text = format_mat(live.match, names, tags={"Site": "gammon", "Match ID": live.id})
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="gammon-{live.id}.mat"'})

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    @app.get("/play/{match_id}", include_in_schema=False)
    async def play_page(match_id: str) -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    @app.get("/docs", include_in_schema=False)
    async def docs(request: Request) -> HTMLResponse:
        """Swagger UI with its assets from this server, so the API docs work offline."""
        root = request.scope.get("root_path", "").rstrip("/")
        page = get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}", title="gammon API",
            swagger_js_url=f"{root}/docs-assets/swagger-ui-bundle.js",
            swagger_css_url=f"{root}/docs-assets/swagger-ui.css",
            swagger_favicon_url=f"{root}/docs-assets/favicon.png",
            swagger_ui_parameters={"validatorUrl": None})  # no badge from validator.swagger.io
        page.headers["Content-Security-Policy"] = policy_with_scripts(bytes(page.body).decode())
        return page

    app.include_router(study_router(hub, study))
    app.include_router(spectator_router(hub, limits))
    app.mount("/docs-assets", StaticFiles(directory=str(DOCS_ASSETS)), name="docs-assets")
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


def _short(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(x) for x in e['loc']) or 'message'}: {e['msg']}" for e in exc.errors())
