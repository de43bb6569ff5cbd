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
import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from gammon.dice import DiceSource
from gammon.store import Store
from gammon.web.engine_pool import EnginePool
from gammon.web.hub import Hub
from gammon.web.limits import AddressLimits, RequestLimit
from gammon.web.lobby import Lobby, LobbySettings
from gammon.web.members import Members
from gammon.web.middleware import BodyLimit
from gammon.web.routes import (
    accounts,
    diagram,
    drills,
    games,
    jobs,
    language,
    live,
    lobby,
    pages,
    tutor,
    watch,
    wildbg,
)
from gammon.web.routes import study as position_study
from gammon.web.routes.errors import add_error_handlers
from gammon.web.routes.language import Language
from gammon.web.security import HostCheck, SecurityHeaders
from gammon.web.settings import ServerSettings
from gammon.web.study import ANALYSES_PATH, COSTLY_PATHS, MAX_UPLOAD_BODY, Study

if TYPE_CHECKING:
    from gammon.engine.engine import Engine

MAX_BODY = 16 * 1024


def add_middleware(
    app: FastAPI,
    limits: AddressLimits,
    body_timeout: float,
    allowed_hosts: Iterable[str],
    public_url: str | None,
) -> None:
    """The checks every request passes, outermost last: its language, security headers, the
    address's rate limit, the Host header, then the body's size and time."""
    # inside the rate limit: a refused client is not read; an uploaded .mat may be larger
    app.add_middleware(
        BodyLimit,
        limit=MAX_BODY,
        larger={ANALYSES_PATH: MAX_UPLOAD_BODY, accounts.UPLOAD_PATH: MAX_UPLOAD_BODY},
        timeout=body_timeout,
    )
    app.add_middleware(HostCheck, allowed_hosts=allowed_hosts, public_url=public_url)
    costly = COSTLY_PATHS + wildbg.COSTLY_PATHS + diagram.COSTLY_PATHS
    app.add_middleware(RequestLimit, limits=limits, costly=costly)
    app.add_middleware(SecurityHeaders)  # refusals get the headers too
    app.add_middleware(Language)  # outermost: the refusals are worded in the reader's language


def lifespan(
    hub: Hub, warm: bool, study: Study, members: Members, players: Lobby
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """What starts and stops with the server: the hub (and its engine workers), the analysis queue's
    worker, the study's jobs, the lobby's beat and its notifications."""

    @contextlib.asynccontextmanager
    async def span(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start(warm)
        members.start()
        await players.start()
        try:
            yield
        finally:
            await players.stop()
            # the jobs stop at their next progress report, so the server's worker threads end with it
            study.jobs.shutdown()
            await asyncio.to_thread(members.stop)
            await hub.stop()

    return span


def create_app(
    store: Store,
    dice_factory: Callable[[], DiceSource] | None = None,
    settings: ServerSettings | None = None,
    *,
    clock: Callable[[], float] = time.monotonic,
    engine: Engine | None = None,
) -> FastAPI:
    """The application over ``store``, with the options of ``settings`` (see ServerSettings).
    ``dice_factory`` makes each match's dice (default: cryptographic random); ``clock`` measures
    the time an online opponent has been away (seconds; tests pass a fake one). ``engine`` gives
    the hints (by default a 0-ply Engine where the trained net is installed, else pubeval's
    ranking)."""
    settings = settings if settings is not None else ServerSettings()
    workers = settings.engine_workers
    timeout = settings.engine_timeout
    pool = EnginePool(workers, timeout=timeout) if engine is None else EnginePool(workers, engine, timeout)
    hub = Hub(store, dice_factory, settings, clock, pool)
    limits = AddressLimits(settings.rate, settings.burst, settings.ws_per_address)
    study_state = Study(settings.study)
    members = Members(store, settings.accounts)
    members.attach(hub)
    # The lobby takes at most an eighth of an address's sockets (8 of the default 64); a load
    # test that raises --ws-per-address raises it alike.
    players = Lobby(members, hub, LobbySettings(per_address=max(8, settings.ws_per_address // 8)))
    app = FastAPI(
        title="gammon",
        description="Backgammon: play against the computer or a friend.",
        version="0.1.0",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan(hub, settings.warm, study_state, members, players),
    )
    public_url = settings.public_url
    app.state.hub = hub
    app.state.limits = limits
    app.state.study = study_state
    app.state.members = members
    app.state.lobby = players
    app.state.public_url = public_url and public_url.rstrip("/")

    add_middleware(app, limits, settings.body_timeout, settings.allowed_hosts, public_url)
    add_error_handlers(app)
    rooms = (
        games,
        live,
        pages,
        jobs,
        position_study,
        watch,
        accounts,
        lobby,
        tutor,
        drills,
        wildbg,
        diagram,
        language,
    )
    for room in rooms:
        app.include_router(room.router)
    # /docs (gammon.web.routes.pages) is Swagger UI with its assets from this server.
    app.mount("/docs-assets", StaticFiles(directory=str(pages.DOCS_ASSETS)), name="docs-assets")
    app.mount("/static", StaticFiles(directory=str(pages.STATIC)), name="static")
    return app
