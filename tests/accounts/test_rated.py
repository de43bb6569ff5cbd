"""Rated matches: both players' ratings and experiences change in one transaction, a history row
each; the leaderboard (gammon.accounts.standings)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import event

from gammon.accounts import Accounts, RatingError
from gammon.accounts.games import RATED_KEY, UNRATED_KEY, claim_seats, delete_account
from gammon.accounts.rated import (
    RatedMatch,
    rate_match,
    rating_history,
    recover_ratings,
    unrated_matches,
)
from gammon.accounts.standings import leaderboard_page
from gammon.dice import RandomDice
from gammon.match import Match
from gammon.ratings import rating_change
from gammon.records import match_actions
from gammon.rules import Rules
from gammon.store import LogChange
from gammon.store.models import MatchRow
from gammon.store.repository import MatchSummary
from tests.accounts.conftest import Clock, at_once, finish_match, new_match


def _players(accounts: Accounts, *names: str) -> list[str]:
    tokens = []
    for name in names:
        accounts.sign_up(name, "password1")
        tokens.append(accounts.sign_in(name, "password1").token)
    return tokens


def _match(
    accounts: Accounts,
    match_id: str,
    seat0: str,
    seat1: str,
    length: int = 5,
    winner: int | None = 0,
    mode: str = "online",
) -> None:
    tokens = new_match(accounts.store, match_id, length=length, mode=mode)
    claim_seats(accounts, seat0, [tokens[0]])
    claim_seats(accounts, seat1, [tokens[1]])
    if winner is not None:
        finish_match(accounts.store, match_id, winner, length)


def test_a_rated_match_changes_both_ratings_and_experiences(accounts: Accounts) -> None:
    alice, bob = _players(accounts, "Alice", "Bob")
    _match(accounts, "m1", alice, bob, length=5, winner=1)
    rated = rate_match(accounts, "m1")
    expected = rating_change(1500, 1500, 5, 0, 0)
    assert rated.winner.account_id == accounts.signed_in(bob).id
    assert rated.winner.rating_after == pytest.approx(1500 + expected.winner_change)  # K 5 for both
    assert rated.loser.rating_after == pytest.approx(1500 + expected.loser_change)
    a, b = accounts.signed_in(alice), accounts.signed_in(bob)
    assert (a.rating, a.experience) == (pytest.approx(1500 - 5 * 4 * 5**0.5 / 2), 5)
    assert (b.rating, b.experience) == (pytest.approx(1500 + 5 * 4 * 5**0.5 / 2), 5)
    history = rating_history(accounts, a.id)
    assert [(h.match_id, h.opponent, h.match_length, h.won, h.rating_before) for h in history] == [
        ("m1", "Bob", 5, False, 1500)
    ]
    assert history[0].rating_after == pytest.approx(a.rating)
    with pytest.raises(RatingError, match="rated already"):
        rate_match(accounts, "m1")
    assert accounts.signed_in(alice).rating == pytest.approx(a.rating)  # unchanged by the refusal


def test_ratings_follow_from_one_match_to_the_next(accounts: Accounts) -> None:
    alice, bob = _players(accounts, "Alice", "Bob")
    _match(accounts, "m1", alice, bob, length=3, winner=0)
    _match(accounts, "m2", bob, alice, length=7, winner=0)
    first, second = rate_match(accounts, "m1"), rate_match(accounts, "m2")
    after_first = rating_change(1500, 1500, 3, 0, 0)
    change = rating_change(1500 + after_first.loser_change, 1500 + after_first.winner_change, 7, 3, 3)
    assert second.winner.rating_before == pytest.approx(first.loser.rating_after)
    assert second.winner.rating_after - second.winner.rating_before == pytest.approx(change.winner_change)
    assert (second.winner.experience_after, second.loser.experience_after) == (10, 10)


def test_matches_that_are_not_rated(accounts: Accounts) -> None:
    alice, bob = _players(accounts, "Alice", "Bob")
    _match(accounts, "going", alice, bob, winner=None)
    _match(accounts, "local", alice, bob, mode="local")
    _match(accounts, "money", alice, bob, length=0, winner=None)
    new_match(accounts.store, "guest")
    finish_match(accounts.store, "guest", 0)
    for match_id, why in [
        ("going", "not over"),
        ("local", "not an online match"),
        ("money", "money play"),
        ("guest", "not between two accounts"),
        ("nothing", "no match"),
    ]:
        with pytest.raises(RatingError, match=why):
            rate_match(accounts, match_id)
    assert accounts.signed_in(alice).experience == 0


def test_the_leaderboard_of_all_and_of_the_active(accounts: Accounts, clock: Clock) -> None:
    alice, bob, carol, _ = _players(accounts, "alice", "Bob", "carol", "Dave")
    _match(accounts, "m1", alice, bob, winner=0)
    rate_match(accounts, "m1")
    clock.advance(timedelta(days=25))  # within the sessions' lifetime
    _match(accounts, "m2", carol, bob, winner=0)
    rate_match(accounts, "m2")
    board = leaderboard_page(accounts)
    assert [(s.rank, s.name) for s in board] == [(1, "alice"), (2, "carol"), (3, "Dave"), (4, "Bob")]
    assert board[0].rating > 1500 and board[2].rating == 1500 and board[0].experience == 5
    assert [s.name for s in leaderboard_page(accounts, active_days=20)] == ["carol", "Bob"]
    assert [s.name for s in leaderboard_page(accounts, limit=2)] == ["alice", "carol"]


def test_two_matches_of_one_player_rated_at_once_both_count(accounts: Accounts) -> None:
    """Two of alice's matches end at once, each rated in its own thread: the second rating starts
    from the first one's result. (On SQLite both transactions read alice's rating before either
    wrote, and the later write took back the earlier one's change: alice ended at 1522.4 with 5
    experience, one match's worth, instead of 1543.9 with 10.)"""
    alice, bob, carol = _players(accounts, "alice", "bob", "carol")
    _match(accounts, "m1", alice, bob, winner=0)
    _match(accounts, "m2", alice, carol, winner=0)
    results = at_once(
        accounts.store,
        lambda statement: statement.lstrip().startswith("SELECT accounts.") and "IN (" in statement,
        lambda: rate_match(accounts, "m1"),
        lambda: rate_match(accounts, "m2"),
    )
    assert [type(r) for r in results] == [RatedMatch, RatedMatch]
    first = rating_change(1500, 1500, 5, 0, 0)
    second = rating_change(1500 + first.winner_change, 1500, 5, 5, 0)
    a = accounts.signed_in(alice)
    assert (a.rating, a.experience) == (pytest.approx(1500 + first.winner_change + second.winner_change), 10)
    assert [h.rating_before for h in rating_history(accounts, a.id)] == [
        1500,
        pytest.approx(a.rating - second.winner_change),
    ]


