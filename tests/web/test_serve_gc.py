"""``gammon serve`` settles the garbage collector once its app has started (the start-up objects
frozen, a young generation of 20,000): in a process of its own, as the server's is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import gc, sys
from fastapi.testclient import TestClient
from gammon.cli.serve import _warming
from gammon.store import Store
from gammon.web import create_app

app = _warming(create_app(Store("sqlite:///" + sys.argv[1])))
before = (gc.get_freeze_count(), gc.get_threshold())
with TestClient(app) as client:
    client.get("/")
    print(before, gc.get_freeze_count() > 0, gc.get_threshold())
"""

@pytest.mark.slow
def test_the_server_settles_the_collector_once_started(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "gc.sqlite3")], capture_output=True,
                         text=True, timeout=120, check=True).stdout.splitlines()[-1]
    assert out == "(0, (700, 10, 10)) True (20000, 10, 10)"
