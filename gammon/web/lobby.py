"""The players' lobby of one server process: its WebSockets (``/ws/lobby``), what each is sent as
players come and go and invitations appear and disappear, and how the processes of one server
share it.

The lobby's state lives in the database (gammon.accounts.lobby): the invitations, and one row per
process saying whom it has in the lobby. A process reads it all again (a *refresh*) when something
changed, gathered over :attr:`LobbySettings.settle` seconds, and sends each of its sockets one
``update`` message with what changed for it. A change made here is told to the other processes
through PostgreSQL's NOTIFY (:data:`gammon.store.notify.LOBBY_CHANNEL`, the payload only the
sender's id), which refresh in turn; a lost notification costs at most a beat, as every
:attr:`LobbySettings.beat` seconds each process rewrites its row, looks after the invitations
(:meth:`gammon.accounts.lobby.Invitations.sweep`) and refreshes. On SQLite (one process) the same
runs without the notifications.

The messages are described in docs/accounts.md ("The lobby").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any, NamedTuple

from gammon.accounts.lobby import Invitation, Invitations, LobbyPresence, OnlinePlayer
from gammon.accounts.names import name_key
from gammon.i18n import tr
from gammon.store.notify import LOBBY_CHANNEL, Publisher, Subscriber
from gammon.web.hub import Hub
from gammon.web.members import Members
from gammon.web.sockets import Outbox

log = logging.getLogger(__name__)


@dataclass
class LobbySettings:
    """The limits of one process's lobby sockets, and its timing (seconds)."""

    per_address: int = 8  # lobby sockets of one client address (create_app: an eighth of its sockets)
    per_account: int = 4  # lobby sockets of one account (tabs, devices)
    max_sockets: int = 5000  # lobby sockets of this process
    beat: float = 5.0
    settle: float = 0.05


@dataclass(frozen=True)
class Viewer:
    """Who a lobby socket is for: an account (its id, name, rating) or a guest (all None)."""

    account_id: int | None = None
    name: str | None = None
    rating: float | None = None


GUEST = Viewer()


class Snapshot(NamedTuple):
    players: dict[str, OnlinePlayer]
    guests: int
    invitations: dict[str, Invitation]


EMPTY = Snapshot({}, 0, {})


def player_view(p: OnlinePlayer) -> dict[str, Any]:
    return {"name": p.name, "rating": p.rating, "in_lobby": p.in_lobby, "playing": p.playing}


def invitation_view(inv: Invitation, viewer: Viewer) -> dict[str, Any]:
    t = inv.terms
    return {
        "id": inv.id,
        "poster": inv.poster,
        "poster_rating": inv.poster_rating,
        "to": inv.to,
        "match_length": t.match_length,
        "crawford": t.crawford,
        "jacoby": t.jacoby,
        "beavers": t.beavers,
        "rated": t.rated,
        "mine": viewer.account_id is not None and inv.poster_id == viewer.account_id,
        "for_you": viewer.account_id is not None and inv.to_id == viewer.account_id,
    }


def visible(snap: Snapshot, viewer: Viewer) -> dict[str, Invitation]:
    """The open invitations ``viewer`` sees: those open to anyone, and its own or to it."""
    me = viewer.account_id
    return {
        k: inv
        for k, inv in snap.invitations.items()
        if inv.status == "open"
        and (inv.to_id is None or (me is not None and me in (inv.poster_id, inv.to_id)))
    }


def started(snap: Snapshot, viewer: Viewer) -> dict[str, Invitation]:
    """The viewer's invitations accepted, whose seat its browser has yet to take."""
    me = viewer.account_id
    return {k: inv for k, inv in snap.invitations.items() if inv.status == "accepted" and inv.poster_id == me}


def started_view(inv: Invitation) -> dict[str, Any]:
    return {"id": inv.id, "match_id": inv.match_id}


def hello(snap: Snapshot, viewer: Viewer) -> dict[str, Any]:
    """The whole lobby as ``viewer`` sees it (the first message of a socket; ``GET /api/lobby``)."""
    you = None if viewer.name is None else {"name": viewer.name, "rating": viewer.rating}
    return {
        "type": "hello",
        "you": you,
        "players": [player_view(p) for p in snap.players.values()],
        "guests": snap.guests,
        "invitations": [invitation_view(i, viewer) for i in visible(snap, viewer).values()],
        "started": [started_view(i) for i in started(snap, viewer).values()],
    }


