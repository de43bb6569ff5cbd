"""``gammon external``'s server as GNU Backgammon talks to it, and against peers that do not."""

from __future__ import annotations

import threading

import pytest

from gammon.protocols import external
from gammon.protocols.gnubg_external import gnubg_steps
from tests.protocols.test_fibs_board import OPENING
from tests.protocols.test_gnubg_external import served


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
