"""The worker pools' and Ray's limits in :mod:`gammon.engine.rollout.parallel`: a Ray address no
cluster answers at is refused at once, quoted, before Ray retries it for minutes, and so is one where
something else listens (a server that says nothing, an HTTP server); Ray's own ConnectionError
becomes the same error; a number of processes past the limit is refused."""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NoReturn

import pytest

from gammon import Position
from gammon.engine.engine import Engine
from gammon.engine.rollout import parallel, rollouts
from gammon.engine.rollout.parallel import (
    MAX_WORKERS,
    ClusterUnreachableError,
    WorkerLostError,
    check_ray_address,
    check_workers,
    ordered_map,
)
from gammon.engine.rollout.settings import RolloutSettings
from gammon.errors import GammonError


def free_port() -> int:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there now
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# what a gRPC server (Ray's GCS) answers an HTTP/2 client's preface with first: a SETTINGS frame
SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


@contextmanager
def listener(answer: bytes | None) -> Iterator[str]:
    """The ``host:port`` of a listener that reads what a client sends and answers ``answer`` (None:
    nothing, keeping the connection open; b"": it closes the connection)."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:  # closed: the test is over
                return
            accepted.append(conn)
            try:
                conn.recv(1024)
                if answer is not None:
                    conn.sendall(answer)
                    if not answer:
                        conn.close()
            except OSError:
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.shutdown(socket.SHUT_RDWR)
        server.close()
        thread.join()
        for conn in accepted:
            conn.close()


class NotFound(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_error(404)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def http_server() -> Iterator[str]:
    """The ``host:port`` of an HTTP server (an HTTP/1.1 one, as most web servers are)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), NotFound)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


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


@pytest.fixture
def quick_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "RAY_CONNECT_SECONDS", 0.5)


def test_a_listener_that_says_nothing_is_refused_before_ray_is_given_it(
    monkeypatch: pytest.MonkeyPatch, quick_refusal: None
) -> None:
    # ray.init connected and waited for Ray's answer for minutes, printing its log lines
    fake = FakeRay(ReachedInit())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with listener(None) as address, pytest.raises(ClusterUnreachableError) as refused:
        list(ordered_map(_range, None, [(0, 1), (1, 2)], workers=2, ray_address=address))
    assert str(refused.value) == (f"no Ray cluster answers at {address!r}: something listens there but says "
                                  "nothing in 0.5 seconds (not a Ray cluster?)")
    assert fake.inits == []


@pytest.mark.parametrize("server", ["http", "closes", "garbage"])
def test_a_listener_that_is_not_ray_is_refused_quoted(
    server: str, monkeypatch: pytest.MonkeyPatch, quick_refusal: None
) -> None:
    fake = FakeRay(ReachedInit())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    other = {"http": http_server(), "closes": listener(b""), "garbage": listener(b"\x00" * 9 + b"x" * 5000)}
    with other[server] as address, pytest.raises(ClusterUnreachableError) as refused:
        list(ordered_map(_range, None, [(0, 1)], ray_address=address))
    assert str(refused.value) == (f"no Ray cluster answers at {address!r}: something listens there but does "
                                  "not answer as Ray does (not a Ray cluster?)")
    assert fake.inits == []


def test_a_listener_that_answers_as_ray_does_goes_on_to_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeRay(ReachedInit())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with listener(SETTINGS + b"\x00\x00\x00\x04\x01\x00\x00\x00\x00") as address, pytest.raises(ReachedInit):
        list(ordered_map(_range, None, [(0, 1)], ray_address=address))
    assert fake.inits == [{"address": address, "log_to_driver": False}]


def test_with_ray_tls_the_handshake_is_left_to_ray(
    monkeypatch: pytest.MonkeyPatch, quick_refusal: None
) -> None:
    # a cluster with TLS answers a TLS handshake, not HTTP/2 in plain: Ray is given it as before
    monkeypatch.setenv("RAY_USE_TLS", "1")
    with listener(None) as address:
        check_ray_address(address)


