"""The server's side of players' accounts: the accounts service and the analysis queue of this
process, what happens when a match with accounts at its seats ends (a rated match is rated, each
account's seat is queued for its profile), the queue's worker thread, and the thread that rates
the matches whose rating failed as they ended (at the start, then every ``recover_every`` seconds).

The worker (:meth:`AnalysisQueue.serve`) runs in one thread of each server process, started and
stopped with the app; it claims jobs with a guarded UPDATE, so several processes share the queue,
and has each analysis run in a worker process of its own (niced below the server, like the engine
pool's, and ending with the server): run in the server process, the analyses held its interpreter
lock for seconds at a time and the players' actions waited (the club load benchmark's p99).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from sqlalchemy import select

from gammon.accounts import Accounts, RatingError, SignInThrottle
from gammon.accounts.games import RATED_KEY, claim_seats, seat_holders
from gammon.accounts.passwords import Passwords
from gammon.accounts.rated import mark_unrated, rate_match, recover_ratings
from gammon.accounts.throttle import SignUpLimit
from gammon.engine.engine import DEFAULT_PLIES
from gammon.errors import GammonError, NotAuthorizedError
from gammon.i18n import tr
from gammon.profile.drill import Drills
from gammon.profile.queue import AnalysisQueue, run_claimed
from gammon.store import Store
from gammon.store.models import AccountRow
from gammon.web.engine_pool import WORKER_NICENESS
from gammon.web.hub import Hub
from gammon.web.lifeline import Lifeline, die_with_server
from gammon.web.schemas import PlayerAccount
from gammon.web.session import LiveMatch

log = logging.getLogger(__name__)

SeatAccounts = tuple[PlayerAccount | None, PlayerAccount | None]


@dataclass
class AccountSettings:
    """``plies``: the depth of the profile's analyses; ``worker``: run the analysis queue in a
    thread of this process (tests run it by hand); ``idle``: seconds between looks at an empty
    queue; ``throttle``: the failed sign-ins allowed; ``passwords``: the hasher (tests give a cheap one)."""

    plies: int = DEFAULT_PLIES
    worker: bool = True
    # The analyses in a process of their own (False: in the worker thread, as tests may want).
    process: bool = True
    # A job queued in this process wakes the worker at once; the look every few seconds finds those
    # queued by another process (docs/profile.md: it costs the server nothing measurable).
    idle: float = 5.0
    throttle: SignInThrottle = field(default_factory=SignInThrottle)
    signups: SignUpLimit = field(default_factory=SignUpLimit)  # accounts made from one address
    passwords: Passwords | None = None  # the hasher (tests give a cheap Argon2id)
    # Seconds between looks for finished rated matches left unrated (a rating write that failed):
    # a retry within minutes once the database is back (each look is one query).
    recover_every: float = 300.0


class Members:
    """The accounts, the analysis queue and the drills over ``store``."""

    def __init__(self, store: Store, settings: AccountSettings | None = None) -> None:
        self.settings = settings or AccountSettings()
        self.store = store
        self.accounts = Accounts(
            store,
            passwords=self.settings.passwords,
            throttle=self.settings.throttle,
            signups=self.settings.signups,
        )
        self.queue = AnalysisQueue(store)
        self.drills = Drills(store)
        # accounts whose export is being built here: one at a time each, as an account's export
        # rebuilds every match it holds (thousands of matches cost seconds of a core)
        self.exporting: set[int] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._recovery: threading.Thread | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._lifeline: Lifeline | None = None

    def attach(self, hub: Hub) -> None:
        """Be told by ``hub`` when a match ends, and give it the accounts at a match's seats."""

        async def ended(live: LiveMatch) -> None:
            live.accounts = await asyncio.to_thread(self.match_over, live.id, dict(live.record.rules))

        hub.ended = ended
        hub.seat_accounts = self.seat_accounts

    def start(self) -> None:
        """Start the analysis worker (it recovers what a stopped server left running first)."""
        if not self.settings.worker or self._thread is not None:
            return
        self._stop.clear()
        run = self._run_in_process if self.settings.process else None
        self._thread = threading.Thread(
            target=self.queue.serve,
            args=(self._stop, self.settings.idle),
            kwargs={"run": run},
            name="analysis-queue",
            daemon=True,
        )
        self._thread.start()
        self._recovery = threading.Thread(target=self._recover, name="rating-recovery", daemon=True)
        self._recovery.start()

    def _recover(self) -> None:
        """(The recovery thread) rate what is owed, now and every ``recover_every`` seconds."""
        while True:
            self.recover_ratings()
            if self._stop.wait(self.settings.recover_every):
                return

    def recover_ratings(self) -> int:
        """Rate the finished rated matches left without a rating (their write failed, or the server
        died first); how many. A database error is logged: the next look tries again."""
        try:
            rated = recover_ratings(self.accounts)
        except Exception:
            log.exception("recovering the ratings of finished matches")
            return 0
        for match in rated:
            log.warning("match %s rated late: its rating was not written as it ended", match.match_id)
            try:  # the processes showing it (this one too) show the new ratings
                self.store.notify_seats([match.match_id], echo=True)
            except Exception:
                log.exception("telling the other processes of match %s's rating", match.match_id)
            # nor were its analyses queued (they come after the rating); this process alone rated it
            try:
                for seat, account_id in sorted(seat_holders(self.accounts, match.match_id).items()):
                    if account_id is not None:
                        self.queue.add_match(match.match_id, account_id, seat, plies=self.settings.plies)
            except Exception:
                log.exception("queueing the analyses of match %s", match.match_id)
        return len(rated)

    def _run_in_process(self, job_id: int) -> object:
        """Run the claimed job in the analysis process (started with the first job)."""
        if self._pool is None:
            self._lifeline = Lifeline()
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("forkserver"),
                initializer=die_with_server,
                initargs=(self._lifeline.reader, os.nice, WORKER_NICENESS),
            )
        try:
            return self._pool.submit(run_claimed, self.store.url, job_id).result()
        except BrokenProcessPool:  # the process died (killed, or the server is stopping)
            self._pool = None  # a new one for the next job
            if not self._stop.is_set():  # killed under the job: it is claimed again now
                self.queue.release(job_id, self.queue.claimant)
            return None  # stopping: the job is queued again at the next start

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the worker at its next look at the queue. An analysis under way in the analysis
        process is cut short at once (the next start's recover queues it again), so that a server
        stops in moments however long the analysis; one run in this process's thread is finished
        first, up to ``timeout`` seconds."""
        self._stop.set()
        self.queue.wake()
        if self._lifeline is not None:  # the analysis process ends with it, and its job's
            self._lifeline.close()  # future with BrokenProcessPool, which frees the thread
            self._lifeline = None
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._recovery is not None:
            self._recovery.join(timeout)
            self._recovery = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def seat_accounts(self, match_id: str) -> SeatAccounts:
        """The accounts at the match's seats, with their ratings (None: a guest's seat)."""
        holders = seat_holders(self.accounts, match_id)
        seats: list[PlayerAccount | None] = [None, None]
        with self.accounts.sessions() as s:
            for seat, account_id in holders.items():
                row = s.get(AccountRow, account_id) if account_id is not None else None
                if row is not None and seat in (0, 1):
                    seats[seat] = PlayerAccount(name=row.name, rating=row.rating)
        return seats[0], seats[1]

    def seat_owner(self, session: str, match_id: str, seat: int) -> int | None:
        """The account signed in with ``session`` if it holds the match's ``seat``, else None."""
        account = self.accounts.account_of(session)
        if account is None:
            return None
        return account.id if seat_holders(self.accounts, match_id).get(seat) == account.id else None

    def check_rated_actor(self, session: str | None, match_id: str, seat: int) -> None:
        """A seat of a rated match that an account holds acts for that account only
        (NotAuthorizedError for a request without its session): a seat token is no proof of who
        plays, as the maker of a rated match was given both seats' tokens and kept the opponent's.
        A seat no account holds is left to the hub, which refuses it in a rated match."""
        holder = seat_holders(self.accounts, match_id).get(seat)
        if holder is None:
            return
        account = None if session is None else self.accounts.account_of(session)
        if account is None or account.id != holder:
            with self.accounts.sessions() as s:
                name = s.scalar(select(AccountRow.name).where(AccountRow.id == holder)) or "?"
            raise NotAuthorizedError(
                tr("this seat of a rated match is {name}'s: act signed in to that account", name=name)
            )

    def claim(self, session: str, seat_tokens: list[str]) -> tuple[list[str], int]:
        """Claim each seat token apart for the session's account (one refused does not stop the
        others): the matches claimed and how many tokens were refused."""
        claimed, refused = [], 0
        for seat_token in dict.fromkeys(seat_tokens):
            try:
                claimed += [c.match_id for c in claim_seats(self.accounts, session, [seat_token])]
            except GammonError:
                refused += 1
        return claimed, refused

    def match_over(self, match_id: str, rules: dict[str, object]) -> SeatAccounts:
        """A match just ended: rate it if it was made rated and two accounts hold its seats (once:
        a match rated already is left alone), queue its analysis for each account's seat; the
        seats' accounts after it."""
        holders = seat_holders(self.accounts, match_id)
        if rules.get(RATED_KEY) and all(holders.get(seat) is not None for seat in (0, 1)):
            try:
                rate_match(self.accounts, match_id)
            except RatingError as e:
                log.info("match %s not rated: %s", match_id, e)
        elif rules.get(RATED_KEY):
            # Final: a guest's seat claimed after the end must not have the recovery rate its win.
            mark_unrated(self.accounts, match_id, "a seat had no account at the end")
        for seat, account_id in sorted(holders.items()):
            if account_id is not None:
                self.queue.add_match(match_id, account_id, seat, plies=self.settings.plies)
        return self.seat_accounts(match_id)


__all__ = ["AccountSettings", "Members", "SeatAccounts"]
