"""Who is at the table in online games: a seat is present while it has a WebSocket open, and was last
seen when its last socket closed or it last called the API. A player whose opponent must act but has
been away for ``away_after`` seconds may claim the game (the opponent abandons it); so may one whose
opponent has had the same decision for ``idle_after`` seconds, connected or not (else a player who
keeps the page open and never acts stalls a lost rated match for ever).

Presence lives in memory: after a restart, every seat of a match that had already played counts as
seen when the match is loaded, and its decision as begun then, so their clocks start again rather
than letting a claim through at once. A decision's clock starts when this process first sees the
match at a new version (its own action, another process's caught up, a load): every process
holding the match sees each version within moments, so their clocks agree.

Several server processes (PostgreSQL) share it through :class:`PresenceRelay`: each tells the others
when a seat's first socket opens or its last one closes here, and every ``beat`` seconds which seats
it holds open, so that a process that dies without a word stops counting ``held_for`` seconds after
its last heartbeat. A seat is present while any process holds it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable

from gammon.store.notify import PRESENCE_CHANNEL, Publisher, Subscriber

DEFAULT_AWAY_AFTER = 300.0
"""Seconds an online opponent may be away, while it must act, before the game can be claimed."""
DEFAULT_IDLE_AFTER = 600.0
"""Seconds an online opponent may take over one decision, connected or not, before the game can be
claimed."""
DEFAULT_BEAT = 10.0
"""Seconds between a process's heartbeats (the seats it holds open) to the other processes."""

Key = tuple[str, int]  # (match id, seat)
log = logging.getLogger(__name__)


