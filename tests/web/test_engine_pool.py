"""Engine work runs in worker processes: a slow engine call holds up only the game that waits on it."""

from __future__ import annotations

import asyncio
import math
import os
import random
import threading
import time
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

from gammon.dice import ScriptedDice
from gammon.errors import IllegalActionError
from gammon.game import Game
from gammon.play import Play
from gammon.position import Position
from gammon.records import replay_match
from gammon.store import Store
from gammon.web import create_app
from gammon.web.actions import rules_from_dict
from gammon.web.engine_pool import EnginePool, pack_game, unpack_game
from gammon.web.settings import ServerSettings
from tests.helpers import process_alive
from tests.web.conftest import auth, new_match, seeded_dice


@dataclass
class _Hint:
    play: Play
    equity: float


@dataclass
class SlowAdvisor:
    """A hint engine that holds the GIL for a while (as the engine's numba kernels do): one C-level
    loop of ``work`` steps, during which no other thread of its process runs."""

    work: int

    def hint(self, position: Position, dice: tuple[int, int], n: int) -> list[_Hint]:
        sum(range(self.work))  # noqa: B018  (the slow part: one call that never lets go of the GIL)
        return [_Hint(p, 0.0) for p in position.legal_plays(dice)[:n]]


def _work_for(seconds: float) -> int:
    """Steps of ``sum(range(...))`` that take about ``seconds`` here: timed from the quickest of
    three tries, so that a try the machine's load slowed down does not make the work too short."""
    quickest = math.inf
    for _ in range(3):
        start = time.perf_counter()
        sum(range(2_000_000))
        quickest = min(quickest, time.perf_counter() - start)
    return int(2_000_000 * seconds / max(quickest, 1e-6))


def _to_move(c: TestClient, m: dict) -> dict:
    s = c.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).json()
    if s["phase"] == "roll":
        s = c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]),
                   json={"action": "roll"}).json()
    return s


@dataclass
class HeldAdvisor:
    """A hint engine that writes its process's pid to the file ``started``, then holds the GIL
    (``work`` steps at a time, as the engine's numba kernels do) until the file ``go`` exists."""

    started: str
    go: str
    work: int

    def hint(self, position: Position, dice: tuple[int, int], n: int) -> list[_Hint]:
        with open(self.started + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(self.started + ".tmp", self.started)
        while not os.path.exists(self.go):
            sum(range(self.work))  # noqa: B018  (one call that never lets go of the GIL)
        return [_Hint(p, 0.0) for p in position.legal_plays(dice)[:n]]


@pytest.mark.slow
def test_a_slow_engine_call_does_not_delay_another_games_action(store: Store, tmp_path) -> None:
    # The engine call is held until the other game's play has been answered: no race with a
    # timed engine call, and no time limit on the play (a loaded machine's play may be slow).
    started, go = str(tmp_path / "started"), str(tmp_path / "go")
    advisor = HeldAdvisor(started, go, _work_for(0.5))
    with TestClient(
        create_app(
            store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000, warm=True), engine=advisor  # type: ignore[arg-type]
        )
    ) as c:
        slow, other = new_match(c, mode="local"), new_match(c, mode="local")
        _to_move(c, slow)
        s = c.get(f"/api/matches/{other['match_id']}", headers=auth(other["token"])).json()
        assert s["phase"] == "move"  # after the opening roll
        hinted: list[int] = []

        def ask() -> None:
            r = c.get(f"/api/matches/{slow['match_id']}/hint", headers=auth(slow["token"]))
            hinted.append(r.status_code)

        played: list[dict] = []

        def play() -> None:
            r = c.post(
                f"/api/matches/{other['match_id']}/actions",
                headers=auth(other["token"]),
                json={"action": "play", "play": s["plays"][0], "version": s["version"]},
            )
            played.append({"status": r.status_code, **r.json()})

        thread = threading.Thread(target=ask)
        player = threading.Thread(target=play)
        thread.start()
        try:
            while not os.path.exists(started):  # the hint is in its worker, holding that one's GIL
                time.sleep(0.01)
            with open(started) as f:
                engine_pid = int(f.read())
            player.start()
            player.join(120)  # a server blocked by the held engine call never answers: not for ever
            blocked = player.is_alive()
        finally:
            open(go, "w").close()  # the engine call ends, whatever happened
        thread.join()
        player.join()
        assert engine_pid != os.getpid(), "the engine call ran in the server's process"
        assert not blocked, "another game's play waited for the engine call"
        assert played[0]["status"] == 200 and played[0]["version"] > s["version"], played
        assert hinted == [200]


