"""Accounts fixtures: a store on SQLite and on PostgreSQL (the storage tests' ``store_url``), a
cheap Argon2id hasher, and clocks the tests move by hand."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import event

from gammon.accounts import Accounts, SignInThrottle
from gammon.accounts.passwords import Passwords
from gammon.dice import RandomDice
from gammon.match import Match
from gammon.records import match_actions
from gammon.rules import Rules, WinKind
from gammon.store import LogChange, MatchRecord, Store
from gammon.store.repository import MatchSummary, hash_token
from tests.store.conftest import pg_url, store, store_url  # noqa: F401  (the storage tests' fixtures)

# Argon2id still, at the least cost: the tests hash hundreds of passwords.
CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


class Clock:
    """A clock that moves only when told: ``now`` a UTC datetime, ``seconds`` for the throttle."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        self.seconds = 1000.0

    def __call__(self) -> datetime:
        return self.now

    def monotonic(self) -> float:
        return self.seconds

    def advance(self, delta: timedelta) -> None:
        self.now += delta
        self.seconds += delta.total_seconds()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def accounts(store: Store, clock: Clock) -> Iterator[Accounts]:  # noqa: F811
    yield Accounts(
        store,
        passwords=Passwords(CHEAP),
        clock=clock,
        throttle=SignInThrottle(per_name=5, per_address=20, window=900.0, clock=clock.monotonic),
    )


def reset_while_checked(accounts: Accounts, name: str, new_password: str) -> None:
    """The next password check of ``accounts`` (one of ``name``'s, by the test) has an operator
    reset ``name``'s password to ``new_password`` while it runs: after the stored hash was read,
    before the check's outcome is acted on."""
    verify = accounts.passwords.verify

    def reset_meanwhile(stored_hash: str, password: str) -> bool:
        accounts.passwords.verify = verify  # type: ignore[method-assign]
        ok = verify(stored_hash, password)
        accounts.reset_password(name, new_password)
        return ok

    accounts.passwords.verify = reset_meanwhile  # type: ignore[method-assign]


def new_match(
    db: Store,
    match_id: str,
    *,
    mode: str = "online",
    length: int = 5,
    names: list[str | None] | None = None,
) -> tuple[str, str]:
    """Store a match; its two seat tokens."""
    tokens = (f"{match_id}-seat0-token", f"{match_id}-seat1-token")
    rules: dict[str, object] = {"match_length": length}
    if names is not None:
        rules["names"] = names
    db.create_match(
        MatchRecord(
            id=match_id,
            mode=mode,
            rules=rules,
            seat_hashes=(hash_token(tokens[0]), hash_token(tokens[1])),
            level="engine" if mode == "computer" else None,
            created_at=Clock().now,
        )
    )
    return tokens


def finish_match(db: Store, match_id: str, winner: int, length: int = 5) -> None:
    """Play out the stored match ``match_id``: ``winner`` wins every game, its opponent resigning
    a single game, until the match is over; store its actions and its summary."""
    match = Match(Rules(match_length=length), RandomDice(3))
    while True:
        game = match.game
        game.roll()
        if game.turn == winner:
            game.play(game.legal_plays()[0])
        game.resign(WinKind.SINGLE, 1 - winner)
        game.accept_resignation()
        if match.is_over:
            break
        match.new_game()
    actions = match_actions(match)
    db.append(
        match_id,
        LogChange(
            base=0,
            version=len(actions),
            first=0,
            actions=actions,
            summary=MatchSummary("over", game.position_for(0).id, match.score),
        ),
    )


def at_once(db: Store, read: Callable[[str], bool], *calls: Callable[[], object]) -> list[object]:
    """Run ``calls`` in threads of their own, as two requests at once would: each, once it has
    executed a statement that ``read`` picks, waits until the others have executed one too (or a
    second has passed: one that cannot read while another is under way goes on alone). What each
    returned, or the exception it raised."""
    together = threading.Barrier(len(calls))

    def wait_for_the_others(conn: object, cursor: object, statement: str, *rest: object) -> None:
        if read(statement):
            try:
                together.wait(timeout=1)
            except threading.BrokenBarrierError:
                pass

    results: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            results[i] = calls[i]()
        except Exception as e:  # the caller looks at it
            results[i] = e

    event.listen(db.engine, "after_cursor_execute", wait_for_the_others)
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        event.remove(db.engine, "after_cursor_execute", wait_for_the_others)
    return results
