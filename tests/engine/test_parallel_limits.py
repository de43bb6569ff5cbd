"""The worker pools' and Ray's limits in :mod:`gammon.engine.rollout.parallel`: a Ray address no
cluster answers at is refused at once, quoted, before Ray retries it for minutes; Ray's own
ConnectionError becomes the same error; a number of processes past the limit is refused."""

from __future__ import annotations

import os
import signal
import socket
from typing import Any, NoReturn

import pytest

from gammon.engine.rollout import parallel
from gammon.engine.rollout.parallel import (
    MAX_WORKERS,
    ClusterUnreachableError,
    WorkerLostError,
    check_ray_address,
    check_workers,
    ordered_map,
)
from gammon.errors import GammonError


def free_port() -> int:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there now
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _range(job: None, start: int, stop: int) -> int:
    return start


def _killed_at_one(job: None, start: int, stop: int) -> int:
    if start == 1:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would
    return start


class ReachedInit(Exception):
    pass


class FakeRay:
    """Ray not yet initialised, whose init fails as ``init_error`` says."""

    def __init__(self, init_error: BaseException) -> None:
        self.init_error = init_error
        self.inits: list[dict[str, Any]] = []

    def is_initialized(self) -> bool:
        return False

    def init(self, **kwargs: Any) -> NoReturn:
        self.inits.append(kwargs)
        raise self.init_error


def test_an_address_nothing_listens_at_is_refused_before_ray_is_given_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakeRay(ReachedInit())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    port = free_port()
    with pytest.raises(ClusterUnreachableError) as refused:
        list(ordered_map(_range, None, [(0, 1), (1, 2)], workers=2, ray_address=f"127.0.0.1:{port}"))
    assert str(refused.value).startswith(f"no Ray cluster answers at '127.0.0.1:{port}': ")
    assert fake.inits == []
    # what the commands catch: gammon's own errors, and a connection that failed
    assert isinstance(refused.value, GammonError) and isinstance(refused.value, ConnectionError)


def test_rays_own_connection_error_is_said_with_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeRay(ConnectionError("Could not find any running Ray instance."))
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with pytest.raises(ClusterUnreachableError, match="^no Ray cluster answers at 'auto': Could not find"):
        list(ordered_map(_range, None, [(0, 1)], ray_address="auto"))
    assert fake.inits == [{"address": "auto", "log_to_driver": False}]


def test_a_long_address_is_quoted_cut() -> None:
    address = "127.0.0.1:99999" + "9" * 5000
    with pytest.raises(ClusterUnreachableError) as refused:
        check_ray_address(address)
    assert str(refused.value).startswith("no Ray cluster answers at '127.0.0.1:99999")
    assert len(str(refused.value)) < 400


def test_a_number_of_processes_past_the_limit_is_refused_quoted() -> None:
    assert check_workers(MAX_WORKERS) == MAX_WORKERS
    for bad in (0, -3, MAX_WORKERS + 1, 100_000, True, 2.0):
        with pytest.raises(ValueError, match=f"at most {MAX_WORKERS}, got {bad!r}$"):
            check_workers(bad)  # type: ignore[arg-type]


def test_a_worker_killed_mid_work_is_said_not_a_pools_traceback() -> None:
    # BrokenProcessPool ("terminated abruptly") reached every command as a traceback, exit status 1
    results = ordered_map(_killed_at_one, None, [(0, 1), (1, 2), (2, 3)], workers=2)
    with pytest.raises(WorkerLostError, match="^a worker process ended before finishing its work") as lost:
        list(results)
    assert isinstance(lost.value, GammonError) and isinstance(lost.value, OSError)


class RemoteRange:
    def remote(self, job: Any, start: int, stop: int) -> int:
        return start  # the task's reference


class CrashingRay:
    """A Ray already initialised whose every task's worker crashed (Ray's own exception), or
    whose wait for a task is stopped by ``get_error``."""

    def __init__(self, get_error: BaseException | None = None) -> None:
        self.exceptions = pytest.importorskip("ray.exceptions", reason="Ray is the optional 'cluster' extra")
        self.get_error = get_error or self.exceptions.WorkerCrashedError()
        self.cancelled: list[int] = []

    def is_initialized(self) -> bool:
        return True

    def remote(self, fn: Any) -> RemoteRange:
        return RemoteRange()

    def put(self, job: Any) -> Any:
        return job

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 1.0}

    def get(self, ref: int) -> NoReturn:
        raise self.get_error

    def cancel(self, ref: int) -> None:
        self.cancelled.append(ref)


def test_a_ray_worker_killed_mid_work_is_said_not_rays_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = CrashingRay()
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with pytest.raises(WorkerLostError, match="^a worker process ended before finishing its work"):
        list(ordered_map(_range, None, [(0, 1), (1, 2), (2, 3)], ray_address="auto"))
    assert fake.cancelled == [0, 1]  # the tasks in flight (two at once on one CPU)


def test_ctrl_c_cancels_the_task_being_waited_for_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # it was taken off the pending ones before the wait: it ran on (a match's analysis, minutes)
    fake = CrashingRay(KeyboardInterrupt())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with pytest.raises(KeyboardInterrupt):
        list(ordered_map(_range, None, [(0, 1), (1, 2), (2, 3)], ray_address="auto"))
    assert fake.cancelled == [0, 1]