def test_the_computer_plays_through_the_engine_pool_and_every_action_is_stored(store: Store) -> None:
    rng = random.Random(3)
    with TestClient(create_app(store, seeded_dice(5), settings=ServerSettings(rate=1000, burst=1000))) as c:
        m = new_match(c, mode="computer", level="pubeval")
        url = f"/api/matches/{m['match_id']}"
        s: dict = {}
        for _ in range(400):
            s = c.get(url, headers=auth(m["token"])).json()
            if s["result"]:
                break
            assert s["turn"] == 0 or s["phase"] in ("over",), s  # the computer never leaves its turn undone
            acts = s["actions"]
            body = (
                {"action": "play", "play": rng.choice(s["plays"])}
                if "play" in acts
                else {"action": "roll"}
                if "roll" in acts
                else {"action": "take"}
                if "take" in acts
                else {"action": "reject_resignation"}
            )
            r = c.post(url + "/actions", headers=auth(m["token"]), json=body | {"version": s["version"]})
            assert r.status_code == 200, r.text
        assert s["result"], "the game did not end"
        assert any(line.startswith("Computer") for line in s["log"])
    match = replay_match(
        rules_from_dict(store.load_match(m["match_id"]).rules), store.load_log(m["match_id"]).actions
    )
    assert match.game.is_over and match.game.result is not None
    assert match.game.result.winner == s["result"]["winner"]
    assert store.version(m["match_id"]) == s["version"]


def test_a_game_goes_to_a_worker_without_its_dice() -> None:
    game = Game(dice=ScriptedDice([(3, 1), (6, 5)]))
    game.roll()
    copy = unpack_game(pack_game(game))
    assert copy.position == game.position and copy.dice == game.dice and copy.history == game.history
    copy.play(str(copy.legal_plays()[0]))
    with pytest.raises(IllegalActionError, match="no dice"):
        copy.roll()


@pytest.mark.parametrize("bad", [0, -1, True, 1.5])
def test_the_pool_size_must_be_positive(bad: object) -> None:
    with pytest.raises(ValueError, match=repr(bad).replace(".", r"\.")):
        EnginePool(bad)  # type: ignore[arg-type]


def _levels_held() -> tuple[int, list[str]]:
    """(In a worker) its pid and the computer players it holds."""
    import os

    from gammon.web import engine_pool

    return os.getpid(), sorted(engine_pool._players)


@pytest.mark.slow
def test_a_started_pool_answers_with_every_worker_warmed_up() -> None:
    from gammon.engine.players import available_levels
    from gammon.web.engine_pool import INLINE_LEVELS

    async def scenario() -> list[tuple[int, list[str]]]:
        pool = EnginePool(2)
        try:
            await pool.start()  # returns once both workers have warmed up (a barrier each waits at)
            return list(await asyncio.gather(*(pool.run(_levels_held) for _ in range(6))))
        finally:
            pool.close()

    held = asyncio.run(scenario())
    engine_levels = sorted(set(available_levels()) - set(INLINE_LEVELS))
    assert engine_levels and all(levels == engine_levels for _, levels in held)
    assert len({pid for pid, _ in held}) <= 2


# ---- a worker that dies ------------------------------------------------------------------------


def _pid_once(flag: str) -> int:
    """(In a worker) its pid, once the file ``flag`` exists: the call runs until the test lets it go."""
    import os

    while not os.path.exists(flag):
        time.sleep(0.01)
    return os.getpid()