def update(old: Snapshot, new: Snapshot, viewer: Viewer, players: dict[str, Any]) -> dict[str, Any] | None:
    """What changed for ``viewer`` from ``old`` to ``new`` (``players``: the part all viewers
    share), or None when nothing did."""
    message: dict[str, Any] = {"type": "update", **players}
    seen, now = visible(old, viewer), visible(new, viewer)
    fresh = [invitation_view(inv, viewer) for k, inv in now.items() if k not in seen]
    gone = [k for k in seen if k not in now]
    begun = [started_view(inv) for k, inv in started(new, viewer).items() if k not in started(old, viewer)]
    for key, value in (("invitations", fresh), ("gone", gone), ("started", begun)):
        if value:
            message[key] = value
    return message if len(message) > 1 else None


def players_update(old: Snapshot, new: Snapshot) -> dict[str, Any]:
    """The players who came or changed (their rating, where they are), who left, the guests."""
    part: dict[str, Any] = {}
    came = [player_view(p) for name, p in new.players.items() if old.players.get(name) != p]
    left = [name for name in old.players if name not in new.players]
    if came:
        part["players"] = came
    if left:
        part["left"] = left
    if new.guests != old.guests:
        part["guests"] = new.guests
    return part


class Lobby:
    """The lobby's sockets in this process, over the invitations of ``members``' accounts; the
    accounts at online games' seats come from ``hub``."""

    def __init__(self, members: Members, hub: Hub, settings: LobbySettings | None = None) -> None:
        self.settings = settings or LobbySettings()
        self.invitations = Invitations(members.accounts)
        self.hub = hub
        self.store = members.store
        self.process = secrets.token_hex(6)
        self.sockets: dict[Outbox, Viewer] = {}
        self.last = EMPTY  # the lobby as this process's sockets were last told it
        self._loaded = False
        self._addresses: dict[str, int] = {}
        self._accounts: dict[int, int] = {}
        self._playing: frozenset[str] = frozenset()
        self._presence_due = self._publish_due = self._again = False
        self._settling: asyncio.Task[None] | None = None
        self._beating: asyncio.Task[None] | None = None
        self._publisher: Publisher | None = None
        self._subscriber: Subscriber | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # ---- start and stop (with the app) ----------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.store.notifies:
            self._publisher = Publisher(self.store.url, LOBBY_CHANNEL)
            self._publisher.start()
            self._subscriber = Subscriber(self.store.url, LOBBY_CHANNEL, self._heard)
            await asyncio.to_thread(self._subscriber.start)
        self._beating = asyncio.create_task(self._beat())

    async def stop(self) -> None:
        for task in (self._beating, self._settling):
            if task is not None:
                task.cancel()
        with contextlib.suppress(Exception):  # the database may be gone already
            await asyncio.to_thread(self.invitations.drop_presence, self.process)
        self._publish()
        if self._subscriber is not None:
            await asyncio.to_thread(self._subscriber.close)
        if self._publisher is not None:
            await asyncio.to_thread(self._publisher.close)

    # ---- sockets ----------------------------------------------------------------------------------

    def admit(self, viewer: Viewer, address: str) -> str | None:
        """Count a socket of ``viewer`` from ``address`` in, or say which limit it is over."""
        limits = self.settings
        if len(self.sockets) >= limits.max_sockets:
            return tr("the lobby is full; try again later")
        if self._addresses.get(address, 0) >= limits.per_address:
            return tr("your address has {n} lobby sockets open already (the limit)", n=limits.per_address)
        account = viewer.account_id
        if account is not None and self._accounts.get(account, 0) >= limits.per_account:
            return tr("your account has {n} lobby sockets open already (the limit)", n=limits.per_account)
        self._addresses[address] = self._addresses.get(address, 0) + 1
        if account is not None:
            self._accounts[account] = self._accounts.get(account, 0) + 1
        return None

    def release(self, viewer: Viewer, address: str) -> None:
        _down(self._addresses, address)
        if viewer.account_id is not None:
            _down(self._accounts, viewer.account_id)

    async def join(self, out: Outbox, viewer: Viewer) -> None:
        """A socket comes: it is sent the lobby (``hello``), then every change."""
        if not self._loaded:
            snap = await asyncio.to_thread(self.read)
            if not self._loaded:
                self.last, self._loaded = snap, True
        # No await from here on: the socket's first state and the others' are the same snapshot.
        out.send_json(hello(self.last, viewer))
        self.sockets[out] = viewer
        self.changed(presence=True)

    def leave(self, out: Outbox) -> None:
        if self.sockets.pop(out, None) is not None:
            self.changed(presence=True)

    def presence(self) -> LobbyPresence:
        viewers = self.sockets.values()
        return LobbyPresence(
            lobby=frozenset(v.account_id for v in viewers if v.account_id is not None),
            playing=self._playing,
            guests=sum(1 for v in viewers if v.account_id is None),
        )

    # ---- changes ----------------------------------------------------------------------------------

    def changed(self, presence: bool = False, publish: bool = True) -> None:
        """Something changed (``presence``: who this process has in the lobby; ``publish``: tell
        the other processes): refresh soon, once for all that changes meanwhile."""
        self._presence_due |= presence
        self._publish_due |= publish
        if self._settling is None or self._settling.done():
            self._settling = asyncio.get_running_loop().create_task(self._settle())
        else:
            self._again = True

    async def _settle(self) -> None:
        while True:
            self._again = False
            await asyncio.sleep(self.settings.settle)
            try:
                if self._presence_due:
                    self._presence_due = False
                    await asyncio.to_thread(self.invitations.write_presence, self.process, self.presence())
                if self._publish_due:
                    self._publish_due = False
                    self._publish()
                await self.refresh()
            except Exception:  # the database is away: the next change or beat tries again
                log.exception("the lobby's refresh failed")
            if not self._again:
                return

    def read(self) -> Snapshot:
        """(In a thread) the lobby as the database has it now."""
        players, guests = self.invitations.online()
        invitations = self.invitations.invitations()
        return Snapshot({p.name: p for p in players}, guests, {i.id: i for i in invitations})

    async def refresh(self) -> None:
        """Read the lobby again and send each socket what changed for it."""
        new = await asyncio.to_thread(self.read)
        old, self.last, self._loaded = self.last, new, True
        shared = players_update(old, new)
        for out, viewer in list(self.sockets.items()):
            message = update(old, new, viewer, shared)
            if message is not None:
                out.send_json(message)  # never waits: a socket that does not keep up is dropped

    def _publish(self) -> None:
        if self._publisher is not None:
            self._publisher.send(self.process)

    def _heard(self, payload: str) -> None:
        """(The subscriber's thread) a process changed the lobby; this one's own is ignored."""
        loop = self._loop
        if loop is not None and payload != self.process:
            loop.call_soon_threadsafe(self.changed, False, False)

    # ---- the beat -------------------------------------------------------------------------------

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.settings.beat)
            try:
                await self.beat_now()
            except Exception:
                log.exception("the lobby's beat failed")

    async def beat_now(self) -> None:
        """Say again whom this process has (the accounts at online games' seats as of now), look
        after the invitations, and refresh."""
        self._playing = self.players_at_tables()
        posters = frozenset(v.account_id for v in self.sockets.values() if v.account_id is not None)
        went = await asyncio.to_thread(self.invitations.sweep, posters)
        self.changed(presence=True, publish=went > 0)

    def players_at_tables(self) -> frozenset[str]:
        """The name keys of the accounts with a socket open at an online game's seat here, signed
        in to the seat's account: a seat's token is no proof of who is there (a socket opened
        before the seat was claimed may be anyone's)."""
        names = set()
        for match_id, sockets in list(self.hub.sockets.items()):
            live = self.hub.live.get(match_id)
            if live is None or live.record.mode != "online":
                continue
            for out, seat, _detail in sockets:
                account = live.accounts[seat] if seat in (0, 1) else None
                if account is not None and out.account is not None:
                    names.add(name_key(account.name))
        return frozenset(names)


def _down(counts: dict[Any, int], key: Any) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


__all__ = ["GUEST", "Lobby", "LobbySettings", "Snapshot", "Viewer", "hello"]
