"""``gammon serve``: the web server (JSON API, WebSockets, browser UI) on uvicorn."""

from __future__ import annotations

import argparse

from gammon.dice import RandomDice


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def add_serve_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``serve`` to a CLI's subcommands; the lead's main dispatches to :func:`run_serve`."""
    p = subparsers.add_parser("serve", help="play in the browser: start the web server",
                              description="Serve the browser UI and the JSON/WebSocket API.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--database-url", default=None,
                   help="SQLAlchemy URL, e.g. postgresql://user@host/db (default: an SQLite file in "
                        "the user's data directory)")
    p.add_argument("--rate-limit", type=float, default=20.0, metavar="N",
                   help="actions a second one client may send (bursts of 2N; default 20)")
    # The default lives in gammon.web.presence; importing it here would load FastAPI for every command.
    p.add_argument("--away-after", type=_seconds, default=None, metavar="SECONDS",
                   help="online games: how long a player who must act may be disconnected before "
                        "the opponent may claim the game (default 300)")
    p.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                   help="behind a reverse proxy: the proxies' addresses (comma-separated, or '*') whose "
                        "X-Forwarded-For/-Proto headers are trusted for the client's address (default: "
                        "none; the rate limits count the connecting address)")
    # Test-only: reproducible games for end-to-end tests. Never use it for real play.
    p.add_argument("--dice-seed", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--log-level", default="warning",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(run=run_serve)
    return p


def run_serve(args: argparse.Namespace) -> int:
    import time

    import uvicorn

    from gammon.cli.progress import compile_notice
    from gammon.store import Store
    from gammon.web import create_app
    from gammon.web.warmup import warm_up

    # Before the first request: a first game that waited on the engine's loading looked hung.
    print("gammon: loading the engine ...", flush=True)
    start = time.monotonic()
    with compile_notice():
        warm_up()
    print(f"gammon: engine loaded in {time.monotonic() - start:.1f} s", flush=True)

    store = Store(args.database_url)
    dice_factory = None
    if args.dice_seed is not None:
        counter = iter(range(1 << 62))
        # A different, reproducible stream for each match created by this process.
        dice_factory = lambda: RandomDice(args.dice_seed * 1_000_003 + next(counter))  # noqa: E731
    away = {} if args.away_after is None else {"away_after": args.away_after}
    app = create_app(store, dice_factory, rate=args.rate_limit, burst=2 * args.rate_limit, **away)
    print(f"gammon: serving on http://{args.host}:{args.port}/ (database {store.engine.url!r})", flush=True)
    # uvicorn trusts X-Forwarded-For from 127.0.0.1 by default; a client could then pick its own
    # address (and rate-limit bucket) through any local proxy. Trust proxies only when named.
    proxies = {} if args.forwarded_allow_ips is None else {
        "proxy_headers": True, "forwarded_allow_ips": args.forwarded_allow_ips}
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=64 * 1024,
                **({"proxy_headers": False} | proxies))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run ``serve`` on its own: ``python -m gammon.cli.serve``."""
    parser = argparse.ArgumentParser(prog="gammon")
    add_serve_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["serve", *(argv or [])] if argv is None or argv[:1] != ["serve"] else argv)
    return args.run(args)


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
