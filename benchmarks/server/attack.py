"""The security review's attacks, rerun against a live server (not a test): one line per point.

Starts ``gammon serve`` on 127.0.0.1 with a fresh SQLite database and its default limits, attacks
it on loopback, and prints PASS or FAIL for each point with what was measured; the exit status is
1 when any point fails. Every check is bounded in count and time (the whole run: under three
minutes). The checks come from different loopback addresses (127.0.0.x), so that one check's
requests do not use up another's rate limit.

    python -m benchmarks.server.attack

 1. a crafted .xg upload (many archive entries sharing one compressed stream): refused (a 4xx,
    or a job that fails), and no process of the server's grows much
 2. a spectator socket that never reads does not freeze the game
 3. start-and-cancel cycles of jobs do not hold the workers: another client's rollout still ends soon
 4. uploads refused by the job limit cost the server little CPU
 5. a huge analysis is refused or bounded
 6. reconnecting sockets do not get past the per-address rate of changes
 7. half-open connections are closed after a timeout
 8. security headers; no token in the page's .mat link and WebSocket URL; the Host header not in
    invite URLs; a WebSocket from a foreign Origin refused
 9. a damaged or empty database is refused at start
10. kill -9 of the server leaves no worker behind
11. a .mat with a long first name round-trips
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from benchmarks import ROOT
from gammon.dice import RandomDice
from gammon.formats.mat import format_mat, read_mat, to_match
from gammon.match import Match
from gammon.rules import Rules
from gammon.store import Store
from gammon.store.repository import MatchRecord, hash_token

RATE, BURST = 20.0, 40.0  # gammon serve's defaults (--rate-limit 20, bursts of 2N)
PER_CLIENT_JOBS = 2       # the job caps' defaults (gammon.web.jobs.Jobs)
HALF_OPEN_WAIT = 60.0     # seconds a half-open connection may stay open
XG_ENTRIES = 768          # entries of the crafted .xg, each inflating to 1 MB
LONG_NAME = "Maximilian Alexander von Hohenberg-Schwarz"


# --- the server ----------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(port: int, database: str, log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "gammon.cli.serve", "--port", str(port),
                             "--database-url", database], cwd=ROOT, stdout=log.open("w"),
                            stderr=subprocess.STDOUT)


def wait_until_serving(proc: subprocess.Popen, port: int, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server ended with status {proc.returncode}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError("the server did not answer within two minutes")


def proc_stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def own_cpu(pid: int) -> float:
    """CPU seconds of the process itself (not its workers)."""
    fields = proc_stat(pid) or ["0"] * 13
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def descendants(pid: int) -> set[int]:
    parents = {int(p.name): int(f[1]) for p in Path("/proc").iterdir() if p.name.isdigit()
               if (f := proc_stat(int(p.name))) is not None}
    found, grown = set(), {pid}
    while grown:
        found |= grown
        grown = {c for c, parent in parents.items() if parent in grown} - found
    return found - {pid}


def running(pid: int) -> bool:
    fields = proc_stat(pid)
    return fields is not None and fields[0] not in "ZX"


class Server:
    """The server under attack and a client bound to one loopback address for each check."""

    def __init__(self, proc: subprocess.Popen, port: int) -> None:
        self.proc, self.port = proc, port
        self.base = f"http://127.0.0.1:{port}"

    def client(self, host: int, timeout: float = 30.0) -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=f"127.0.0.{host}")
        return httpx.Client(base_url=self.base, transport=transport, timeout=timeout)

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


# --- material ------------------------------------------------------------------------------------

def random_session(seed: int, max_chars: int, names: tuple[str, str] = ("Ann", "Bob")) -> str:
    """A money session of random legal games, its .mat text kept under ``max_chars``."""
    rng = random.Random(seed)
    match = Match(Rules(match_length=0), RandomDice(seed))
    text = ""
    for _ in range(400):
        game = match.game
        while not game.is_over:
            actions = game.legal_actions()
            if "take" in actions:
                game.take()
            elif "play" in actions:
                game.play(rng.choice(game.legal_plays()))
            elif "double" in actions and rng.random() < 0.05:
                game.double()
            else:
                game.roll()
        longer = format_mat(match, names)
        if len(longer) > max_chars:
            break
        text = longer
        match.new_game()
    return text


def crafted_xg(entries: int) -> bytes:
    """An .xg whose archive lists ``entries`` files that all point at one compressed stream of 1 MB
    of zeros (about 1 KB stored): a few KB that unpacked naively take ``entries`` MB."""
    body = bytes(1 << 20)
    stream = zlib.compress(body, 9)
    registry = bytearray()
    for k in range(entries):
        entry = bytearray(532)
        name = f"part{k}.bin".encode()
        entry[0] = len(name)
        entry[1:1 + len(name)] = name
        struct.pack_into("<iiiIBB", entry, 512, len(body), len(stream), 0, zlib.crc32(body), 0, 6)
        registry += entry
    packed = zlib.compress(bytes(registry), 9)
    archive = stream + packed
    trailer = struct.pack("<IiiiiI12x", zlib.crc32(archive), entries, 1, len(packed), len(stream), 1)
    header = bytearray(8232)
    struct.pack_into("<4sIIqI", header, 0, b"RGMH", 1, 8232, 0, 0)
    return bytes(header) + archive + trailer


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action of a local game's state (both seats on one device)."""
    actions = state["actions"]
    if "play" in actions:
        message: dict[str, Any] = {"action": "play", "play": rng.choice(state["plays"])}
    elif "roll" in actions:
        message = {"action": "roll"}
    elif "take" in actions:
        message = {"action": "take"}
    elif "accept_resignation" in actions:
        message = {"action": "accept_resignation"}
    elif "new_game" in actions:
        message = {"action": "new_game"}
    else:
        raise RuntimeError(f"nothing to do in {state.get('phase')}: {actions}")
    message["version"] = state["version"]
    return message


