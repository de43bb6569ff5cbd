"""Claiming the seats a guest played, and deleting an account (its games stay, anonymous)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gammon.accounts import Accounts, ClaimError, NotSignedInError, SignInError
from gammon.accounts.games import ANONYMOUS, ClaimedSeat, claim_seats, delete_account, seat_holders
from gammon.accounts.rated import rate_match, rating_history
from gammon.profile import AnalysisQueue
from gammon.profile.summary import profile_summary
from gammon.store.models import AccountRow, AccountSessionRow, ProfileMatchRow, RatingChangeRow
from tests.accounts.conftest import at_once, finish_match, new_match, reset_while_checked


def _signed_in(accounts: Accounts, name: str) -> str:
    accounts.sign_up(name, "password1")
    return accounts.sign_in(name, "password1").token


def test_a_guest_claims_the_seats_it_played(accounts: Accounts) -> None:
    alice = _signed_in(accounts, "Alice")
    m1 = new_match(accounts.store, "m1")
    m2 = new_match(accounts.store, "m2")
    claimed = claim_seats(accounts, alice, [m1[0], m2[1]])
    assert claimed == [ClaimedSeat("m1", 0), ClaimedSeat("m2", 1)]
    assert claim_seats(accounts, alice, [m1[0]]) == [ClaimedSeat("m1", 0)]  # again: no harm
    account_id = accounts.signed_in(alice).id
    assert seat_holders(accounts, "m1") == {0: account_id}
    assert seat_holders(accounts, "m2") == {1: account_id}


def test_what_cannot_be_claimed(accounts: Accounts) -> None:
    alice, bob = _signed_in(accounts, "Alice"), _signed_in(accounts, "Bob")
    m1 = new_match(accounts.store, "m1")
    claim_seats(accounts, alice, [m1[0]])
    with pytest.raises(ClaimError, match="another player"):
        claim_seats(accounts, bob, [m1[0]])
    with pytest.raises(ClaimError, match="other seat"):
        claim_seats(accounts, alice, [m1[1]])
    with pytest.raises(ClaimError, match="no match"):
        claim_seats(accounts, bob, ["no such token"])
    with pytest.raises(NotSignedInError):
        claim_seats(accounts, "no session", [m1[1]])
    # all or none: the good seat of a claim with a bad one is not claimed
    m2 = new_match(accounts.store, "m2")
    with pytest.raises(ClaimError):
        claim_seats(accounts, bob, [m2[0], "no such token"])
    assert seat_holders(accounts, "m2") == {}


def test_deleting_an_account_takes_its_personal_data_and_keeps_its_games(accounts: Accounts) -> None:
    alice, bob = _signed_in(accounts, "Alice"), _signed_in(accounts, "Bob")
    bob_id = accounts.signed_in(bob).id
    tokens = new_match(accounts.store, "m1", length=3)
    claim_seats(accounts, alice, [tokens[0]])
    claim_seats(accounts, bob, [tokens[1]])
    finish_match(accounts.store, "m1", winner=0, length=3)
    named = new_match(accounts.store, "m2", names=["Alice Smith", "Bob"])  # the names given as guests
    claim_seats(accounts, alice, [named[0]])
    rate_match(accounts, "m1")
    with pytest.raises(SignInError):
        delete_account(accounts, alice, "wrong password")
    delete_account(accounts, alice, "password1")
    assert accounts.by_name("Alice") is None and accounts.account_of(alice) is None
    with pytest.raises(SignInError):
        accounts.sign_in("Alice", "password1")
    with accounts.sessions() as s:
        assert list(s.scalars(select(AccountRow.name))) == ["Bob"]
        assert {r.account_id for r in s.scalars(select(AccountSessionRow))} == {bob_id}
        assert {r.account_id for r in s.scalars(select(RatingChangeRow))} == {bob_id}
    # the match stays, the seat anonymous; Bob's history keeps the match, without the opponent's name
    assert accounts.store.summary("m1").status == "over"
    assert seat_holders(accounts, "m1") == {0: None, 1: bob_id}
    assert [(h.match_id, h.opponent, h.won) for h in rating_history(accounts, bob_id)] == [
        ("m1", None, False)
    ]
    assert accounts.store.load_match("m2").rules["names"] == [None, "Bob"]
    # the name is free again
    accounts.sign_up("alice", "password2")


def test_a_deleted_accounts_name_leaves_its_opponents_profiles(accounts: Accounts) -> None:
    """bob's name went with his account from the match's names and seats, but alice's analysis of
    their match still named him: her profile's matches and opponents showed 'bob' afterwards."""
    alice, bob = _signed_in(accounts, "alice"), _signed_in(accounts, "bob")
    seats = new_match(accounts.store, "m1", length=3, names=["alice", "bob"])
    claim_seats(accounts, alice, [seats[0]])
    claim_seats(accounts, bob, [seats[1]])
    finish_match(accounts.store, "m1", 0, 3)
    queue = AnalysisQueue(accounts.store)
    alice_id, bob_id = accounts.signed_in(alice).id, accounts.signed_in(bob).id
    queue.add_match("m1", alice_id, 0, plies=0)
    queue.add_match("m1", bob_id, 1, plies=0)
    assert [o.status for o in queue.work_all()] == ["done", "done"]
    assert [o.name for o in profile_summary(accounts.store, alice_id).opponents] == ["bob"]
    delete_account(accounts, bob, "password1")
    summary = profile_summary(accounts.store, alice_id)
    assert [m.opponent for m in summary.matches] == [ANONYMOUS]
    assert [o.name for o in summary.opponents] == [ANONYMOUS]
    with accounts.sessions() as s:
        rows = s.execute(select(ProfileMatchRow.account_id, ProfileMatchRow.player_name)).all()
    assert rows == [(alice_id, "alice")]  # bob's own analysis went with him


