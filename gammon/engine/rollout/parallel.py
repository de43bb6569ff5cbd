"""Independent pieces of work on local processes or a Ray cluster: the one module that knows about
worker pools and Ray.

:func:`ordered_map` runs ``fn(job, start, stop)`` for each range and yields the results in the
order of the ranges, whichever worker finished first, so a caller that reduces them in order gets
the same answer with any number of workers. Closing the generator early (a stopping rule, Ctrl-C)
cancels the work not yet started; local processes are ended at once, dropping the ranges in flight
(a few more than there are workers) rather than waiting for them.

Local processes are forked on Linux (the children inherit the compiled kernels and the loaded
bear-off database, so they start at once) and spawned elsewhere. Ray (``pip install
'gammon[cluster]'``) is used when an address is given: ``"local"`` starts a Ray instance on this
machine, ``"auto"``, ``host:port`` and ``ray://host:port`` are passed to ``ray.init`` (an address
that accepts no connection, or whose listener does not answer as Ray's gRPC servers do, is refused
first: Ray retries one for minutes); an already initialised Ray is used as it is.
The cluster's nodes need gammon installed (or importable through the runtime environment).
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from gammon.errors import GammonError, cut
from gammon.i18n import tr

J = TypeVar("J")
R = TypeVar("R")

Ranges = Sequence[tuple[int, int]]

# The most local processes: a pool forks as many as it is asked for (up to the pieces of work), so
# a huge count forked thousands.
MAX_WORKERS = 256

# How long a Ray cluster's address may take to accept a connection and answer: Ray itself retries a
# dead address, or one where something else listens, for many minutes (printing its log lines).
RAY_CONNECT_SECONDS = 10.0

# How long a Ray cluster with no CPU (a head started with --num-cpus 0, its workers not joined or
# gone) may take to get one: Ray keeps the tasks waiting for one for ever, saying nothing.
RAY_CPU_SECONDS = 60.0

# An HTTP/2 client's first bytes: the preface, then an empty SETTINGS frame. Ray's addresses (its
# GCS, its client server) are gRPC servers, which answer with a SETTINGS frame of their own.
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


class ClusterUnreachableError(GammonError, ConnectionError):
    """No Ray cluster answers at the address given, or none that can run a task; the message quotes
    the address."""


class WorkerLostError(GammonError, ChildProcessError):
    """A worker process ended before handing its piece of work back (killed, out of memory)."""


def check_ray_address(address: str) -> None:
    """Refuse, quoted (ClusterUnreachableError), an address Ray does not take ("local", "auto",
    ``host:port`` or ``ray://host:port``), and one that accepts no connection, or whose listener does
    not answer as a gRPC server, within :data:`RAY_CONNECT_SECONDS`, before Ray is given it. "auto"
    is Ray's to judge, unless RAY_ADDRESS names the address it stands for (ray.init takes that)."""
    if address == "auto":
        address = os.environ.get("RAY_ADDRESS") or "auto"
    if address in ("local", "auto"):
        return
    host_port = _host_port(address)
    if host_port is None:
        raise _unreachable(address, tr("Ray takes 'local', 'auto', HOST:PORT or ray://HOST:PORT"))
    deadline = time.monotonic() + RAY_CONNECT_SECONDS
    try:
        conn = socket.create_connection(host_port, timeout=RAY_CONNECT_SECONDS)
    except (OSError, ValueError) as e:  # ValueError: a host name no resolver takes (a NUL, too long)
        raise _unreachable(address, e) from None
    with conn:
        # a cluster with TLS (Ray's own switch) answers a handshake first, not plain HTTP/2
        why = None if _ray_tls() else _not_grpc(conn, deadline)
    if why is not None:
        raise _unreachable(address, why)


def _host_port(address: str) -> tuple[str, int] | None:
    """The host and port of ``host:port`` or ``ray://host:port``, or None. Anything else reached
    ray.init: a malformed address came back in Ray's words, uncut or without it, another scheme as
    a traceback."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    host = host.strip("[]")  # an IPv6 address is written in brackets
    if not colon or not host or "/" in host or not (port.isascii() and port.isdigit() and len(port) <= 5):
        return None
    return (host, int(port)) if 0 < int(port) < 65536 else None


def _ray_tls() -> bool:
    return os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true")


def _not_grpc(conn: socket.socket, deadline: float) -> str | None:
    """Why the listener at the other end of ``conn`` is no gRPC server, or None: it must answer
    the HTTP/2 preface with a SETTINGS frame before ``deadline`` (one that says nothing, an HTTP/1
    server, left ray.init retrying for minutes)."""
    reply = b""
    try:
        conn.sendall(_HTTP2_PREFACE)
        while len(reply) < 9:  # a frame's header
            conn.settimeout(max(deadline - time.monotonic(), 0.001))
            chunk = conn.recv(9 - len(reply))
            if not chunk:
                break
            reply += chunk
    except TimeoutError:
        return tr("something listens there but says nothing in {seconds} seconds (not a Ray cluster?)",
                  seconds=f"{RAY_CONNECT_SECONDS:g}")
    except OSError:  # reset: it answered, not as Ray does
        pass
    # type 4 (SETTINGS), no flags (not an acknowledgement), stream 0
    if len(reply) == 9 and reply[3:] == b"\x04\x00\x00\x00\x00\x00":
        return None
    return tr("something listens there but does not answer as Ray does (not a Ray cluster?)")


def _unreachable(address: str, why: Exception | str) -> ClusterUnreachableError:
    return ClusterUnreachableError(tr("no Ray cluster answers at {address}: {error}",
                                      address=repr(cut(address)), error=_said(why)))


def _said(why: Exception | str) -> str:
    """A reason on one line, cut: Ray's own run to a few lines."""
    return cut(" ".join(str(why).split()) or type(why).__name__, 300)


def local_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def check_workers(workers: int | None) -> int:
    """``workers`` (None: every local core) as a positive number of at most :data:`MAX_WORKERS`,
    or ValueError quoting it."""
    if workers is None:
        return local_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be a positive number of processes, at most {MAX_WORKERS}, "
                         f"got {cut(repr(workers))}")
    return workers