def new_match(http: httpx.Client, **body: Any) -> dict[str, Any]:
    r = http.post("/api/matches", json={"mode": "local", "match_length": 0, **body})
    r.raise_for_status()
    return dict(r.json())


def token_header(match: dict[str, Any]) -> dict[str, str]:
    return {"X-Gammon-Token": match["token"]}


# --- the checks ----------------------------------------------------------------------------------

Result = tuple[bool, str]


def tree_peaks(pid: int) -> dict[int, float]:
    """The memory peak of the server and of each of its workers, in MB."""
    peaks = {}
    for p in {pid} | descendants(pid):
        try:
            peaks[p] = peak_rss_mb(p)
        except OSError:  # gone meanwhile
            pass
    return peaks


def wait_for_job(http: httpx.Client, job: str, seconds: float) -> dict[str, Any]:
    """The job's last status, polled until it ends or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while True:
        j: dict[str, Any] = http.get(f"/api/jobs/{job}").json()
        if j["status"] in ("done", "failed", "cancelled") or time.monotonic() > deadline:
            return j
        time.sleep(0.2)


def check_xg_bomb(server: Server) -> Result:
    # a 4xx at once, or a job that fails (the file is read in the worker): either way no process
    # of the server's may grow much
    data = crafted_xg(XG_ENTRIES)
    before = tree_peaks(server.proc.pid)
    with server.client(11, timeout=60) as http:
        r = http.post("/api/analyses", json={"xg": base64.b64encode(data).decode()})
        outcome = f"HTTP {r.status_code}"
        refused = 400 <= r.status_code < 500
        if r.status_code == 202:
            j = wait_for_job(http, r.json()["id"], 30)
            refused = j["status"] == "failed"
            outcome += f", then the job {j['status']}: {str(j.get('error', ''))[:60]!r}"
    after = tree_peaks(server.proc.pid)
    grown = max(after[p] - before.get(p, 0.0) for p in after)
    ok = refused and grown < 200
    return ok, (f"{len(data) // 1024} KB file naming {XG_ENTRIES} MB: {outcome}; the memory peak of the "
                f"server or a worker +{grown:.0f} MB (bound 200)")


def check_silent_spectator(server: Server) -> Result:
    # The actions come from 20 addresses, each below its rate limit, as fast as the server answers:
    # the spectator's buffers (the kernel's take a few MB) fill in a few hundred actions.
    clients = [server.client(120 + k, timeout=5) for k in range(20)]
    try:
        m = new_match(clients[0])
        link = clients[0].get(f"/api/matches/{m['match_id']}/watch-link", headers=token_header(m))
        key = link.json()["key"]
        # A spectator that reads nothing after its handshake, with a small receive buffer.
        spy = socket.socket()
        spy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        spy.bind(("127.0.0.21", 0))
        spy.connect(("127.0.0.1", server.port))
        nonce = base64.b64encode(os.urandom(16)).decode()
        spy.sendall(f"GET /ws/watch/{m['match_id']}?key={key} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {nonce}\r\n"
                    f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
        rng = random.Random(2)
        state = clients[0].get(f"/api/matches/{m['match_id']}", headers=token_header(m)).json()
        worst, done, deadline = 0.0, 0, time.monotonic() + 25
        try:
            while done < 2000 and time.monotonic() < deadline:
                start = time.monotonic()
                r = clients[done % len(clients)].post(f"/api/matches/{m['match_id']}/actions",
                                                      json=choose(state, rng), headers=token_header(m))
                worst = max(worst, time.monotonic() - start)
                if r.status_code == 429:
                    time.sleep(0.05)
                    continue
                r.raise_for_status()
                state, done = r.json(), done + 1
        except httpx.TimeoutException:
            return False, f"an action got no answer within 5 s after {done} actions: the game froze"
        finally:
            spy.close()
        return worst < 2.0, (f"{done} actions while a spectator read nothing: slowest answer {worst:.2f} s "
                             "(bound 2)")
    finally:
        for c in clients:
            c.close()


def rollout_body(trials: int = 1296) -> dict[str, Any]:
    return {"id": "4HPwATDgc/ABMA:cAkAAAAAAAAA", "kind": "position", "trials": trials}


def check_cancel_cycles(server: Server) -> Result:
    # the harm was worker time: cancelled jobs still ran, and another client's short rollout
    # waited behind them; so after the cycles another client's 36-trial rollout must end soon
    accepted = 0
    with server.client(31) as http:
        for _ in range(15):  # 30 requests: within one address's burst
            r = http.post("/api/positions/rollout", json=rollout_body())
            if r.status_code == 202:
                accepted += 1
                http.delete(f"/api/jobs/{r.json()['id']}")
    with server.client(32, timeout=60) as other:
        start = time.monotonic()
        r = other.post("/api/positions/rollout", json=rollout_body(36))
        if r.status_code != 202:
            return False, f"another client's rollout refused: HTTP {r.status_code}"
        j = wait_for_job(other, r.json()["id"], 60)
        took = time.monotonic() - start
    return j["status"] == "done" and took < 15, (
        f"{accepted} of 15 start-and-cancel cycles accepted; another client's 36-trial rollout then "
        f"{j['status']} in {took:.1f} s (bound 15)")


def check_refused_uploads(server: Server, mat: str) -> Result:
    jobs: list[str] = []
    with server.client(41, timeout=60) as http:
        for _ in range(PER_CLIENT_JOBS):  # the client's jobs, running
            r = http.post("/api/positions/rollout", json=rollout_body())
            if r.status_code == 202:
                jobs.append(r.json()["id"])
        try:
            count, codes = 4, []
            before = own_cpu(server.proc.pid)
            for _ in range(count):
                codes.append(http.post("/api/analyses", json={"mat": mat}).status_code)
            each = (own_cpu(server.proc.pid) - before) / count * 1000
        finally:
            for job in jobs:
                http.delete(f"/api/jobs/{job}")
    refused = codes.count(429)
    ok = refused == count and each < 30
    return ok, (f"{refused} of {count} uploads of {len(mat) // 1024} KB refused (HTTP {sorted(set(codes))}), "
                f"{each:.0f} ms of server CPU each (bound 30)")


def check_huge_analysis(server: Server, mat: str) -> Result:
    with server.client(51, timeout=60) as http:
        r = http.post("/api/analyses", json={"mat": mat, "plies": 2})
        if 400 <= r.status_code < 500:
            return True, f"refused: HTTP {r.status_code} {r.json().get('error', '')[:80]!r}"
        if r.status_code != 202:
            return False, f"HTTP {r.status_code}"
        job = r.json()["id"]
        try:
            start, first, deadline = time.monotonic(), None, time.monotonic() + 20
            while time.monotonic() < deadline:
                j = http.get(f"/api/jobs/{job}").json()
                if j["status"] in ("failed", "done"):
                    why = j.get("error", "")[:80]
                    return j["status"] == "failed", f"accepted, then {j['status']}: {why!r}"
                if j["total"] and j["done"]:
                    if first is None:
                        first = (time.monotonic(), j["done"])
                    elif j["done"] > first[1] and time.monotonic() - first[0] > 3:
                        rate = (j["done"] - first[1]) / (time.monotonic() - first[0])
                        minutes = j["total"] / rate / 60
                        return minutes < 3, (f"accepted: {j['total']} decisions at 2 ply, about "
                                             f"{minutes:.0f} min of a worker (bound 3)")
                time.sleep(0.5)
            return False, (f"accepted; {j['status']}, {j['done']} of {j['total'] or '?'} decisions done "
                           f"after {time.monotonic() - start:.0f} s at 2 ply")
        finally:
            http.delete(f"/api/jobs/{job}")


async def _reconnecting_changes(server: Server, seconds: float) -> tuple[int, int]:
    with server.client(61) as http:
        m = new_match(http)
    url = server.ws_url(f"/ws/matches/{m['match_id']}?token={m['token']}")
    rng, changes, sockets = random.Random(6), 0, 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sockets += 1
        try:
            async with websockets.connect(url, compression=None, local_addr=("127.0.0.61", 0),
                                          open_timeout=5) as ws:
                state = json.loads(await ws.recv())["state"]
                while time.monotonic() < deadline:
                    await ws.send(json.dumps(choose(state, rng)))
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if reply["type"] != "state":
                        break
                    if reply["state"]["version"] > state["version"]:
                        changes += 1
                    state = reply["state"]
        except (websockets.ConnectionClosed, websockets.InvalidStatus, OSError):
            await asyncio.sleep(0.01)
    return changes, sockets


def check_reconnects(server: Server) -> Result:
    seconds = 4.0
    changes, sockets = asyncio.run(_reconnecting_changes(server, seconds))
    bound = 1.25 * (BURST + RATE * seconds)
    return changes <= bound, (f"{changes} changes in {seconds:.0f} s over {sockets} sockets from one "
                              f"address (rate {RATE:.0f}/s, bursts of {BURST:.0f}; bound {bound:.0f})")


class HalfOpen:
    """Connections that never finish a request, watched from the start of the run."""

    def __init__(self, server: Server) -> None:
        self.closed: dict[str, float] = {}
        self.sockets: dict[str, socket.socket] = {}
        for name, sent in (("silent", b""), ("partial headers", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")):
            s = socket.socket()
            s.bind(("127.0.0.71", 0))
            s.connect(("127.0.0.1", server.port))
            s.sendall(sent)
            self.sockets[name] = s
        self.start = time.monotonic()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while len(self.closed) < len(self.sockets) and time.monotonic() - self.start < HALF_OPEN_WAIT:
            for name, s in self.sockets.items():
                if name not in self.closed and select.select([s], [], [], 0)[0]:
                    try:
                        data = s.recv(4096)
                    except OSError:
                        data = b""
                    if not data or data.startswith(b"HTTP/1.1 408"):
                        self.closed[name] = time.monotonic() - self.start
            time.sleep(0.2)

    def result(self) -> Result:
        self.thread.join(max(0.0, HALF_OPEN_WAIT - (time.monotonic() - self.start)) + 1)
        for s in self.sockets.values():
            s.close()
        shown = ", ".join(f"{name}: closed after {self.closed[name]:.0f} s" if name in self.closed else
                          f"{name}: open after {HALF_OPEN_WAIT:.0f} s" for name in self.sockets)
        return len(self.closed) == len(self.sockets), shown


def check_browser_protections(server: Server) -> Result:
    problems = []
    with server.client(81) as http:
        page = http.get("/")
        headers = {k.lower() for k in page.headers}
        missing = [h for h in ("content-security-policy", "x-content-type-options", "referrer-policy")
                   if h not in headers]
        if "x-frame-options" not in headers and "frame-ancestors" not in page.headers.get(
                "content-security-policy", ""):
            missing.append("x-frame-options (or CSP frame-ancestors)")
        if missing:
            problems.append("headers missing: " + ", ".join(missing))
        # the game page's module and the shared socket module it opens its WebSocket with
        script = http.get("/static/app.js").text + http.get("/static/socket.js").text
        built = [line.strip() for line in script.splitlines()
                 if "match.mat" in line or "new WebSocket(" in line]
        if not built or any("token=" in line for line in built):
            problems.append("token= in the page's .mat link or WebSocket URL")
        r = http.post("/api/matches", json={"mode": "online"}, headers={"Host": "evil.example"})
        urls = (r.json().get("invite_url") or "") + r.json().get("url", "") if r.status_code < 300 else ""
        if "evil.example" in urls:
            problems.append("the Host header is in the invite URL")
        m = new_match(http, mode="online")
        link = http.get(f"/api/matches/{m['match_id']}/watch-link",
                        headers={**token_header(m), "Host": "evil.example"})
        if link.status_code < 300 and "evil.example" in link.text:
            problems.append("the Host header is in the watch link")
    if asyncio.run(_foreign_origin_opens(server, m)):
        problems.append("a WebSocket from http://evil.example is accepted")
    return not problems, "; ".join(problems) or "headers present, no token in links, Host and Origin checked"


async def _foreign_origin_opens(server: Server, m: dict[str, Any]) -> bool:
    url = server.ws_url(f"/ws/matches/{m['match_id']}?token={m['token']}")
    try:
        async with websockets.connect(url, origin="http://evil.example", local_addr=("127.0.0.82", 0),
                                      open_timeout=5) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 5))
            return not (first.get("type") == "error" and "origin" in first.get("error", "").lower())
    except (websockets.InvalidStatus, websockets.ConnectionClosed, websockets.InvalidHandshake):
        return False


def check_bad_databases(work: Path) -> Result:
    empty = work / "empty.sqlite3"
    empty.touch()
    damaged = work / "damaged.sqlite3"
    store = Store(f"sqlite:///{damaged}")
    for k in range(200):
        store.create_match(MatchRecord(id=f"m{k:03}", mode="local", rules={"match_length": 0},
                                       seat_hashes=(hash_token("a"), hash_token("b"))))
    store.close()
    data = bytearray(damaged.read_bytes())
    last = len(data) - 4096
    data[last + 8:] = b"\x55" * (4096 - 8)
    damaged.write_bytes(bytes(data))
    outcomes = []
    ok = True
    for name, path in (("empty", empty), ("damaged", damaged)):
        proc = subprocess.Popen([sys.executable, "-m", "gammon.cli.serve", "--port", str(free_port()),
                                 "--database-url", f"sqlite:///{path}"], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        lines = err.strip().splitlines()
        refused = proc.returncode not in (0, None, -9) and len(lines) == 1 and "Traceback" not in err \
            and "serving on" not in out
        ok = ok and refused
        said = lines[0].split("' ", 1)[-1] if lines else ""  # what follows the file's name
        outcomes.append(f"{name}: {'refused, ' + repr(said[:50] + '...') if refused else 'served'}")
    return ok, "; ".join(outcomes)


def check_long_name_mat(server: Server) -> Result:
    text = random_session(11, 20_000, names=(LONG_NAME, "Bob"))
    record = read_mat(text)
    ok = record.errors == () and record.names == (LONG_NAME, "Bob") and bool(to_match(record).games)
    with server.client(111) as http:
        r = http.post("/api/analyses", json={"mat": text})
        if r.status_code == 202:
            http.delete(f"/api/jobs/{r.json()['id']}")
    ok = ok and r.status_code == 202
    return ok, (f"read back {'with' if not record.errors else 'without'} its {len(LONG_NAME)}-character "
                f"name; the server's upload: HTTP {r.status_code}")


def check_kill_9(server: Server) -> Result:
    workers = descendants(server.proc.pid)
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(30)
    start = time.monotonic()
    while (left := {p for p in workers if running(p)}) and time.monotonic() - start < 10:
        time.sleep(0.1)
    for pid in left:  # the run leaves nothing behind either way
        os.kill(pid, signal.SIGKILL)
    return not left, (f"{len(left)} of its {len(workers)} processes left "
                      f"{time.monotonic() - start:.1f} s after kill -9")


def run(number: int, title: str, check: Callable[[], Result], results: dict[int, Result]) -> None:
    start = time.monotonic()
    try:
        ok, figure = check()
    except Exception as e:  # a check that breaks fails, and the others still run
        ok, figure = False, f"the check failed: {type(e).__name__}: {str(e)[:160]}"
    results[number] = (ok, figure)
    print(f"{number:2}. {'PASS' if ok else 'FAIL'}  {title}: {figure} ({time.monotonic() - start:.1f} s)",
          flush=True)


def main() -> int:
    results: dict[int, Result] = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        port = free_port()
        proc = serve(port, f"sqlite:///{work / 'attack.sqlite3'}", work / "server.log")
        server = Server(proc, port)
        try:
            wait_until_serving(proc, port)
            print(f"gammon serve on 127.0.0.1:{port}, pid {proc.pid}, up in {time.monotonic() - start:.1f} s",
                  flush=True)
            half_open = HalfOpen(server)
            big_mat = random_session(5, 250_000)
            run(1, "crafted .xg upload", lambda: check_xg_bomb(server), results)
            run(2, "silent spectator", lambda: check_silent_spectator(server), results)
            # 5 first: the jobs that 3 and 4 start (and cancel) would queue before it on the worker.
            run(5, "huge analysis", lambda: check_huge_analysis(server, big_mat), results)
            run(3, "start-and-cancel jobs", lambda: check_cancel_cycles(server), results)
            run(4, "uploads past the job limit", lambda: check_refused_uploads(server, big_mat), results)
            run(6, "reconnecting sockets", lambda: check_reconnects(server), results)
            run(8, "browser protections", lambda: check_browser_protections(server), results)
            run(9, "damaged or empty database", lambda: check_bad_databases(work), results)
            run(11, "long-named .mat", lambda: check_long_name_mat(server), results)
            run(7, "half-open connections", half_open.result, results)
            run(10, "kill -9 of the server", lambda: check_kill_9(server), results)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(30)
    failed = sorted(n for n, (ok, _) in results.items() if not ok)
    print(f"{len(results) - len(failed)} of {len(results)} points pass"
          + (f"; failing: {', '.join(map(str, failed))}" if failed else "")
          + f" ({time.monotonic() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