def test_rays_own_connection_error_is_said_with_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    fake = FakeRay(ConnectionError("Could not find any running Ray instance."))
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with pytest.raises(ClusterUnreachableError, match="^no Ray cluster answers at 'auto': Could not find"):
        list(ordered_map(_range, None, [(0, 1)], ray_address="auto"))
    assert fake.inits == [{"address": "auto", "log_to_driver": False}]


@pytest.mark.parametrize(
    "address",
    ["", "garbage", "local ", " auto", "host:", ":6379", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:abc",
     "127.0.0.1:\u0663", "127.0.0.1:06379x", "foo://bar:1", "http://127.0.0.1:1", "ray://:1"],
)
def test_an_address_ray_does_not_take_is_refused_quoted(
    address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ray said these in its own words, the address uncut or left out ("Malformed host: "), and a
    # scheme of its own ("foo://") as a RuntimeError's traceback
    fake = FakeRay(ReachedInit())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with pytest.raises(ClusterUnreachableError) as refused:
        list(ordered_map(_range, None, [(0, 1)], ray_address=address))
    assert str(refused.value) == (f"no Ray cluster answers at {address!r}: Ray takes 'local', 'auto', "
                                  "HOST:PORT or ray://HOST:PORT")
    assert fake.inits == []


def test_auto_is_checked_as_the_address_ray_address_names(
    monkeypatch: pytest.MonkeyPatch, quick_refusal: None
) -> None:
    # Ray takes RAY_ADDRESS for "auto": one where something else listens hung as a given one did
    fake = FakeRay(ReachedInit())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with listener(None) as address, pytest.raises(ClusterUnreachableError) as refused:
        monkeypatch.setenv("RAY_ADDRESS", address)
        list(ordered_map(_range, None, [(0, 1)], ray_address="auto"))
    assert str(refused.value).startswith(f"no Ray cluster answers at {address!r}: something listens there")
    assert fake.inits == []


def test_a_cluster_of_another_version_is_said_on_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ray refuses a cluster started on another Python, a patch release even, with a RuntimeError:
    # each command ended in its traceback, exit status 1
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    fake = FakeRay(RuntimeError("Version mismatch: The cluster was started with:\n    Ray: 2.60.0\n"
                                "    Python: 3.11.7\nThis process on node 10.0.0.2 was started with:\n"
                                "    Ray: 2.60.0\n    Python: 3.11.0\n"))
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with pytest.raises(ClusterUnreachableError) as refused:
        list(ordered_map(_range, None, [(0, 1)], ray_address="auto"))
    assert str(refused.value) == (
        "cannot use the Ray cluster at 'auto': Version mismatch: The cluster was started with: Ray: 2.60.0 "
        "Python: 3.11.7 This process on node 10.0.0.2 was started with: Ray: 2.60.0 Python: 3.11.0")


def test_local_starts_a_ray_here_whatever_ray_address_says(monkeypatch: pytest.MonkeyPatch) -> None:
    # ray.init() without an address joins the cluster RAY_ADDRESS names (one where something else
    # listened hung): "local" is Ray's word for a fresh instance here
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.9:6379")
    fake = FakeRay(ReachedInit())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with pytest.raises(ReachedInit):
        list(ordered_map(_range, None, [(0, 1)], ray_address="local"))
    assert fake.inits == [{"address": "local", "include_dashboard": False, "log_to_driver": False}]


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
    # the task in flight beside it (two at once on one CPU), not the one that ended: cancelling an
    # ended task aborted the whole process in Ray's core worker (Ray 2.60)
    assert fake.cancelled == [1]


def test_ctrl_c_cancels_the_task_being_waited_for_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # it was taken off the pending ones before the wait: it ran on (a match's analysis, minutes)
    fake = CrashingRay(KeyboardInterrupt())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with pytest.raises(KeyboardInterrupt):
        list(ordered_map(_range, None, [(0, 1), (1, 2), (2, 3)], ray_address="auto"))
    assert fake.cancelled == [0, 1]


class SizedRay(CrashingRay):
    """A Ray already initialised whose cluster's resources are ``resources``, one look after
    another (the last for ever); its tasks give their ranges' starts."""

    def __init__(self, *resources: dict[str, float]) -> None:
        super().__init__()
        self.resources = list(resources)

    def cluster_resources(self) -> dict[str, float]:
        return self.resources.pop(0) if len(self.resources) > 1 else self.resources[0]

    def get(self, ref: int) -> int:  # type: ignore[override]
        return ref


def test_a_cluster_with_no_cpu_is_said_not_waited_on_for_ever(monkeypatch: pytest.MonkeyPatch) -> None:
    # a head started with --num-cpus 0 and no worker joined: the tasks waited for ever, silently
    monkeypatch.setattr(parallel, "_ray", lambda: SizedRay({"memory": 1e9}))
    monkeypatch.setattr(parallel, "RAY_CPU_SECONDS", 0.0)
    with pytest.raises(ClusterUnreachableError) as refused:
        list(ordered_map(_range, None, [(0, 1), (1, 2)], workers=2, ray_address="auto"))
    assert str(refused.value) == ("the Ray cluster at 'auto' has no CPU to run a task on (none came in 0 "
                                  "seconds)")


def test_a_cpu_that_joins_in_time_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "_ray", lambda: SizedRay({}, {"CPU": 0.0}, {"CPU": 1.0}))
    monkeypatch.setattr(parallel.time, "sleep", lambda seconds: None)
    assert list(ordered_map(_range, None, [(0, 1), (1, 2), (2, 3)], ray_address="auto")) == [0, 1, 2]


