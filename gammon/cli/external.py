"""``gammon external``: gammon as GNU Backgammon's external player (gammon.protocols.external).

Start it, then in GNU Backgammon ``set player 0 external localhost:PORT`` and ``new match 7``:
GNU Backgammon sends each of that player's decisions as a FIBS board line and plays gammon's answer.
"""

from __future__ import annotations

import argparse
import sys

from gammon.cli.args import add_plies, whole_number
from gammon.cli.progress import compile_notice
from gammon.cli.serve import cannot_listen
from gammon.i18n import tr
from gammon.position import Position


def add_external(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "external",
        help=tr("play as GNU Backgammon's external player (FIBS board lines over TCP)"),
        description=tr(
            "Listen for GNU Backgammon's external player connection: in gnubg, 'set player 0 "
            "external localhost:PORT', then start a match. Each decision of that player comes "
            "as a FIBS board line; gammon answers with its play or cube action."
        ),
    )
    p.add_argument(
        "--port",
        type=whole_number(0),
        required=True,
        help=tr("the TCP port to listen on (0: any free port, printed at start)"),
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=tr("the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)"),
    )
    add_plies(p, tr("the engine's search depth (default: the engine's default)"))
    # the money rules GNU Backgammon plays by, which its board lines do not say
    p.add_argument("--no-jacoby", action="store_true", help=tr("money: gammons count with a centred cube"))
    p.add_argument("--beavers", action="store_true", help=tr("money: allow beavers"))
    p.add_argument("--verbose", action="store_true", help=tr("print each board line and the answer"))
    p.set_defaults(func=run_external)


def run_external(args: argparse.Namespace) -> int:
    from gammon.engine.engine import Engine
    from gammon.protocols.external import ExternalServer

    # a port out of range or in use is said before the engine loads, and not as a traceback
    problem = cannot_listen(args.host, args.port)
    if problem:
        return _cannot_listen_on(args.host, args.port, problem)
    with compile_notice():
        engine = Engine(plies=args.plies)
        engine.best_play(Position.initial(), (3, 1))  # compile and load before GNU Backgammon asks

    def log(text: str) -> None:
        if args.verbose:
            print(text, flush=True)

    try:
        server = ExternalServer(
            engine, args.host, args.port, log=log, jacoby=not args.no_jacoby, beavers=args.beavers
        )
    except OSError as e:  # taken since the check
        return _cannot_listen_on(args.host, args.port, e.strerror or str(e))
    with server:
        print(
            "gammon external: "
            + tr(
                "listening on {host}:{port} (in gnubg: set player 0 external localhost:{port})",
                host=args.host,
                port=server.port,
            ),
            flush=True,
        )
        server.serve_forever()
    return 0


def _cannot_listen_on(host: str, port: int, why: str) -> int:
    print(
        "gammon external: " + tr("cannot listen on {host}:{port}: {error}", host=host, port=port, error=why),
        file=sys.stderr,
    )
    return 2
