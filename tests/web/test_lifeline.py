"""A server killed outright (kill -9) leaves no engine or job worker running behind it."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from gammon.web.engine_pool import EnginePool
from gammon.web.jobs import ProcessRunner, Progress

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")

_ROOT = Path(__file__).resolve().parents[2]


def _own_pid(progress: Progress) -> dict[str, Any]:  # module level: sent to a worker process
    return {"pid": os.getpid()}


def hold_workers() -> None:
    """In a process standing in for the server: start an engine pool's worker and a job runner's
    worker (with its manager), say so, then wait to be killed."""
    pool, runner = EnginePool(1, advisor=None), ProcessRunner()
    asyncio.run(pool.run(os.getpid))
    runner.submit(_own_pid, lambda *report: None).result(timeout=120)
    print("ready", flush=True)
    time.sleep(300)


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()  # after the command's name, which may hold spaces
    return fields[0], int(fields[1])


def _descendants(pid: int) -> set[int]:
    parents = {int(p.name): s[1] for p in Path("/proc").iterdir() if p.name.isdigit()
               if (s := _stat(int(p.name))) is not None}
    found, grown = set(), {pid}
    while grown:
        found |= grown
        grown = {child for child, parent in parents.items() if parent in grown} - found
    return found - {pid}


def _running(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in "ZX"  # a zombie has ended; only its parent's wait is due


def _read_line(stream: Any, timeout: float) -> str:
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline().strip() if ready else ""


def test_killing_the_server_outright_ends_its_workers() -> None:
    server = subprocess.Popen([sys.executable, "-c", "from tests.web.test_lifeline import hold_workers; "
                               "hold_workers()"], cwd=_ROOT, stdout=subprocess.PIPE, text=True)
    workers: set[int] = set()
    try:
        assert _read_line(server.stdout, 180) == "ready"
        workers = _descendants(server.pid)
        # the fork server, the resource tracker, the engine worker, the job runner's manager and worker
        assert len(workers) >= 5, workers
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        deadline = time.monotonic() + 20  # a bound, not a speed: they go in well under a second
        while (left := {pid for pid in workers if _running(pid)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"still running after the server was killed: {sorted(left)}"
    finally:
        server.kill()
        server.wait(timeout=30)
        for pid in workers:  # a failed run leaves nothing behind either
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