def ordered_map(fn: Callable[[J, int, int], R], job: J, ranges: Ranges, *, workers: int = 1,
                ray_address: str | None = None) -> Iterator[R]:
    """``fn(job, start, stop)`` for each range, results in the order of ``ranges``: in this
    process (``workers=1``), on ``workers`` local processes, or on Ray when ``ray_address`` is
    given (then ``workers`` bounds the ranges in flight). ``fn`` must be a module-level function
    and ``job`` picklable."""
    if ray_address is not None:
        return _ray_map(fn, job, ranges, ray_address, workers)
    if workers <= 1 or len(ranges) <= 1:
        return (fn(job, start, stop) for start, stop in ranges)
    return _pool_map(fn, job, ranges, workers)


def _pool_map(fn: Callable[[J, int, int], R], job: J, ranges: Ranges, workers: int) -> Iterator[R]:
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    n = min(workers, len(ranges))
    executor = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context(method))
    todo = iter(ranges)
    pending: deque[Future[R]] = deque()
    try:
        for start, stop in todo:
            pending.append(executor.submit(fn, job, start, stop))
            if len(pending) >= 2 * n:
                break
        while pending:
            try:
                # it stays pending while it is awaited: Ctrl-C then stops its process too
                result = pending[0].result()
            except BrokenProcessPool:  # the pool's own words name no cause a user can act on
                raise _worker_lost() from None
            pending.popleft()
            for start, stop in todo:
                pending.append(executor.submit(fn, job, start, stop))
                break
            yield result
    finally:
        for f in pending:
            f.cancel()
        if pending:  # stopped early: a shutdown would wait for every range handed to a process
            _terminate(executor)
        executor.shutdown(wait=True, cancel_futures=True)


