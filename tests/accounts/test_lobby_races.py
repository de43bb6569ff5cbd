"""The lobby's records when requests come at once, or name ids no invitation has: each rule holds."""

from __future__ import annotations

import contextlib
import dataclasses
import threading

import pytest
from sqlalchemy import event

from gammon.accounts import Accounts
from gammon.accounts.games import NAMES_KEY, erase_account, seat_holders
from gammon.accounts.lobby import MAX_OPEN_PER_ACCOUNT, Claimed, Invitations, LobbyError, Terms
from gammon.errors import UnknownMatchError
from gammon.store import MatchRecord
from gammon.store.repository import hash_token
from tests.accounts.conftest import at_once


def _account(accounts: Accounts, name: str) -> int:
    return accounts.sign_up(name, "password1").id


def test_posts_at_once_stay_within_the_limit_of_open_invitations(accounts: Accounts) -> None:
    """alice has two invitations open and posts two more at once: one is taken and one refused,
    as one by one. (Each post counted two open before either had added its own: she had four.)"""
    lobby = Invitations(accounts)
    alice = _account(accounts, "alice")
    for _ in range(MAX_OPEN_PER_ACCOUNT - 1):
        lobby.post(alice, Terms())
    results = at_once(
        accounts.store,
        lambda statement: "count(*)" in statement and "lobby_invitations.poster_id" in statement,
        lambda: lobby.post(alice, Terms()),
        lambda: lobby.post(alice, Terms()),
    )
    assert sorted(type(r).__name__ for r in results) == ["LobbyError", "str"], results
    assert len(lobby.invitations()) == MAX_OPEN_PER_ACCOUNT


def test_the_posters_seat_is_taken_once_also_by_two_requests_at_once(accounts: Accounts) -> None:
    """Two of the poster's browsers take its seat at once: one has the seat token, the other is
    refused. (Both read the accepted invitation before either deleted it: both had the token.)"""
    lobby = Invitations(accounts)
    alice, bob = _account(accounts, "alice"), _account(accounts, "bob")
    invitation = lobby.post(alice, Terms(match_length=3))
    claimed: Claimed = lobby.claim(invitation, bob)
    lobby.started(claimed, _record("m1"), "the poster's seat token")
    results = at_once(
        accounts.store,
        lambda statement: statement.lstrip().startswith("SELECT lobby_invitations."),
        lambda: lobby.take_seat(invitation, alice),
        lambda: lobby.take_seat(invitation, alice),
    )
    assert ("m1", "the poster's seat token") in results
    assert len([r for r in results if isinstance(r, LobbyError)]) == 1, results
    with pytest.raises(LobbyError):
        lobby.take_seat(invitation, alice)


def test_an_invitation_id_holding_nul_is_no_invitation(accounts: Accounts) -> None:
    """An id from a client's URL (/api/lobby/invitations/a%00b/accept): PostgreSQL refuses text
    holding NUL, and cancel, decline, accept and seat raised DataError (a 500) where an unknown id
    is a LobbyError (409)."""
    lobby = Invitations(accounts)
    alice = _account(accounts, "alice")
    with pytest.raises(LobbyError, match="no open invitation"):
        lobby.withdraw("a\x00b", alice)
    with pytest.raises(LobbyError, match="not open to you"):
        lobby.claim("a\x00b", alice)
    with pytest.raises(LobbyError, match="no accepted invitation"):
        lobby.take_seat("a\x00b", alice)


@pytest.mark.parametrize("leaver", ["poster", "acceptor"])
def test_an_account_deleted_while_its_invitations_match_is_made(accounts: Accounts, leaver: str) -> None:
    """The poster (or the acceptor) deletes the account between the accept's claim and the match's
    seats being bound: the invitation went with the account, and binding a seat to it raised
    IntegrityError (a 500 to the acceptor) where the invitation is no longer there to accept. The
    match is not stored either (it was, before its seats were bound: a match of no accounts)."""
    lobby = Invitations(accounts)
    alice, bob = _account(accounts, "alice"), _account(accounts, "bob")
    invitation = lobby.post(alice, Terms(match_length=3))
    claimed = lobby.claim(invitation, bob)
    erase_account(accounts, alice if leaver == "poster" else bob)
    with pytest.raises(LobbyError, match="not open to you"):
        lobby.started(claimed, _record("m1"), "the poster's seat token")
    assert seat_holders(accounts, "m1") == {}
    assert lobby.invitations() == []
    with pytest.raises(UnknownMatchError):
        accounts.store.load_match("m1")


def test_a_started_invitations_match_is_stored_with_its_seats_bound(accounts: Accounts) -> None:
    lobby = Invitations(accounts)
    alice, bob = _account(accounts, "alice"), _account(accounts, "bob")
    invitation = lobby.post(alice, Terms(match_length=3))
    lobby.started(lobby.claim(invitation, bob), _record("m1"), "the poster's seat token")
    assert accounts.store.load_match("m1").rules == {"match_length": 3}
    assert seat_holders(accounts, "m1") == {0: alice, 1: bob}
    assert lobby.take_seat(invitation, alice) == ("m1", "the poster's seat token")


def _record(match_id: str) -> MatchRecord:
    return MatchRecord(
        id=match_id, mode="online", rules={"match_length": 3}, seat_hashes=(hash_token("a"), hash_token("b"))
    )


def test_an_account_deleted_while_its_invitations_match_is_stored_leaves_its_name_in_none(
    accounts: Accounts,
) -> None:
    """alice deletes her account while the match of her accepted invitation is being stored: the
    deletion read her matches before that one was committed, then waited for the invitation's row;
    the match kept her name (PostgreSQL; SQLite runs the two one after the other)."""
    lobby = Invitations(accounts)
    alice, bob = _account(accounts, "alice"), _account(accounts, "bob")
    claimed = lobby.claim(lobby.post(alice, Terms(match_length=3)), bob)
    record = dataclasses.replace(_record("m1"), rules={"match_length": 3, NAMES_KEY: ["alice", "bob"]})
    locked, read = threading.Event(), threading.Event()

    def meanwhile(conn: object, cursor: object, statement: str, *rest: object) -> None:
        # the match's start waits, with the invitation locked, until the deletion read the seats
        if threading.current_thread().name == "start" and statement.lstrip().startswith(
            "SELECT lobby_invitations"
        ):
            locked.set()
            read.wait(timeout=2)  # SQLite: the deletion waits for the start's transaction
        elif threading.current_thread().name == "erase" and "match_seat_accounts" in statement:
            read.set()

    def start() -> None:
        with contextlib.suppress(LobbyError):  # the deletion first: no match, as tested above
            lobby.started(claimed, record, "the poster's seat token")

    event.listen(accounts.store.engine, "after_cursor_execute", meanwhile)
    try:
        starting = threading.Thread(target=start, name="start")
        starting.start()
        assert locked.wait(timeout=30)
        erasing = threading.Thread(target=erase_account, args=(accounts, alice), name="erase")
        erasing.start()
        starting.join()
        erasing.join()
    finally:
        event.remove(accounts.store.engine, "after_cursor_execute", meanwhile)
    assert seat_holders(accounts, "m1") == {0: None, 1: bob}
    assert accounts.store.load_match("m1").rules[NAMES_KEY] == [None, "bob"]
    assert lobby.invitations() == []