class Presence:
    """``held_for``: seconds a seat held open by another process counts as present after that
    process's last word (a few heartbeats; see :class:`PresenceRelay`)."""

    def __init__(
        self,
        away_after: float = DEFAULT_AWAY_AFTER,
        clock: Callable[[], float] = time.monotonic,
        held_for: float = 3 * DEFAULT_BEAT,
        idle_after: float = DEFAULT_IDLE_AFTER,
    ) -> None:
        if away_after <= 0:
            raise ValueError(f"away_after must be a positive number of seconds, got {away_after!r}")
        if idle_after <= 0:
            raise ValueError(f"idle_after must be a positive number of seconds, got {idle_after!r}")
        self.away_after, self.idle_after = away_after, idle_after
        self.clock = clock
        self.held_for = held_for
        self._open: dict[Key, int] = {}  # sockets open here per (match, seat)
        self._seen: dict[Key, float] = {}
        self._elsewhere: dict[Key, dict[str, float]] = {}  # other processes holding it: when last heard
        self._decisions: dict[str, tuple[int, float]] = {}  # match -> (version, when first seen here)
        self.publish: Callable[[str, Key], None] | None = None
        """Told ``("open", key)`` when a seat's first socket here opens, ``("close", key)`` when its
        last one closes (the relay passes it on to the other processes)."""

    def seen(self, match_id: str, seat: int | None) -> None:
        """The seat acted or asked for the match now."""
        if seat is not None:
            self._seen[(match_id, seat)] = self.clock()

    def seen_if_new(self, match_id: str, seat: int) -> None:
        """Count the seat as seen now unless it was seen already (a match loaded after a restart)."""
        self._seen.setdefault((match_id, seat), self.clock())

    def opened(self, match_id: str, seat: int | None) -> None:
        if seat is not None:
            key = (match_id, seat)
            self._open[key] = self._open.get(key, 0) + 1
            self._seen[key] = self.clock()
            if self._open[key] == 1 and self.publish is not None:
                self.publish("open", key)

    def closed(self, match_id: str, seat: int | None) -> None:
        if seat is not None:
            key = (match_id, seat)
            left = self._open.get(key, 0) - 1
            if left > 0:
                self._open[key] = left
            else:
                self._open.pop(key, None)
                if self.publish is not None:
                    self.publish("close", key)
            self._seen[key] = self.clock()

    def away(self, match_id: str, seat: int) -> float | None:
        """Seconds the seat has been away: 0 while it has a socket open (here or in another
        process), None if it was never seen (an invited friend who has not come yet)."""
        key = (match_id, seat)
        if self._present(key):
            return 0.0
        last = self._seen.get(key)
        return None if last is None else max(0.0, self.clock() - last)

    def deciding(self, match_id: str, version: int) -> float:
        """Seconds the match has stood at ``version`` (the decision of the player to act), counted
        from when this process first saw that version."""
        now = self.clock()
        known = self._decisions.get(match_id)
        if known is None or known[0] != version:
            self._decisions[match_id] = (version, now)
            return 0.0
        return max(0.0, now - known[1])

    def claim_in(self, match_id: str, seat: int, version: int | None = None) -> float | None:
        """Seconds until a game waiting on ``seat`` may be claimed (0: now): once it has been away
        ``away_after`` seconds, or (given the match's ``version``) has had the decision for
        ``idle_after`` seconds, connected or not. None if the seat was never seen (an invited friend
        who has not come yet), or while it is connected and no ``version`` is given."""
        away = self.away(match_id, seat)
        if away is None:
            return None
        limits = [] if self._present((match_id, seat)) else [self.away_after - away]
        if version is not None:
            limits.append(self.idle_after - self.deciding(match_id, version))
        return max(0.0, min(limits)) if limits else None

    def forget(self, match_id: str) -> None:
        """Forget when the seats of ``match_id`` were last seen, unless a socket holds them open
        here or elsewhere: the server let go of the match (it is reloaded when someone comes back,
        and :meth:`seen_if_new` starts its clock again), and when its decision began. Kept for
        every match ever played, these grew the server's memory without end."""
        self._decisions.pop(match_id, None)
        for seat in (0, 1):
            key = (match_id, seat)
            if not self._present(key):
                self._seen.pop(key, None)

    def known(self) -> int:
        """How many seats' last sight is kept."""
        return len(self._seen)

    def decisions(self) -> int:
        """How many matches' decision clocks are kept."""
        return len(self._decisions)

    def holders(self, key: Key) -> set[str]:
        """The other processes holding the seat open, as last heard (those gone silent left out)."""
        self._expire(key)
        return set(self._elsewhere.get(key, ()))

    # ---- other processes' seats (the relay calls these on the event loop) ----------------------

    def open_here(self) -> list[Key]:
        """The seats with a socket open in this process."""
        return list(self._open)

    def held_elsewhere(self, process: str, keys: Iterable[Key]) -> list[Key]:
        """``process`` holds ``keys`` open (it said so now); returns those that were away."""
        now, came = self.clock(), []
        for key in keys:
            if not self._present(key):
                came.append(key)
            self._elsewhere.setdefault(key, {})[process] = now
            self._seen[key] = now
        return came

    def released_elsewhere(self, process: str, keys: Iterable[Key] | None = None) -> list[Key]:
        """``process`` closed ``keys`` (None: every seat it held; it stopped); returns those that
        are away now."""
        now, left = self.clock(), []
        chosen = [k for k, held in self._elsewhere.items() if process in held] if keys is None else keys
        for key in chosen:
            held = self._elsewhere.get(key)
            if held is None or held.pop(process, None) is None:
                continue
            if not held:
                del self._elsewhere[key]
            self._seen[key] = now
            if not self._present(key):
                left.append(key)
        return left

    def expire(self) -> list[Key]:
        """Forget the seats of processes not heard from for ``held_for`` seconds; returns the seats
        that are away now (their last word is when they were last seen)."""
        return [key for key in list(self._elsewhere) if self._expire(key) and not self._present(key)]

    def _expire(self, key: Key) -> bool:
        """Drop ``key``'s stale holders; whether there were any."""
        held = self._elsewhere.get(key)
        if not held:
            return False
        limit = self.clock() - self.held_for
        stale = [p for p, heard in held.items() if heard < limit]
        for process in stale:
            self._seen[key] = max(self._seen.get(key, held[process]), held[process])
            del held[process]
        if not held:
            del self._elsewhere[key]
        return bool(stale)

    def _present(self, key: Key) -> bool:
        if self._open.get(key):
            return True
        self._expire(key)
        return key in self._elsewhere


