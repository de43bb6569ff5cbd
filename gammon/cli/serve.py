"""``gammon serve``: the web server (JSON API, WebSockets, browser UI) on uvicorn."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import fcntl
import gc
import inspect
import ipaddress
import json
import logging
import os
import socket
import sys
import time
from collections.abc import AsyncIterator
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import unquote

from gammon.cli.progress import compile_notice
from gammon.dice import RandomDice
from gammon.engine.rollout.parallel import MAX_WORKERS
from gammon.errors import StoreUnavailableError, cut
from gammon.i18n import current_language, format_number, ntr, set_language, tr

if TYPE_CHECKING:
    from fastapi import FastAPI
    from sqlalchemy.engine import URL

_CONFIG = "GAMMON_SERVE_CONFIG"  # how the server processes of --workers get their options


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(
            tr("expected a positive number of seconds, got {text}", text=cut(repr(text)))
        )
    return value


def _proxy_addresses(text: str) -> str:
    """``--forwarded-allow-ips``: the proxies as uvicorn reads them. uvicorn keeps an entry that is
    no address or network as a name that no client address ever equals, so a typo would silently
    trust no proxy: every entry must be an address or a network, or the whole value '*'."""
    if text.strip() == "*":
        return "*"
    entries = [entry.strip() for entry in text.split(",")]
    for entry in entries:
        try:
            if "/" in entry:
                ipaddress.ip_network(entry)  # strict, as uvicorn reads it
            else:
                ipaddress.ip_address(entry)
        except ValueError:
            network = None
            with contextlib.suppress(ValueError):
                network = ipaddress.ip_network(entry, strict=False)
            if network is not None:
                raise argparse.ArgumentTypeError(tr(
                    "{entry} has bits set past its prefix, so it is no network (did you mean {network}?)",
                    entry=cut(repr(entry)), network=str(network))) from None
            raise argparse.ArgumentTypeError(tr(
                "expected IP addresses or networks (comma-separated), or '*' alone, got {entry}",
                entry=cut(repr(entry)))) from None
    return ",".join(entries)


def add_serve_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``serve`` to a CLI's subcommands; the lead's main dispatches to :func:`run_serve`."""
    p = subparsers.add_parser(
        "serve",
        help=tr("play in the browser: start the web server"),
        description=tr("Serve the browser UI and the JSON/WebSocket API."),
    )
    p.add_argument("--host", default="127.0.0.1", help=tr("address to listen on (default 127.0.0.1)"))
    p.add_argument("--port", type=int, default=8000, help=tr("port to listen on (default 8000)"))
    p.add_argument(
        "--database-url",
        default=None,
        help=tr(
            "SQLAlchemy URL, e.g. postgresql://user@host/db (default: an SQLite file in "
            "the user's data directory)"
        ),
    )
    p.add_argument(
        "--rate-limit",
        type=float,
        default=20.0,
        metavar="N",
        help=tr("actions a second one client may send (bursts of 2N; default 20)"),
    )
    # The default lives in gammon.web.presence; importing it here would load FastAPI for every command.
    p.add_argument(
        "--away-after",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help=tr(
            "online games: how long a player who must act may be disconnected before "
            "the opponent may claim the game (default 300)"
        ),
    )
    p.add_argument(
        "--idle-after",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help=tr(
            "online games: how long a player may take over one decision, connected or not, before "
            "the opponent may claim the game (default 600)"
        ),
    )
    p.add_argument(
        "--forwarded-allow-ips",
        type=_proxy_addresses,
        default=None,
        metavar="IPS",
        help=tr(
            "behind a reverse proxy: the proxies' addresses (comma-separated, or '*') whose "
            "X-Forwarded-For/-Proto headers are trusted for the client's address (default: "
            "none; the rate limits count the connecting address)"
        ),
    )
    _add_access_options(p)
    p.add_argument(
        "--workers",
        type=_processes,
        default=1,
        metavar="N",
        help=tr(
            "server processes sharing the port (PostgreSQL only: live updates cross "
            "processes with LISTEN/NOTIFY; default 1)"
        ),
    )
    _add_engine_options(p)
    # Test-only: reproducible games for end-to-end tests. Never use it for real play.
    p.add_argument("--dice-seed", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument(
        "--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"]
    )
    p.set_defaults(run=run_serve)
    return p


