"""A club's server while its PostgreSQL restarts: in the middle of an online game the database
stops and starts again (a throwaway cluster of this test's own, so other tests are not disturbed).
No action the server acknowledged is lost, an action sent while the database is away is refused
(never shown as made), the server serves again once the database is back (its pool reconnects),
and the players' sockets come back by themselves (reconnecting as the game page's socket does)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from gammon.records import replay_match
from gammon.store import Store
from gammon.web.actions import rules_from_dict
from tests.web.test_e2e import Server

# The sockets here are opened and closed by hand (they reconnect), not in with-blocks.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager:DeprecationWarning"),
]


def _postgres_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Cluster:
    """A throwaway PostgreSQL cluster in a folder of its own (run as the ``postgres`` user when this
    is root: PostgreSQL refuses root), on a free port, fsync off."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="gammon-club-pg."))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._root = os.geteuid() == 0
        if self._root:
            shutil.chown(self.dir, "postgres")

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self._root:
            command = ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(f"'{a}'" for a in command)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    def create(self) -> None:
        self._run("initdb", "-D", str(self.dir / "data"), "-U", "postgres", "-A", "trust", "--no-sync")
        self.start()

    def start(self) -> None:
        options = f"-h 127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.dir / "data"),
            "-l",
            str(self.dir / "server.log"),
            "-w",
            "-o",
            options,
            "start",
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    bin_dir = _postgres_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL programs (initdb, pg_ctl): install the Debian package postgresql")
    c = Cluster(bin_dir)
    try:
        c.create()
        yield c
    finally:
        c.remove()


class Seat:
    """A seat's socket that reconnects by itself, as the game page's does: after a drop it tries
    again with growing waits (0.5 s, 1 s, ... 8 s) until the server greets it with the state."""

    def __init__(self, server: Server, match_id: str, token: str) -> None:
        self.url = f"ws://127.0.0.1:{server.port}/ws/matches/{match_id}"
        self.token = token
        self.ws: ClientConnection | None = None
        self.state: dict = {}
        self.greeted: list[int] = []  # the version of each greeting (one per connection)

    def open(self, seconds: float = 60.0) -> None:
        deadline, retry = time.monotonic() + seconds, 0
        while True:
            try:
                self.ws = connect(self.url, subprotocols=["gammon", f"token.{self.token}"], open_timeout=5)
                self.state = self._read()
                self.greeted.append(self.state["version"])
                return
            except (OSError, ConnectionClosed, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                retry = min(retry + 1, 5)
                time.sleep(0.25 * 2**retry)

    def _read(self) -> dict:
        assert self.ws is not None
        while True:
            message = json.loads(self.ws.recv(timeout=20))
            if message["type"] == "state":
                return message["state"]

    def next_state(self) -> None:
        """Wait for the next state pushed (reconnecting if the socket dropped)."""
        try:
            self.state = self._read()
        except ConnectionClosed:
            self.open()

    def send(self, message: dict) -> dict | str:
        """The state the action made (acknowledged), or why not: the server's refusal, or the
        socket dropped (then it has reconnected)."""
        assert self.ws is not None
        try:
            self.ws.send(json.dumps(message))
            while True:
                reply = json.loads(self.ws.recv(timeout=20))
                if reply["type"] == "error":
                    return str(reply["error"])
                self.state = reply["state"]
                if self.state["version"] > message["version"]:
                    return self.state
        except ConnectionClosed:
            self.open()
            return "the socket dropped"

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


def _choose(state: dict, rng: random.Random) -> dict:
    acts = state["actions"]
    if "play" in acts:
        msg: dict = {"action": "play", "play": rng.choice(state["plays"])}
    elif "take" in acts:
        msg = {"action": "take"}
    elif "roll" in acts:
        msg = {"action": "roll"}
    else:
        raise AssertionError(f"nothing to do: {acts}")
    return msg | {"version": state["version"]}


class Game:
    """The two seats of an online game playing random legal actions; what the server acknowledged."""

    def __init__(self, server: Server) -> None:
        m = httpx.post(server.url + "/api/matches", json={"mode": "online", "match_length": 7}).json()
        self.match_id = m["match_id"]
        tokens = (m["token"], m["invite_url"].split("#token=")[1])
        self.seats = (Seat(server, self.match_id, tokens[0]), Seat(server, self.match_id, tokens[1]))
        for seat in self.seats:
            seat.open()
        self.rng = random.Random(3)
        self.acknowledged: list[dict] = []

    def latest(self) -> dict:
        return max((seat.state for seat in self.seats), key=lambda st: st["version"])

    def mover(self) -> Seat:
        seat = self.seats[self.latest()["turn"]]
        while seat.state["version"] < self.latest()["version"]:
            seat.next_state()  # the pushed state of the opponent's action
        return seat

    def play(self, actions: int) -> None:
        while actions > 0 and not self.latest()["result"]:
            reply = self.mover().send(_choose(self.mover().state, self.rng))
            if isinstance(reply, dict):
                self.acknowledged.append(reply)
                actions -= 1

    def act_until_acknowledged(self, seconds: float) -> list[str]:
        """Send the mover's next action again and again (as a player told "try again" does) until
        the server acknowledges it; the refusals before."""
        refusals: list[str] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            reply = self.mover().send(_choose(self.mover().state, self.rng))
            if isinstance(reply, dict):
                self.acknowledged.append(reply)
                return refusals
            refusals.append(reply)
            time.sleep(0.5)
        raise AssertionError(f"no action acknowledged in {seconds} s: {refusals[-3:]}")

    def close(self) -> None:
        for seat in self.seats:
            seat.close()


def test_postgresql_and_the_server_restarted_in_the_middle_of_a_game(cluster: Cluster) -> None:
    server = Server(cluster.url, "--rate-limit", "1000")
    server.start()
    game: Game | None = None
    try:
        game = Game(server)
        game.play(20)

        # The database stops: an action is refused (never acknowledged, never shown as made), the
        # server still answers, and the players' sockets stay open.
        cluster.stop()
        before = game.latest()["version"]
        refused = game.mover().send(_choose(game.mover().state, game.rng))
        assert refused == "the action was not stored (the database is unavailable); try again", refused
        r = httpx.get(
            f"{server.url}/api/matches/{game.match_id}", headers={"X-Gammon-Token": game.seats[0].token}
        )
        assert r.status_code in (200, 503), r.text
        # The database is back: the same sockets go on (the pool reconnects).
        cluster.start()
        game.act_until_acknowledged(30)
        assert game.acknowledged[-1]["version"] == before + 1  # the refused action was not made
        game.play(20)
        assert [len(seat.greeted) for seat in game.seats] == [1, 1]

        # The server restarts: each seat's socket reconnects by itself and is greeted with the last
        # acknowledged state (or a later one: an action whose answer the restart cut off).
        server.stop()
        server.start()
        last = game.acknowledged[-1]["version"]
        game.play(20)
        assert all(len(seat.greeted) == 2 and seat.greeted[1] >= last for seat in game.seats)
        final = game.latest()
    finally:
        if game is not None:
            game.close()
        server.stop()

    store = Store(cluster.url)
    try:
        log = store.load_log(game.match_id)
        match = replay_match(rules_from_dict(store.load_match(game.match_id).rules), log.actions)
    finally:
        store.close()
    assert log.version == final["version"] >= game.acknowledged[-1]["version"]
    assert list(match.game.position_for(final["viewer"]).board) == final["board"]