class PresenceRelay:
    """Shares ``presence`` with the other server processes on the PostgreSQL database at ``url``:
    tells them of this process's seats opening and closing, and every ``beat`` seconds of those it
    holds open; hears theirs (``on_change(match_id, seat)`` on the event loop when a seat held
    elsewhere comes or goes). Messages on :data:`gammon.store.notify.PRESENCE_CHANNEL`:
    ``"<process> <open|close|beat|ask|bye> <match>:<seat>,..."``; one lost costs at most a beat."""

    def __init__(
        self, url: str, presence: Presence, on_change: Callable[[str, int], None], beat: float = DEFAULT_BEAT
    ) -> None:
        self.presence, self.on_change, self.beat = presence, on_change, beat
        self.process = secrets.token_hex(6)
        self._publisher = Publisher(url, PRESENCE_CHANNEL)
        self._subscriber = Subscriber(url, PRESENCE_CHANNEL, self._heard)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._beating: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.presence.publish = lambda op, key: self._send(op, [key])
        self._publisher.start()
        await asyncio.to_thread(self._subscriber.start)
        self._send("ask", [])  # the others' seats now, not at their next beat
        self._beating = asyncio.create_task(self._beat())

    async def stop(self) -> None:
        self.presence.publish = None
        if self._beating is not None:
            self._beating.cancel()
        self._send("bye", [])
        await asyncio.to_thread(self._subscriber.close)
        await asyncio.to_thread(self._publisher.close)

    def _send(self, op: str, keys: list[Key]) -> None:
        for payload in encode(self.process, op, keys):
            self._publisher.send(payload)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.beat)
            self.beat_now()

    def beat_now(self) -> None:
        """Tell the others the seats held open here; forget theirs gone silent."""
        self._send("beat", self.presence.open_here())
        for match_id, seat in self.presence.expire():
            self.on_change(match_id, seat)

    def _heard(self, payload: str) -> None:
        """(The subscriber's thread) a message of some process, this one's own included."""
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(self.apply, payload)

    def apply(self, payload: str) -> None:
        """(On the event loop) what another process said."""
        message = decode(payload)
        if message is None or message[0] == self.process:
            return
        process, op, keys = message
        if op in ("open", "beat"):
            changed = self.presence.held_elsewhere(process, keys)
        elif op in ("close", "bye"):
            changed = self.presence.released_elsewhere(process, keys if op == "close" else None)
        else:  # "ask": a process (re)started
            changed = []
            self._send("beat", self.presence.open_here())
        for match_id, seat in changed:
            self.on_change(match_id, seat)


_OPS = ("open", "close", "beat", "ask", "bye")
_MAX_PAYLOAD = 7000  # PostgreSQL refuses a NOTIFY payload of 8000 bytes or more


def encode(process: str, op: str, keys: list[Key]) -> list[str]:
    """The messages saying ``op`` of ``keys`` (several where they do not fit in one; one for none)."""
    head = f"{process} {op} "
    messages, part = [], ""
    for match_id, seat in keys:
        item = f"{match_id}:{seat}"
        if part and len(head) + len(part) + len(item) + 1 > _MAX_PAYLOAD:
            messages.append(head + part)
            part = ""
        part = f"{part},{item}" if part else item
    if part or not messages:
        messages.append(head + part)
    return messages


def decode(payload: str) -> tuple[str, str, list[Key]] | None:
    """(process, op, keys) of a message, None if it is not one."""
    process, op, items = (payload.split(" ", 2) + ["", ""])[:3]
    if not process or op not in _OPS:
        return None
    keys = []
    for item in filter(None, items.split(",")):
        match_id, _, seat = item.rpartition(":")
        if match_id and seat in ("0", "1"):
            keys.append((match_id, int(seat)))
    return process, op, keys