def _add_engine_options(p: argparse.ArgumentParser) -> None:
    """The options of the engine's work: its worker processes, their time limit, the profiles' depth."""
    p.add_argument(
        "--engine-workers",
        type=_processes,
        default=1,
        metavar="N",
        help=tr(
            "worker processes for the engine's work (the computer's moves, hints) in "
            "each server process (default 1)"
        ),
    )
    p.add_argument(
        "--engine-timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help=tr(
            "how long one engine call (a computer's move, a hint) may run before its worker is "
            "taken for stuck: the workers start afresh and the client is told to try again "
            "(default 300)"
        ),
    )
    p.add_argument(
        "--profile-plies",
        type=int,
        choices=range(4),
        default=None,
        metavar="N",
        help=tr(
            "the depth (0-3 plies) of the analyses of players' matches for their profiles "
            "(default 2, as 'gammon analyse')"
        ),
    )


def _add_access_options(p: argparse.ArgumentParser) -> None:
    """The options of how users reach the server and how many connections it holds."""
    p.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help=tr(
            "the server's address as its users reach it, e.g. https://gammon.example.org: "
            "the links to matches start with it (default: the address the request came to)"
        ),
    )
    p.add_argument(
        "--allowed-hosts",
        default="",
        metavar="NAMES",
        help=tr(
            "host names the server answers to besides its own addresses and localhost "
            "(comma-separated, or '*' for any); requests naming another are refused"
        ),
    )

    p.add_argument(
        "--ws-per-address",
        type=_count,
        default=64,
        metavar="N",
        help=tr("WebSockets one client address may hold open at once (default 64)"),
    )
    p.add_argument(
        "--max-connections",
        type=_count,
        default=1000,
        metavar="N",
        help=tr(
            "connections (WebSockets too) each server process holds open at once; past it, "
            "a request or handshake is answered 503 (default 1000)"
        ),
    )


def _count(text: str) -> int:
    # ASCII digits, at most 4000: int() refuses other digits ('²') and more than 4300, a ValueError
    # that argparse said as an "invalid _count value", echoing the value uncut
    if not (text.isascii() and text.isdigit() and len(text) <= 4000 and int(text) >= 1):
        raise argparse.ArgumentTypeError(
            tr("expected a whole number of processes from 1, got {text}", text=cut(repr(text)))
        )
    return int(text)


def _processes(text: str) -> int:
    value = _count(text)
    if value > MAX_WORKERS:  # each starts with the server and loads an engine (some 200 MB)
        raise argparse.ArgumentTypeError(
            tr("{text} processes is more than {limit}", text=cut(repr(text)), limit=MAX_WORKERS)
        )
    return value


def app_from_environment() -> FastAPI:
    """The app of one server process, its options from the environment (uvicorn's factory for
    ``--workers``: each process builds its own app, store and engine pool). It loads the engine as
    it starts (see :func:`_warming`)."""
    from gammon.store import Store
    from gammon.web import ServerSettings, create_app
    from gammon.web.jobs import Jobs, ProcessRunner
    from gammon.web.members import AccountSettings
    from gammon.web.study import StudySettings

    options: dict[str, Any] = json.loads(os.environ[_CONFIG])
    set_language(options.get("lang"))  # a process of --workers speaks the terminal's language too
    if options.get("supervisor") not in (None, os.getpid()):  # a process of --workers
        from gammon.web.lifeline import die_with_parent

        die_with_parent(options["supervisor"])  # never outlive uvicorn's supervisor, even killed
    dice_factory = None
    if options["dice_seed"] is not None:
        counter = iter(range(1 << 62))
        # A different, reproducible stream for each match created by this process.
        dice_factory = lambda: RandomDice(options["dice_seed"] * 1_000_003 + next(counter))  # noqa: E731
    given: dict[str, Any] = {
        name: options[name]
        for name in ("away_after", "idle_after", "engine_timeout")
        if options.get(name) is not None
    }
    if options.get("profile_plies") is not None:
        given["accounts"] = AccountSettings(plies=options["profile_plies"])
    app = create_app(
        Store(options["database_url"]),
        dice_factory,
        settings=ServerSettings(
            rate=options["rate_limit"],
            burst=2 * options["rate_limit"],
            engine_workers=options["engine_workers"],
            ws_per_address=options["ws_per_address"],
            public_url=options["public_url"],
            allowed_hosts=[h.strip() for h in options["allowed_hosts"].split(",") if h.strip()],
            study=StudySettings(jobs=Jobs(ProcessRunner())),
            **given,
        ),
    )
    return _warming(app)


