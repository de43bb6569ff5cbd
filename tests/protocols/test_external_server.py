"""``gammon external``'s server as GNU Backgammon talks to it, and against peers that do not."""

from __future__ import annotations

import contextlib
import threading

import pytest

from gammon.protocols import external
from gammon.protocols.gnubg_external import gnubg_steps
from tests.protocols.test_fibs_board import OPENING
from tests.protocols.test_gnubg_external import connected, running, served


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