def _seats_read(statement: str) -> bool:
    return statement.lstrip().startswith("SELECT") and "FROM match_seat_accounts" in statement


def test_two_accounts_claiming_one_seat_at_once(accounts: Accounts) -> None:
    """One claim takes the seat, the other is refused as for a seat held. (Both saw the seat free,
    and the second's insert failed the table's key: an IntegrityError, a 500 on the web.)"""
    alice, bob = _signed_in(accounts, "alice"), _signed_in(accounts, "bob")
    seats = new_match(accounts.store, "m1")
    results = at_once(
        accounts.store,
        _seats_read,
        lambda: claim_seats(accounts, alice, [seats[0]]),
        lambda: claim_seats(accounts, bob, [seats[0]]),
    )
    claimed = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if isinstance(r, ClaimError)]
    assert (claimed, len(refused)) == ([[ClaimedSeat("m1", 0)]], 1), results
    assert "belongs to another player" in str(refused[0])
    assert len(set(seat_holders(accounts, "m1").values())) == 1


def test_one_account_claiming_both_seats_at_once(accounts: Accounts) -> None:
    """Claimed in two requests at once, the two seats of one match are still not one account's:
    the second is refused. (Each claim saw the other seat free, and alice held both.)"""
    alice = _signed_in(accounts, "alice")
    seats = new_match(accounts.store, "m1")
    results = at_once(
        accounts.store,
        _seats_read,
        lambda: claim_seats(accounts, alice, [seats[0]]),
        lambda: claim_seats(accounts, alice, [seats[1]]),
    )
    assert len([r for r in results if isinstance(r, ClaimError)]) == 1, results
    assert len(seat_holders(accounts, "m1")) == 1


def test_both_players_deleting_their_accounts_at_once(accounts: Accounts) -> None:
    """Both names go from the match's stored names. (Each deletion read the names, took its own
    out and wrote the pair back: the later write put the other's name back, ['alice', None].)"""
    alice, bob = _signed_in(accounts, "alice"), _signed_in(accounts, "bob")
    seats = new_match(accounts.store, "m1", length=3, names=["alice", "bob"])
    claim_seats(accounts, alice, [seats[0]])
    claim_seats(accounts, bob, [seats[1]])
    results = at_once(
        accounts.store,
        lambda statement: statement.lstrip().startswith("SELECT matches."),
        lambda: delete_account(accounts, alice, "password1"),
        lambda: delete_account(accounts, bob, "password1"),
    )
    assert results == [["m1"], ["m1"]]  # each the matches it held
    assert accounts.store.load_match("m1").rules["names"] == [None, None]
    assert seat_holders(accounts, "m1") == {0: None, 1: None}


def test_an_operators_reset_made_while_the_account_is_deleted_stands(accounts: Accounts) -> None:
    """The operator resets alice's password (her account was taken over) while a deletion, given
    her old password, is being checked: the reset ended the session, and the account stays. (It
    was deleted all the same.)"""
    alice = _signed_in(accounts, "alice")
    reset_while_checked(accounts, "alice", "operator's password")
    with pytest.raises(NotSignedInError):
        delete_account(accounts, alice, "password1")
    assert accounts.by_name("alice") is not None
    accounts.sign_in("alice", "operator's password")
