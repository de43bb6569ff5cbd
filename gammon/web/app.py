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
from collections.abc import AsyncIterator, Callable, Iterable
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from gammon.dice import DiceSource
from gammon.errors import cut
from gammon.store import Store
from gammon.web.engine_pool import EnginePool
from gammon.web.hub import Hub
from gammon.web.limits import AddressLimits, RequestLimit
from gammon.web.members import AccountSettings, Members
from gammon.web.middleware import BodyLimit
from gammon.web.presence import DEFAULT_AWAY_AFTER
from gammon.web.routes import accounts, games, jobs, language, live, pages, watch
from gammon.web.routes import study as position_study
from gammon.web.routes.errors import add_error_handlers
from gammon.web.security import HostCheck, SecurityHeaders
from gammon.web.sockets import DEFAULT_CAPS, DEFAULT_QUEUE, DEFAULT_SEND_TIMEOUT, SocketCaps
from gammon.web.study import ANALYSES_PATH, COSTLY_PATHS, MAX_UPLOAD_BODY, Study, StudySettings

if TYPE_CHECKING:
    from gammon.engine.engine import Engine

MAX_BODY = 16 * 1024


def check_options(counts: dict[str, int], seconds: dict[str, float], public_url: str | None) -> None:
    """Refuse (ValueError) a count that is not a positive whole number, a time that is not positive,
    or a public URL with a query."""
    for name, cap in counts.items():
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise ValueError(f"{name} must be a positive whole number, got {cap!r}")
    for name, value in seconds.items():
        if not value > 0:
            raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
    if public_url is not None and not re.fullmatch(r"https?://[^/?#\s]+(/[^?#\s]*)?", public_url):
        raise ValueError(f"public_url must be an http(s) URL without query, got {cut(repr(public_url), 80)}")


def add_middleware(
    app: FastAPI,
    limits: AddressLimits,
    body_timeout: float,
    allowed_hosts: Iterable[str],
    public_url: str | None,
) -> None:
    """The checks every request passes, outermost last: security headers, the address's rate limit,
    the Host header, then the body's size and time."""
    # inside the rate limit: a refused client is not read; an uploaded .mat may be larger
    app.add_middleware(
        BodyLimit,
        limit=MAX_BODY,
        larger={ANALYSES_PATH: MAX_UPLOAD_BODY, accounts.UPLOAD_PATH: MAX_UPLOAD_BODY},
        timeout=body_timeout,
    )
    app.add_middleware(HostCheck, allowed_hosts=allowed_hosts, public_url=public_url)
    app.add_middleware(RequestLimit, limits=limits, costly=COSTLY_PATHS)
    app.add_middleware(SecurityHeaders)  # outermost: refusals get the headers too


def lifespan(
    hub: Hub, warm: bool, study: Study, members: Members
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """What starts and stops with the server: the hub (and its engine workers), the analysis queue's
    worker, the study's jobs."""

    @contextlib.asynccontextmanager
    async def span(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start(warm)
        members.start()
        try:
            yield
        finally:
            # the jobs stop at their next progress report, so the server's worker threads end with it
            study.jobs.shutdown()
            await asyncio.to_thread(members.stop)
            await hub.stop()

    return span


def create_app(
    store: Store,
    dice_factory: Callable[[], DiceSource] | None = None,
    *,
    rate: float = 20.0,
    burst: float = 40.0,
    max_live: int = 5000,
    away_after: float = DEFAULT_AWAY_AFTER,
    clock: Callable[[], float] = time.monotonic,
    engine: Engine | None = None,
    ws_per_seat: int = DEFAULT_CAPS.per_seat,
    ws_per_match: int = DEFAULT_CAPS.per_match,
    ws_per_address: int = DEFAULT_CAPS.per_address,
    study: StudySettings | None = None,
    engine_workers: int = 1,
    warm: bool = False,
    ws_queue: int = DEFAULT_QUEUE,
    ws_send_timeout: float = DEFAULT_SEND_TIMEOUT,
    body_timeout: float = 30.0,
    public_url: str | None = None,
    allowed_hosts: Iterable[str] = (),
    account_settings: AccountSettings | None = None,
) -> FastAPI:
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
    the server rather than on the first engine call. ``account_settings``: the profile's analyses
    and the sign-in throttle (gammon.web.members)."""
    check_options(
        {
            "ws_per_seat": ws_per_seat,
            "ws_per_match": ws_per_match,
            "ws_per_address": ws_per_address,
            "ws_queue": ws_queue,
        },
        {"ws_send_timeout": ws_send_timeout, "body_timeout": body_timeout},
        public_url,
    )
    pool = EnginePool(engine_workers) if engine is None else EnginePool(engine_workers, advisor=engine)
    hub = Hub(
        store,
        dice_factory,
        max_live,
        away_after,
        clock,
        SocketCaps(ws_per_seat, ws_per_match, ws_per_address),
        pool,
        ws_queue,
        ws_send_timeout,
    )
    limits = AddressLimits(rate, burst, ws_per_address)
    study_state = Study(study)
    members = Members(store, account_settings)
    members.attach(hub)
    app = FastAPI(
        title="gammon",
        description="Backgammon: play against the computer or a friend.",
        version="0.1.0",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan(hub, warm, study_state, members),
    )
    app.state.hub = hub
    app.state.limits = limits
    app.state.study = study_state
    app.state.members = members
    app.state.public_url = public_url and public_url.rstrip("/")

    add_middleware(app, limits, body_timeout, allowed_hosts, public_url)
    add_error_handlers(app)
    for room in (games, live, pages, jobs, position_study, watch, accounts, language):
        app.include_router(room.router)
    # /docs (gammon.web.routes.pages) is Swagger UI with its assets from this server.
    app.mount("/docs-assets", StaticFiles(directory=str(pages.DOCS_ASSETS)), name="docs-assets")
    app.mount("/static", StaticFiles(directory=str(pages.STATIC)), name="static")
    return app