def _die() -> None:
    """(In a worker) the worker killed outright, as by ``kill -9`` or the kernel's OOM killer."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def _worker_pids(pool: EnginePool) -> set[int]:
    executor = pool._workers.executor
    if executor is None:  # not started yet
        return set()
    return {p.pid for p in executor._processes.values() if p.pid is not None}


def test_a_killed_worker_is_replaced_and_every_waiting_call_answered_with_one_restart(
    tmp_path, caplog: pytest.LogCaptureFixture
) -> None:
    import os
    import signal

    flag = str(tmp_path / "go")

    async def scenario() -> tuple[list[int], set[int], int]:
        pool = EnginePool(2, advisor=None)
        try:
            calls = [asyncio.ensure_future(pool.run(_pid_once, flag)) for _ in range(3)]  # 2 run, 1 waits
            while len(_worker_pids(pool)) < 2:
                await asyncio.sleep(0.01)
            killed = min(_worker_pids(pool))
            os.kill(killed, signal.SIGKILL)
            done, _ = await asyncio.wait(calls, timeout=5.0)  # they fail with the pool, then wait again
            assert not done, "a call ended before the flag was set: nothing was tested"
            open(flag, "w").close()
            pids = list(await asyncio.gather(*calls))
            after = await pool.run(os.getpid)
            return pids, _worker_pids(pool), after
        finally:
            pool.close()

    with caplog.at_level("WARNING", logger="gammon.web.engine_pool"):
        pids, workers, after = asyncio.run(scenario())
    assert set(pids) <= workers and after in workers  # every call answered by the fresh pool
    restarts = [r for r in caplog.records if "starts again" in r.getMessage()]
    assert len(restarts) == 1, [r.getMessage() for r in restarts]


def test_a_call_whose_worker_dies_twice_is_refused_and_the_pool_still_answers() -> None:
    import os

    from gammon.web.engine_pool import EngineUnavailableError

    async def scenario() -> int:
        pool = EnginePool(1, advisor=None)
        try:
            with pytest.raises(EngineUnavailableError, match="stopped twice"):
                await pool.run(_die)
            return await pool.run(os.getpid)
        finally:
            pool.close()

    assert asyncio.run(scenario()) > 0


def _kill_workers(c: TestClient) -> None:
    import os
    import signal

    pool = c.app.state.hub.pool  # type: ignore[attr-defined]
    pids = _worker_pids(pool)
    assert pids
    for pid in pids:
        os.kill(pid, signal.SIGKILL)


def test_the_tutor_answers_after_its_worker_was_killed_and_refuses_with_503_when_it_dies_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = ServerSettings(rate=1000, burst=1000)
    with TestClient(create_app(store, seeded_dice(), settings=settings, engine=SlowAdvisor(0))) as c:  # type: ignore[arg-type]
        m = new_match(c, mode="local")
        s = _to_move(c, m)
        url = f"/api/matches/{m['match_id']}/tutor"
        body = {"action": "play", "play": s["plays"][0]}
        first = c.post(url, headers=auth(m["token"]), json=body)
        assert first.status_code == 409 and "needs the engine" in first.json()["error"]  # a stand-in advisor
        _kill_workers(c)
        r = c.post(url, headers=auth(m["token"]), json=body)
        assert (r.status_code, r.json()) == (first.status_code, first.json())
        r = c.get("/wildbg/eval", params={"p24": 2, "p1": -2})
        assert r.status_code == 200, r.text

        from gammon.web.engine_pool import EnginePool

        async def dies(self: EnginePool, *args: object) -> None:
            return await self.run(_die)

        monkeypatch.setattr(EnginePool, "tutor", dies)
        r = c.post(url, headers=auth(m["token"]), json=body)
        assert r.status_code == 503 and "try again later" in r.json()["error"], r.text


def test_a_worker_refuses_in_the_language_of_the_request(store: Store) -> None:
    settings = ServerSettings(rate=1000, burst=1000)
    with TestClient(create_app(store, seeded_dice(), settings=settings, engine=SlowAdvisor(0))) as c:  # type: ignore[arg-type]
        m = new_match(c, mode="local")
        s = _to_move(c, m)
        r = c.post(
            f"/api/matches/{m['match_id']}/tutor",
            headers=auth(m["token"]) | {"Accept-Language": "pl"},
            json={"action": "play", "play": s["plays"][0]},
        )
        assert r.status_code == 409
        assert r.json()["error"] == "brak nauczyciela: potrzebuje silnika, który nie jest tu zainstalowany"


# ---- a worker that is stuck --------------------------------------------------------------------


def _hang(marker: str) -> None:
    """(In a worker) an endless loop, once it has written its pid to ``marker``."""
    import os

    with open(marker + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(marker + ".tmp", marker)
    while True:
        pass


def _blocks_first_time(marker: str) -> int:
    """(In a worker) the first run writes ``marker`` and blocks until its worker is killed; a run
    made again (on a fresh pool) answers its pid at once."""
    import os

    if os.path.exists(marker):
        return os.getpid()
    open(marker, "w").close()
    while True:
        time.sleep(0.01)


def _meet(folder: str, n: int) -> int:
    """(In a worker) its pid, once ``n`` workers have come here (each makes a file in ``folder``)."""
    import os

    os.makedirs(folder, exist_ok=True)
    open(os.path.join(folder, str(os.getpid())), "w").close()
    while len(os.listdir(folder)) < n:
        time.sleep(0.01)
    return os.getpid()


async def _file(path: str) -> str:
    import os

    while not os.path.exists(path):
        await asyncio.sleep(0.01)
    with open(path) as f:
        return f.read()


def test_a_stuck_call_is_refused_after_the_timeout_and_the_call_beside_it_answered(tmp_path) -> None:
    import os

    from gammon.web.engine_pool import EngineUnavailableError

    hung, beside = str(tmp_path / "hung"), str(tmp_path / "beside")

    async def scenario() -> tuple[str, int, int, set[int]]:
        pool = EnginePool(2, advisor=None, timeout=4.0)
        try:
            # Both workers started first: the call beside has to start within the stuck one's
            # time, which a worker started for it on demand (slow on a loaded machine) missed.
            executor, _ = pool._workers.current()
            loop = asyncio.get_running_loop()
            met = str(tmp_path / "met")
            await asyncio.gather(*(loop.run_in_executor(executor, _meet, met, 2) for _ in range(2)))
            stuck = asyncio.ensure_future(pool.run(_hang, hung))
            stuck_pid = int(await _file(hung))
            await asyncio.sleep(1.0)  # the call beside it starts well after: its own time is not up
            other = asyncio.ensure_future(pool.run(_blocks_first_time, beside))
            await _file(beside)  # it runs on the other worker, which the stuck one's end kills
            old = _worker_pids(pool)
            with pytest.raises(EngineUnavailableError) as refused:
                await stuck
            answered = await other  # made again on the fresh pool
            return str(refused.value), stuck_pid, answered, old
        finally:
            pool.close()

    message, stuck_pid, answered, old = asyncio.run(scenario())
    assert message == "the engine took more than 4 seconds on this request; try again later"
    assert answered not in old and answered != os.getpid()
    assert not process_alive(stuck_pid)  # killed, not left spinning


def test_the_server_answers_503_to_an_engine_call_past_its_timeout(
    store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    settings = ServerSettings(rate=1000, burst=1000, engine_timeout=1.5)
    with TestClient(create_app(store, seeded_dice(), settings=settings, engine=SlowAdvisor(0))) as c:  # type: ignore[arg-type]
        m = new_match(c, mode="local")
        s = _to_move(c, m)
        url = f"/api/matches/{m['match_id']}/tutor"
        body = {"action": "play", "play": s["plays"][0]}

        async def hangs(self: EnginePool, *args: object) -> None:
            return await self.run(_hang, str(tmp_path / "hung"))

        with monkeypatch.context() as patch:
            patch.setattr(EnginePool, "tutor", hangs)
            r = c.post(url, headers=auth(m["token"]) | {"Accept-Language": "pl"}, json=body)
        assert r.status_code == 503, r.text
        polish = "silnik liczył dłużej niż 1.5 s nad tym żądaniem; spróbuj ponownie później"
        assert r.json()["error"] == polish
        again = c.post(url, headers=auth(m["token"]), json=body)  # a fresh worker answers
        assert again.status_code == 409 and "needs the engine" in again.json()["error"]


@pytest.mark.parametrize("bad", [0, -1.0, float("nan")])
def test_the_engine_timeout_must_be_a_positive_time(bad: float) -> None:
    with pytest.raises(ValueError, match="engine_timeout"):
        ServerSettings(engine_timeout=bad)
    with pytest.raises(ValueError, match="timeout"):
        EnginePool(1, timeout=bad)


def _stuck_call(pool: EnginePool, hung: str) -> tuple[threading.Thread, list[BaseException]]:
    """A call of ``_hang`` on ``pool`` from a thread of its own, running once it has written ``hung``."""
    ended: list[BaseException] = []

    async def call() -> None:
        try:
            await pool.run(_hang, hung)
        except BaseException as e:  # noqa: BLE001  (what the call ended with is the test's)
            ended.append(e)

    thread = threading.Thread(target=asyncio.run, args=(call(),), daemon=True)
    thread.start()
    while not os.path.exists(hung):
        time.sleep(0.01)
    return thread, ended


def test_closing_the_pool_stops_a_stuck_worker(tmp_path) -> None:
    # At the server's stop: closing waited for every call to end, a stuck one for ever.
    hung = str(tmp_path / "hung")
    pool = EnginePool(1, advisor=None)
    _stuck_call(pool, hung)
    with open(hung) as f:
        stuck_pid = int(f.read())
    closing = threading.Thread(target=pool.close, daemon=True)
    closing.start()
    closing.join(120)
    assert not closing.is_alive(), "the pool's close waited on the stuck worker"
    assert not process_alive(stuck_pid)


def test_a_call_the_pools_close_ends_is_refused_and_starts_no_fresh_pool(tmp_path) -> None:
    # It was made again, as after a worker's death: on a fresh pool that nobody closed.
    hung = str(tmp_path / "hung")
    pool = EnginePool(1, advisor=None)
    thread, ended = _stuck_call(pool, hung)
    pool.close()
    thread.join(120)
    assert not thread.is_alive(), "the call went on after the pool's close"
    assert [str(e) for e in ended] == ["the engine stopped with the server; try again later"]
    assert pool._workers.executor is None


# ---- a worker that is slow to start ------------------------------------------------------------


def _gated(flag: str) -> None:
    """(In a worker, as it starts) waits until the file ``flag`` exists; then no hint engine."""
    while not os.path.exists(flag):
        time.sleep(0.01)


class _SlowToStart:
    """A hint engine that holds its worker's start (the worker unpickles it as it starts) until the
    file ``flag`` exists: a worker start as slow as the test wants, as on a loaded machine."""

    def __init__(self, flag: str) -> None:
        self.flag = flag

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return _gated, (self.flag,)


def test_a_call_waiting_for_its_worker_to_start_is_not_timed_out(tmp_path) -> None:
    # The call's clock started as it was handed to the executor, before its worker had started: a
    # worker start longer than the timeout (a loaded machine, a restart after a stuck call) failed
    # a call the engine had not even seen.
    flag = str(tmp_path / "go")

    async def scenario() -> int:
        pool = EnginePool(1, advisor=_SlowToStart(flag), timeout=0.5)  # type: ignore[arg-type]
        try:
            call = asyncio.ensure_future(pool.run(os.getpid))
            while not _worker_pids(pool):
                await asyncio.sleep(0.01)
            done, _ = await asyncio.wait({call}, timeout=2.0)  # four timeouts of a worker starting
            assert not done, f"the call ended while its worker was starting: {call.result()!r}"
            open(flag, "w").close()
            return await call
        finally:
            pool.close()

    assert asyncio.run(scenario()) > 0


def test_a_worker_that_never_starts_is_refused_in_bounded_time_and_replaced(tmp_path) -> None:
    from gammon.web.engine_pool import EngineUnavailableError

    flag = str(tmp_path / "go")

    async def scenario() -> tuple[str, set[int], int]:
        pool = EnginePool(1, advisor=_SlowToStart(flag), timeout=0.5, start_timeout=1.0)  # type: ignore[arg-type]
        try:
            call = asyncio.ensure_future(pool.run(os.getpid))
            while not _worker_pids(pool):
                await asyncio.sleep(0.01)
            stuck = _worker_pids(pool)
            with pytest.raises(EngineUnavailableError) as refused:
                await call
            open(flag, "w").close()  # a fresh worker starts now
            return str(refused.value), stuck, await pool.run(os.getpid)
        finally:
            pool.close()

    message, stuck, answered = asyncio.run(scenario())
    assert message == "the engine did not start within 1 seconds; try again later"
    assert answered not in stuck
    assert not any(process_alive(pid) for pid in stuck)  # killed, not left waiting


def test_a_call_handed_on_beside_a_busy_worker_is_not_timed_out_while_it_waits(tmp_path) -> None:
    # The executor hands one call more than it has workers on at once (``running``): its clock
    # started then, so a call behind a long one (two 2-ply plays, each under the timeout, on a
    # one-worker pool) was refused while it waited. The worker here is held by a call made without
    # the pool's clock, for as long as the test wants.
    flag = str(tmp_path / "go")

    async def scenario() -> tuple[int, int]:
        pool = EnginePool(1, advisor=None, timeout=0.5)
        try:
            await pool.run(os.getpid)  # the worker started
            executor = pool._workers.executor
            assert executor is not None
            busy = asyncio.wrap_future(executor.submit(_pid_once, flag))
            call = asyncio.ensure_future(pool.run(os.getpid))
            done, _ = await asyncio.wait({call}, timeout=2.0)  # four timeouts of waiting
            assert not done, f"the call ended while its worker was busy: {call.result()!r}"
            open(flag, "w").close()
            return await busy, await call
        finally:
            pool.close()

    busy, answered = asyncio.run(scenario())
    assert busy == answered  # the one worker answered both: it was never killed


def test_a_call_the_pool_cannot_take_leaves_nothing_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    # A submit refused (the executor shut down between the look and the submit) kept the call's
    # entry among the calls waiting for a worker, one for each such call, for the pool's life.
    pool = EnginePool(1, advisor=None)

    def refused(*args: object) -> None:
        raise RuntimeError("cannot schedule new futures after shutdown")

    monkeypatch.setattr(pool._workers, "submit", refused)
    with pytest.raises(RuntimeError, match="after shutdown"):
        asyncio.run(pool.run(os.getpid))
    assert pool._waiting == {}
