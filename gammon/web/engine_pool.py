"""Engine work off the event loop: a bounded pool of worker processes for the computer's actions
and hints (and any other engine call: analysis, rollouts).

The engine's numba kernels hold the GIL, so in a thread a slow 2-ply play would stall every other
game of the process; in a worker process it stalls nothing but that game, which waits on its
answer. The pool is bounded (``workers`` processes): more requests queue rather than take more
cores. Workers start from a fork server (so they never inherit the server's threads), with the
server (:meth:`EnginePool.start`: each warms itself up before the server answers) or on first use,
and keep their computer players and hint engine between calls.
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from itertools import count
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, TypeVar

from gammon.dice import RandomDice, ScriptedDice
from gammon.engine.players import (
    ComputerAction,
    ComputerPlayer,
    available_levels,
    computer_player,
    engine_available,
)
from gammon.errors import GammonError, IllegalActionError
from gammon.game import Game, Request
from gammon.i18n import current_language, tr, use_language
from gammon.position import Position
from gammon.situation import Situation
from gammon.web.hints import cube_hint, default_advisor, hints, play_hints
from gammon.web.lifeline import die_with_server
from gammon.web.restartable_pool import RestartablePool, retire
from gammon.web.warmup import INLINE_LEVELS, warm_worker

if TYPE_CHECKING:
    from gammon.engine.engine import Engine

T = TypeVar("T")

WORKER_NICENESS = 10
READY_TIMEOUT = 900.0
"""Seconds a warmed-up worker waits for the others at start-up (compiling every kernel on a busy
machine, where the shipped ones do not fit, takes a minute or two)."""
CALL_TIMEOUT = 300.0
"""Seconds an engine call may run in its worker (a 2-ply play takes a second or two; a worker's first
call may compile kernels for a minute or two) before its worker counts as stuck. Its clock starts
when a worker takes the call up: not while it waits for a worker to start or to be free."""
START_TIMEOUT = 300.0
"""Seconds a worker may take to start (load the engine) before the calls waiting for it are refused
and the pool is started afresh."""
_POLL = 0.25  # seconds between looks at whether a queued call has reached the workers
_DEFAULT = "default"  # the hint engine a worker builds itself (see hints.default_advisor)


class EngineUnavailableError(GammonError):
    """An engine call's worker died (killed, out of memory) on a fresh pool too: try again later
    (HTTP 503)."""


class _StuckError(Exception):
    """An engine call ran past the pool's timeout (a TimeoutError of the call's own is its answer)."""


class _NotStartedError(_StuckError):
    """No worker took an engine call up within the pool's start timeout (and a call's timeout, for
    the call the executor may hand on beside a running one): its workers did not start."""


class _NoDice:
    """Stands in for a game's dice in a worker: the computer decides, it never rolls."""

    def roll(self) -> tuple[int, int]:
        raise IllegalActionError("a computer player's worker has no dice to roll")


class _GamePickler(pickle.Pickler):
    """Pickles a game without its dice source (the server's, possibly a cryptographic one)."""

    def persistent_id(self, obj: Any) -> str | None:
        return "dice" if isinstance(obj, RandomDice | ScriptedDice) else None


class _GameUnpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        return _NoDice()


def pack_game(game: Game) -> bytes:
    buffer = io.BytesIO()
    _GamePickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(game)
    return buffer.getvalue()


def unpack_game(data: bytes) -> Game:
    game: Game = _GameUnpickler(io.BytesIO(data)).load()
    return game


# ---- in the worker process ---------------------------------------------------------------------

_players: dict[str, ComputerPlayer] = {}
_advisor: list[Engine | None] = []
_ready: list[Any] = []  # the pool's barrier, in a worker warmed up at the server's start
_taken: list[Connection] = []  # where the worker says which call it takes up (see EnginePool._answer)


def init_worker(advisor: Engine | None | str, ready: Any = None, taken: Connection | None = None) -> None:
    """A worker's start: below the server's priority, with its hint engine; with ``ready`` (the
    pool's barrier: the pool starts with the server) warmed up before it takes any job; ``taken``:
    the pipe it tells the server each call it takes up on (see :func:`take`)."""
    _taken[:] = [] if taken is None else [taken]
    if advisor == _DEFAULT:
        advisor = default_advisor()
    assert not isinstance(advisor, str)
    _advisor[:] = [advisor]
    if ready is not None:  # at the server's priority: it waits on this, with nothing else to do
        _warm_up(advisor)
        _ready[:] = [ready]
    # Below the server in the scheduler's eyes: where cores are short, a player's action (a
    # millisecond) goes before the engine's next evaluation, and the engine gets what is left.
    os.nice(WORKER_NICENESS)


