"""``gammon serve`` settles the garbage collector once its app has started (the start-up objects
frozen, a young generation of 20,000): in a process of its own, as the server's is."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import gc
from fastapi import FastAPI
from fastapi.testclient import TestClient
from gammon.cli.serve import _settled

app = _settled(FastAPI())
before = (gc.get_freeze_count(), gc.get_threshold())
with TestClient(app) as client:
    client.get("/")
    print(before, gc.get_freeze_count() > 0, gc.get_threshold())
"""


def test_the_server_settles_the_collector_once_started() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120,
                         check=True).stdout.split("\n")[0]
    assert out == "(0, (700, 10, 10)) True (20000, 10, 10)"
