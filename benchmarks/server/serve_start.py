"""Start-up benchmark (not a test): how long ``gammon serve`` takes to answer, and how long the first
engine calls take after that, each run in a fresh numba cache (the kernels come from the shipped
ones, as on a fresh install; ``GAMMON_NO_PRECOMPILED=1`` to compile them instead).

For each run: the seconds from starting the server to its first answer; then, in this order, the
creation of a local game (the server's first action), the creation of a match against the
``engine`` level (with the seeded dice the computer opens: the POST carries the computer's first
move, ``create_s``), the human's first play (the POST carries the computer's answer), the first
hint of a local game, and the first evaluation of the position editor; and the resident memory of
the server process and of its children (the fork server and the engine workers), from /proc,
before the editor's evaluation (which the server process makes itself) and after.

    python -m benchmarks.server.serve_start --runs 3 [--warm-cache] [--root another/checkout]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks import ROOT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], list(children.get(pid, []))
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def one_run(engine_workers: int, root: Path, cache: str | None) -> dict[str, float]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache or str(Path(tmp) / "numba"), PYTHONPATH=str(root))
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "gammon.cli.serve", "--port", str(port),
                                 "--database-url", f"sqlite:///{tmp}/start.sqlite3", "--dice-seed", "2024",
                                 "--engine-workers", str(engine_workers)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=root)
        try:
            with httpx.Client(base_url=url, timeout=300) as c:
                while True:
                    try:
                        c.get("/").raise_for_status()
                        break
                    except httpx.TransportError:
                        if proc.poll() is not None:
                            raise RuntimeError("the server ended before it answered") from None
                        time.sleep(0.05)
                out = {"start_s": time.perf_counter() - start}
                t = time.perf_counter()
                c.post("/api/matches", json={"mode": "local", "match_length": 0}).raise_for_status()
                out["first_local_create_s"] = time.perf_counter() - t
                t = time.perf_counter()
                body = {"mode": "computer", "level": "engine", "match_length": 0}
                m = c.post("/api/matches", json=body).json()
                out["create_s"] = time.perf_counter() - t
                head = {"X-Gammon-Token": m["token"]}
                s = c.get(f"/api/matches/{m['match_id']}", headers=head).json()
                out["computer_opened"] = float(any(line.startswith("Computer") for line in s["log"]))
                for _ in range(4):  # to the human's first play (a roll first if the computer opened)
                    if "play" in s["actions"]:
                        break
                    s = c.post(f"/api/matches/{m['match_id']}/actions", headers=head,
                               json={"action": "roll", "version": s["version"]}).json()
                t = time.perf_counter()
                r = c.post(f"/api/matches/{m['match_id']}/actions", headers=head,
                           json={"action": "play", "play": s["plays"][0], "version": s["version"]})
                out["first_computer_move_s"] = time.perf_counter() - t
                assert r.status_code == 200 and r.json()["version"] > s["version"] + 1, r.text
                local = c.post("/api/matches", json={"mode": "local", "match_length": 0}).json()
                t = time.perf_counter()
                r = c.get(f"/api/matches/{local['match_id']}/hint",
                          headers={"X-Gammon-Token": local["token"]})
                out["first_hint_s"] = time.perf_counter() - t
                assert r.status_code == 200, r.text
                out["server_rss_mib"] = _rss_kib(proc.pid) / 1024
                out["children_rss_mib"] = sum(_rss_kib(p) for p in _descendants(proc.pid)) / 1024
                t = time.perf_counter()
                r = c.get("/api/positions/eval", params={"id": "4HPwATDgc/ABMA"})
                out["first_editor_eval_s"] = time.perf_counter() - t
                assert r.status_code == 200, r.text
                out["server_rss_after_eval_mib"] = _rss_kib(proc.pid) / 1024
                return out
        finally:
            proc.terminate()
            proc.wait(30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--engine-workers", type=int, default=1)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose gammon is served")
    ap.add_argument("--warm-cache", action="store_true",
                    help="one numba cache for every run, filled by an untimed first start (a later "
                         "start of an installed server)")
    args = ap.parse_args()
    runs = []
    with tempfile.TemporaryDirectory() as shared:
        cache = shared if args.warm_cache else None
        if cache:
            one_run(args.engine_workers, args.root, cache)
        for i in range(args.runs):
            runs.append(one_run(args.engine_workers, args.root, cache))
            print(f"run {i + 1}: " + ", ".join(f"{k} {v:.2f}" for k, v in runs[-1].items()), flush=True)
    print("median: " + ", ".join(f"{k} {statistics.median(r[k] for r in runs):.2f}" for k in runs[0]))
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