def _warm_up(advisor: Engine | None) -> None:
    """The engine levels' plays and cube decisions and the hints, through this worker's own entry
    points (see gammon.web.warmup), so the first game's engine calls find everything loaded."""
    # deferred to the worker: it loads the engine, which the server process starts without
    from gammon.engine.engine import Engine

    levels = [level for level in available_levels() if level not in INLINE_LEVELS]
    # An advisor given in place of the engine (a test's stand-in) is not warmed: only the engine
    # and pubeval's ranking (None) have kernels to load.
    ours = advisor is None or isinstance(advisor, Engine)
    warm_worker(
        levels, lambda level, game: computer_action(level, pack_game(game)), worker_hints if ours else None
    )


def in_language(lang: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in ``lang``: a worker words its refusals in the language of the request."""
    with use_language(lang):
        return fn(*args)


def take(call: int, lang: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in ``lang``, once the server is told this worker took up ``call``: the call's
    clock starts now (not while it waited for the worker to start or be free)."""
    if _taken:
        # 12 bytes in one write, under the pipe's atomic size: the workers' writes never interleave
        # and a worker killed at any moment leaves no half message (nor a lock held)
        _taken[0].send_bytes(call.to_bytes(8, "little"))
    return in_language(lang, fn, *args)


def computer_action(level: str, game: bytes) -> ComputerAction:
    """The computer's next action in the pickled ``game`` (see :func:`pack_game`)."""
    player = _players.get(level)
    if player is None:
        player = _players[level] = computer_player(level)
    return player.next_action(unpack_game(game))


def worker_hints(position: Position, dice: tuple[int, int]) -> list[tuple[str, float]]:
    return hints(_advisor[0] if _advisor else None, position, dice)


def worker_advice(situation: Situation, n: int) -> dict[str, Any]:
    """The best plays of the situation's dice, or before the roll and when doubled, the cube
    decision (see gammon.web.hints)."""
    advisor = _advisor[0] if _advisor else None
    if situation.dice is not None:
        return {"kind": "plays", **play_hints(advisor, situation, n)}
    if advisor is None:
        raise IllegalActionError(
            tr("no cube hint: cube advice needs the engine, which is not installed here")
        )
    return {"kind": "cube", **cube_hint(advisor, situation)}


def worker_tutor(situation: Situation, request: Request, level: str) -> dict[str, Any] | None:
    """The tutor's warning on ``request`` about to be made in ``situation``, judged by this worker's
    hint engine at ``level`` (a mark's name), as JSON; None when the choice is not flagged."""
    from gammon.web.tutoring import tutor_warning  # deferred: it loads the analysis (see default_advisor)

    return tutor_warning(_advisor[0] if _advisor else None, situation, request, level)


def _ping() -> int:
    """A worker's pid; in a pool started with the server, once every worker has warmed up (each
    waits at the barrier, so ``workers`` pings reach ``workers`` different workers)."""
    if _ready:
        _ready[0].wait(READY_TIMEOUT)
    return os.getpid()


# ---- in the server ----------------------------------------------------------------------------


class EnginePool:
    """``workers`` processes for engine calls. ``advisor`` is the hint engine each worker holds
    (None: pubeval's ranking; by default the engine where its trained net is installed)."""

    def __init__(
        self,
        workers: int = 1,
        advisor: Engine | None | str = _DEFAULT,
        timeout: float = CALL_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"the engine pool needs a positive whole number of workers, got {workers!r}")
        for name, value in (("timeout", timeout), ("start timeout", start_timeout)):
            if not value > 0:
                raise ValueError(f"an engine call's {name} must be a positive time in seconds, got {value!r}")
        self.workers = workers
        self.advisor = advisor
        self.timeout = timeout
        self.start_timeout = start_timeout
        self._workers = RestartablePool(self._make, "an engine worker died: the engine pool starts again")
        self._calls = count(1)
        # the workers' pipe of the calls they take up, and the calls waiting: id -> taken up yet
        self._taken: tuple[Connection, Connection] | None = None
        self._waiting: dict[int, bool] = {}
        self._lock = threading.Lock()  # calls come from the event loop and from other threads

    @property
    def hint_source(self) -> str:
        if self.advisor == _DEFAULT:
            return "engine" if engine_available() else "pubeval"
        return "engine" if self.advisor is not None else "pubeval"

    def _make(self, lifeline: Connection, warm: bool = False) -> ProcessPoolExecutor:
        """An executor whose workers watch ``lifeline``; ``warm``: they warm up as they start."""
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["gammon.web.engine_pool", "gammon.engine.players"])
        ready = context.Barrier(self.workers) if warm else None
        with self._lock:
            if self._taken is None:
                self._taken = context.Pipe(duplex=False)
            writer = self._taken[1]
        return ProcessPoolExecutor(
            self.workers,
            mp_context=context,
            initializer=die_with_server,
            initargs=(lifeline, init_worker, self.advisor, ready, writer),
        )

    def _was_taken(self, call: int) -> bool:
        """Whether a worker took ``call`` up, after reading what the workers said so far."""
        with self._lock:
            if self._taken is not None:
                reader = self._taken[0]
                while reader.poll():
                    said = int.from_bytes(reader.recv_bytes(), "little")
                    if said in self._waiting:  # not a call whose caller gave up already
                        self._waiting[said] = True
            return self._waiting.get(call, False)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker (``fn`` and its arguments must pickle), in the caller's
        language (a worker's refusals reach the client in the request's). A worker that dies
        (killed, out of memory) breaks the pool: it is started afresh and the call made once more;
        dying again, it raises :class:`EngineUnavailableError`. A call still running after
        ``timeout`` seconds (a worker stuck) raises it at once: the pool's workers are killed and
        started afresh, and the calls they ran are made again there."""
        lang = current_language()
        for attempt in (1, 2):
            call = next(self._calls)
            with self._lock:  # before the submit: what a worker says of it is not dropped
                self._waiting[call] = False
            try:
                future, generation = self._workers.submit(take, call, lang, fn, *args)
            except BaseException:
                with self._lock:
                    del self._waiting[call]
                raise
            try:
                return await self._answer(future, call)
            except _StuckError as e:
                broken = self._workers.drop(generation, kill=True)
                if broken is not None:
                    await asyncio.to_thread(retire, broken)
                if isinstance(e, _NotStartedError):
                    message = tr(
                        "the engine did not start within {seconds} seconds; try again later",
                        seconds=f"{self.start_timeout:g}",
                    )
                else:
                    message = tr(
                        "the engine took more than {seconds} seconds on this request; try again later",
                        seconds=f"{self.timeout:g}",
                    )
                raise EngineUnavailableError(message) from e
            except BrokenProcessPool as e:
                if self._workers.was_closed(generation):  # the server stops: no fresh pool now
                    stopped = tr("the engine stopped with the server; try again later")
                    raise EngineUnavailableError(stopped) from e
                broken = self._workers.drop(generation)
                if broken is not None:
                    # its workers are gone already; joining its threads must not stall the loop
                    await asyncio.to_thread(retire, broken)
                if attempt == 2:
                    raise EngineUnavailableError(
                        tr("the engine's worker stopped twice on this request; try again later")
                    ) from e
        raise AssertionError("unreachable")

    async def _answer(self, future: Future[T], call: int) -> T:
        """``future``'s result (the future of ``call``); _StuckError once it has run ``timeout``
        seconds in a worker. The time it waits for a worker to be free (a busy pool is not a stuck
        one) or to start (slow on a loaded machine, or restarted after a stuck call) does not
        count: its clock starts once a worker takes it up (see :func:`take`). Handed on to the
        workers (``running``: the executor hands on one call more than it has workers, beside the
        running ones), it waits at most ``start_timeout`` for them to start, and ``timeout`` more
        for one to be free, before _NotStartedError: a stuck start is refused in bounded time too."""
        loop = asyncio.get_running_loop()
        answer = asyncio.wrap_future(future, loop=loop)
        deadline: float | None = None
        start_by: float | None = None
        try:
            while True:
                if deadline is None and self._was_taken(call):
                    deadline = loop.time() + self.timeout
                elif deadline is None and start_by is None and future.running():
                    start_by = loop.time() + self.start_timeout + self.timeout
                if deadline is not None:
                    wait = deadline - loop.time()
                elif start_by is not None:
                    wait = min(_POLL, start_by - loop.time())
                else:
                    wait = _POLL
                if wait <= 0:
                    raise _StuckError if deadline is not None else _NotStartedError
                done, _ = await asyncio.wait({answer}, timeout=wait)
                if done:
                    return answer.result()
        finally:
            if not answer.done():  # the caller gave up (or timed out): a queued call is dropped
                answer.cancel()
            self._was_taken(call)  # read what the workers said: the pipe never fills
            with self._lock:
                del self._waiting[call]

    async def computer_action(self, level: str, game: Game) -> ComputerAction:
        return await self.run(computer_action, level, pack_game(game))

    async def hints(self, position: Position, dice: tuple[int, int]) -> list[tuple[str, float]]:
        return await self.run(worker_hints, position, dice)

    async def advice(self, situation: Situation, n: int) -> dict[str, Any]:
        return await self.run(worker_advice, situation, n)

    async def tutor(self, situation: Situation, request: Request, level: str) -> dict[str, Any] | None:
        return await self.run(worker_tutor, situation, request, level)

    async def start(self) -> None:
        """Start the workers now (a server does at startup) rather than on the first engine call,
        each warmed up (see gammon.web.warmup); returns once every one of them is."""
        pool, _ = self._workers.current(partial(self._make, warm=True))
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(pool, _ping) for _ in range(self.workers)))

    def close(self) -> None:
        """Stop the workers, and wait for them: a worker left behind keeps the fork server alive."""
        self._workers.close()
        with self._lock:  # after the workers: none of them writes to the pipe any more
            taken, self._taken = self._taken, None
        if taken is not None:
            for end in taken:
                end.close()