def test_fewer_cpus_than_workers_run_every_range_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "_ray", lambda: SizedRay({"CPU": 1.0}))
    ranges = [(i, i + 1) for i in range(40)]
    assert list(ordered_map(_range, None, ranges, workers=8, ray_address="auto")) == list(range(40))


def test_a_rollout_on_ray_is_cut_in_batches_for_the_clusters_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    # cut for this machine's 2 cores, 1296 trials made 8 batches: 8 of a 64-CPU cluster's ran them
    monkeypatch.setattr(parallel, "_ray", lambda: SizedRay({"CPU": 64.0}))
    monkeypatch.setattr(parallel, "local_workers", lambda: 2)
    batches: list[int] = []

    def here(fn: Any, job: Any, ranges: Any, *, workers: int = 1, ray_address: str | None = None) -> Any:
        batches.append(len(ranges))
        return parallel.ordered_map(fn, job, ranges, workers=1)

    monkeypatch.setattr(rollouts, "ordered_map", here)
    engine, p = Engine(plies=0), Position.from_id("4HPwATDgc/ABMA")
    settings = RolloutSettings(trials=1296, seed=5, truncate=1)
    on_ray = engine.rollout(p, settings, ray_address="auto")
    assert batches == [36]  # the smallest batch, 36 trials: no fewer batches than CPUs
    here_too = engine.rollout(p, settings, workers=2)
    assert batches == [36, 8] and on_ray == here_too  # the result does not depend on the batches


def test_a_tasks_own_error_comes_as_it_was_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ray's RayTaskError says the task's traceback, in colour: each command printed that as the
    # message ("gammon import: \x1b[36mray::_run_jobs()\x1b[39m (pid=...)\n  File ...")
    exceptions = pytest.importorskip("ray.exceptions", reason="Ray is the optional 'cluster' extra")
    cause = GammonError("the database at 'x' cannot be reached")
    raised = exceptions.RayTaskError("_run_jobs", "Traceback (most recent call last): ...", cause)
    fake = CrashingRay(raised.as_instanceof_cause())
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with pytest.raises(GammonError) as failed:
        list(ordered_map(_range, None, [(0, 1), (1, 2)], ray_address="auto"))
    assert failed.value is cause and str(failed.value) == "the database at 'x' cannot be reached"
    assert fake.cancelled == [1]  # not the task that ended in the error
