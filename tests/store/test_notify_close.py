"""LISTEN/NOTIFY subscribers (gammon.store.notify) hear every message and stop as soon as closed."""

from __future__ import annotations

import queue

import pytest

from gammon.store import notify
from gammon.store.notify import Publisher, Subscriber


def test_a_subscriber_hears_each_message_then_its_close_ends_it_at_once(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only the close's wake-up can end the thread's wait on its connection now: a server stopping
    # closes several subscribers in turn, and each waiting out a poll added up to seconds.
    monkeypatch.setattr(notify, "POLL", 3600.0)
    heard: queue.Queue[str] = queue.Queue()
    subscriber = Subscriber(pg_url, "gammon_test_close", heard.put)
    subscriber.start()
    publisher = Publisher(pg_url, "gammon_test_close")
    publisher.start()
    for payload in ("one", "two", "three"):
        publisher.send(payload)
    publisher.close()
    assert [heard.get(timeout=30) for _ in range(3)] == ["one", "two", "three"]
    subscriber.close()  # joins the thread for up to 5 s
    assert not subscriber._thread.is_alive()
    subscriber.close()  # a second close does nothing
