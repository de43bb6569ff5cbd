"""Load benchmark (not a test): many concurrent games over WebSockets on loopback.

Starts ``gammon serve`` on a fresh database, then clients each create a two-players-on-one-device
game over HTTP and play random legal actions over a WebSocket until the game ends. Reports actions/s
and the p50/p99 latency from sending an action to receiving the new state; then replays every stored
game from its action log and checks it reaches the stored final position (no game lost or corrupted).

Closed loop (each client acts as soon as it has the new state):

    python -m benchmarks.server.load --clients 200

Open loop (each game acts every ``--interval`` seconds, whatever the server's pace; games that end
are followed by new ones for ``--duration`` seconds), with games against the computer beside them:

    python -m benchmarks.server.load --open-loop --clients 500 --interval 2 --duration 60 --computer 10

Several server processes (PostgreSQL): ``--workers 2 --database-url postgresql://...``. The clients
run in ``--client-processes`` processes, so that they are not the bottleneck. The machine's load
average is printed with the figures: on a shared machine it says what else was running.

A club (benchmarks/server/rated_load.py): ``--players 200`` signed-in players (accounts made up
front) play 100 rated online matches at once to their end, each seat on its own socket, then the
ratings are checked (each match rated exactly once, each account's changes consistent):

    python -m benchmarks.server.load --players 200 --clients 0 --workers 2 \
        --database-url postgresql://... --client-processes 2 [--open-loop --interval 2]

With ``--lobby`` the players sit in the lobby meanwhile (each with a ``/ws/lobby`` socket) and the
matches are made there by invitation; the lobby's events are timed too, and the lobby must end
empty of those invitations (rated_load.LobbySeat).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import websockets

from gammon.position import Position
from gammon.records import replay_match
from gammon.store import Store
from gammon.store.models import Base
from gammon.web.actions import rules_from_dict

WARM = [0.0]  # open loop: the perf_counter time before which actions are not counted


def _choose(state: dict, rng: random.Random) -> dict:
    acts = state["actions"]
    if "play" in acts:
        # A client that asked for no plays finds them itself, from the position and the dice.
        plays = state["plays"] or [
            str(p) for p in Position.from_id(state["position_id"]).legal_plays(tuple(state["dice"]))
        ]
        msg = {"action": "play", "play": rng.choice(plays)}
    elif "roll" in acts:
        msg = {"action": "double" if "double" in acts and rng.random() < 0.03 else "roll"}
    elif "take" in acts:
        msg = {"action": "take" if rng.random() < 0.7 else "pass"}
    elif "reject_resignation" in acts:
        msg = {"action": "accept_resignation"}
    else:
        raise RuntimeError(f"nothing to do in {state['phase']}: {acts}")
    msg["version"] = state["version"]
    return msg


async def play_game(
    base: str,
    http: httpx.AsyncClient,
    rng: random.Random,
    latencies: list[float],
    results: dict,
    interval: float | None,
    body: dict,
    deadline: float | None,
    detail: str,
) -> None:
    """One game: act at once (closed loop) or every ``interval`` seconds (open loop)."""
    r = await http.post("/api/matches", json=body)
    r.raise_for_status()
    m = r.json()
    url = base.replace("http", "ws", 1) + f"/ws/matches/{m['match_id']}?token={m['token']}&{detail}"
    async with websockets.connect(url, max_size=1 << 22, compression=None) as ws:
        state = json.loads(await ws.recv())["state"]
        due = time.perf_counter() + (rng.random() * interval if interval else 0.0)
        while not state["result"]:
            if deadline is not None and time.perf_counter() > deadline:
                return  # unfinished at the end of the run: checked as it stands
            msg = _choose(state, rng)
            if interval:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                due += interval
            sent = time.perf_counter()
            await ws.send(json.dumps(msg))
            while True:  # against the computer: the player's own action comes first, then its reply
                reply = json.loads(await ws.recv())
                if reply["type"] != "state":
                    raise RuntimeError(f"server refused {msg}: {reply}")
                state = reply["state"]
                if state["result"] or set(state["actions"]) - {"abandon", "claim"}:
                    break
            # Open loop: latency from when the action was due, so a late send counts too; actions
            # due in the warm-up (every game being created and connected at once) are not counted.
            if not interval:
                latencies.append(time.perf_counter() - sent)
            elif due - interval >= WARM[0]:
                latencies.append(time.perf_counter() - (due - interval))
            results[m["match_id"]] = state
    results[m["match_id"]] = state


async def client(
    base: str,
    seed: int,
    latencies: list[float],
    results: dict,
    interval: float | None,
    deadline: float | None,
    body: dict,
    detail: str,
) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while True:
            await play_game(base, http, rng, latencies, results, interval, body, deadline, detail)
            if deadline is None or time.perf_counter() > deadline:
                return


def client_process(args: tuple) -> tuple[list[float], dict, list[float], dict]:
    base, seeds, computer_seeds, interval, duration, level, detail, warmup = args
    latencies: list[float] = []
    results: dict = {}
    computer_latencies: list[float] = []
    computer_results: dict = {}
    deadline = None if duration is None else time.perf_counter() + warmup + duration
    WARM[0] = time.perf_counter() + warmup
    local = {"mode": "local", "match_length": 0}
    versus = {"mode": "computer", "level": level, "match_length": 0}

    async def run() -> None:
        await asyncio.gather(
            *(client(base, s, latencies, results, interval, deadline, local, detail) for s in seeds),
            *(
                client(base, s, computer_latencies, computer_results, interval, deadline, versus, detail)
                for s in computer_seeds
            ),
        )

    asyncio.run(run())
    return latencies, results, computer_latencies, computer_results


def start_server(port: int, database: str, rate: float, workers: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gammon.cli.serve",
            "--port",
            str(port),
            "--database-url",
            database,
            "--rate-limit",
            str(rate),
            "--workers",
            str(workers),
            "--ws-per-address",
            "100000",
            "--max-connections",
            "100000",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    # Each process says when its engine is loaded; one that answers first would take every
    # connection made before the others are up. The server's lines are passed on.
    loaded = threading.Semaphore(0)

    def relay() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            print(line, end="", flush=True)
            if "engine loaded" in line:
                loaded.release()

    threading.Thread(target=relay, daemon=True).start()
    deadline = time.monotonic() + 180
    for _ in range(workers):
        if not loaded.acquire(timeout=max(0.0, deadline - time.monotonic())):
            break
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


def check_stored(database: str, results: dict, finished_only: bool) -> list[str]:
    """Match ids whose stored log does not replay to the state the client last saw."""
    store = Store(database)
    bad = []
    for match_id, final in results.items():
        record, log = store.load_match(match_id), store.load_log(match_id)
        match = replay_match(rules_from_dict(record.rules), log.actions)
        game = match.game
        ok = (
            log.version == final["version"]
            and game.position_for(final["viewer"]).board == tuple(final["board"])
            and store.summary(match_id).position_id == game.position_for(0).id
        )
        if final["result"]:
            ok = ok and game.result is not None and game.result.winner == final["result"]["winner"]
        elif finished_only:
            ok = False
        if not ok:
            bad.append(match_id)
    store.close()
    return bad


def server_cpu(pid: int, depth: int | None = None) -> float:
    """CPU seconds used so far by the server process and its children (Linux's /proc): the cost of
    the actions, which a busy shared machine does not inflate the way it inflates wall time. With
    ``depth``, only the processes that many generations below ``pid`` or fewer (1 with ``--workers``:
    the supervisor and its server processes, not their engine and analysis workers)."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
        ticks[int(stat.parent.name)] = int(fields[11]) + int(fields[12])
    tree, frontier = {pid: 0}, [pid]
    while frontier:
        here = frontier.pop()
        for child, parent in parents.items():
            if parent == here and child not in tree:
                tree[child] = tree[here] + 1
                frontier.append(child)
    chosen = [p for p, d in tree.items() if depth is None or d <= depth]
    return sum(ticks.get(p, 0) for p in chosen) / os.sysconf("SC_CLK_TCK")


def _quantiles(latencies: list[float]) -> str:
    if len(latencies) < 2:
        return "too few samples"
    q = statistics.quantiles(latencies, n=100)
    return (
        f"latency p50 {q[49] * 1000:.1f} ms, p95 {q[94] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, "
        f"max {max(latencies) * 1000:.1f} ms"
    )


def run_club(args: argparse.Namespace, base: str, database: str, proc: subprocess.Popen) -> int:
    """``--players``: signed-in players in rated matches (benchmarks/server/rated_load.py)."""
    from benchmarks.server import rated_load

    start = time.perf_counter()
    players = rated_load.make_players(database, args.players - args.players % 2, prefix="p")
    print(
        f"{len(players)} accounts made and signed in, in {time.perf_counter() - start:.1f} s (not measured)",
        flush=True,
    )
    pairs = [(players[k], players[k + 1]) for k in range(0, len(players), 2)]
    n = max(1, args.client_processes)
    interval = args.interval if args.open_loop else None
    jobs = [(base, pairs[i::n], args.match_length, i + 1, args.lobby, interval) for i in range(n)]
    own = 1 if args.workers > 1 else 0  # the server processes, not their engine and analysis workers
    load_before, cpu_before = os.getloadavg(), server_cpu(proc.pid)
    own_before = server_cpu(proc.pid, own)
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(n) as pool:
        parts = pool.map(rated_load.client_process, jobs)
    elapsed = time.perf_counter() - start
    load_after, cpu = os.getloadavg(), server_cpu(proc.pid) - cpu_before
    own_cpu = server_cpu(proc.pid, own) - own_before
    latencies = sorted(x for p in parts for x in p.latencies)
    finals = {k: v for p in parts for k, v in p.finals.items()}
    errors = [e for p in parts for e in p.errors]
    print(
        (f"open loop, an action every {args.interval:g} s per match" if args.open_loop else "closed loop")
        + f"; {args.workers} server process(es); {len(pairs)} rated {args.match_length}-point matches "
        f"at once "
        f"between {len(players)} signed-in players: {len(finals)} finished, {len(latencies)} actions in "
        f"{elapsed:.1f} s ({len(latencies) / elapsed:.0f} actions/s), {_quantiles(latencies)}"
    )
    actions = max(len(latencies), 1)
    print(
        f"  server CPU {cpu:.1f} s: {cpu / actions * 1000:.2f} ms an action, of which the server "
        f"processes {own_cpu / actions * 1000:.2f} ms (the rest their engine workers and the "
        f"finished matches' analyses, niced); load average before {load_before[0]:.2f}, after "
        f"{load_after[0]:.2f} (1 min; {os.cpu_count()} cores)"
    )
    if args.lobby:
        report_lobby(parts)
    for e in errors[:10]:
        print("  error:", e)
    proc.terminate()
    proc.wait(30)
    bad = check_stored(database, finals, finished_only=True)
    problems = rated_load.check_ratings(database, list(finals))
    print(
        f"replayed {len(finals)} stored matches: {len(bad)} not as the players last saw them, "
        f"{len(pairs) - len(finals)} lost or unfinished; ratings: "
        + ("consistent, each match rated once" if not problems else f"{len(problems)} problems")
    )
    for problem in problems[:10]:
        print("  rating:", problem)
    left = sum(len(p.left) for p in parts)
    return 1 if bad or errors or problems or left or len(finals) != len(pairs) else 0


def report_lobby(parts: list) -> None:
    """``--lobby``: how fast the lobby's sockets were told, and whether they all emptied."""
    invited = sorted(x for p in parts for x in p.invited)
    started = sorted(x for p in parts for x in p.started)
    posted = sum(len(p.posted) for p in parts)
    left = sum(len(p.left) for p in parts)
    print(f"  lobby: {posted} invitations posted; post to the named player's socket, {_quantiles(invited)}")
    print(f"  lobby: accept to the poster's socket saying started, {_quantiles(started)}")
    print(f"  lobby: {left} of those invitations still shown by a socket at the end")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=200, help="local (two players, one device) games at once")
    ap.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    ap.add_argument("--workers", type=int, default=1, help="server processes (PostgreSQL only)")
    ap.add_argument("--client-processes", type=int, default=1, help="processes the clients run in")
    ap.add_argument("--open-loop", action="store_true", help="act every --interval seconds")
    ap.add_argument("--interval", type=float, default=2.0, help="open loop: seconds between a game's actions")
    ap.add_argument("--duration", type=float, default=60.0, help="open loop: seconds measured")
    ap.add_argument(
        "--warmup",
        type=float,
        default=10.0,
        help="open loop: seconds first, not measured, while the games are created",
    )
    ap.add_argument("--computer", type=int, default=0, help="games against the computer beside them")
    ap.add_argument("--level", default="engine", help="the computer's level (default engine)")
    ap.add_argument(
        "--states",
        choices=["none", "plays", "steps"],
        default="plays",
        help="what each state carries of the legal plays: none (the clients find them), "
        "plays (the default), steps (plays and step orders, as the browser asks)",
    )
    ap.add_argument(
        "--players",
        type=int,
        default=0,
        help="signed-in players (accounts made up front), in pairs playing rated matches at once",
    )
    ap.add_argument("--match-length", type=int, default=1, help="--players: the rated matches' length")
    ap.add_argument(
        "--lobby",
        action="store_true",
        help="--players: the players sit in the lobby meanwhile and meet there by invitation",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database_url or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        if args.database_url:  # a fresh start on a given database
            store = Store(database)
            Base.metadata.drop_all(store.engine)
            store.close()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        # Every client comes from 127.0.0.1, so lift the per-address limits for the benchmark.
        proc = start_server(port, database, rate=100_000, workers=args.workers)
        if args.players:
            return run_club(args, f"http://127.0.0.1:{port}", database, proc)
        interval = args.interval if args.open_loop else None
        duration = args.duration if args.open_loop else None
        n = max(1, args.client_processes)
        jobs = [
            (
                f"http://127.0.0.1:{port}",
                list(range(i, args.clients, n)),
                list(range(10_000 + i, 10_000 + args.computer, n)),
                interval,
                duration,
                args.level,
                {"none": "plays=false", "plays": "plays=true", "steps": "steps=true"}[args.states],
                args.warmup if args.open_loop else 0.0,
            )
            for i in range(n)
        ]
        load_before = os.getloadavg()
        cpu_before = server_cpu(proc.pid)
        marks: dict[str, float] = {}
        start = time.perf_counter()
        try:
            if args.open_loop:  # the server's CPU and the rate are measured after the warm-up
                threading.Timer(
                    args.warmup, lambda: marks.update(cpu=server_cpu(proc.pid), start=time.perf_counter())
                ).start()
            with multiprocessing.get_context("spawn").Pool(n) as pool:
                parts = pool.map(client_process, jobs)
        finally:
            elapsed = time.perf_counter() - start
            load_after = os.getloadavg()
            cpu = server_cpu(proc.pid) - marks.get("cpu", cpu_before)
            elapsed = time.perf_counter() - marks.get("start", start)
            proc.terminate()
            proc.wait(30)
        latencies = sorted(x for p in parts for x in p[0])
        results = {k: v for p in parts for k, v in p[1].items()}
        computer_latencies = sorted(x for p in parts for x in p[2])
        computer_results = {k: v for p in parts for k, v in p[3].items()}
        finished = sum(1 for v in results.values() if v["result"])
        mode = (
            f"open loop, an action every {args.interval:g} s per game" if args.open_loop else "closed loop"
        ) + f", states with {args.states}"
        print(
            f"{mode}; {args.workers} server process(es); {args.clients} local games at once, "
            f"{len(results)} games ({finished} finished), {len(latencies)} actions in {elapsed:.1f} s: "
            f"{len(latencies) / elapsed:.0f} actions/s, {_quantiles(latencies)}"
        )
        actions = len(latencies) + len(computer_latencies)
        print(
            f"  server CPU {cpu:.1f} s: {cpu / max(actions, 1) * 1000:.2f} ms an action (engine workers "
            f"included), so {actions / max(cpu, 1e-9):.0f} actions per CPU second"
        )
        if args.computer:
            print(
                f"  beside them {args.computer} games against the computer ({args.level}): "
                f"{len(computer_latencies)} actions, {_quantiles(computer_latencies)} "
                "(each includes the computer's reply)"
            )
        print(
            f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min; "
            f"{os.cpu_count()} cores)"
        )
        bad = check_stored(database, results | computer_results, finished_only=not args.open_loop)
        lost = 0 if args.open_loop else args.clients - len(results)
        print(
            f"replayed {len(results) + len(computer_results)} stored games: {len(bad)} not as the "
            f"clients last saw them, {lost} lost"
        )
        return 1 if bad or lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
