"""Which browser tabs hold online seats' sockets in the other server processes, so that the
two-device rule (gammon.web.routes.live) holds across the processes of ``gammon serve --workers N``:
a seat's socket from another tab is refused unless it takes the seat over, and then the other tab's
sockets are told and closed in whichever process they are.

Each process tells the others (PostgreSQL's NOTIFY on :data:`gammon.store.notify.SEATS_CHANNEL`)
when a seat's first socket from a tab (and account) opens here and when its last one closes, and
asks them to let go of a seat it takes over. A process that died without a word holds nothing:
a holder counts only while the presence relay (whose process id it shares) counts that process as
holding the seat, which its heartbeats keep up (gammon.web.presence). A lost message costs at most
a refusal missed (the rule as it was within one process) or one too many, until the tab closes.

Messages: ``"<process> <open|close|take|ask> <match>:<seat> <tab> <account>"``, the tab as a short
hash (a client names its tabs freely), the account ``-`` for none.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable

from gammon.store.notify import SEATS_CHANNEL, Publisher, Subscriber
from gammon.web.presence import Key, Presence

Holder = tuple[str, int | None]  # (the tab's hash, the account of its sockets or None)
_OPS = ("open", "close", "take", "ask")


def tab_hash(tab: str) -> str:
    return hashlib.blake2b(tab.encode(), digest_size=8).hexdigest()


def strangers(holders: set[Holder], tab: str, account: int | None) -> bool:
    """Whether ``holders`` include another browser than ``tab`` (signed in to ``account``): another
    tab, unless both are signed in to the seat's account (its own devices share the seat)."""
    mine = tab_hash(tab)
    return any(h != mine and (account is None or a != account) for h, a in holders)


class SeatTabs:
    """The tabs holding seats in the other processes on the PostgreSQL database at ``url``, as
    process ``process`` (the presence relay's) hears them; ``on_take(match_id, seat, tab_hash,
    account)`` runs on the event loop when another process takes over a seat."""

    def __init__(
        self,
        url: str,
        process: str,
        presence: Presence,
        on_take: Callable[[str, int, str, int | None], None],
    ) -> None:
        self.process, self.presence, self.on_take = process, presence, on_take
        self._local: dict[tuple[Key, Holder], int] = {}  # sockets open here per seat and holder
        self._remote: dict[Key, dict[str, set[Holder]]] = {}  # process -> its holders of the seat
        self._publisher = Publisher(url, SEATS_CHANNEL)
        self._subscriber = Subscriber(url, SEATS_CHANNEL, self._heard)
        self.publish: Callable[[str], None] = self._publisher.send
        """Sends one message to the other processes (a test may catch them here)."""
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._publisher.start()
        await asyncio.to_thread(self._subscriber.start)
        self._send("ask", ("", 0), ("", None))  # the others' tabs now

    async def stop(self) -> None:
        await asyncio.to_thread(self._subscriber.close)
        await asyncio.to_thread(self._publisher.close)

    # ---- this process's sockets -------------------------------------------------------------------

    def opened(self, key: Key, tab: str, account: int | None) -> None:
        holder = (tab_hash(tab), account)
        count = self._local.get((key, holder), 0) + 1
        self._local[(key, holder)] = count
        if count == 1:
            self._send("open", key, holder)

    def closed(self, key: Key, tab: str, account: int | None) -> None:
        holder = (tab_hash(tab), account)
        count = self._local.pop((key, holder), 0) - 1
        if count > 0:
            self._local[(key, holder)] = count
        else:
            self._send("close", key, holder)

    def elsewhere(self, key: Key, tab: str, account: int | None) -> bool:
        """Whether another process holds the seat from another browser than ``tab``'s."""
        held = self._remote.get(key, {})
        alive = self.presence.holders(key)
        return any(strangers(holders, tab, account) for p, holders in held.items() if p in alive)

    def take(self, key: Key, tab: str, account: int | None) -> None:
        """Have the other processes let go of the seat's sockets of other browsers than ``tab``'s."""
        self._send("take", key, (tab_hash(tab), account))

    # ---- messages -----------------------------------------------------------------------------------

    def _send(self, op: str, key: Key, holder: Holder) -> None:
        account = "-" if holder[1] is None else str(holder[1])
        self.publish(f"{self.process} {op} {key[0]}:{key[1]} {holder[0] or '-'} {account}")

    def _heard(self, payload: str) -> None:
        """(The subscriber's thread) a message of some process, this one's own included."""
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(self.apply, payload)

    def apply(self, payload: str) -> None:
        """(On the event loop) what another process said."""
        parts = payload.split(" ")
        if len(parts) != 5 or parts[0] == self.process or parts[1] not in _OPS:
            return
        process, op, seat_of, tab, account_text = parts
        if op == "ask":
            for (key, holder), _count in list(self._local.items()):
                self._send("open", key, holder)
            return
        match_id, _, seat_text = seat_of.rpartition(":")
        if not match_id or seat_text not in ("0", "1") or not (account_text == "-" or account_text.isdigit()):
            return
        key, holder = (match_id, int(seat_text)), (tab, None if account_text == "-" else int(account_text))
        if op == "take":
            self.on_take(match_id, key[1], tab, holder[1])
            return
        held = self._remote.setdefault(key, {})
        if op == "open":
            held.setdefault(process, set()).add(holder)
        else:
            held.get(process, set()).discard(holder)
            if not held.get(process):
                held.pop(process, None)
        if not held:
            del self._remote[key]


__all__ = ["Holder", "SeatTabs", "strangers", "tab_hash"]