def test_a_player_deleting_the_account_while_the_match_is_rated(accounts: Accounts) -> None:
    """bob deletes his account after the rating read the seats, before it read the accounts: the
    match is not rated (or rated first, then his account goes), never a KeyError out of the
    rating (PostgreSQL: the accounts read FOR UPDATE no longer held bob's)."""
    alice, bob = _players(accounts, "alice", "bob")
    _match(accounts, "m1", alice, bob, winner=0)
    seats_read, erased = threading.Event(), threading.Event()
    rating_thread: list[threading.Thread] = []

    def hold_after_the_seats(conn: object, cursor: object, statement: str, *rest: object) -> None:
        if threading.current_thread() in rating_thread and "FROM match_seat_accounts" in statement:
            seats_read.set()
            erased.wait(timeout=1)  # SQLite: the deletion waits for this rating instead

    outcome: list[object] = []

    def rate() -> None:
        try:
            outcome.append(rate_match(accounts, "m1"))
        except Exception as e:  # looked at below
            outcome.append(e)

    event.listen(accounts.store.engine, "after_cursor_execute", hold_after_the_seats)
    try:
        rating_thread.append(threading.Thread(target=rate))
        rating_thread[0].start()
        assert seats_read.wait(timeout=10)
        delete_account(accounts, bob, "password1")
        erased.set()
        rating_thread[0].join()
    finally:
        event.remove(accounts.store.engine, "after_cursor_execute", hold_after_the_seats)
    [result] = outcome
    assert isinstance(result, RatedMatch) or (
        isinstance(result, RatingError) and "not between two accounts" in str(result)
    ), repr(result)
    assert accounts.by_name("bob") is None


