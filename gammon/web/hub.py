"""The live matches of one server process and their WebSockets: the Hub applies the actions of a match
one at a time, stores each (group commit, gammon.store.batch) before anyone sees it, and pushes the
new state to every socket of the match. On PostgreSQL it hears the other processes' commits
(LISTEN/NOTIFY) and catches up, and shares who is at the table (gammon.web.presence)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Container, Coroutine
from typing import Any, Literal

from fastapi import WebSocket

from gammon.dice import DiceSource
from gammon.errors import (
    GammonError,
    IllegalActionError,
    NotAuthorizedError,
    StaleActionError,
    StoreUnavailableError,
)
from gammon.i18n import tr, use_language
from gammon.rules import Rules
from gammon.store import Store
from gammon.store.batch import BatchWriter
from gammon.store.notify import Listener
from gammon.web.engine_pool import EnginePool
from gammon.web.presence import Presence, PresenceRelay
from gammon.web.schemas import ActionRequest, CreateMatchRequest, MatchView, PlayerAccount
from gammon.web.seat_tabs import SeatTabs, tab_hash
from gammon.web.session import LiveMatch, StoreMatch
from gammon.web.settings import ServerSettings
from gammon.web.sockets import TAKEN_OVER, Outbox, background
from gammon.web.spectators import SPECTATOR, spectator_view
from gammon.web.views import PRESENT, Absence, match_view, player_names

log = logging.getLogger(__name__)

Detail = Literal["none", "plays", "steps"]
"""What a seat's state carries of the legal plays: nothing, the plays, or the plays and their step
orders (which the browser needs, and which run to hundreds for doubles)."""


class Hub:
    """The live matches of this process (loaded from the store on first use) and their sockets."""

    def __init__(
        self,
        store: Store,
        dice_factory: Callable[[], DiceSource] | None,
        settings: ServerSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
        pool: EnginePool | None = None,
    ) -> None:
        settings = settings if settings is not None else ServerSettings()
        self.store = store
        self.pool = pool if pool is not None else EnginePool()
        self.writer = BatchWriter(store)
        self.listener: Listener | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.dice_factory = dice_factory
        self.max_live = settings.max_live
        self.live: dict[str, LiveMatch] = {}
        # Each socket (its outbox) with its seat and what it asked to see of the legal plays.
        self.sockets: dict[str, set[tuple[Outbox, int | None, Detail]]] = {}
        self.caps = settings.caps
        # each socket's (see gammon.web.sockets)
        self.queue, self.send_timeout = settings.ws_queue, settings.ws_send_timeout
        self.presence = Presence(settings.away_after, clock, idle_after=settings.idle_after)
        self.relay: PresenceRelay | None = None  # presence shared with the other processes
        self.tabs: SeatTabs | None = None  # and which browser tabs hold the seats there
        self._loading = asyncio.Lock()
        # The accounts' part (gammon.web.members): a match just ended, stored; a match's seats' accounts
        self.ended: Callable[[LiveMatch], Awaitable[None]] | None = None
        self.seat_accounts: Callable[[str], tuple[PlayerAccount | None, PlayerAccount | None]] | None = None

    def _dice(self) -> DiceSource | None:
        return self.dice_factory() if self.dice_factory else None

    async def get(self, match_id: str) -> LiveMatch:
        live = self.live.pop(match_id, None)
        if live is not None:
            self.live[match_id] = live  # most recently used last
            return live
        async with self._loading:
            live = self.live.get(match_id)
            if live is None:
                live = await self._load(match_id)
                self._remember(live)
                if live.record.mode == "online":
                    for seat in live.players_who_moved():
                        self.presence.seen_if_new(live.id, seat)
                    self.presence.deciding(live.id, live.version)  # its decision's clock starts
        if live.computer_due() and not live.lock.locked():
            async with live.lock:
                await self._computer(live)  # a computer's turn that a restart interrupted
        return live

    async def _load(self, match_id: str) -> LiveMatch:
        """The match replayed from the store, with its seats' accounts; StoreUnavailableError when
        the database cannot be read (an unknown match is UnknownMatchError)."""
        try:
            live = await asyncio.to_thread(LiveMatch.load, self.store, match_id, self._dice())
            if self.seat_accounts is not None:
                live.accounts = await asyncio.to_thread(self.seat_accounts, live.id)
        except GammonError:
            raise
        except Exception as e:  # the database is away: the client may try again
            raise StoreUnavailableError(tr("the database is unavailable; try again")) from e
        return live

    async def start(self, warm: bool) -> None:
        """At startup: listen for other processes' commits (PostgreSQL); start the engine workers."""
        self.loop = asyncio.get_running_loop()
        if self.store.notifies:
            self.listener = Listener(
                self.store.url, self._notified, self._seats_changed, self._listening_again
            )
            await asyncio.to_thread(self.listener.start)
            self.relay = PresenceRelay(self.store.url, self.presence, self._presence_changed)
            await self.relay.start()
            self.tabs = SeatTabs(self.store.url, self.relay.process, self.presence, self._taken_over)
            await self.tabs.start()
        if warm:
            await self.pool.start()

    async def stop(self) -> None:
        if self.tabs is not None:
            await self.tabs.stop()
        if self.relay is not None:
            await self.relay.stop()
        if self.listener is not None:
            await asyncio.to_thread(self.listener.close)
        await asyncio.to_thread(self.writer.close)
        await asyncio.to_thread(self.pool.close)

    def _notified(self, match_id: str, count: int) -> None:
        """(The listener's thread) a process stored actions of ``match_id``, now ``count`` long."""
        if match_id in self.live:
            self._on_loop(lambda: self.catch_up(match_id, count))

    def _listening_again(self) -> None:
        """(The listener's thread) it lost its connection and listens again: look for what it missed."""
        self._on_loop(self.look_again)

    def _on_loop(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """(The listener's thread) run ``work()`` as a task on the server's loop, unless that loop
        has closed (the server is stopping: a thread's traceback said so on every stop)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(lambda: loop.create_task(work()))
        except RuntimeError:  # it closed since the look above
            pass

    async def look_again(self) -> None:
        """Catch up every match held here that another process changed while this one was not
        listening (its notifications are lost): else its sockets stay on the old board, the player
        waiting on a move already made."""
        try:
            versions = await asyncio.to_thread(self.store.versions, list(self.live))
        except Exception:  # away again: the listener's next reconnection looks again
            log.warning("could not look for the matches changed while not listening", exc_info=True)
            return
        for match_id, version in versions.items():
            try:
                await self.catch_up(match_id, version)
            except Exception:
                log.exception("catching up match %s", match_id)

    def _seats_changed(self, match_id: str, sender: str) -> None:
        """(The listener's thread) a process changed the seats of ``match_id`` (see reread_seats);
        this one's own change is shown here already."""
        loop = self.loop
        if loop is not None and match_id in self.live and sender != self.store.sender:
            loop.call_soon_threadsafe(lambda: loop.create_task(self.reread_seats(match_id)))

    async def reread_seats(self, match_id: str) -> None:
        """A process changed the match's seats (an account claimed one) or judged its end (rated
        it, or marked it unrated): read its record and its seats' accounts (with their ratings)
        again, and push it. Its sockets here saw it with what was known before."""
        live = self.live.get(match_id)
        if live is None:
            return
        try:
            async with live.lock:
                await asyncio.to_thread(live.reread_record)
                if self.seat_accounts is not None:
                    live.accounts = await asyncio.to_thread(self.seat_accounts, live.id)
                messages = self._messages(live)
        except Exception:  # the database is away: its next load shows it
            log.warning("could not read match %s's seats again", match_id, exc_info=True)
            return
        self._send(messages)

    def _presence_changed(self, match_id: str, seat: int) -> None:
        """A seat came or went in another process: its opponent here sees it."""
        live = self.live.get(match_id)
        if live is None:
            self.presence.forget(match_id)  # a match not held here: loaded again, its clock starts then
        elif live.record.mode == "online" and self.sockets.get(match_id):
            asyncio.get_running_loop().create_task(self.broadcast(live, {1 - seat}))

    async def catch_up(self, match_id: str, count: int) -> None:
        """Another process stored actions of this match: make them here and push it."""
        live = self.live.get(match_id)
        if live is None or live.version >= count:
            return  # our own commit, or a match this process does not hold
        if not self.sockets.get(match_id) and not live.lock.locked():
            self._forget(match_id)  # nobody watches it here: load it again when someone comes
            return
        async with live.lock:
            if live.version >= count:
                return
            await asyncio.to_thread(live.catch_up)
            self._decision(live)
            messages = self._messages(live)
        self._send(messages)

    def _decision(self, live: LiveMatch) -> None:
        """Start the clock of the match's new decision now (online), not at its first view."""
        if live.record.mode == "online":
            self.presence.deciding(live.id, live.version)

    async def _store(self, live: LiveMatch) -> None:
        """Store the match's unsaved actions (group commit); on failure go back to what is stored."""
        change = live.take_unsaved()
        if change is None:
            return
        try:
            await self.writer.append(live.id, change)
        except GammonError:  # refused (a conflict): what is stored is the truth
            await asyncio.to_thread(live.reload)
            raise
        except Exception as e:  # the database is away: the action is refused, the client may retry
            with contextlib.suppress(Exception):  # away still: reloaded at the match's next use
                await asyncio.to_thread(live.reload)
            raise StoreUnavailableError(
                tr("the action was not stored (the database is unavailable); try again")
            ) from e
        if change.summary is not None and change.summary.status == "over" and self.ended is not None:
            # the change that ends the match is stored once (its version is checked), so this runs once
            try:
                await self.ended(live)
                if live.rated:  # judged at its end: its record now says if it is unrated, and why
                    live.record = await asyncio.to_thread(self.store.load_match, live.id)
                    # the other processes showing it read it again, with the seats' new ratings
                    await asyncio.to_thread(self.store.notify_seats, [live.id])
            except Exception:  # the match is stored and over: a failed rating or queueing is logged
                log.exception("after match %s ended", live.id)

    async def _computer(self, live: LiveMatch) -> None:
        """The computer's actions, found by the engine pool (the caller holds the lock)."""
        while live.computer_due():
            assert live.level is not None
            action = await self.pool.computer_action(live.level, live.match.game)
            live.computer_acts(action)
            await self._store(live)

    def _remember(self, live: LiveMatch) -> None:
        """Keep ``live`` in memory; forget the least recently used idle matches beyond ``max_live``
        (they are replayed from the store when someone comes back)."""
        self.live[live.id] = live
        excess = len(self.live) - self.max_live
        for key in list(self.live)[: max(excess, 0)]:
            old = self.live[key]
            if not self.sockets.get(key) and not old.lock.locked():
                self._forget(key)

    def _forget(self, match_id: str) -> None:
        """Let go of an idle match, and of what presence keeps of it."""
        del self.live[match_id]
        self.presence.forget(match_id)

    async def create(
        self, req: CreateMatchRequest, maker: int | None = 0, store_match: StoreMatch | None = None
    ) -> tuple[LiveMatch, list[str]]:
        """A new match; ``maker``: the online seat of the player who made it, at the table now (None:
        neither is). A seat counts as never seen until it comes, and no game can be claimed against
        it before. ``store_match``: see :meth:`LiveMatch.create`."""
        rules = Rules(
            match_length=req.match_length,
            crawford=req.crawford,
            jacoby=req.jacoby,
            beavers=req.beavers,
            cube_limit=req.cube_limit,
            use_cube=req.use_cube and Rules.cube_matters(req.match_length),
        )
        live, tokens = await asyncio.to_thread(
            LiveMatch.create,
            self.store,
            req.mode,
            rules,
            req.level if req.mode == "computer" else None,
            self._dice(),
            (req.name, req.opponent_name),
            req.rated,
            store_match,
        )
        self._remember(live)
        async with live.lock:
            await self._computer(live)
        if req.mode == "online":
            self.presence.seen(live.id, maker)
            self._decision(live)
        return live, tokens

    async def act(
        self,
        live: LiveMatch,
        seat: int | None,
        req: ActionRequest,
        reply: bool = True,
        detail: Detail = "plays",
    ) -> MatchView | None:
        """Apply one action (one at a time per match), store it, then push the new state to every
        socket; returns the acting seat's view when ``reply``, with ``detail`` (see Detail)."""
        async with live.lock:
            await self._fresh(live)
            if req.version is not None and req.version > live.version:
                await asyncio.to_thread(live.catch_up)  # another process stored actions since
            await self._computer(live)  # a computer's turn left undone (an engine worker failed)
            if req.version is not None and req.version != live.version:
                raise StaleActionError(
                    tr(
                        "the game has moved on (version {version}, you acted on {acted}); look at the board "
                        "again",
                        version=live.version,
                        acted=req.version,
                    )
                )
            await self._check_rated_seat(live, seat)
            try:
                if req.action == "claim":
                    self._check_claim(live, seat)
                    assert seat is not None
                    live.act(1 - seat, ActionRequest(action="abandon", play=None, kind=None, version=None))
                else:
                    live.act(seat, req)
            finally:
                await self._store(live)  # nothing is acknowledged, or shown, before it is stored
            await self._computer(live)  # the clients see the computer's answer with the action
            self._decision(live)
            # Views are made under the lock, so no other action changes the match meanwhile.
            view = self._view(live, seat, detail) if reply else None
            messages = self._messages(live)
        self._send(messages)
        return view

    def outbox(self, ws: WebSocket, on_drop: Callable[[str], object]) -> Outbox:
        """A new socket's outbox (its sender starts with ``async with``)."""
        return Outbox(ws, self.queue, self.send_timeout, on_drop)

    def join(self, match_id: str, out: Outbox, seat: int | None, detail: Detail = "plays") -> str | None:
        """Count the socket in, or say which cap it is over (then nothing is counted)."""
        sockets = self.sockets.get(match_id, set())
        caps = self.caps
        if sum(1 for _, s, _ in sockets if s == seat) >= caps.per_seat:
            return tr("this seat has {n} sockets open already (the limit); close one first", n=caps.per_seat)
        if len(sockets) >= caps.per_match:
            return tr("this match has {n} sockets open already (the limit)", n=caps.per_match)
        self.sockets.setdefault(match_id, set()).add((out, seat, detail))
        if self.tabs is not None and self._online_seat(match_id, seat):
            assert seat is not None
            self.tabs.opened((match_id, seat), out.tab, out.account)
        return None

    def leave(self, match_id: str, out: Outbox, seat: int | None, detail: Detail = "plays") -> bool:
        """Count the socket out; whether it was in (it leaves once, dropped or closed)."""
        sockets = self.sockets.get(match_id, set())
        was = (out, seat, detail) in sockets
        sockets.discard((out, seat, detail))
        if not sockets:
            self.sockets.pop(match_id, None)
        if was and self.tabs is not None and self._online_seat(match_id, seat):
            assert seat is not None
            self.tabs.closed((match_id, seat), out.tab, out.account)
        return was

    def _online_seat(self, match_id: str, seat: int | None) -> bool:
        live = self.live.get(match_id)
        return seat in (0, 1) and live is not None and live.record.mode == "online"

    def seat_open(self, match_id: str, seat: int | None) -> bool:
        return any(s == seat for _, s, _ in self.sockets.get(match_id, ()))

    def seat_elsewhere(self, match_id: str, seat: int | None, tab: str) -> list[Outbox]:
        """The sockets of ``seat`` from other browser tabs than ``tab``."""
        return [out for out, s, _ in self.sockets.get(match_id, ()) if s == seat and out.tab != tab]

    def seat_held_elsewhere(self, match_id: str, seat: int | None, tab: str, account: int | None) -> bool:
        """Whether another server process holds the seat open from another browser than ``tab``'s
        (signed in to ``account``)."""
        if self.tabs is None or seat is None:
            return False
        return self.tabs.elsewhere((match_id, seat), tab, account)

    def take_over(self, match_id: str, seat: int | None, tab: str, account: int | None) -> None:
        """Have the other server processes let go of the seat's sockets of other browsers."""
        if self.tabs is not None and seat is not None:
            self.tabs.take((match_id, seat), tab, account)

    @staticmethod
    def let_go(sockets: list[Outbox]) -> None:
        """Tell the sockets of a seat taken over by another browser, and close them."""
        for out in sockets:
            with use_language(out.lang):  # the reader's language of that browser, not the taker's
                out.send_json({"type": "error", "error": tr("this seat was taken over in another browser")})
            background(out.close(TAKEN_OVER, "taken over in another browser"))

    def _taken_over(self, match_id: str, seat: int, tab: str, account: int | None) -> None:
        """Another process took the seat over for the tab hashed ``tab`` (of ``account``)."""
        sockets = [
            out
            for out, s, _ in self.sockets.get(match_id, ())
            if s == seat and tab_hash(out.tab) != tab and (account is None or out.account != account)
        ]
        self.let_go(sockets)

    async def broadcast(self, live: LiveMatch, seats: Container[int | None] | None = None) -> None:
        """Push the current state to the sockets of the match (of ``seats`` only, if given)."""
        async with live.lock:
            messages = self._messages(live, seats)
        self._send(messages)

    async def greet(self, live: LiveMatch, out: Outbox, seat: int | None, detail: Detail) -> None:
        """Send a new socket its first state."""
        async with live.lock:
            await self._fresh(live)
            await self._reread_unheld_seat(live, seat)
            with use_language(out.lang):
                out.put(state_message(self._view(live, seat, detail)))

    @staticmethod
    async def _fresh(live: LiveMatch) -> None:
        """Replay a match whose memory may have run ahead of the store (a write and the reload after
        it failed) before it is shown or changed: never show an action that was not stored."""
        if live.stale:
            try:
                await asyncio.to_thread(live.reload)
            except Exception as e:
                raise StoreUnavailableError(tr("the database is unavailable; try again")) from e

    def _messages(
        self, live: LiveMatch, seats: Container[int | None] | None = None
    ) -> list[tuple[Outbox, str]]:
        # one view per seat, detail and language, however many sockets share it
        views: dict[tuple[int | None, Detail, str], str] = {}
        messages = []
        for out, s, detail in list(self.sockets.get(live.id, ())):
            if seats is not None and s not in seats:
                continue
            key = (s, detail, out.lang)
            if key not in views:
                with use_language(out.lang):
                    views[key] = state_message(self._view(live, s, detail))
            messages.append((out, views[key]))
        return messages

    @staticmethod
    def _send(messages: list[tuple[Outbox, str]]) -> None:
        for out, text in messages:
            out.put(text)  # never waits: a client that does not keep up is dropped (gammon.web.sockets)

    def _absence(self, live: LiveMatch, seat: int | None) -> Absence:
        """How long the opponent of ``seat`` has been away while the game waits on it, when the game
        may be claimed (away, or idle over its decision), and whether it ever came (online)."""
        if live.record.mode != "online" or seat is None:
            return PRESENT
        away = self.presence.away(live.id, 1 - seat)
        if live.acting_player() != 1 - seat:
            return Absence(None, None, away is not None)
        return Absence(away, self.presence.claim_in(live.id, 1 - seat, live.version), away is not None)

    def _idle(self, live: LiveMatch, seat: int | None) -> float | None:
        """Seconds the game has waited on the decision of ``seat``'s opponent (online), None while
        it does not wait on them."""
        if live.record.mode != "online" or seat not in (0, 1) or live.acting_player() != 1 - (seat or 0):
            return None
        return self.presence.deciding(live.id, live.version)

    async def _check_rated_seat(self, live: LiveMatch, seat: int | None) -> None:
        """A rated match is played between two accounts: a seat acts once an account holds it. (A
        guest free to claim its seat at any time claimed it only when about to win: only its wins
        were rated.)"""
        if not live.rated or seat not in (0, 1) or self.seat_accounts is None:
            return
        assert seat is not None
        if live.accounts[seat] is None:  # claimed since, maybe in another process: read again
            try:
                live.accounts = await asyncio.to_thread(self.seat_accounts, live.id)
            except Exception as e:
                raise StoreUnavailableError(tr("the database is unavailable; try again")) from e
        if live.accounts[seat] is None:
            raise NotAuthorizedError(
                tr("this match is rated: sign in and claim your seat for your account before you play")
            )

    async def _reread_unheld_seat(self, live: LiveMatch, seat: int | None) -> None:
        """A seat of a rated match that no account holds here is offered no action, so it could
        never act to have its account read again (``_check_rated_seat``): a claim made in another
        process is told to that process's sockets only. Read the accounts again before such a seat
        is shown (only such seats: the rest never pay for it). The database away, the view shows
        what is known (signing in again is offered), as before."""
        if (
            not live.rated
            or seat not in (0, 1)
            or self.seat_accounts is None
            or live.match.is_over
            or live.accounts[seat or 0] is not None
        ):
            return
        try:
            live.accounts = await asyncio.to_thread(self.seat_accounts, live.id)
        except Exception:
            log.warning("could not read the accounts of match %s's seats", live.id, exc_info=True)

    def _check_claim(self, live: LiveMatch, seat: int | None) -> None:
        if live.record.mode != "online" or seat is None:
            raise IllegalActionError(tr("only a player of an online game can claim it"))
        names = player_names(live)
        away = self._absence(live, seat)
        if away.claim_in is None:
            raise IllegalActionError(
                tr(
                    "cannot claim: the game is not waiting on {name}, or they are still connected",
                    name=names[1 - seat],
                )
            )
        if away.claim_in > 0 and not away.seconds:  # connected: idle over the decision
            raise IllegalActionError(
                tr(
                    "cannot claim yet: {name} is connected and has had this decision {seconds} s; wait "
                    "{wait} s more",
                    name=names[1 - seat],
                    seconds=f"{self._idle(live, seat) or 0:.0f}",
                    wait=f"{away.claim_in:.0f}",
                )
            )
        if away.claim_in > 0:
            raise IllegalActionError(
                tr(
                    "cannot claim yet: {name} has been away {seconds} s; wait {wait} s more",
                    name=names[1 - seat],
                    seconds=f"{away.seconds:.0f}",
                    wait=f"{away.claim_in:.0f}",
                )
            )

    def _view(self, live: LiveMatch, seat: int | None, detail: Detail = "plays") -> MatchView:
        if seat == SPECTATOR:
            return spectator_view(live)
        view = match_view(
            live, seat, self._absence(live, seat), steps=detail == "steps", plays=detail != "none"
        )
        view.opponent_idle = self._idle(live, seat)
        return view

    async def view(self, live: LiveMatch, seat: int | None, detail: Detail = "plays") -> MatchView:
        async with live.lock:
            await self._fresh(live)
            await self._reread_unheld_seat(live, seat)
            return self._view(live, seat, detail)


def state_message(view: MatchView) -> str:
    """The WebSocket message carrying ``view`` (pydantic's own serializer: no dict in between)."""
    return '{"type":"state","state":' + view.model_dump_json() + "}"


__all__ = ["Detail", "Hub", "state_message"]
