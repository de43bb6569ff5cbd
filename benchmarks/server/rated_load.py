"""The club's load (part of benchmarks/server/load.py, not a test): signed-in players in rated
matches, each seat on a WebSocket of its own, then checks that nothing was lost.

The accounts are made up front in the database, each with a session whose token the player sends
as a bearer (not timed).
Then every pair of players plays a rated online match to its end at once: one of them makes it
(``"rated": true``), the other claims seat 1 with its session, both open their seat's socket (with
their session, as a signed-in browser does) and play random legal actions. The latency of an action
is from sending it to the acting seat's socket receiving the new state. Afterwards, from the
database: every match's stored log replays to the state its players last saw (every acknowledged
action stored), every finished match is rated exactly once (two rating changes), and each
account's ratings agree (its changes chain from 1500 to its rating, each the FIBS formula's, its
experience the sum of the lengths).

The lobby (``--lobby``): each player sits in the lobby meanwhile (a socket of its own, ``/ws/lobby``,
open through the run) and the matches are made there by invitation rather than by the API: one
player of each pair posts a rated invitation naming the other, who accepts it when its lobby socket
shows it; the poster takes its seat when its socket says ``started`` (:class:`LobbySeat`). Timed
besides the actions: from the post to the named player's socket showing the invitation, and from
the accept to the poster's socket showing ``started``. At the end every socket's lobby must be empty
of those invitations.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from argon2 import PasswordHasher
from sqlalchemy import func, select
from sqlalchemy.orm import sessionmaker

from gammon.accounts import Accounts
from gammon.accounts.passwords import Passwords
from gammon.ratings import rating_change
from gammon.store import Store
from gammon.store.models import AccountRow, RatingChangeRow

PASSWORD = "a club benchmark's password"


@dataclass
class Player:
    name: str
    session: str  # the bearer token of its session


@dataclass
class Played:
    """What the clients measured and saw."""

    latencies: list[float] = field(default_factory=list)
    finals: dict[str, dict[str, Any]] = field(default_factory=dict)  # match id -> last state seen
    errors: list[str] = field(default_factory=list)
    # --lobby: from a post to the named player's socket showing it, from an accept to the poster's
    # socket showing ``started``; the invitations posted, and those a socket still showed at the end
    invited: list[float] = field(default_factory=list)
    started: list[float] = field(default_factory=list)
    posted: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)


class LobbySeat:
    """A player sitting in the lobby: its ``/ws/lobby`` socket (with its session as a bearer), the
    lobby as that socket shows it (the ``hello``, each ``update`` applied), and when the socket saw
    each invitation appear and each of its own invitations start (docs/accounts.md, "The lobby")."""

    def __init__(self, base: str, player: Player) -> None:
        self.base, self.player = base, player
        self.invitations: dict[str, dict[str, Any]] = {}  # id -> invitation, as the socket shows them
        self.seen: dict[tuple[str, str], float] = {}  # ("invitation" | "started", id) -> perf_counter
        self.ready = asyncio.Event()  # the hello is in
        self.failed: str | None = None
        self._changed = asyncio.Condition()

    async def sit(self) -> None:
        """Open the lobby socket and keep it open, applying its messages, while the player plays."""
        url = self.base.replace("http", "ws", 1) + "/ws/lobby"
        headers = {"Authorization": f"Bearer {self.player.session}"}
        try:
            async with websockets.connect(url, compression=None, additional_headers=headers) as ws:
                async for text in ws:
                    await self._apply(json.loads(text), time.perf_counter())
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - told to whoever waits on this seat
            self.failed = f"{type(e).__name__}: {str(e)[:200]}"
        self.failed = self.failed or "the lobby socket closed"
        self.ready.set()
        async with self._changed:
            self._changed.notify_all()

    async def _apply(self, message: dict[str, Any], now: float) -> None:
        if message["type"] not in ("hello", "update"):
            raise RuntimeError(f"the lobby said {message}")
        for gone in message.get("gone", []):
            self.invitations.pop(gone, None)
        for invitation in message.get("invitations", []):
            self.invitations[invitation["id"]] = invitation
            self.seen.setdefault(("invitation", invitation["id"]), now)
        for started in message.get("started", []):
            self.seen.setdefault(("started", started["id"]), now)
        self.ready.set()
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, kind: str, invitation_id: str, timeout: float = 60.0) -> float:
        """When this socket saw the invitation appear (``"invitation"``) or start (``"started"``)."""
        key = (kind, invitation_id)

        async def seen() -> None:
            async with self._changed:
                await self._changed.wait_for(lambda: key in self.seen or self.failed is not None)

        await asyncio.wait_for(seen(), timeout)
        if key not in self.seen:
            raise RuntimeError(f"{self.player.name}'s lobby: {self.failed}")
        return self.seen[key]

    async def cleared(self, ids: set[str], timeout: float) -> set[str]:
        """Of ``ids``, the invitations this socket still shows after at most ``timeout`` seconds."""
        try:
            async with self._changed:
                await asyncio.wait_for(
                    self._changed.wait_for(lambda: not ids & self.invitations.keys()), timeout
                )
        except TimeoutError:
            pass
        return ids & self.invitations.keys()


def make_players(database: str, count: int, prefix: str) -> list[Player]:
    """``count`` accounts made up front in the database, each signed in (a session, its token sent
    as a bearer). Their passwords are hashed at Argon2id's least cost, as the tests do: at its full
    cost 200 sign-ups take minutes of a loaded 2-core machine, and they are not what is measured
    (the server verifies a hash at the cost it was made with)."""
    store = Store(database)
    try:
        accounts = Accounts(
            store, passwords=Passwords(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        )
        players = []
        for k in range(count):
            name = f"{prefix}{k:04d}"
            accounts.sign_up(name, PASSWORD)
            players.append(Player(name, accounts.sign_in(name, PASSWORD).token))
        return players
    finally:
        store.close()


def _choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    acts = state["actions"]
    if "play" in acts:
        msg: dict[str, Any] = {"action": "play", "play": rng.choice(state["plays"])}
    elif "roll" in acts:
        msg = {"action": "double" if "double" in acts and rng.random() < 0.03 else "roll"}
    elif "take" in acts:
        msg = {"action": "take" if rng.random() < 0.7 else "pass"}
    elif "new_game" in acts:
        msg = {"action": "new_game"}
    elif "accept_resignation" in acts:
        msg = {"action": "accept_resignation"}
    else:
        raise RuntimeError(f"nothing to do in {state['phase']}: {acts}")
    return msg | {"version": state["version"]}


async def _read_state(ws: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "state":
            return dict(message["state"])
        raise RuntimeError(f"the server refused: {message}")


def _bearer(player: Player) -> dict[str, str]:
    return {"Authorization": f"Bearer {player.session}"}


async def _api_match(
    http: httpx.AsyncClient, pair: tuple[Player, Player], length: int
) -> tuple[str, tuple[str, str]]:
    """A rated match made by the API: the first player makes it, the second claims seat 1."""
    r = await http.post(
        "/api/matches",
        json={"mode": "online", "match_length": length, "rated": True},
        headers=_bearer(pair[0]),
    )
    r.raise_for_status()
    m = r.json()
    tokens = (m["token"], m["invite_url"].split("#token=")[1])
    r = await http.post("/api/account/claim", json={"seat_tokens": [tokens[1]]}, headers=_bearer(pair[1]))
    r.raise_for_status()
    return m["match_id"], tokens


async def _lobby_match(
    http: httpx.AsyncClient, seats: tuple[LobbySeat, LobbySeat], length: int, played: Played
) -> tuple[str, tuple[str, str]]:
    """A rated match made in the lobby: the first player invites the second by name, the second
    accepts when its socket shows the invitation, the first takes its seat when its socket says
    ``started``."""
    poster, acceptor = seats
    sent = time.perf_counter()
    r = await http.post(
        "/api/lobby/invitations",
        json={"to": acceptor.player.name, "match_length": length, "rated": True},
        headers=_bearer(poster.player),
    )
    r.raise_for_status()
    invitation = r.json()["id"]
    played.posted.append(invitation)
    played.invited.append(await acceptor.wait_for("invitation", invitation) - sent)
    sent = time.perf_counter()
    r = await http.post(f"/api/lobby/invitations/{invitation}/accept", headers=_bearer(acceptor.player))
    r.raise_for_status()
    accepted = r.json()
    played.started.append(await poster.wait_for("started", invitation) - sent)
    r = await http.post(f"/api/lobby/invitations/{invitation}/seat", headers=_bearer(poster.player))
    r.raise_for_status()
    return accepted["match_id"], (r.json()["token"], accepted["token"])


async def play_match(
    base: str,
    http: httpx.AsyncClient,
    pair: tuple[Player, Player],
    length: int,
    seed: int,
    played: Played,
    interval: float | None,
    seats: tuple[LobbySeat, LobbySeat] | None = None,
) -> None:
    """One rated match between the pair, to its end, each seat on its own socket: each action as
    soon as the state is in (closed loop), or one every ``interval`` seconds (open loop, a person's
    pace; the latency is then counted from when the action was due, so a late send counts too).
    Made by the API, or with ``seats`` (the pair sitting in the lobby) by invitation."""
    rng = random.Random(seed)
    if seats is None:
        match_id, tokens = await _api_match(http, pair, length)
    else:
        match_id, tokens = await _lobby_match(http, seats, length, played)
    ws_base = base.replace("http", "ws", 1) + f"/ws/matches/{match_id}?tab=load&token="
    async with (
        websockets.connect(
            ws_base + tokens[0],
            max_size=1 << 22,
            compression=None,
            additional_headers=_bearer(pair[0]),
        ) as ws0,
        websockets.connect(
            ws_base + tokens[1],
            max_size=1 << 22,
            compression=None,
            additional_headers=_bearer(pair[1]),
        ) as ws1,
    ):
        sockets = (ws0, ws1)
        states = [await _read_state(ws0), await _read_state(ws1)]
        due = time.perf_counter() + (rng.random() * interval if interval else 0.0)
        while not states[0]["match_over"]:
            latest = max(states, key=lambda st: st["version"])
            seat = latest["turn"] if latest["turn"] in (0, 1) else 0
            while states[seat]["version"] < latest["version"]:  # the opponent's action, pushed
                states[seat] = await _read_state(sockets[seat])
            msg = _choose(states[seat], rng)
            if interval:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                sent, due = due, due + interval
            else:
                sent = time.perf_counter()
            await sockets[seat].send(json.dumps(msg))
            while states[seat]["version"] <= msg["version"]:
                states[seat] = await _read_state(sockets[seat])
            played.latencies.append(time.perf_counter() - sent)
            while states[1 - seat]["version"] < states[seat]["version"]:  # the push to the other seat
                states[1 - seat] = await _read_state(sockets[1 - seat])
        played.finals[match_id] = states[0]


def client_process(args: tuple) -> Played:
    """Play the given pairs' matches at once in this process (run in a pool of processes); with
    ``lobby``, every player sits in the lobby first and the matches are made there."""
    base, pairs, length, seed, lobby, interval = args
    played = Played()

    async def one(
        http: httpx.AsyncClient,
        k: int,
        pair: tuple[Player, Player],
        seats: tuple[LobbySeat, LobbySeat] | None,
    ) -> None:
        try:
            await play_match(base, http, pair, length, seed * 100_000 + k, played, interval, seats)
        except Exception as e:  # noqa: BLE001 - counted and shown, the other matches go on
            played.errors.append(f"{pair[0].name}-{pair[1].name}: {type(e).__name__}: {str(e)[:200]}")

    async def run() -> None:
        seats = {p.name: LobbySeat(base, p) for pair in pairs for p in pair} if lobby else {}
        sitting = [asyncio.create_task(seat.sit()) for seat in seats.values()]
        await asyncio.gather(*(seat.ready.wait() for seat in seats.values()))
        # One HTTP client for all the pairs, made before anything is timed: making one costs tens
        # of milliseconds of this process (its TLS context), and a hundred made at once counted
        # seconds of the clients' own work into the first requests' times.
        unlimited = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=unlimited) as http:
            await asyncio.gather(
                *(
                    one(http, k, pair, (seats[pair[0].name], seats[pair[1].name]) if lobby else None)
                    for k, pair in enumerate(pairs)
                )
            )
        # Nothing lost: every socket's lobby empties of the invitations (after a beat at most).
        posted = set(played.posted)
        for seat in seats.values():
            played.left += sorted(await seat.cleared(posted, timeout=15.0))
            if seat.failed:
                played.errors.append(f"{seat.player.name}'s lobby: {seat.failed}")
        for task in sitting:
            task.cancel()

    asyncio.run(run())
    return played


def check_ratings(database: str, finished: list[str]) -> list[str]:
    """What is wrong with the ratings after the run: each finished match rated exactly once (two
    changes), each account's changes chained from 1500 to its rating by the FIBS formula, its
    experience the sum of its matches' lengths."""
    store = Store(database)
    problems: list[str] = []
    try:
        with sessionmaker(store.engine)() as s:
            counts = dict(
                s.execute(
                    select(RatingChangeRow.match_id, func.count()).group_by(RatingChangeRow.match_id)
                ).all()
            )
            changes = s.scalars(select(RatingChangeRow).order_by(RatingChangeRow.id)).all()
            accounts = {a.id: a for a in s.scalars(select(AccountRow))}
        problems += [f"match {m} rated {counts.get(m, 0) // 2} times" for m in finished if counts.get(m) != 2]
        by_match: dict[str, list[RatingChangeRow]] = {}
        for c in changes:
            by_match.setdefault(c.match_id, []).append(c)
        for match_id, pair in by_match.items():
            winner = next(c for c in pair if c.won)
            loser = next(c for c in pair if not c.won)
            want = rating_change(
                winner.rating_before,
                loser.rating_before,
                winner.match_length,
                winner.experience_before,
                loser.experience_before,
            )
            if (
                abs(winner.rating_after - winner.rating_before - want.winner_change) > 1e-6
                or abs(loser.rating_after - loser.rating_before - want.loser_change) > 1e-6
            ):
                problems.append(f"match {match_id}: not the formula's change")
        for account in accounts.values():
            mine = [c for c in changes if c.account_id == account.id]
            rating, experience = 1500.0, 0
            for c in mine:
                if abs(c.rating_before - rating) > 1e-6 or c.experience_before != experience:
                    problems.append(f"{account.name}: a change does not follow the one before")
                rating, experience = c.rating_after, experience + c.match_length
            if abs(account.rating - rating) > 1e-6 or account.experience != experience:
                problems.append(
                    f"{account.name}: rating {account.rating} experience {account.experience}, "
                    f"its changes say {rating} and {experience}"
                )
    finally:
        store.close()
    return problems
