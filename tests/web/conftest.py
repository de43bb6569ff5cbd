"""Web fixtures: an app on SQLite and on PostgreSQL, and seeded dice so games are reproducible."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from itertools import count
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from gammon.dice import RandomDice
from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from tests.store.conftest import pg_url, store, store_url  # noqa: F401  (fixtures shared with the storage tests)


def seeded_dice(seed: int = 7) -> Callable[[], RandomDice]:
    numbers = count()
    return lambda: RandomDice(seed * 1000 + next(numbers))


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))) as c:
        yield c


def new_match(client: TestClient, **body: object) -> dict:
    r = client.post("/api/matches", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def auth(token: str) -> dict[str, str]:
    return {"X-Gammon-Token": token}


class Clock:
    """A clock that stands still until a test moves it (``clock.now += 60``)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@contextlib.contextmanager
def serving(app: Any, send_buffer: int | None = None, **config: Any) -> Iterator[int]:
    """``app`` on a real uvicorn on 127.0.0.1 (a random port, returned), in a thread of this process.
    ``send_buffer``: the kernel's send buffer of each connection, in bytes (set on the listening
    socket, which the accepted ones inherit), so that a client that stops reading fills it soon."""
    sock = socket.socket()
    if send_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    sock.bind(("127.0.0.1", 0))
    srv = uvicorn.Server(uvicorn.Config(app, log_level="error", **{"lifespan": "off", **config}))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
        sock.close()
    # uvicorn stops once its connections and their tasks have ended: one left hanging shows here
    assert not thread.is_alive(), "uvicorn did not stop within 10 s: a connection or task hangs"
