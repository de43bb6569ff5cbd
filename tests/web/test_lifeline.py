"""A server killed outright (kill -9) leaves no engine or job worker running behind it, nor (with
``--workers``) any server process of uvicorn's supervisor."""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import subprocess
import sys
import threading
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


def _lines(stream: Any) -> queue.Queue[str]:
    """The lines of ``stream`` as they come (``get(timeout=...)`` bounds the wait for each)."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line.strip()) for line in stream], daemon=True).start()
    return lines


def _kill_and_check(server: subprocess.Popen, workers: set[int]) -> None:
    """kill -9 ``server``, then every one of ``workers`` must end (a bounded wait); none is left
    behind either way."""
    try:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        deadline = time.monotonic() + 20  # a bound, not a speed: they go in well under a second
        while (left := {pid for pid in workers if _running(pid)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"still running after their server was killed: {sorted(left)}"
    finally:
        server.kill()
        server.wait(timeout=30)
        for pid in workers:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)


def test_killing_the_server_outright_ends_its_workers() -> None:
    server = subprocess.Popen([sys.executable, "-c", "from tests.web.test_lifeline import hold_workers; "
                               "hold_workers()"], cwd=_ROOT, stdout=subprocess.PIPE, text=True)
    workers: set[int] = set()
    try:
        assert _lines(server.stdout).get(timeout=180) == "ready"
        workers = _descendants(server.pid)
        # the fork server, the resource tracker, the engine worker, the job runner's manager and worker
        assert len(workers) >= 5, workers
    finally:
        _kill_and_check(server, workers)


_CHILD = """
import os, sys, time
from gammon.web import lifeline
if sys.argv[1] == "thread":  # as where the kernel cannot send the signal
    lifeline._parent_death_signal = lambda signum: False
lifeline.die_with_parent(os.getppid(), interval=0.1)
print("ready", flush=True)
time.sleep(300)
"""

_PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]])
print(child.pid, flush=True)
time.sleep(300)
"""


@pytest.mark.parametrize("how", ["kernel", "thread"])
def test_a_process_ends_with_its_parent(how: str) -> None:
    parent = subprocess.Popen([sys.executable, "-c", _PARENT, _CHILD, how], cwd=_ROOT, stdout=subprocess.PIPE,
                              text=True)
    child: set[int] = set()
    try:
        lines = _lines(parent.stdout)
        child = {int(lines.get(timeout=60))}
        assert lines.get(timeout=120) == "ready"  # the child's, once it called die_with_parent
        assert all(_running(pid) for pid in child)
    finally:
        _kill_and_check(parent, child)


def test_killing_the_supervisor_of_server_processes_ends_them_all(pg_url: str) -> None:
    """``gammon serve --workers 2``: uvicorn's supervisor killed outright left both server processes
    serving on, with their engine workers."""
    from tests.web.test_e2e import Server

    server = Server(pg_url, "--workers", "2")
    server.start()
    assert server.proc is not None
    everything: set[int] = set()
    try:
        # Each server process: its fork server and engine worker (and the supervisor's resource tracker).
        deadline = time.monotonic() + 180
        while len(everything := _descendants(server.proc.pid)) < 7 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(everything) >= 7, everything
    finally:
        _kill_and_check(server.proc, everything)
