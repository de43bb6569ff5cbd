"""gammon as GNU Backgammon's external player: a TCP server that answers FIBS board lines.

In GNU Backgammon, ``set player 0 external localhost:PORT`` connects to this server; from then on,
whenever that player is to act, GNU Backgammon sends the state as a ``board:`` line
(:mod:`gammon.protocols.fibs_board`) and reads one line back:

* before the roll: ``double`` or ``roll``;
* with dice: the play, one ``from/to`` pair a checker step on the mover's points, 25 the bar and
  0 off (``25/22 13/8``), as GNU Backgammon writes plays itself; an empty line when nothing moves;
* a double to answer (the board's "was doubled"): ``take``, ``drop`` or ``beaver``.

Lines are ended by a newline; GNU Backgammon follows each with a NUL byte, which is skipped. Input
that is no board line is answered ``Error: ...`` (GNU Backgammon prints it and stops the game), a
line over :data:`MAX_LINE` characters once (the rest of it is skipped; a line still going after
:data:`MAX_SKIP` more bytes closes the connection), a line that stops before
its end for :data:`LINE_WAIT` seconds too (and the connection is closed), and
``exit`` or ``quit`` closes the connection. Each connection is served in a thread of its own (one
peer that sends half a line and waits must not hold up GNU Backgammon), up to
:data:`MAX_CONNECTIONS` at once; the engine answers one line at a time.
"""

from __future__ import annotations

import contextlib
import io
import socket
import socketserver
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from gammon.errors import GammonError, cut
from gammon.protocols.fibs_board import parse_fibs_board
from gammon.words import printable

if TYPE_CHECKING:
    from gammon.engine.engine import Engine
    from gammon.play import Play

MAX_LINE = 4096
"""The longest line read: a board line has about 160 characters."""
MAX_SKIP = 1 << 20
"""The most bytes of an overlong line skipped after its first :data:`MAX_LINE`: a line without end
would have the server read for ever."""
LINE_WAIT = 60.0
"""Seconds a line once begun may wait for its next byte (GNU Backgammon writes each line whole);
then it is answered ``Error: ...`` and the connection closed. Between lines there is no limit."""
MAX_CONNECTIONS = 8
"""Connections served at once; one more is answered ``Error: ...`` and closed."""
KEEPALIVE = (60, 10, 6)
"""TCP keepalive of each connection: seconds idle before the first probe, seconds between probes,
probes unanswered before the connection is dropped. Between lines a connection may wait without
limit, so a peer gone without a word (its machine off, its network cut) would hold its thread and
one of the MAX_CONNECTIONS places for ever; the probes free them in about two minutes."""
_BETWEEN_LINES = b"\0\r\n \t"


def gnubg_move(play: Play | None) -> str:
    """A play as GNU Backgammon writes and reads plays on this interface: ``from/to`` a step."""
    if play is None:
        return ""
    return " ".join(f"{a}/{b}" for a, b in play.steps)


def answer(engine: Engine, line: str, *, jacoby: bool = True, beavers: bool = False) -> str:
    """The reply (without its newline) to one line GNU Backgammon sent, in a money game under the
    Jacoby rule or not and with beavers or not (GNU Backgammon's ``set jacoby``, ``set beavers``)."""
    text = line.strip().strip("\0").strip()
    if text.lower() in ("version", "help"):
        return "Interface: gammon external player (FIBS board lines)"
    try:
        situation = parse_fibs_board(text).situation(jacoby=jacoby, beavers=beavers)
        if situation.double_offered:
            decision = engine.cube_decision(situation)
            if decision.beaver and situation.beavers:
                return "beaver"
            return "take" if decision.take else "drop"
        if situation.dice is not None:
            return gnubg_move(engine.best_play(situation))
        return "double" if engine.cube_decision(situation).should_double else "roll"
    except GammonError as e:
        return f"Error: {e}"


class _Handler(socketserver.StreamRequestHandler):
    server: ExternalServer

    def handle(self) -> None:
        rfile = cast(io.BufferedReader, self.rfile)
        while True:
            self.request.settimeout(None)  # between lines GNU Backgammon may wait on its human player
            head = rfile.peek(1)
            if not head:
                return
            # the NUL GNU Backgammon sends after each line begins no line: were it timed, gnubg's
            # next line coming over LINE_WAIT later (its human opponent thinking) would be refused
            gap = len(head) - len(head.lstrip(_BETWEEN_LINES))
            if gap:
                rfile.read(gap)  # buffered already: does not block
                continue
            self.request.settimeout(LINE_WAIT)
            try:
                raw = rfile.readline(MAX_LINE)
            except TimeoutError:
                self._reply(f"Error: a line stopped for {LINE_WAIT:g} seconds before its end")
                return
            if not raw:
                return
            line = raw.decode("ascii", "replace").replace("\0", "").strip()
            if len(raw) == MAX_LINE and not raw.endswith(b"\n"):
                self._reply(f"Error: a line has at most {MAX_LINE} characters: {cut(line)!r}")
                if not self._skip_line():
                    return
                continue
            if not line:
                continue
            if line.lower() in ("exit", "quit"):
                return
            with self.server.engine_lock:  # one engine for every connection
                reply = answer(
                    self.server.engine, line, jacoby=self.server.jacoby, beavers=self.server.beavers
                )
            self.server.log(f"{printable(line)} -> {reply}")  # a peer's terminal escapes made harmless
            self._reply(reply)

    def _reply(self, reply: str) -> None:
        # an error quoting other bytes than ASCII quotes them escaped
        self.wfile.write(reply.encode("ascii", "backslashreplace") + b"\n")
        self.wfile.flush()

    def _skip_line(self) -> bool:
        """Read past the rest of an overlong line: one answer for it, none for its pieces. False
        when it has not ended within :data:`MAX_SKIP` bytes, or the peer hung up."""
        skipped = 0
        while skipped < MAX_SKIP:
            rest = self.rfile.readline(MAX_LINE)
            if not rest:
                return False
            if rest.endswith(b"\n"):
                return True
            skipped += len(rest)
        return False


class ExternalServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    """The server, listening on ``(host, port)`` (port 0: any free one, see :attr:`port`)."""

    allow_reuse_address = True
    daemon_threads = True
    block_on_close = False  # closing does not wait for a peer that never hangs up

    def __init__(
        self,
        engine: Engine,
        host: str = "127.0.0.1",
        port: int = 0,
        log: Callable[[str], None] | None = None,
        *,
        jacoby: bool = True,
        beavers: bool = False,
    ) -> None:
        self.engine = engine
        self.jacoby, self.beavers = jacoby, beavers  # money play's rules, which no line says
        self.engine_lock = threading.Lock()
        self.log = log or (lambda _text: None)
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__((host, port), _Handler)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def get_request(self) -> tuple[socket.socket, Any]:
        request, client_address = super().get_request()
        request.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for option, value in zip(("TCP_KEEPIDLE", "TCP_KEEPINTVL", "TCP_KEEPCNT"), KEEPALIVE, strict=True):
            if hasattr(socket, option):  # Linux names; elsewhere the system's own timings
                request.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)
        return request, client_address

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.sendall(f"Error: more than {MAX_CONNECTIONS} connections at once\n".encode())
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # a peer gone (reset, hung up mid-answer) is no error of the server's: no traceback for it
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)

    @property
    def port(self) -> int:
        port: int = self.server_address[1]
        return port


__all__ = ["ExternalServer", "answer", "gnubg_move"]
