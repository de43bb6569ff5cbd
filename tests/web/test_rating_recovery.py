"""Rated matches whose rating was not written as they ended (the database away, the server killed
between the last action and the rating) are rated later, once: at the server's start and every
few minutes (gammon.web.members, gammon.accounts.rated.recover_ratings)."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import sessionmaker

from gammon.accounts.games import RATED_KEY, UNRATED_KEY, claim_seats
from gammon.store import Store
from gammon.store.models import AnalysisJobRow, MatchRow, RatingChangeRow
from gammon.web import create_app
from gammon.web.members import AccountSettings, Members
from gammon.web.settings import ServerSettings
from tests.accounts.conftest import finish_match
from tests.accounts.conftest import new_match as stored_match
from tests.web.conftest import auth, seeded_dice
from tests.web.test_accounts_web import _play_online, api_token, bearer, settings, sign_up


def _changes(store: Store, match_id: str) -> list[RatingChangeRow]:
    with sessionmaker(store.engine)() as s:
        return list(s.scalars(select(RatingChangeRow).where(RatingChangeRow.match_id == match_id)))


def _app(store: Store, worker: bool = False) -> TestClient:
    # worker: the analysis queue and the rating recovery run in threads (the analyses in this process)
    accounts = AccountSettings(plies=0, worker=worker, process=False, passwords=settings().passwords)
    return TestClient(
        create_app(store, seeded_dice(3), settings=ServerSettings(rate=1000, burst=1000, accounts=accounts))
    )


def test_a_rated_match_whose_rating_write_failed_is_rated_at_the_next_start(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def database_away(*args: object) -> None:
        raise ConnectionError("the database went away")

    with _app(store) as web:
        sign_up(web, "alice")
        sign_up(web, "bob")
        web.cookies.clear()
        alice, bob = api_token(web, "alice"), api_token(web, "bob")
        r = web.post("/api/matches", json={"mode": "online", "match_length": 1, "rated": True},
                     headers=bearer(alice))
        m = r.json()
        tokens = (m["token"], m["invite_url"].split("#token=")[1])
        web.post("/api/account/claim", json={"seat_tokens": [tokens[1]]}, headers=bearer(bob))
        monkeypatch.setattr("gammon.web.members.rate_match", database_away)
        sessions = (bearer(alice), bearer(bob))
        final = _play_online(web, m, tokens, random.Random(4), sessions)  # the last action is stored: 200
        monkeypatch.undo()
        assert final["match_over"] and _changes(store, m["match_id"]) == []  # not rated
    # the next start rates it (its recovery thread's first look, finished by the time it stops)
    with _app(store, worker=True) as web:
        pass
    changes = _changes(store, m["match_id"])
    winner = final["match_winner"]
    assert sorted((c.won, c.rating_before) for c in changes) == [(False, 1500), (True, 1500)]
    with sessionmaker(store.engine)() as s:  # and each seat's analysis is queued, once
        jobs = s.scalars(select(AnalysisJobRow).where(AnalysisJobRow.match_id == m["match_id"])).all()
        assert sorted(j.seat for j in jobs) == [0, 1]
    with _app(store) as web:
        board = web.get("/api/leaderboard").json()
        assert [e["name"] for e in board] == [["alice", "bob"][winner], ["alice", "bob"][1 - winner]]
        state = web.get(f"/api/matches/{m['match_id']}", headers=auth(tokens[0])).json()
        assert state["accounts"][winner]["rating"] > 1500
    assert Members(store, settings()).recover_ratings() == 0  # rated once
    assert len(_changes(store, m["match_id"])) == 2


def _rated(store: Store, match_id: str) -> None:
    with sessionmaker(store.engine).begin() as s:
        row = s.get(MatchRow, match_id)
        assert row is not None
        rules = {**row.rules, RATED_KEY: True}
        s.execute(update(MatchRow).where(MatchRow.id == match_id).values(rules=rules))


def test_a_guest_seat_claimed_after_the_end_is_not_rated_by_the_recovery(store: Store) -> None:
    members = Members(store, settings())
    members.accounts.sign_up("alice", "password1")
    members.accounts.sign_up("bobby", "password1")
    alice = members.accounts.sign_in("alice", "password1").token
    bob = members.accounts.sign_in("bobby", "password1").token
    tokens = stored_match(store, "late", length=1)
    _rated(store, "late")
    claim_seats(members.accounts, alice, [tokens[0]])
    finish_match(store, "late", winner=1, length=1)  # the guest at seat 1 won
    with sessionmaker(store.engine)() as s:
        rules = s.get(MatchRow, "late").rules  # type: ignore[union-attr]
    members.match_over("late", rules)  # not rated: seat 1 had no account at the end
    claim_seats(members.accounts, bob, [tokens[1]])  # claimed only once it had won
    assert members.recover_ratings() == 0 and _changes(store, "late") == []
    with sessionmaker(store.engine)() as s:
        assert UNRATED_KEY in s.get(MatchRow, "late").rules  # type: ignore[union-attr]
    # a match between two accounts whose rating was never written is rated, once
    tokens = stored_match(store, "owed", length=1)
    _rated(store, "owed")
    claim_seats(members.accounts, alice, [tokens[0]])
    claim_seats(members.accounts, bob, [tokens[1]])
    finish_match(store, "owed", winner=1, length=1)
    assert members.recover_ratings() == 1 and members.recover_ratings() == 0
    assert len(_changes(store, "owed")) == 2