def _terminate(executor: ProcessPoolExecutor) -> None:
    """End the pool's processes now, dropping the work they hold (the pool has no public way
    to do so before Python 3.14's ``terminate_workers``)."""
    terminate = getattr(executor, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    for process in list((executor._processes or {}).values()):
        process.terminate()


def _worker_lost() -> WorkerLostError:
    return WorkerLostError(tr("a worker process ended before finishing its work (killed, or out of memory?)"))


def _ray() -> Any:
    try:  # an optional dependency (gammon[cluster]): imported only when a Ray address is given
        import ray
    except ImportError:
        raise ImportError("a Ray address was given but Ray is not installed: "
                          "pip install 'gammon[cluster]'") from None
    return ray


def _connected(address: str) -> Any:
    """Ray, connected to the cluster at ``address`` unless it is already."""
    ray = _ray()
    if not ray.is_initialized():
        if address == "local":  # said to Ray: without an address it joins the cluster RAY_ADDRESS names
            ray.init(address="local", include_dashboard=False, log_to_driver=False)
        else:
            check_ray_address(address)
            try:
                ray.init(address=address, log_to_driver=False)
            except ConnectionError as e:  # "auto" and no cluster running, say
                raise _unreachable(address, e) from None
            except RuntimeError as e:  # a cluster of another Ray or Python version (even a patch)
                raise ClusterUnreachableError(tr("cannot use the Ray cluster at {address}: {error}",
                                                 address=repr(cut(address)), error=_said(e))) from None
    return ray


def ray_workers(address: str) -> int:
    """The CPUs of the Ray cluster at ``address`` (connected to as :func:`ordered_map` does): the
    workers to divide work for when no number is given there."""
    return int(_cluster_cpus(_connected(address), address))


def _cluster_cpus(ray: Any, address: str) -> float:
    """The CPUs of the Ray cluster's nodes, once there is one (a task takes one), waiting at most
    :data:`RAY_CPU_SECONDS` for it (ClusterUnreachableError)."""
    deadline = time.monotonic() + RAY_CPU_SECONDS
    while (cpus := float(ray.cluster_resources().get("CPU", 0))) < 1:
        if time.monotonic() >= deadline:
            raise ClusterUnreachableError(tr("the Ray cluster at {address} has no CPU to run a task on (none "
                                             "came in {seconds} seconds)", address=repr(cut(address)),
                                             seconds=f"{RAY_CPU_SECONDS:g}"))
        time.sleep(min(1.0, RAY_CPU_SECONDS))
    return cpus


def _ray_map(fn: Callable[[J, int, int], R], job: J, ranges: Ranges, address: str,
             workers: int) -> Iterator[R]:
    ray = _connected(address)
    remote = ray.remote(fn)
    job_ref = ray.put(job)
    in_flight = max(2 * workers, 2 * int(_cluster_cpus(ray, address)))
    # what Ray raises once its retries of a killed worker's task are spent
    lost = (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError, ray.exceptions.OutOfMemoryError)
    todo = iter(ranges)
    pending: deque[Any] = deque()
    try:
        for start, stop in todo:
            pending.append(remote.remote(job_ref, start, stop))
            if len(pending) >= in_flight:
                break
        while pending:
            try:
                # the reference stays pending while it is awaited: Ctrl-C then cancels that task too
                result = ray.get(pending[0])
            except (*lost, ray.exceptions.RayTaskError) as e:
                # it has ended: cancelling an ended task can abort this whole process in Ray's core
                # worker ("Tried to complete task that was not pending", seen with Ray 2.60)
                pending.popleft()
                if isinstance(e, lost):
                    raise _worker_lost() from None
                # the task's own exception, as a local process's comes: Ray's carries the task's
                # traceback (in colour) as its message, which each command printed
                if isinstance(e.cause, Exception):
                    raise e.cause from None
                raise
            pending.popleft()
            for start, stop in todo:
                pending.append(remote.remote(job_ref, start, stop))
                break
            yield result
    finally:
        for ref in pending:
            ray.cancel(ref)
