"""``gammon external``'s server as GNU Backgammon talks to it, and against peers that do not."""

from __future__ import annotations

import contextlib
import socket
import threading

import pytest

from gammon.protocols import external
from gammon.protocols.external import KEEPALIVE, ExternalServer
from gammon.protocols.fibs_board import parse_fibs_board
from gammon.protocols.gnubg_external import GnubgError, GnubgExternalPlayer, gnubg_steps
from tests.protocols.test_fibs_board import OPENING
from tests.protocols.test_gnubg_external import ENGINE, connected, running, served


def test_the_nul_after_a_line_starts_no_timed_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """GNU Backgammon ends each line with a newline and a NUL, then may wait long (its human
    opponent thinking) before the next line: the NUL alone is no line left unfinished."""
    monkeypatch.setattr(external, "LINE_WAIT", 0.2)
    with served() as (sock, reader):
        sock.sendall(OPENING.encode() + b"\n\0")
        assert gnubg_steps(reader.readline().decode())
        threading.Event().wait(0.5)  # longer than LINE_WAIT between two lines
        sock.sendall(OPENING.encode() + b"\n\0")
        assert gnubg_steps(reader.readline().decode())


def test_a_line_without_end_is_answered_once_and_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server reads at most MAX_SKIP bytes past a line's first MAX_LINE, not for ever; the next
    connection is served."""
    monkeypatch.setattr(external, "MAX_SKIP", 1 << 16)
    with running() as server:
        with connected(server) as (sock, reader):
            sent: list[int] = []

            def flood() -> None:
                with contextlib.suppress(OSError):  # the server hangs up before the end
                    for _ in range(64):
                        sock.sendall(b"A" * (1 << 20))
                        sent.append(1)

            thread = threading.Thread(target=flood, daemon=True)
            thread.start()
            error = reader.readline().decode()
            assert error.startswith("Error: a line has at most 4096 characters: 'AAAA") and len(error) < 200
            with contextlib.suppress(ConnectionResetError):  # the unread rest resets the connection
                assert reader.readline() == b""
            thread.join(timeout=30)
            assert len(sent) < 64  # the connection went before the flood's end
        with connected(server) as (sock, reader):
            sock.sendall(OPENING.encode() + b"\n")
            assert gnubg_steps(reader.readline().decode())


def test_connections_are_probed_so_a_vanished_peer_frees_its_place() -> None:
    """A peer gone without closing (its machine off) would hold one of the MAX_CONNECTIONS places
    for ever, as a connection may wait between lines without limit: the kernel probes each one."""
    with ExternalServer(ENGINE) as server, socket.create_connection(("127.0.0.1", server.port)):
        request, _ = server.get_request()
        with request:
            assert request.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            if hasattr(socket, "TCP_KEEPIDLE"):
                timings = [
                    request.getsockopt(socket.IPPROTO_TCP, option)
                    for option in (socket.TCP_KEEPIDLE, socket.TCP_KEEPINTVL, socket.TCP_KEEPCNT)
                ]
                assert tuple(timings) == KEEPALIVE


def test_the_log_shows_no_control_characters_a_peer_sent() -> None:
    """``gammon external --verbose`` prints each line: a peer's terminal escapes (here setting the
    window title and clearing the screen) must not reach the operator's terminal as they are."""
    logged: list[str] = []
    with ExternalServer(ENGINE, log=logged.append) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with connected(server) as (sock, reader):
                sock.sendall(b"\x1b]0;owned\x07\x1b[2Jboard:x\n")
                assert reader.readline().startswith(b"Error: ")
        finally:
            server.shutdown()
    assert len(logged) == 1 and logged[0].isprintable() and "board:x -> Error: " in logged[0]


def test_an_error_from_the_peer_is_quoted_escaped() -> None:
    """GnubgExternalPlayer's peer answering an error with terminal escapes: the message gammon
    prints quotes them escaped."""
    with socket.create_server(("127.0.0.1", 0)) as listener:

        def answer() -> None:
            peer, _ = listener.accept()
            with peer:
                peer.recv(1000)
                peer.sendall(b"Error: \x1b]0;owned\x07\x1b[2J\n")

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        player = GnubgExternalPlayer("127.0.0.1", listener.getsockname()[1], timeout=30)
        with pytest.raises(GnubgError) as error:
            player.ask(parse_fibs_board(OPENING).situation())
        player.close()
        thread.join(timeout=30)
    assert str(error.value).isprintable() and "\\x1b]0;owned" in str(error.value)