def _warming(app: FastAPI) -> FastAPI:
    """``app`` whose start-up (which uvicorn finishes before it answers) first loads the engine: the
    engine workers warm themselves up as they start (gammon.web.engine_pool), while this process
    warms what it runs itself (gammon.web.warmup.warm_server)."""
    from gammon.web.warmup import warm_server

    hub, inner = app.state.hub, app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        # A first game that waited on the engine's loading looked hung.
        print("gammon: " + tr("loading the engine ..."), flush=True)
        start = time.monotonic()
        try:
            with compile_notice():
                await asyncio.gather(hub.pool.start(), asyncio.to_thread(warm_server))
        except BaseException:
            await asyncio.to_thread(hub.pool.close)  # no worker left behind a failed start
            raise
        workers = hub.pool.workers
        print(
            "gammon: "
            + ntr(
                "engine loaded in {seconds} s ({n} engine worker)",
                "engine loaded in {seconds} s ({n} engine workers)",
                workers,
                seconds=format_number(time.monotonic() - start, ".1f"),
                n=workers,
            ),
            flush=True,
        )
        async with inner(app) as state:
            settle_collector()
            yield state

    app.router.lifespan_context = lifespan
    return app


def settle_collector() -> None:
    """Tune the garbage collector for serving, once the start-up objects are made (the engine, the
    modules, the app). Those live as long as the process: frozen, the collector no longer walks
    them on every full pass (pauses of tenths of a second under load). And a young generation of
    20,000 objects rather than 700: an action makes and drops hundreds, so at 700 the collector ran
    every action or two and moved the objects of a roll into the older generations, which then
    filled and were walked again and again (a tenth of the server's CPU)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def cannot_listen(host: str, port: int) -> str | None:
    """Why uvicorn could not bind ``host:port`` (a port in use, an address not this machine's), or
    None. Checked with a socket bound as uvicorn binds its own and closed at once, before the
    engine loads: uvicorn binds only after the app has started, so its error came after gammon
    had said it was serving. ``gammon external`` checks its port the same way."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except (OSError, OverflowError) as e:
            return e.strerror if isinstance(e, OSError) and e.strerror else str(e)
    return None


def run_serve(args: argparse.Namespace) -> int:
    from gammon.store import Store

    problem = cannot_listen(args.host, args.port)
    if problem:
        print(
            "gammon serve: "
            + tr("cannot listen on {host}:{port}: {error}", host=args.host, port=args.port, error=problem),
            file=sys.stderr,
        )
        return 2
    from gammon.web import ServerSettings

    try:  # the settings' refusals at the terminal, not as a traceback from the starting server
        ServerSettings(rate=args.rate_limit, burst=2 * args.rate_limit, ws_per_address=args.ws_per_address,
                       public_url=args.public_url)
    except ValueError as e:
        print(f"gammon serve: {e}", file=sys.stderr)
        return 2
    try:
        # Refuses a damaged database, then creates the tables once, before any server process starts.
        store = Store(args.database_url, check=True)
    except StoreUnavailableError as e:
        print(f"gammon serve: {e}", file=sys.stderr)
        return 2
    url, notifies, in_memory = store.engine.url, store.notifies, store.in_memory
    store.close()
    held = _serve_alone(url, in_memory)
    if isinstance(held, str):
        print("gammon serve: " + held, file=sys.stderr)
        return 2
    with held or contextlib.nullcontext():  # the file's lock, let go as the server ends
        return _run_uvicorn(args, url, notifies)


def served_url(host: str, port: int) -> str:
    """The address the server line names: an IPv6 address in brackets, as a browser reads it
    ('http://::1:8000/' was no URL)."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _run_uvicorn(args: argparse.Namespace, url: URL, notifies: bool) -> int:
    """Serve until shut down (the options checked, the database at ``url`` made)."""
    import uvicorn

    if args.workers > 1 and not notifies:
        raise SystemExit(
            "gammon serve: "
            + tr(
                "--workers {n} needs PostgreSQL (--database-url postgresql://...): SQLite cannot tell one "
                "process of another's actions",
                n=args.workers,
            )
        )
    os.environ[_CONFIG] = json.dumps(
        {
            "database_url": args.database_url,
            "dice_seed": args.dice_seed,
            "away_after": args.away_after,
            "idle_after": args.idle_after,
            "engine_timeout": args.engine_timeout,
            "rate_limit": args.rate_limit,
            "engine_workers": args.engine_workers,
            "ws_per_address": args.ws_per_address,
            "public_url": args.public_url,
            "allowed_hosts": args.allowed_hosts,
            "profile_plies": args.profile_plies,
            "supervisor": os.getpid(),
            "lang": current_language(),
        }
    )
    serving = "gammon: " + ntr(
        "serving on {url} (database {database}, {n} process)",
        "serving on {url} (database {database}, {n} processes)",
        args.workers,
        url=served_url(args.host, args.port),
        database=repr(url),
        n=args.workers,
    )
    # uvicorn trusts X-Forwarded-For from 127.0.0.1 by default; a client could then pick its own
    # address (and rate-limit bucket) through any local proxy. Trust proxies only when named.
    proxies = (
        {}
        if args.forwarded_allow_ips is None
        else {"proxy_headers": True, "forwarded_allow_ips": args.forwarded_allow_ips}
    )
    # No per-message deflate: a state is a few KB, and compressing each one cost more CPU than
    # anything else an action does. A connection must send each request's head within 10 s
    # (gammon.web.http_protocol) and may then idle 5 s; a client that never reads cannot hold the
    # server's shutdown past 10 s.
    target: Any = "gammon.cli.serve:app_from_environment" if args.workers > 1 else app_from_environment()
    run_uvicorn(
        target,
        announce=serving,
        factory=args.workers > 1,
        workers=args.workers,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        http="gammon.web.http_protocol:GuardedHttp",
        ws="gammon.web.http_protocol:GuardedWebSocket",
        timeout_keep_alive=5,
        limit_concurrency=args.max_connections,
        timeout_graceful_shutdown=10,
        log_config=_log_config(),
        **({"proxy_headers": False} | proxies | _health_check(uvicorn.Config)),
    )
    return 0


STARTUP_FAILURE = 3
"""The exit status of a server that did not start (uvicorn's own)."""


def run_uvicorn(target: Any, announce: str, **options: Any) -> None:
    """Serve ``target`` as ``uvicorn.run(target, **options)`` does, and print ``announce`` once the
    port takes connections. uvicorn opens the port only after the app's start-up, so a line printed
    from there came first: a client that connected on seeing it was refused. With ``--workers`` the
    port listens before the processes start; a connection waits in its queue until one has loaded
    its engine."""
    import uvicorn

    config = uvicorn.Config(target, **options)
    server = uvicorn.Server(config)
    if config.workers > 1:
        listening = config.bind_socket()
        # uvicorn's processes each listen once started: until then a connection was refused
        listening.listen(config.backlog)
        print(announce, flush=True)
        supervisor: Any = uvicorn.supervisors.Multiprocess
        # an older uvicorn's supervisor is given what its processes run
        given = {"target": server.run} if "target" in inspect.signature(supervisor).parameters else {}
        with contextlib.suppress(KeyboardInterrupt):
            supervisor(config, sockets=[listening], **given).run()
        return
    config.load_app()
    opening = server.startup

    async def startup(sockets: list[socket.socket] | None = None) -> None:
        await opening(sockets)
        if server.started:  # its listening sockets made (else it exits)
            print(announce, flush=True)

    server.startup = startup  # type: ignore[method-assign]
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)


WORKER_HEALTH_CHECK = 60
"""Seconds a server process of ``--workers`` may take to answer its supervisor's health check.
uvicorn's default, 5 s, killed processes still loading the engine on a busy machine (its
compilation holds the interpreter's lock, so the thread that answers waited): on a 2-core machine
at load 9, a two-process server lost eight processes in its first 44 seconds, each started afresh,
before both served."""


def _health_check(config: Any) -> dict[str, int]:
    """uvicorn.run's option for :data:`WORKER_HEALTH_CHECK`, where this uvicorn's ``config`` (its
    Config class) has it (0.30 on)."""
    has = "timeout_worker_healthcheck" in inspect.signature(config).parameters
    return {"timeout_worker_healthcheck": WORKER_HEALTH_CHECK} if has else {}


def _serve_alone(url: URL, in_memory: bool) -> IO[bytes] | str | None:
    """Take the SQLite file of ``url`` for this server alone (None: PostgreSQL, or a file named
    by an SQLite URI): the file locked (closing it lets go), or why not. A database in memory
    (``in_memory``: :func:`gammon.store.repository.sqlite_in_memory`) is refused: each of the
    server's threads had a database of its own, without tables (a traceback
    'no such table' a minute), and every game was lost when the server stopped. Two servers on one
    file each kept its own copy of the games in memory: a player's page showed a game that the other
    server had moved on, and each action after the other's was refused 409. (``gammon account``, ``import``
    and ``drill`` still work beside the server: only servers take this lock, with flock, apart
    from SQLite's own locks.)"""
    database = url.database
    if url.get_backend_name() != "sqlite":
        return None
    if in_memory or not database:  # (an empty database is in memory too; the test tells mypy it is set)
        return tr(
            "the database {url} is SQLite in memory: it would lose every game when the server stops; "
            "give an SQLite file (sqlite:///path/to/gammon.sqlite3) or PostgreSQL",
            url=cut(repr(unquote(url.render_as_string(hide_password=True))), 200),
        )
    if database.startswith("file:"):
        return None
    lock = open(database, "rb")  # noqa: SIM115 -- held open while the server runs
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        return tr(
            "the database file {path} is already served by another 'gammon serve': two servers on one "
            "SQLite file would each keep its own copy of the games (stop the other one, or use "
            "PostgreSQL, which several servers may share)",
            path=cut(repr(database), 200),
        )
    return lock


def _log_config() -> dict[str, Any]:
    """uvicorn's logging, with the seat tokens and watch keys of old clients' URLs cut out."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["hide_secrets"] = {"()": "gammon.web.security.HideSecrets"}
    config["filters"]["cut_long"] = {"()": "gammon.cli.serve.CutLong"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).extend(["hide_secrets", "cut_long"])
    return config


LOGGED_LIMIT = 300
"""Characters of one value a log line shows (a request's path and query, a header)."""


class CutLong(logging.Filter):
    """Cut each long value of a log record: the access log wrote a request's path whole, 60,058
    characters on one line for a 60,000-character path (anyone could fill the log with them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(cut(a, LOGGED_LIMIT) if isinstance(a, str) else a for a in record.args)
        return True


def main(argv: list[str] | None = None) -> int:
    """Run ``serve`` on its own: ``python -m gammon.cli.serve``."""
    parser = argparse.ArgumentParser(prog="gammon")
    add_serve_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["serve", *(argv or [])] if argv is None or argv[:1] != ["serve"] else argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
