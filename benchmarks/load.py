"""Load benchmark (not a test): many concurrent games over WebSockets on loopback.

Starts ``gammon serve`` on a fresh database, then N clients each create a two-players-on-one-device
game over HTTP and play random legal actions over a WebSocket until the game ends. Reports actions/s
and the p50/p99 latency from sending an action to receiving the new state; then replays every stored
game from its action log and checks it reaches the stored final position (no game lost or corrupted).

    python benchmarks/load.py --clients 200
    python benchmarks/load.py --clients 50 --database-url postgresql://postgres@127.0.0.1:55432/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from gammon.store import Store
from gammon.web.actions import replay_match, rules_from_dict


async def client(base: str, seed: int, latencies: list[float], results: dict) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        r = await http.post("/api/matches", json={"mode": "local", "match_length": 0})
        r.raise_for_status()
        m = r.json()
    url = base.replace("http", "ws", 1) + f"/ws/matches/{m['match_id']}?token={m['token']}"
    async with websockets.connect(url, max_size=1 << 22) as ws:
        state = json.loads(await ws.recv())["state"]
        while not state["result"]:
            acts = state["actions"]
            if "play" in acts:
                msg = {"action": "play", "play": rng.choice(state["plays"])}
            elif "roll" in acts:
                msg = {"action": "double" if "double" in acts and rng.random() < 0.03 else "roll"}
            elif "take" in acts:
                msg = {"action": "take" if rng.random() < 0.7 else "drop"}
            else:
                raise RuntimeError(f"nothing to do in {state['phase']}: {acts}")
            msg["version"] = state["version"]
            sent = time.perf_counter()
            await ws.send(json.dumps(msg))
            reply = json.loads(await ws.recv())
            latencies.append(time.perf_counter() - sent)
            if reply["type"] != "state":
                raise RuntimeError(f"server refused {msg}: {reply}")
            state = reply["state"]
    results[m["match_id"]] = state


def start_server(port: int, database: str, rate: float) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "gammon.cli.serve", "--port", str(port),
                             "--database-url", database, "--rate-limit", str(rate)])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


async def run(base: str, clients: int, latencies: list[float], results: dict) -> None:
    await asyncio.gather(*(client(base, i, latencies, results) for i in range(clients)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database_url or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        # Every client comes from 127.0.0.1, so lift the per-address limit for the benchmark.
        proc = start_server(port, database, rate=100_000)
        latencies: list[float] = []
        results: dict[str, dict] = {}
        start = time.perf_counter()
        try:
            asyncio.run(run(f"http://127.0.0.1:{port}", args.clients, latencies, results))
        finally:
            elapsed = time.perf_counter() - start
            proc.terminate()
            proc.wait(10)
        latencies.sort()
        q = statistics.quantiles(latencies, n=100)
        print(f"{args.clients} clients, {len(results)} games finished, {len(latencies)} actions in "
              f"{elapsed:.1f} s: "
              f"{len(latencies) / elapsed:.0f} actions/s, latency p50 {q[49] * 1000:.1f} ms, "
              f"p99 {q[98] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
        store = Store(database)
        bad = []
        for match_id, final in results.items():
            record, actions = store.load_match(match_id), store.load_actions(match_id)
            match, _ = replay_match(rules_from_dict(record.rules), actions)
            game = match.game
            ok = (len(actions) == final["version"] and game.is_over
                  and game.position_for(final["viewer"]).board == tuple(final["board"])
                  and store.summary(match_id).position_id == game.position_for(0).id
                  and game.result.winner == final["result"]["winner"])
            if not ok:
                bad.append(match_id)
        lost = args.clients - len(results)
        print(f"replayed {len(results)} stored games: {len(bad)} corrupted, {lost} lost")
        store.close()
        return 1 if bad or lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