def _made_rated(accounts: Accounts, match_id: str) -> None:
    with accounts.sessions.begin() as s:
        row = s.get(MatchRow, match_id)
        assert row is not None
        row.rules = {**row.rules, RATED_KEY: True}


def test_two_processes_recovering_at_once_rate_a_match_once(accounts: Accounts) -> None:
    """A finished rated match without a rating (its write failed) is found by the recovery of two
    server processes at once, both after the list of matches owed a rating: it is rated once."""
    alice, bob = _players(accounts, "alice", "bob")
    _match(accounts, "m1", alice, bob, winner=0)
    _made_rated(accounts, "m1")
    _match(accounts, "friendly", alice, bob, winner=1)  # not made to be rated: never rated
    assert unrated_matches(accounts) == ["m1"]
    results = at_once(
        accounts.store,
        # each has read the matches owed a rating before either rates
        lambda sql: sql.lstrip().startswith("SELECT matches.id") and "rating_changes" in sql,
        lambda: recover_ratings(accounts),
        lambda: recover_ratings(accounts),
    )
    assert sorted(len(r) for r in results) == [0, 1]  # type: ignore[arg-type]
    a = accounts.signed_in(alice)
    expected = rating_change(1500, 1500, 5, 0, 0)
    assert (a.rating, a.experience) == (pytest.approx(1500 + expected.winner_change), 5)
    assert len(rating_history(accounts, a.id)) == 1
    assert unrated_matches(accounts) == [] and recover_ratings(accounts) == []
    with accounts.sessions() as s:
        m1 = s.get(MatchRow, "m1")
        assert m1 is not None and UNRATED_KEY not in m1.rules  # rated, not marked unratable


def test_a_match_that_cannot_be_rated_is_marked_and_not_tried_again(accounts: Accounts) -> None:
    alice, bob = _players(accounts, "alice", "bob")
    _match(accounts, "m1", alice, bob, length=5, winner=0)
    _made_rated(accounts, "m1")
    with accounts.sessions.begin() as s:  # a summary that says over without a winner
        row = s.get(MatchRow, "m1")
        assert row is not None
        row.score0 = row.score1 = 0
    assert unrated_matches(accounts) == ["m1"]
    assert recover_ratings(accounts) == [] and unrated_matches(accounts) == []
    with accounts.sessions() as s:
        m1 = s.get(MatchRow, "m1")
        assert m1 is not None and "no winner" in m1.rules[UNRATED_KEY]


def test_a_guest_seat_claimed_after_its_opponent_abandoned_is_not_owed_a_rating(accounts: Accounts) -> None:
    """A rated match whose account at seat 0 abandoned at once, the guest at seat 1 never acting,
    then claiming its seat once it had won (a match ended before the end marked guests' matches
    unrated): the guest's seat never acted with an account, so the recovery leaves it alone."""
    alice, bob = _players(accounts, "alice", "bob")
    tokens = new_match(accounts.store, "gift", length=1)
    _made_rated(accounts, "gift")
    claim_seats(accounts, alice, [tokens[0]])
    match = Match(Rules(match_length=1), RandomDice(3))
    match.game.roll()  # the opening roll, made by the server
    match.game.abandon(0)
    assert match.is_over
    actions = match_actions(match)
    summary = MatchSummary("over", match.game.position_for(0).id, match.score)
    change = LogChange(base=0, version=len(actions), first=0, actions=actions, summary=summary)
    accounts.store.append("gift", change)
    claim_seats(accounts, bob, [tokens[1]])  # after the end
    assert unrated_matches(accounts) == [] and recover_ratings(accounts) == []
    assert accounts.signed_in(bob).rating == 1500
